package invariants_test

import (
	"context"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/spectest"
)

// bruteWorstMoves is the most moves an execution from st makes before it
// reaches L, trying every step from every configuration on the way (no
// memory of what was computed: small instances only, whose executions
// outside L all end).
func bruteWorstMoves(t *testing.T, sys *model.System, st *model.State, depth int) int {
	t.Helper()
	if sys.Legitimate.Holds(st) {
		return 0
	}
	if depth > 64 {
		t.Fatal("an execution of more than 64 steps outside L")
	}
	type succ struct {
		next  *model.State
		moves int
	}
	var succs []succ
	if _, err := sys.NewExpander().Expand(st, func(step *model.Step, next *model.State) bool {
		succs = append(succs, succ{next.Clone(), len(step.Moves)})
		return true
	}); err != nil {
		t.Fatal(err)
	}
	worst := 0
	for _, s := range succs {
		worst = max(worst, s.moves+bruteWorstMoves(t, sys, s.next, depth+1))
	}
	return worst
}

// TestWorstCaseInMoves: the worst case in moves (a longest execution to L,
// each step weighing the processes that move in it) is the worst case in
// steps under the central daemon, and under the synchronous and
// distributed daemons what trying every execution from every
// configuration finds; on these instances it exceeds the steps.
func TestWorstCaseInMoves(t *testing.T) {
	for _, tc := range []struct {
		daemon model.Daemon
		n, k   int
	}{
		{model.Central, 3, 3},
		{model.Synchronous, 3, 3},
		{model.Synchronous, 4, 5},
		{model.Distributed, 3, 3},
		{model.Distributed, 3, 4},
	} {
		sys, err := spectest.Build(t, "dijkstra", specs.Values{"n": tc.n, "K": tc.k}).WithDaemon(tc.daemon)
		if err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{1, 2} {
			rep, err := invariants.Check(context.Background(), sys, invariants.Options{
				Properties: []invariants.Property{invariants.Convergence},
				From:       invariants.FromAll,
				Search:     explore.Options{Workers: workers},
			})
			if err != nil {
				t.Fatal(err)
			}
			st := rep.Stabilization
			if st == nil || !st.MovesComputed {
				t.Fatalf("%v n=%d K=%d: no worst case in moves (%+v)", tc.daemon, tc.n, tc.k, rep.Outcomes)
			}
			want := 0
			size, _ := sys.Configurations()
			c := sys.NewState()
			for r := range size {
				if err := sys.Unrank(r, c); err != nil {
					t.Fatal(err)
				}
				want = max(want, bruteWorstMoves(t, sys, c, 0))
			}
			if st.WorstMoves != want {
				t.Errorf("%v n=%d K=%d workers=%d: worst case %d moves, want %d", tc.daemon, tc.n, tc.k, workers, st.WorstMoves, want)
			}
			if central := tc.daemon == model.Central; central != (st.WorstMoves == st.WorstSteps) {
				t.Errorf("%v n=%d K=%d: %d steps, %d moves", tc.daemon, tc.n, tc.k, st.WorstSteps, st.WorstMoves)
			}
		}
	}
}
