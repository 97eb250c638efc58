package invariants_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/budget"
	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
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
