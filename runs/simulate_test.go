package runs_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/ringcheck/ringcheck/internal/testsys"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/runs"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/spectest"
)

// invariantsOf is the check the CLI passes: the first invariant of sys
// that s violates.
func invariantsOf(sys *model.System) func(*model.State) string {
	return func(s *model.State) string {
		for _, inv := range sys.Invariants {
			if !inv.Holds(s) {
				return inv.Name
			}
		}
		return ""
	}
}

func dijkstraSys(t *testing.T, n, k int) *model.System {
	t.Helper()
	return spectest.Build(t, "dijkstra", specs.Values{"n": n, "K": k})
}

// replay checks that a recorded path is an execution of sys.
func replay(t *testing.T, sys *model.System, v *runs.SimViolation) {
	t.Helper()
	if len(v.States) != len(v.Steps)+1 {
		t.Fatalf("path of %d states and %d steps", len(v.States), len(v.Steps))
	}
	exp, next := sys.NewExpander(), sys.NewState()
	for i := range v.Steps {
		if err := exp.Apply(v.States[i], &v.Steps[i], next); err != nil {
			t.Fatalf("step %d: %v", i+1, err)
		}
		if !next.Equal(v.States[i+1]) {
			t.Fatalf("step %d does not lead to the recorded state", i+1)
		}
	}
}

// labels is the path's steps as text, to compare paths.
func labels(sys *model.System, v *runs.SimViolation) []string {
	out := make([]string, len(v.Steps))
	for i := range v.Steps {
		out[i] = sys.Label(&v.Steps[i])
	}
	return out
}

func TestSimulateReproducible(t *testing.T) {
	const size = 12
	sys, a, _ := testsys.Grid(t, size)
	// A "violation" when a reaches its maximum: the path to it interleaves
	// the two actions at random.
	check := func(s *model.State) string {
		if s.Get(0, a) == size-1 {
			return "a-max"
		}
		return ""
	}
	sim := func(seed uint64) *runs.SimResult {
		res, err := runs.Simulate(context.Background(), sys, runs.SimOptions{Steps: 100, Runs: 5, Seed: seed}, check, nil)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	r1, r1again, r2 := sim(1), sim(1), sim(2)
	if !reflect.DeepEqual(r1, r1again) {
		t.Fatal("the same seed gave different results")
	}
	if r1.Violations != 5 || r1.First == nil || r1.First.Name != "a-max" || r1.First.Run != 0 {
		t.Fatalf("want every run to reach a-max, got %+v", r1)
	}
	replay(t, sys, r1.First)
	replay(t, sys, r2.First)
	if reflect.DeepEqual(labels(sys, r1.First), labels(sys, r2.First)) {
		t.Fatal("seeds 1 and 2 took the same path")
	}
}

func TestSimulateDeadlock(t *testing.T) {
	const size = 4
	sys, a, b := testsys.Grid(t, size)
	res, err := runs.Simulate(context.Background(), sys, runs.SimOptions{Steps: 100, Runs: 3, Seed: 7}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Deadlocks != 3 || res.Violations != 0 || res.Steps != 3*2*(size-1) {
		t.Fatalf("want 3 deadlocks after %d steps each, got %+v", 2*(size-1), res)
	}
	v := res.First
	if v == nil || !v.Deadlock || v.Name != "deadlock" || len(v.Steps) != 2*(size-1) {
		t.Fatalf("first violation %+v", v)
	}
	last := v.States[len(v.States)-1]
	if last.Get(0, a) != size-1 || last.Get(0, b) != size-1 {
		t.Fatal("the deadlock is not the corner of the grid")
	}
	replay(t, sys, v)

	// Fewer steps than the deadlock needs: none.
	res, err = runs.Simulate(context.Background(), sys, runs.SimOptions{Steps: 5, Runs: 3, Seed: 7}, nil, nil)
	if err != nil || res.Deadlocks != 0 || res.First != nil || res.Steps != 15 {
		t.Fatalf("5 steps: %+v, %v", res, err)
	}
}

func TestSimulateValidEnd(t *testing.T) {
	b := model.NewBuilder("count", model.UniRing, 1)
	x := b.Var("x", model.IntRange(0, 3))
	b.Action(model.Action{
		Name:   "inc",
		Guard:  func(c *model.Ctx) bool { return c.Get(x) < 3 },
		Effect: func(c *model.Ctx, _ int) { c.Set(x, c.Get(x)+1) },
	})
	b.ValidEnd(model.Predicate{Name: "done", Holds: func(s *model.State) bool { return s.Get(0, x) == 3 }})
	b.Initial(func(*model.System, *model.State) {})
	sys, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	res, err := runs.Simulate(context.Background(), sys, runs.SimOptions{Steps: 10, Runs: 2, Seed: 1}, nil, nil)
	if err != nil || res.Deadlocks != 0 || res.First != nil || res.Steps != 6 {
		t.Fatalf("%+v, %v", res, err)
	}
}

// After a transient fault, Dijkstra's ring (n=5, K=5, central daemon)
// is legitimate again within its worst case of 24 steps, whatever the
// schedule: with 200 steps left after the fault every run gets there, and
// none violates the invariant once there (closure).
func TestSimulateFaultDijkstra(t *testing.T) {
	sys := dijkstraSys(t, 5, 5)
	const count, faultAt = 200, 10
	res, err := runs.Simulate(context.Background(), sys,
		runs.SimOptions{Steps: faultAt + 200, Runs: count, Seed: 3, FaultAt: faultAt},
		invariantsOf(sys), sys.Legitimate.Holds)
	if err != nil {
		t.Fatal(err)
	}
	if res.Violations != 0 || res.Deadlocks != 0 || res.First != nil {
		t.Fatalf("violation: %+v", res.First)
	}
	faulted, reached, lo, hi, mean := res.Recovery()
	if faulted != count || reached != count {
		t.Fatalf("%d runs faulted, %d recovered, want %d", faulted, reached, count)
	}
	if lo < 0 || hi > 24 || mean <= 0 {
		t.Fatalf("steps to L: min %d max %d mean %g, want within 0..24", lo, hi, mean)
	}
	for _, r := range res.Runs {
		if r.Steps != faultAt+200 {
			t.Fatalf("a run took %d steps", r.Steps)
		}
	}
}

// From every configuration, the one_privilege invariant is false in most:
// runs violate it, most at once.
func TestSimulateFromAll(t *testing.T) {
	sys := dijkstraSys(t, 5, 5)
	res, err := runs.Simulate(context.Background(), sys,
		runs.SimOptions{Steps: 50, Runs: 20, Seed: 1, FromAll: true}, invariantsOf(sys), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Violations == 0 || res.First == nil || res.First.Name != "one_privilege" {
		t.Fatalf("%+v", res)
	}
	if res.First.Deadlock || res.First.AfterFault {
		t.Fatalf("%+v", res.First)
	}
	last := res.First.States[len(res.First.States)-1]
	if sys.Invariants[0].Holds(last) {
		t.Fatal("the path does not end in a violation")
	}
	replay(t, sys, res.First)

	// A space too large to rank (64^32 configurations) still has random
	// configurations: runs from it and faults into it work.
	big := dijkstraSys(t, 32, 64)
	for _, opts := range []runs.SimOptions{{Steps: 5, Runs: 3, FromAll: true}, {Steps: 5, Runs: 3, FaultAt: 2}} {
		res, err := runs.Simulate(context.Background(), big, opts, nil, nil)
		if err != nil || len(res.Runs) != 3 {
			t.Fatalf("%+v: %v, %+v", opts, err, res)
		}
	}
}

func TestSimulateCancelled(t *testing.T) {
	sys := dijkstraSys(t, 5, 5)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := runs.Simulate(ctx, sys, runs.SimOptions{Steps: 10, Runs: 5, Seed: 1}, nil, nil)
	if err != nil || !res.Stopped || len(res.Runs) != 0 {
		t.Fatalf("%+v, %v", res, err)
	}
}

// TestSimulateRefusesTooManyRuns: a count of runs whose outcomes the
// result could not hold is an error, at once, not a heap exhausted by
// the room made for them (ringcheck simulate --runs 1000000000000 died
// so); the largest count allowed makes room for a few outcomes only.
func TestSimulateRefusesTooManyRuns(t *testing.T) {
	sys := dijkstraSys(t, 5, 5)
	for _, n := range []int{runs.MaxSimRuns + 1, 1_000_000_000_000} {
		res, err := runs.Simulate(context.Background(), sys, runs.SimOptions{Steps: 1, Runs: n, Seed: 1}, nil, nil)
		if err == nil || res != nil {
			t.Fatalf("%d runs: %v, %v; want an error", n, res, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := runs.Simulate(ctx, sys, runs.SimOptions{Steps: 1, Runs: runs.MaxSimRuns, Seed: 1}, nil, nil)
	if err != nil || !res.Stopped || cap(res.Runs) > 1<<10 {
		t.Fatalf("%d runs: room for %d outcomes, %v", runs.MaxSimRuns, cap(res.Runs), err)
	}
}

func TestSimulateAllocations(t *testing.T) {
	sys := dijkstraSys(t, 5, 5)
	opts := runs.SimOptions{Steps: 1000, Runs: 1, Seed: 1}
	allocs := testing.AllocsPerRun(5, func() {
		if _, err := runs.Simulate(context.Background(), sys, opts, nil, nil); err != nil {
			t.Fatal(err)
		}
	})
	// Setup only: the expander, a few states, the result; nothing per step.
	if allocs > 100 {
		t.Fatalf("%v allocations for 1000 steps", allocs)
	}
}

// TestSimulatedRoundsWithinWorstCase checks the rounds a simulated
// recovery counts against the exhaustive analysis: Dijkstra's ring with
// n=5, K=5 stabilizes in at most 7 rounds and 24 steps (pinned by the
// stabilization tests), so no run may take more; a run takes no more rounds
// than steps, and at least one if it takes a step; over many runs some take
// several rounds.
func TestSimulatedRoundsWithinWorstCase(t *testing.T) {
	sys := dijkstraSys(t, 5, 5)
	res, err := runs.Simulate(context.Background(), sys,
		runs.SimOptions{Steps: 200, Runs: 2000, Seed: 5, FaultAt: 10}, invariantsOf(sys), sys.Legitimate.Holds)
	if err != nil {
		t.Fatal(err)
	}
	most := 0
	for i, run := range res.Runs {
		if run.StepsToLegit < 0 || run.RoundsToLegit < 0 {
			t.Fatalf("run %d did not recover: %+v", i, run)
		}
		if run.RoundsToLegit > 7 || run.StepsToLegit > 24 {
			t.Fatalf("run %d: %d rounds, %d steps, beyond the worst case of 7 and 24", i, run.RoundsToLegit, run.StepsToLegit)
		}
		if run.RoundsToLegit > run.StepsToLegit || (run.StepsToLegit > 0) != (run.RoundsToLegit > 0) {
			t.Fatalf("run %d: %d rounds for %d steps", i, run.RoundsToLegit, run.StepsToLegit)
		}
		most = max(most, run.RoundsToLegit)
	}
	lo, hi, mean := res.RecoveryRounds()
	if hi != most || lo > hi || mean < float64(lo) || mean > float64(hi) || hi < 3 {
		t.Fatalf("RecoveryRounds = %d, %d, %.2f; the runs' largest is %d", lo, hi, mean, most)
	}
}
