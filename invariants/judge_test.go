package invariants_test

import (
	"testing"

	"github.com/ringcheck/ringcheck/invariants"
)

// TestFindingsMerge keeps, for each kind, the least id and, for one id,
// the least detail, whatever the order the parts come in; and decides a
// property once some part found it.
func TestFindingsMerge(t *testing.T) {
	parts := []invariants.Findings{
		{Invariant: invariants.Finding{Found: true, ID: 9, Detail: 0}},
		{Invariant: invariants.Finding{Found: true, ID: 4, Detail: 2}, Deadlock: invariants.Finding{Found: true, ID: 7}},
		{Invariant: invariants.Finding{Found: true, ID: 4, Detail: 1}, Overflow: invariants.Finding{Found: true, ID: 12}},
		{},
	}
	want := invariants.Findings{
		Invariant: invariants.Finding{Found: true, ID: 4, Detail: 1},
		Overflow:  invariants.Finding{Found: true, ID: 12},
		Deadlock:  invariants.Finding{Found: true, ID: 7},
	}
	for _, order := range [][]int{{0, 1, 2, 3}, {3, 2, 1, 0}, {2, 0, 3, 1}} {
		var got invariants.Findings
		for _, i := range order {
			got.Merge(parts[i])
		}
		if got != want {
			t.Errorf("order %v: %+v, want %+v", order, got, want)
		}
	}
	safety := []invariants.Property{invariants.Safety}
	both := []invariants.Property{invariants.Safety, invariants.Deadlock}
	for _, c := range []struct {
		f     invariants.Findings
		props []invariants.Property
		want  bool
	}{
		{invariants.Findings{}, safety, false},
		{invariants.Findings{Overflow: invariants.Finding{Found: true}}, safety, true},
		{parts[0], both, false},
		{want, both, true},
	} {
		if got := c.f.Decided(c.props); got != c.want {
			t.Errorf("%+v decides %v: %v, want %v", c.f, c.props, got, c.want)
		}
	}
}
