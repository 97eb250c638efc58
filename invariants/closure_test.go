package invariants_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/budget"
	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
)

// pairs: one process with x and y in 0..size-1, a space of size² (10^10
// for size 10^5, beyond what the graph analyses index). L is x = y; the
// step adds one to both, except that with bug ≥ 0, from x = y = bug it
// sets y to 0. The spec enumerates L, or, with wrong, yields (1, 2) too.
func pairs(t *testing.T, size, bug int, wrong bool) *model.System {
	t.Helper()
	b := model.NewBuilder("pairs", model.UniRing, 2)
	x := b.Var("x", model.IntRange(0, size-1), 0)
	y := b.Var("y", model.IntRange(0, size-1), 0)
	b.Action(model.Action{
		Name:  "step",
		Guard: func(*model.Ctx) bool { return true },
		Effect: func(c *model.Ctx, _ int) {
			nx, ny := (c.Get(x)+1)%size, (c.Get(y)+1)%size
			if c.Get(x) == bug && c.Get(y) == bug {
				ny = 0
			}
			c.Set(x, nx)
			c.Set(y, ny)
		},
	}, 0)
	b.Legitimate(model.Predicate{Name: "equal", Holds: func(s *model.State) bool { return s.Get(0, x) == s.Get(0, y) }})
	b.LegitimateConfigurations(func(sys *model.System, yield func(*model.State) bool) {
		st := sys.NewState()
		for k := 0; k < size; k++ {
			st.Set(0, x, k)
			st.Set(0, y, k)
			if !yield(st) {
				return
			}
		}
		if wrong {
			st.Set(0, x, 1)
			st.Set(0, y, 2)
			yield(st)
		}
	})
	b.Initial(func(*model.System, *model.State) {})
	sys, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

func closureOf(t *testing.T, sys *model.System, workers int) (*invariants.Report, error) {
	t.Helper()
	return invariants.Check(context.Background(), sys, invariants.Options{
		Properties: []invariants.Property{invariants.Closure}, From: invariants.FromAll,
		Search: explore.Options{Workers: workers},
	})
}

// TestClosureByEnumeration: where the space is too large to sweep, closure
// is decided from the spec's enumeration of L: it holds, or the least
// violating configuration in enumeration order is the witness, whatever
// the number of workers; a configuration outside L in the enumeration is
// an error; convergence still needs the full space.
func TestClosureByEnumeration(t *testing.T) {
	const size = 100000
	rep, err := closureOf(t, pairs(t, size, -1, false), 2)
	if err != nil {
		t.Fatal(err)
	}
	if o := rep.Outcomes[0]; o.Verdict != invariants.Holds || rep.Search.States != size || rep.Search.Transitions != size {
		t.Fatalf("closure %s over %d configurations, %d transitions; want holds over %d", o.Verdict, rep.Search.States, rep.Search.Transitions, size)
	}

	for _, workers := range []int{1, 2, 4} {
		sys := pairs(t, size, 777, false)
		rep, err := closureOf(t, sys, workers)
		if err != nil {
			t.Fatal(err)
		}
		o := rep.Outcomes[0]
		ce := o.Counterexample
		if o.Verdict != invariants.Violated || ce == nil || len(ce.States) != 2 {
			t.Fatalf("workers %d: closure %s, counterexample %+v; want a one-step violation", workers, o.Verdict, ce)
		}
		if ce.States[0].Get(0, 0) != 777 || sys.Legitimate.Holds(ce.States[1]) {
			t.Fatalf("workers %d: the witness leaves x=%d, want the step from x=y=777 out of L", workers, ce.States[0].Get(0, 0))
		}
		if err := ce.Replay(sys); err != nil {
			t.Fatal(err)
		}
	}

	if _, err := closureOf(t, pairs(t, size, -1, true), 2); err == nil || !strings.Contains(err.Error(), "not legitimate") {
		t.Fatalf("an enumeration with a configuration outside L gave %v, want an error", err)
	}
	_, err = invariants.Check(context.Background(), pairs(t, size, -1, false), invariants.Options{
		Properties: []invariants.Property{invariants.Convergence}, From: invariants.FromAll,
	})
	if err == nil {
		t.Fatal("convergence over a space of 10^10 configurations was attempted")
	}
}

// TestClosureByEnumerationBounded: a bound on states, or the memory budget,
// stops the enumeration of L; closure is then unknown, unless a step out of
// L was found among the configurations enumerated, which violates it
// still.
func TestClosureByEnumerationBounded(t *testing.T) {
	const size = 100000
	for _, tc := range []struct {
		name      string
		bug       int
		maxStates int64
		memory    *budget.Memory
		want      invariants.Verdict
	}{
		{"holds beyond the bound", -1, 1000, nil, invariants.Unknown},
		{"violation beyond the bound", 5000, 1000, nil, invariants.Unknown},
		{"violation within the bound", 777, 1000, nil, invariants.Violated},
		{"bound above L", -1, size + 1, nil, invariants.Holds},
		// The budget refuses the first batch: nothing is enumerated.
		{"memory budget", 777, 0, budget.New(1), invariants.Unknown},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := invariants.Check(context.Background(), pairs(t, size, tc.bug, false), invariants.Options{
				Properties: []invariants.Property{invariants.Closure}, From: invariants.FromAll,
				Search: explore.Options{Workers: 2, MaxStates: tc.maxStates, Memory: tc.memory},
			})
			if err != nil {
				t.Fatal(err)
			}
			o := rep.Outcomes[0]
			if o.Verdict != tc.want {
				t.Fatalf("closure %s (%s), want %s", o.Verdict, o.Reason, tc.want)
			}
			wantStop := explore.StateBound
			switch {
			case tc.memory != nil:
				wantStop = explore.MemoryBound
				if !strings.Contains(o.Reason, "memory budget of 1 B reached") || rep.Search.Exceeded == nil {
					t.Fatalf("closure unknown because %q, exceeded %v; want the budget's figures", o.Reason, rep.Search.Exceeded)
				}
			case tc.maxStates > size:
				wantStop = explore.Exhausted
			}
			if rep.Search.Stop != wantStop {
				t.Fatalf("the search stopped on %v, want %v", rep.Search.Stop, wantStop)
			}
			if tc.want == invariants.Unknown && rep.Search.States != tc.maxStates {
				t.Fatalf("%d configurations reported, want the %d enumerated", rep.Search.States, tc.maxStates)
			}
		})
	}
}

// TestPredicateFaultIsTheCheckError: a predicate whose evaluation failed
// (System.PredicateFault) leaves no verdict, even where the failure is met
// in the last configuration searched.
func TestPredicateFaultIsTheCheckError(t *testing.T) {
	fault := errors.New("division by zero in invariant div")
	b := model.NewBuilder("faulty", model.UniRing, 2)
	x := b.Var("x", model.IntRange(0, 1), 0)
	b.Action(model.Action{
		Name:   "step",
		Guard:  func(c *model.Ctx) bool { return c.Get(x) == 0 },
		Effect: func(c *model.Ctx, _ int) { c.Set(x, 1) },
	}, 0)
	var failed error
	b.Invariant(model.Predicate{Name: "div", Holds: func(s *model.State) bool {
		if s.Get(0, x) == 1 {
			failed = fault
		}
		return true
	}})
	b.PredicateFaults(func() error { return failed })
	b.Initial(func(*model.System, *model.State) {})
	sys, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	rep, err := invariants.Check(context.Background(), sys, invariants.Options{
		Properties: []invariants.Property{invariants.Safety}, From: invariants.FromInit,
		Search: explore.Options{Workers: 1},
	})
	if !errors.Is(err, fault) {
		t.Fatalf("report %+v, error %v; want the predicate's failure", rep, err)
	}
}
