package reports_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/reports"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/spectest"
)

// TestFixturesAreTheCatalogues: the models the package's tests render
// (fixture_test.go) are the catalogue's specs dijkstra and kl-naive, at
// the parameters the tests use: from every configuration of the full
// space, the same steps, with the same labels, in the same order, to the
// same configurations; the same initial configurations, and the same
// verdict of each invariant and of legitimacy. Names differ only where
// the files spell '-' as '_'.
func TestFixturesAreTheCatalogues(t *testing.T) {
	for _, tc := range []struct {
		spec    string
		values  specs.Values
		fixture func() (*model.System, error)
	}{
		{"dijkstra", specs.Values{"n": 3, "K": 3}, func() (*model.System, error) { return reports.DijkstraFixture(3, 3) }},
		{"dijkstra", specs.Values{"n": 4, "K": 2}, func() (*model.System, error) { return reports.DijkstraFixture(4, 2) }},
		{"dijkstra", specs.Values{"n": 4, "K": 3}, func() (*model.System, error) { return reports.DijkstraFixture(4, 3) }},
		{"kl-naive", specs.Values{"n": 3, "L": 3, "K": 2, "Cmax": 0}, func() (*model.System, error) { return reports.KLNaiveFixture(3, 3, 2, 0) }},
	} {
		fix, err := tc.fixture()
		if err != nil {
			t.Fatal(err)
		}
		sameModel(t, tc.spec+" "+tc.values.String(), fix, spectest.Build(t, tc.spec, tc.values))
	}
}

// sameModel fails t unless fix and cat, of the same layout, are the same
// model over every configuration.
func sameModel(t *testing.T, name string, fix, cat *model.System) {
	t.Helper()
	size, ok := fix.Configurations()
	if other, ok2 := cat.Configurations(); !ok || !ok2 || size != other {
		t.Fatalf("%s: %d configurations (%v), the catalogue's %d (%v)", name, size, ok, other, ok2)
	}
	if len(fix.Invariants) != len(cat.Invariants) {
		t.Fatalf("%s: %d invariants, the catalogue's %d", name, len(fix.Invariants), len(cat.Invariants))
	}
	for i, inv := range fix.Invariants {
		if same := strings.ReplaceAll(inv.Name, "-", "_"); same != cat.Invariants[i].Name {
			t.Fatalf("%s: invariant %s, the catalogue's %s", name, inv.Name, cat.Invariants[i].Name)
		}
	}
	finit, cinit := fix.Initial(), cat.Initial()
	if len(finit) != len(cinit) {
		t.Fatalf("%s: %d initial configurations, the catalogue's %d", name, len(finit), len(cinit))
	}
	for i := range finit {
		if fix.Rank(finit[i]) != cat.Rank(cinit[i]) {
			t.Fatalf("%s: initial configuration %d differs", name, i)
		}
	}
	fexp, cexp := fix.NewExpander(), cat.NewExpander()
	fst, cst := fix.NewState(), cat.NewState()
	for r := range size {
		if err := fix.Unrank(r, fst); err != nil {
			t.Fatal(err)
		}
		if err := cat.Unrank(r, cst); err != nil {
			t.Fatal(err)
		}
		for i, inv := range fix.Invariants {
			if inv.Holds(fst) != cat.Invariants[i].Holds(cst) {
				t.Fatalf("%s: configuration %d: invariant %s differs", name, r, inv.Name)
			}
		}
		if (fix.Legitimate == nil) != (cat.Legitimate == nil) ||
			fix.Legitimate != nil && fix.Legitimate.Holds(fst) != cat.Legitimate.Holds(cst) {
			t.Fatalf("%s: configuration %d: legitimacy differs", name, r)
		}
		fsteps, err := steps(fix, fexp, fst)
		if err != nil {
			t.Fatal(err)
		}
		csteps, err := steps(cat, cexp, cst)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(fsteps, " ") != strings.Join(csteps, " ") {
			t.Fatalf("%s: configuration %d: steps %v, the catalogue's %v", name, r, fsteps, csteps)
		}
	}
}

// steps returns the steps of sys from st, in Expand's order, each as its
// label (its '-' spelled '_') and the rank of the configuration it leads
// to.
func steps(sys *model.System, exp *model.Expander, st *model.State) ([]string, error) {
	var out []string
	_, err := exp.Expand(st, func(step *model.Step, next *model.State) bool {
		out = append(out, strings.ReplaceAll(sys.Label(step), "-", "_")+"→"+strconv.FormatUint(sys.Rank(next), 10))
		return true
	})
	return out, err
}
