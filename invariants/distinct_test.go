package invariants_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
)

// TestStabilityCountsDistinctPairs: the analysis of every configuration
// (closure and convergence from all) counts the steps and, apart, the
// distinct pairs of a configuration and a successor, as a brute-force
// count does. Each process of the ring has x in 0..2; reset (x > 0) and
// clear (x = 2) both set x to 0, bump (x < 2) increments it; L is every
// x at 0.
func TestStabilityCountsDistinctPairs(t *testing.T) {
	for _, d := range []model.Daemon{model.Central, model.Synchronous, model.Distributed} {
		b := model.NewBuilder("resetters", model.UniRing, 3)
		x := b.Var("x", model.IntRange(0, 2))
		b.Action(model.Action{Name: "reset", Guard: func(c *model.Ctx) bool { return c.Get(x) > 0 }, Effect: func(c *model.Ctx, _ int) { c.Set(x, 0) }})
		b.Action(model.Action{Name: "clear", Guard: func(c *model.Ctx) bool { return c.Get(x) == 2 }, Effect: func(c *model.Ctx, _ int) { c.Set(x, 0) }})
		b.Action(model.Action{Name: "bump", Guard: func(c *model.Ctx) bool { return c.Get(x) < 2 }, Effect: func(c *model.Ctx, _ int) { c.Set(x, c.Get(x)+1) }})
		b.Legitimate(model.Predicate{Name: "zero", Holds: func(s *model.State) bool {
			return s.Get(0, x) == 0 && s.Get(1, x) == 0 && s.Get(2, x) == 0
		}})
		b.Initial(func(*model.System, *model.State) {})
		b.Daemon(d)
		sys, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		var steps, distinct int64
		size, _ := sys.Configurations()
		st, packed := sys.NewState(), make([]uint64, sys.Words())
		for r := range size {
			if err := sys.Unrank(r, st); err != nil {
				t.Fatal(err)
			}
			seen := map[string]bool{}
			n, err := sys.NewExpander().Expand(st, func(_ *model.Step, next *model.State) bool {
				sys.Pack(next, packed)
				seen[fmt.Sprint(packed)] = true
				return true
			})
			if err != nil {
				t.Fatal(err)
			}
			steps, distinct = steps+int64(n), distinct+int64(len(seen))
		}
		for _, workers := range []int{1, 2} {
			rep, err := invariants.Check(context.Background(), sys, invariants.Options{
				Properties: []invariants.Property{invariants.Closure, invariants.Convergence},
				From:       invariants.FromAll,
				Search:     explore.Options{Workers: workers},
			})
			if err != nil {
				t.Fatal(err)
			}
			if res := rep.Search; res.Transitions != steps || res.DistinctTransitions != distinct || steps == distinct {
				t.Errorf("%v workers=%d: %d transitions, %d distinct; want %d, %d (and fewer distinct)", d, workers, res.Transitions, res.DistinctTransitions, steps, distinct)
			}
			if rep.Legitimate == nil || *rep.Legitimate != 1 {
				t.Errorf("%v workers=%d: legitimate configurations %v, want 1", d, workers, rep.Legitimate)
			}
		}
	}
}
