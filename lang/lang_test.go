package lang_test

import (
	"context"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/lang"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/dijkstra"
)

type nop struct{}

func (nop) Observe(*explore.Visit) {}
func (nop) Decided() bool          { return false }

func TestDijkstraTwin(t *testing.T) {
	spec, _, err := lang.Load("../specs/ring/dijkstra.ring")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []specs.Values{{"n": 3, "K": 3}, {"n": 5, "K": 4}} {
		a, err := spec.Build(v)
		if err != nil {
			t.Fatal(err)
		}
		b, err := dijkstra.Build(v)
		if err != nil {
			t.Fatal(err)
		}
		ra, _ := explore.Sweep(context.Background(), a, nop{}, explore.Options{})
		rb, _ := explore.Sweep(context.Background(), b, nop{}, explore.Options{})
		t.Logf("%v: %d/%d vs %d/%d", v, ra.States, ra.Transitions, rb.States, rb.Transitions)
	}
}
