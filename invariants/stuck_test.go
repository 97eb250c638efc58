package invariants_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
)

// chainSize is the chain's number of configurations: enough for the
// components search to look at its context after the cancellation.
const chainSize = 1 << 18

// chain: one process with x in 0..chainSize-1 halves x until 0, which is
// L, except from its last value, which is dead. Its guard calls
// second the second time it is evaluated in the configuration x = 2: with
// one worker, once in the sweep and once in the components search.
func chain(t *testing.T, second func()) *model.System {
	t.Helper()
	b := model.NewBuilder("chain", model.UniRing, 1)
	x := b.Var("x", model.IntRange(0, chainSize-1))
	var seen atomic.Int32
	b.Action(model.Action{
		Name: "halve",
		Guard: func(c *model.Ctx) bool {
			if c.Get(x) == 2 && seen.Add(1) == 2 && second != nil {
				second()
			}
			return c.Get(x) > 0 && c.Get(x) < chainSize-1
		},
		Effect: func(c *model.Ctx, _ int) { c.Set(x, c.Get(x)/2) },
	})
	b.Legitimate(model.Predicate{Name: "zero", Holds: func(s *model.State) bool { return s.Get(0, x) == 0 }})
	b.Initial(func(*model.System, *model.State) {})
	sys, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// TestStuckCounted: a deadlock outside L violates convergence, and the
// analysis goes on to count what does not converge: the dead
// configuration alone here. Ctrl-C during that count leaves the
// violation standing, says the configurations were not counted, and
// marks the search as interrupted.
func TestStuckCounted(t *testing.T) {
	opts := invariants.Options{Properties: []invariants.Property{invariants.Convergence}, From: invariants.FromAll,
		Search: explore.Options{Workers: 1}}
	rep, err := invariants.Check(context.Background(), chain(t, nil), opts)
	if err != nil {
		t.Fatal(err)
	}
	if o := rep.Outcomes[0]; o.Verdict != invariants.Violated || o.Stuck != "1" || !strings.HasSuffix(o.Reason, "; 1 configuration does not converge") {
		t.Errorf("convergence %s (%s), %q configurations do not converge; want violated, 1", o.Verdict, o.Reason, o.Stuck)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rep, err = invariants.Check(ctx, chain(t, cancel), opts)
	if err != nil {
		t.Fatal(err)
	}
	o := rep.Outcomes[0]
	if o.Verdict != invariants.Violated || o.Stuck != "" || !strings.HasSuffix(o.Reason, "; the configurations that do not converge were not counted: interrupted") {
		t.Errorf("convergence %s (%s), %q configurations do not converge; want violated, not counted", o.Verdict, o.Reason, o.Stuck)
	}
	if rep.Search.Stop != explore.Interrupted {
		t.Errorf("the search stopped on %v, want interrupted", rep.Search.Stop)
	}
}
