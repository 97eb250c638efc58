package invariants_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ringcheck/ringcheck/budget"
	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/spectest"
)

// convergingCounter is a process counting x up to max, where L is x = max:
// it converges from every configuration.
func convergingCounter(t *testing.T, max int) *model.System {
	t.Helper()
	b := model.NewBuilder("converging", model.UniRing, 1)
	x := b.Var("x", model.IntRange(0, max))
	b.Action(model.Action{
		Name:   "inc",
		Guard:  func(c *model.Ctx) bool { return c.Get(x) < max },
		Effect: func(c *model.Ctx, _ int) { c.Set(x, c.Get(x)+1) },
	})
	b.Invariant(model.Predicate{Name: "bounded", Holds: func(s *model.State) bool { return s.Get(0, x) <= max }})
	b.Legitimate(model.Predicate{Name: "done", Holds: func(s *model.State) bool { return s.Get(0, x) == max }})
	b.ValidEnd(model.Predicate{Name: "done", Holds: func(s *model.State) bool { return s.Get(0, x) == max }})
	b.ProcessPredicate(model.ProcessPredicate{Name: "requesting", Holds: func(s *model.State, p int) bool { return s.Get(p, x) < max }})
	b.ProcessPredicate(model.ProcessPredicate{Name: "inCS", Holds: func(s *model.State, p int) bool { return s.Get(p, x) == max }})
	b.Initial(func(*model.System, *model.State) {})
	sys, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// TestAnalysesHonourTheMemoryBudget drives a budget the heap already
// exceeds into every kind of check: each ends with unknown verdicts, the
// refused request and, for the stabilization analysis, how far its phases
// got; none fails or runs to the end.
func TestAnalysesHonourTheMemoryBudget(t *testing.T) {
	sys := convergingCounter(t, 1000)
	for _, tc := range []struct {
		name  string
		opts  invariants.Options
		phase bool
	}{
		{"a search from init", invariants.Options{Properties: []invariants.Property{invariants.Safety, invariants.Deadlock, invariants.Starvation}, From: invariants.FromInit}, false},
		{"a sweep of every configuration", invariants.Options{Properties: []invariants.Property{invariants.Deadlock}, From: invariants.FromAll}, false},
		{"the stabilization analysis", invariants.Options{Properties: []invariants.Property{invariants.Closure, invariants.Convergence}, From: invariants.FromAll}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.Search.Memory = budget.New(1)
			rep, err := invariants.Check(context.Background(), sys, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Search.Stop != explore.MemoryBound || rep.Search.Exceeded == nil {
				t.Fatalf("stop %v, exceeded %v", rep.Search.Stop, rep.Search.Exceeded)
			}
			for _, o := range rep.Outcomes {
				if o.Verdict != invariants.Unknown || !strings.Contains(o.Reason, "memory budget") {
					t.Errorf("%s: %s (%s)", o.Property, o.Verdict, o.Reason)
				}
			}
			if tc.phase && (len(rep.Phases) == 0 || rep.Phases[0].Total != 1001) {
				t.Errorf("phases %+v", rep.Phases)
			}
		})
	}
}

// TestTooLargeConvergenceStopsAtOnce: the arrays of the convergence
// analysis are sized by the configurations, known before the sweep, so an
// instance whose analysis cannot fit the budget stops at once, unknown,
// with the figures and what was not done, instead of sweeping 430 million
// configurations first (the budget holds L's bit set, 54 MB, not the
// heights and indexes, 4.3 GB). The deadline is the test's: a check that
// sweeps first runs into it.
func TestTooLargeConvergenceStopsAtOnce(t *testing.T) {
	sys := spectest.Build(t, "dijkstra", specs.Values{"n": 8, "K": 12})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	opts := invariants.Options{Properties: []invariants.Property{invariants.Convergence}, From: invariants.FromAll}
	opts.Search.Workers = 2
	opts.Search.Memory = budget.New(budget.Heap() + 128<<20)
	start := time.Now()
	rep, err := invariants.Check(ctx, sys, opts)
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 2*time.Second || rep.Search.Stop != explore.MemoryBound {
		t.Fatalf("stopped after %v: %v; want the memory budget at once", took, rep.Search.Stop)
	}
	o := rep.Outcomes[0]
	if o.Verdict != invariants.Unknown || !strings.Contains(o.Reason, "over the 429981696 configurations") || !strings.Contains(o.Reason, "nothing was swept") {
		t.Fatalf("%s: %s", o.Verdict, o.Reason)
	}
	if ex := rep.Search.Exceeded; ex == nil || ex.Need < 10*429981696 {
		t.Fatalf("refusal %+v; want the analysis's 4.3 GB", ex)
	}
	if len(rep.Phases) != 1 || rep.Phases[0].Done != 0 {
		t.Fatalf("phases %+v; want the sweep, not started", rep.Phases)
	}
}

// TestClosureIsDecidedWhenConvergenceCannotFit: asked with convergence,
// closure needs the sweep and L's bit set alone; when the budget holds
// those and not the convergence analysis, closure is decided and
// convergence is unknown, with the figures.
func TestClosureIsDecidedWhenConvergenceCannotFit(t *testing.T) {
	sys := spectest.Build(t, "dijkstra", specs.Values{"n": 6, "K": 12})
	opts := invariants.Options{Properties: []invariants.Property{invariants.Closure, invariants.Convergence}, From: invariants.FromAll}
	opts.Search.Workers = 2
	opts.Search.Memory = budget.New(budget.Heap() + 8<<20)
	rep, err := invariants.Check(context.Background(), sys, opts)
	if err != nil {
		t.Fatal(err)
	}
	closure, conv := rep.Outcomes[0], rep.Outcomes[1]
	if closure.Verdict != invariants.Holds || conv.Verdict != invariants.Unknown || !strings.Contains(conv.Reason, "so convergence was not analysed") {
		t.Fatalf("closure %s (%s), convergence %s (%s)", closure.Verdict, closure.Reason, conv.Verdict, conv.Reason)
	}
	if rep.Search.Stop != explore.MemoryBound || !rep.Unknown() || rep.Stabilization != nil {
		t.Fatalf("stop %v, unknown %v", rep.Search.Stop, rep.Unknown())
	}
	if len(rep.Phases) != 2 || rep.Phases[0].Done != rep.Phases[0].Total || rep.Phases[1].Done != 0 {
		t.Fatalf("phases %+v; want the sweep done and the search not started", rep.Phases)
	}
}
