package invariants_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
)

// validEnds: two processes with x in 0..2; x = 1 steps to 0, and nothing
// else moves. L is every x = 0; the spec's valid end states are those
// where some x = 2. A configuration with an x = 2 and no x = 1 is outside L
// with no step: it violates convergence, valid end state or not. A channel
// from process 0 to 1, which no action uses, lets it start from the
// configurations with empty channels.
func validEnds(t *testing.T) (*model.System, model.VarID) {
	t.Helper()
	b := model.NewBuilder("ve", model.UniRing, 2)
	x := b.Var("x", model.IntRange(0, 2))
	b.Message("M")
	b.Channel(model.Channel{From: 0, To: 1, Capacity: 1})
	b.Action(model.Action{
		Name:   "up",
		Guard:  func(c *model.Ctx) bool { return c.Get(x) == 1 },
		Effect: func(c *model.Ctx, _ int) { c.Set(x, 0) },
	})
	b.Legitimate(model.Predicate{Name: "all zero", Holds: func(s *model.State) bool { return s.Get(0, x) == 0 && s.Get(1, x) == 0 }})
	b.ValidEnd(model.Predicate{Name: "some two", Holds: func(s *model.State) bool { return s.Get(0, x) == 2 || s.Get(1, x) == 2 }})
	b.Initial(func(*model.System, *model.State) {})
	sys, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return sys, x
}

// TestConvergenceFromGivenJudgesDeadEnds: from given configurations, as
// from every configuration, a configuration outside L with no step
// violates convergence even when it is a valid end state (which only
// deadlock freedom excuses), and the counterexample starts in the given
// configuration and ends there or in the dead end.
func TestConvergenceFromGivenJudgesDeadEnds(t *testing.T) {
	sys, x := validEnds(t)
	all, err := invariants.Check(context.Background(), sys, invariants.Options{
		Properties: []invariants.Property{invariants.Convergence}, From: invariants.FromAll,
	})
	if err != nil {
		t.Fatal(err)
	}
	if o := all.Outcomes[0]; o.Verdict != invariants.Violated {
		t.Fatalf("from every configuration: %s (%s), want violated", o.Verdict, o.Reason)
	}
	for _, tc := range []struct {
		name   string
		x0, x1 int
		want   invariants.Verdict
		steps  int
	}{
		{"a valid end outside L", 2, 0, invariants.Violated, 0},
		{"a step to a valid end outside L", 1, 2, invariants.Violated, 1},
		{"a step into L", 1, 0, invariants.Unknown, 0},
		{"in L", 0, 0, invariants.Unknown, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := sys.NewState()
			start.Set(0, x, tc.x0)
			start.Set(1, x, tc.x1)
			rep, err := invariants.Check(context.Background(), sys, invariants.Options{
				Properties: []invariants.Property{invariants.Convergence}, From: invariants.FromGiven,
				Start: []*model.State{start},
			})
			if err != nil {
				t.Fatal(err)
			}
			o := rep.Outcomes[0]
			if o.Verdict != tc.want {
				t.Fatalf("%s (%s), want %s", o.Verdict, o.Reason, tc.want)
			}
			if o.Verdict != invariants.Violated {
				return
			}
			ce := o.Counterexample
			if !strings.Contains(o.Reason, "outside L with no step") || len(ce.Steps) != tc.steps || !ce.States[0].Equal(start) {
				t.Fatalf("%s, counterexample of %d steps from %v; want a dead end %d steps from the given configuration", o.Reason, len(ce.Steps), ce.States[0], tc.steps)
			}
			if err := ce.Replay(sys); err != nil {
				t.Fatal(err)
			}
		})
	}
	rep, err := invariants.Check(context.Background(), sys, invariants.Options{
		Properties: []invariants.Property{invariants.Convergence}, From: invariants.FromEmptyChannels,
	})
	if err != nil {
		t.Fatal(err)
	}
	if o := rep.Outcomes[0]; o.Verdict != invariants.Violated {
		t.Fatalf("from every configuration with empty channels: %s (%s), want violated", o.Verdict, o.Reason)
	}
}

// wheelSize is the wheel's number of configurations: the components
// search, which looks at its context every 2^16 steps, takes about twice
// as many over them.
const wheelSize = 1 << 16

// wheel: process 0 turns x in 0..wheelSize-1 round, and L is x = 0, so
// every configuration reaches all the others and L (a channel from process
// 0 to process 1, which no action uses, lets it start from the
// configurations with empty channels). Its legitimacy predicate, which the searches from given configurations do not evaluate
// (only the analysis after them does), calls analysed the first time.
func wheel(t *testing.T, analysed func()) *model.System {
	t.Helper()
	b := model.NewBuilder("wheel", model.UniRing, 2)
	x := b.Var("x", model.IntRange(0, wheelSize-1), 0)
	b.Message("M")
	b.Channel(model.Channel{From: 0, To: 1, Capacity: 1})
	b.Action(model.Action{
		Name:   "turn",
		Guard:  func(*model.Ctx) bool { return true },
		Effect: func(c *model.Ctx, _ int) { c.Set(x, (c.Get(x)+1)%wheelSize) },
	}, 0)
	var once sync.Once
	b.Legitimate(model.Predicate{Name: "zero", Holds: func(s *model.State) bool {
		once.Do(analysed)
		return s.Get(0, x) == 0
	}})
	b.Initial(func(*model.System, *model.State) {})
	sys, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// TestConvergenceFromGivenStoppedInTheAnalysis: a limit (Ctrl-C, the time
// limit) that stops the analysis after a complete search from given, random
// or empty-channel configurations leaves convergence unknown with a reason
// that says the limit stopped it, and marks the search as stopped by it, so
// that the report says it was cut; a random sample stopped so decides
// nothing.
func TestConvergenceFromGivenStoppedInTheAnalysis(t *testing.T) {
	const limit = 1500 * time.Millisecond
	for _, tc := range []struct {
		name     string
		from     invariants.From
		timeOut  bool
		wantStop explore.StopReason
		want     string
	}{
		{"given, interrupted", invariants.FromGiven, false, explore.Interrupted, "interrupted; it stopped the analysis"},
		{"random, interrupted", invariants.FromRandom, false, explore.Interrupted, "at random configuration 0 of 2"},
		{"empty channels, interrupted", invariants.FromEmptyChannels, false, explore.Interrupted, "interrupted; it stopped the analysis"},
		{"given, time limit", invariants.FromGiven, true, explore.TimeBound, "time limit reached; it stopped the analysis"},
		{"random, time limit", invariants.FromRandom, true, explore.TimeBound, "time limit reached; it stopped the analysis"},
		{"empty channels, time limit", invariants.FromEmptyChannels, true, explore.TimeBound, "time limit reached; it stopped the analysis"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, lim := newLimiter(tc.timeOut, limit)
			defer lim.cancel()
			sys := wheel(t, lim.hit)
			opts := invariants.Options{Properties: []invariants.Property{invariants.Convergence}, From: tc.from, Samples: 2, Seed: 1}
			if tc.from == invariants.FromGiven {
				opts.Start = []*model.State{sys.NewState()}
			}
			if tc.timeOut {
				opts.Search.TimeLimit = limit
			}
			rep, err := invariants.Check(ctx, sys, opts)
			if err != nil {
				t.Fatal(err)
			}
			if !lim.reached.Load() {
				t.Skipf("the search did not finish within the %s limit: the analysis did not run", limit)
			}
			o := rep.Outcomes[0]
			if o.Verdict != invariants.Unknown || !strings.Contains(o.Reason, tc.want) || strings.Contains(o.Reason, "every execution") {
				t.Errorf("%s (%s), want unknown saying %q", o.Verdict, o.Reason, tc.want)
			}
			if rep.Search.Stop != tc.wantStop || !rep.Unknown() {
				t.Errorf("the search stopped on %v (unknown %v), want %v", rep.Search.Stop, rep.Unknown(), tc.wantStop)
			}
		})
	}
}
