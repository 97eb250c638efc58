package explore_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/model"
)

// resetters is a ring of n processes, each with x in 0..2 (initially 2),
// under daemon d: reset (x > 0) and clear (x = 2) both set x to 0, so
// where x = 2 two steps lead to the same successor; bump (x < 2)
// increments x. Every configuration is reachable from the initial one.
func resetters(t *testing.T, n int, d model.Daemon) *model.System {
	t.Helper()
	b := model.NewBuilder("resetters", model.UniRing, n)
	x := b.Var("x", model.IntRange(0, 2))
	b.Action(model.Action{Name: "reset", Guard: func(c *model.Ctx) bool { return c.Get(x) > 0 }, Effect: func(c *model.Ctx, _ int) { c.Set(x, 0) }})
	b.Action(model.Action{Name: "clear", Guard: func(c *model.Ctx) bool { return c.Get(x) == 2 }, Effect: func(c *model.Ctx, _ int) { c.Set(x, 0) }})
	b.Action(model.Action{Name: "bump", Guard: func(c *model.Ctx) bool { return c.Get(x) < 2 }, Effect: func(c *model.Ctx, _ int) { c.Set(x, c.Get(x)+1) }})
	b.Initial(func(sys *model.System, s *model.State) {
		for p := range n {
			s.Set(p, x, 2)
		}
	})
	b.Daemon(d)
	sys, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// pairs counts, by brute force over every configuration, the steps and
// the distinct pairs of a configuration and a successor.
func pairs(t *testing.T, sys *model.System) (steps, distinct int64) {
	t.Helper()
	size, ok := sys.Configurations()
	if !ok {
		t.Fatal("no configuration count")
	}
	ex := sys.NewExpander()
	st := sys.NewState()
	packed := make([]uint64, sys.Words())
	for r := range size {
		if err := sys.Unrank(r, st); err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		n, err := ex.Expand(st, func(_ *model.Step, next *model.State) bool {
			sys.Pack(next, packed)
			seen[fmt.Sprint(packed)] = true
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
		steps += int64(n)
		distinct += int64(len(seen))
	}
	return steps, distinct
}

// TestDistinctTransitions: the search from init counts the steps and,
// apart, the distinct pairs of a state and a successor, as a brute-force
// count over every configuration does; the sweep of every configuration
// counts the same steps and says it did not count the pairs (-1),
// under the central daemon and the synchronous and distributed ones
// (where different sets of moves can also lead to the same successor).
func TestDistinctTransitions(t *testing.T) {
	for _, d := range []model.Daemon{model.Central, model.Synchronous, model.Distributed} {
		for _, n := range []int{2, 3} {
			sys := resetters(t, n, d)
			steps, distinct := pairs(t, sys)
			if steps == distinct {
				t.Fatalf("%v n=%d: every step leads to a successor of its own (%d)", d, n, steps)
			}
			for _, workers := range []int{1, 2} {
				opts := explore.Options{Workers: workers}
				bfs, err := explore.BFS(context.Background(), sys, &recorder{depth: map[[2]int]int{}, succ: map[[2]int]int{}}, opts)
				if err != nil {
					t.Fatal(err)
				}
				sweep, err := explore.Sweep(context.Background(), sys, &recorder{depth: map[[2]int]int{}, succ: map[[2]int]int{}}, opts)
				if err != nil {
					t.Fatal(err)
				}
				for name, res := range map[string]*explore.Result{"BFS": bfs, "Sweep": sweep} {
					want := distinct
					if name == "Sweep" {
						want = -1
					}
					if res.Transitions != steps || res.DistinctTransitions != want {
						t.Errorf("%v n=%d workers=%d %s: %d transitions, %d distinct; want %d, %d", d, n, workers, name, res.Transitions, res.DistinctTransitions, steps, want)
					}
				}
			}
		}
	}
}

// TestCountDistinct counts the distinct values of small slices.
func TestCountDistinct(t *testing.T) {
	for _, tc := range []struct {
		keys []uint64
		want int
	}{
		{nil, 0}, {[]uint64{7}, 1}, {[]uint64{3, 3}, 1}, {[]uint64{5, 1, 5, 2, 1}, 3},
		// More than a few: sorted first.
		{[]uint64{9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0}, 10},
	} {
		if got := explore.CountDistinct(tc.keys); got != tc.want {
			t.Errorf("%v: %d distinct, want %d", tc.keys, got, tc.want)
		}
	}
}
