package invariants_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
)

// counterRing: process 0 counts x up to max, then stops. Optionally the
// final state is a valid end state, and optionally x < bad is an invariant.
func counterRing(t *testing.T, max, bad int, validEnd bool) *model.System {
	t.Helper()
	b := model.NewBuilder("counter", model.UniRing, 2)
	x := b.Var("x", model.IntRange(0, max), 0)
	b.Action(model.Action{
		Name:   "inc",
		Guard:  func(c *model.Ctx) bool { return c.Get(x) < max },
		Effect: func(c *model.Ctx, _ int) { c.Set(x, c.Get(x)+1) },
	}, 0)
	if bad > 0 {
		b.Invariant(model.Predicate{Name: "small", Holds: func(s *model.State) bool { return s.Get(0, x) < bad }})
	}
	if validEnd {
		b.ValidEnd(model.Predicate{Name: "done", Holds: func(s *model.State) bool { return s.Get(0, x) == max }})
	}
	b.Initial(func(*model.System, *model.State) {})
	sys, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

func check(t *testing.T, sys *model.System, props ...invariants.Property) *invariants.Report {
	t.Helper()
	rep, err := invariants.Check(context.Background(), sys, invariants.Options{Properties: props, From: invariants.FromInit, Search: explore.Options{Workers: 2}})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestVerdicts(t *testing.T) {
	tests := []struct {
		name     string
		sys      *model.System
		prop     invariants.Property
		verdict  invariants.Verdict
		traceLen int
	}{
		{"deadlock at the end of the count", counterRing(t, 5, 0, false), invariants.Deadlock, invariants.Violated, 5},
		{"a valid end state is no deadlock", counterRing(t, 5, 0, true), invariants.Deadlock, invariants.Holds, 0},
		{"invariant broken at x = 3", counterRing(t, 5, 3, true), invariants.Safety, invariants.Violated, 3},
		{"invariant that holds", counterRing(t, 5, 6, true), invariants.Safety, invariants.Holds, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := check(t, tt.sys, tt.prop)
			o := rep.Outcomes[0]
			if o.Verdict != tt.verdict {
				t.Fatalf("%s %s, want %s", o.Property, o.Verdict, tt.verdict)
			}
			if tt.verdict == invariants.Violated {
				if o.Counterexample == nil || len(o.Counterexample.Steps) != tt.traceLen || o.Counterexample.Kind != invariants.Path {
					t.Fatalf("counterexample %+v, want a path of %d steps", o.Counterexample, tt.traceLen)
				}
			} else if o.Counterexample != nil {
				t.Fatal("a counterexample for a property that holds")
			}
		})
	}
}

// TestOverflowErrorIsASafetyViolation: under the "error" policy a send to a
// full channel violates safety; the counterexample ends with that step.
func TestOverflowErrorIsASafetyViolation(t *testing.T) {
	for _, policy := range []model.Overflow{model.Error, model.Drop, model.Block} {
		b := model.NewBuilder("flood", model.UniRing, 2)
		m := b.Message("M")
		b.Channel(model.Channel{From: 0, To: 1, Capacity: 2, Overflow: policy})
		b.Action(model.Action{
			Name:   "send",
			Guard:  func(*model.Ctx) bool { return true },
			Effect: func(c *model.Ctx, _ int) { c.Send(c.Out(1), c.Msg(m)) },
		}, 0)
		b.Invariant(model.Predicate{Name: "true", Holds: func(*model.State) bool { return true }})
		b.Initial(func(*model.System, *model.State) {})
		sys, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		rep := check(t, sys, invariants.Safety, invariants.Deadlock)
		safety, deadlock := rep.Outcomes[0], rep.Outcomes[1]
		switch policy {
		case model.Error:
			ce := safety.Counterexample
			if safety.Verdict != invariants.Violated || ce == nil || len(ce.Steps) != 3 || !ce.Steps[2].Overflow {
				t.Fatalf("error policy: safety %s, counterexample %+v", safety.Verdict, ce)
			}
		case model.Drop:
			if safety.Verdict != invariants.Holds || deadlock.Verdict != invariants.Holds {
				t.Fatalf("drop policy: safety %s deadlock %s", safety.Verdict, deadlock.Verdict)
			}
		case model.Block:
			// Once the channel is full nothing is enabled: a deadlock after 2 sends.
			if safety.Verdict != invariants.Holds || deadlock.Verdict != invariants.Violated || len(deadlock.Counterexample.Steps) != 2 {
				t.Fatalf("block policy: safety %s deadlock %s", safety.Verdict, deadlock.Verdict)
			}
		}
	}
}

func TestCheckRejects(t *testing.T) {
	sys := counterRing(t, 3, 0, false)
	for _, tt := range []struct {
		props []invariants.Property
		want  string
	}{
		{nil, "no property"},
		{[]invariants.Property{invariants.Safety}, "declares no state invariant"},
		{[]invariants.Property{invariants.Starvation}, "declares no \"requesting\""},
		{[]invariants.Property{invariants.Convergence}, "declares no legitimacy predicate"},
		{[]invariants.Property{"liveness"}, "unknown property"},
	} {
		_, err := invariants.Check(context.Background(), sys, invariants.Options{Properties: tt.props})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: error %v, want %q", tt.props, err, tt.want)
		}
	}
}

// spinner: process 0 flips b forever; process 1 may set done := 1, which is
// L. With guarded, process 1 is enabled only when b = 1, so it is not
// continuously enabled along the flipping cycle and that cycle is weakly
// fair; without, process 1 is enabled everywhere outside L and never moves
// on the cycle, which is then unfair.
func spinner(t *testing.T, guarded bool) *model.System {
	t.Helper()
	bld := model.NewBuilder("spinner", model.UniRing, 2)
	b := bld.Var("b", model.IntRange(0, 1), 0)
	done := bld.Var("done", model.IntRange(0, 1), 1)
	bld.Action(model.Action{
		Name:   "flip",
		Guard:  func(c *model.Ctx) bool { return c.Read(1, done) == 0 },
		Effect: func(c *model.Ctx, _ int) { c.Set(b, 1-c.Get(b)) },
	}, 0)
	bld.Action(model.Action{
		Name: "finish",
		Guard: func(c *model.Ctx) bool {
			return c.Get(done) == 0 && (!guarded || c.Read(0, b) == 1)
		},
		Effect: func(c *model.Ctx, _ int) { c.Set(done, 1) },
	}, 1)
	legit := model.Predicate{Name: "done", Holds: func(s *model.State) bool { return s.Get(1, done) == 1 }}
	bld.Legitimate(legit)
	bld.Initial(func(*model.System, *model.State) {})
	sys, err := bld.Build()
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

func TestConvergenceUnderFairness(t *testing.T) {
	tests := []struct {
		guarded   bool
		fairness  invariants.Fairness
		verdict   invariants.Verdict
		unbounded bool
	}{
		{false, invariants.NoFairness, invariants.Violated, false},
		{false, invariants.WeakFairness, invariants.Holds, true},
		{true, invariants.NoFairness, invariants.Violated, false},
		{true, invariants.WeakFairness, invariants.Violated, false},
	}
	for _, tt := range tests {
		rep, err := invariants.Check(context.Background(), spinner(t, tt.guarded), invariants.Options{
			Properties: []invariants.Property{invariants.Convergence},
			From:       invariants.FromAll,
			Fairness:   tt.fairness,
		})
		if err != nil {
			t.Fatal(err)
		}
		o := rep.Outcomes[0]
		if o.Verdict != tt.verdict {
			t.Errorf("guarded=%v %s: %s, want %s", tt.guarded, tt.fairness, o.Verdict, tt.verdict)
			continue
		}
		if o.Verdict == invariants.Violated {
			ce := o.Counterexample
			if ce.Kind != invariants.Lasso || len(ce.Steps) != 2 {
				t.Errorf("guarded=%v %s: counterexample %+v, want the 2-step flipping cycle", tt.guarded, tt.fairness, ce)
			}
		} else if rep.Stabilization == nil || rep.Stabilization.Unbounded != tt.unbounded {
			t.Errorf("guarded=%v %s: stabilization %+v", tt.guarded, tt.fairness, rep.Stabilization)
		}
	}
}

// TestReplayRejectsForgedTraces: Replay accepts the checker's own
// counterexample and rejects one whose states or steps were tampered with.
func TestReplayRejectsForgedTraces(t *testing.T) {
	sys := counterRing(t, 5, 0, false)
	ce := check(t, sys, invariants.Deadlock).Outcomes[0].Counterexample
	if err := ce.Replay(sys); err != nil {
		t.Fatalf("the checker's own counterexample: %v", err)
	}
	forged := *ce
	forged.States = append([]*model.State(nil), ce.States...)
	forged.States[2] = ce.States[3]
	if forged.Replay(sys) == nil {
		t.Error("a trace with a skipped state replays")
	}
	short := *ce
	short.Steps = ce.Steps[:len(ce.Steps)-1]
	if short.Replay(sys) == nil {
		t.Error("a trace with a missing step replays")
	}
}

// TestConvergenceFromGiven checks convergence from given configurations
// against the sweep of every configuration, on the spinner: from each
// configuration alone, a violation is found exactly when the sweep's
// counterexample can start there, that is, when it is outside L and the
// sweep finds convergence violated (every configuration outside L reaches
// the flipping cycle); otherwise the verdict is unknown, never holds. A
// violation from a given configuration starts in it.
func TestConvergenceFromGiven(t *testing.T) {
	forEachSpinner(t, func(sys *model.System, guarded bool, fairness invariants.Fairness, all *invariants.Report) {
		size, _ := sys.Configurations()
		for r := uint64(0); r < size; r++ {
			start := sys.NewState()
			if err := sys.Unrank(r, start); err != nil {
				t.Fatal(err)
			}
			rep, err := invariants.Check(context.Background(), sys, invariants.Options{
				Properties: []invariants.Property{invariants.Convergence}, From: invariants.FromGiven,
				Start: []*model.State{start}, Fairness: fairness,
			})
			if err != nil {
				t.Fatal(err)
			}
			o := rep.Outcomes[0]
			want := invariants.Unknown
			if all.Outcomes[0].Verdict == invariants.Violated && !sys.Legitimate.Holds(start) {
				want = invariants.Violated
			}
			if o.Verdict != want {
				t.Fatalf("guarded=%v %s, from configuration %d: %s (%s), want %s", guarded, fairness, r, o.Verdict, o.Reason, want)
			}
			if o.Verdict == invariants.Violated {
				ce := o.Counterexample
				if !ce.States[0].Equal(start) {
					t.Fatalf("guarded=%v %s: the counterexample does not start in the given configuration", guarded, fairness)
				}
				if err := ce.Replay(sys); err != nil {
					t.Fatal(err)
				}
			}
		}
	})
	// Convergence needs L, closure every legitimate configuration, and
	// FromGiven at least one configuration.
	counter, spin := counterRing(t, 3, 0, false), spinner(t, false)
	for name, opts := range map[string]struct {
		sys  *model.System
		prop invariants.Property
		n    int
	}{"no L": {counter, invariants.Convergence, 1}, "closure": {spin, invariants.Closure, 1}, "nothing given": {spin, invariants.Convergence, 0}} {
		var start []*model.State
		for range opts.n {
			start = append(start, opts.sys.NewState())
		}
		if _, err := invariants.Check(context.Background(), opts.sys, invariants.Options{
			Properties: []invariants.Property{opts.prop}, From: invariants.FromGiven, Start: start,
		}); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestConvergenceFromRandom: from random configurations of the spinner,
// convergence is violated exactly where the sweep finds it violated (some
// of the 20 samples lie outside L, and every configuration outside L
// reaches the cycle), with a counterexample that starts in a random
// configuration, and unknown where the sweep finds it holds; the same seed
// draws the same samples.
func TestConvergenceFromRandom(t *testing.T) {
	forEachSpinner(t, func(sys *model.System, guarded bool, fairness invariants.Fairness, all *invariants.Report) {
		random := func(seed uint64) invariants.Outcome {
			rep, err := invariants.Check(context.Background(), sys, invariants.Options{
				Properties: []invariants.Property{invariants.Convergence}, From: invariants.FromRandom,
				Samples: 20, Seed: seed, Fairness: fairness,
			})
			if err != nil {
				t.Fatal(err)
			}
			return rep.Outcomes[0]
		}
		o := random(3)
		want := invariants.Unknown
		if all.Outcomes[0].Verdict == invariants.Violated {
			want = invariants.Violated
		}
		if o.Verdict != want {
			t.Fatalf("guarded=%v %s: from random configurations %s (%s), the sweep %s", guarded, fairness, o.Verdict, o.Reason, all.Outcomes[0].Verdict)
		}
		if again := random(3); again.Verdict != o.Verdict || again.Reason != o.Reason {
			t.Fatalf("guarded=%v %s: the same seed gives %q, then %q", guarded, fairness, o.Reason, again.Reason)
		}
		if o.Verdict == invariants.Violated {
			if err := o.Counterexample.Replay(sys); err != nil {
				t.Fatal(err)
			}
			if sys.Legitimate.Holds(o.Counterexample.States[0]) {
				t.Fatal("the counterexample starts in L")
			}
		}
	})
	// A sample from which more states are reachable than the bound decides
	// nothing; the others still run.
	rep, err := invariants.Check(context.Background(), spinner(t, false), invariants.Options{
		Properties: []invariants.Property{invariants.Convergence}, From: invariants.FromRandom,
		Samples: 20, Seed: 3, Fairness: invariants.WeakFairness, Search: explore.Options{MaxStates: 1},
	})
	if err != nil {
		t.Fatal(err)
	}
	if o := rep.Outcomes[0]; o.Verdict != invariants.Unknown || !strings.Contains(o.Reason, "more states are reachable than the bound on states allows") || rep.Search.Stop != explore.StateBound {
		t.Fatalf("with a bound of one state: %s (%s), stop %s", o.Verdict, o.Reason, rep.Search.Stop)
	}
	for name, tc := range map[string]struct {
		sys  *model.System
		opts invariants.Options
	}{
		"safety":     {counterRing(t, 3, 2, false), invariants.Options{Properties: []invariants.Property{invariants.Safety}, From: invariants.FromRandom, Samples: 3}},
		"no samples": {spinner(t, false), invariants.Options{Properties: []invariants.Property{invariants.Convergence}, From: invariants.FromRandom}},
	} {
		if _, err := invariants.Check(context.Background(), tc.sys, tc.opts); err == nil {
			t.Errorf("%s from random configurations: no error", name)
		}
	}
}

// forEachSpinner calls f for each spinner (guarded or not) and fairness
// (none, weak), with the sweep's verdict on convergence from every
// configuration.
func forEachSpinner(t *testing.T, f func(sys *model.System, guarded bool, fairness invariants.Fairness, all *invariants.Report)) {
	t.Helper()
	for _, guarded := range []bool{false, true} {
		for _, fairness := range []invariants.Fairness{invariants.NoFairness, invariants.WeakFairness} {
			sys := spinner(t, guarded)
			all, err := invariants.Check(context.Background(), sys, invariants.Options{
				Properties: []invariants.Property{invariants.Convergence}, From: invariants.FromAll, Fairness: fairness,
			})
			if err != nil {
				t.Fatal(err)
			}
			f(sys, guarded, fairness, all)
		}
	}
}

// ticker: process 0 can always flip b, and has a timeout, always enabled
// outside L, that sets done := 1, which is L.
func ticker(t *testing.T) *model.System {
	t.Helper()
	bld := model.NewBuilder("ticker", model.UniRing, 1)
	b := bld.Var("b", model.IntRange(0, 1))
	done := bld.Var("done", model.IntRange(0, 1))
	bld.Action(model.Action{Name: "flip", Guard: func(c *model.Ctx) bool { return c.Get(done) == 0 },
		Effect: func(c *model.Ctx, _ int) { c.Set(b, 1-c.Get(b)) }})
	bld.Action(model.Action{Name: "expire", Kind: model.Timeout, Guard: func(c *model.Ctx) bool { return c.Get(done) == 0 },
		Effect: func(c *model.Ctx, _ int) { c.Set(done, 1) }})
	bld.Legitimate(model.Predicate{Name: "done", Holds: func(s *model.State) bool { return s.Get(0, done) == 1 }})
	bld.Initial(func(*model.System, *model.State) {})
	sys, err := bld.Build()
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// TestTimeoutsAreWeaklyFair: the flipping cycle moves process 0 forever
// while its timeout stays enabled, so it is fair per process but not for
// the timer, which is always weakly fair: convergence holds under every
// fairness, none included.
func TestTimeoutsAreWeaklyFair(t *testing.T) {
	for _, fairness := range []invariants.Fairness{invariants.NoFairness, invariants.WeakFairness, invariants.StrongFairness} {
		rep, err := invariants.Check(context.Background(), ticker(t), invariants.Options{
			Properties: []invariants.Property{invariants.Convergence}, From: invariants.FromAll, Fairness: fairness,
		})
		if err != nil {
			t.Fatal(err)
		}
		if o := rep.Outcomes[0]; o.Verdict != invariants.Holds {
			t.Errorf("%s fairness: convergence %s (%s), want holds: the timer expires", fairness, o.Verdict, o.Reason)
		}
	}
}

// rearmer: process 0 emits a Tick into a channel of capacity 1 when armed
// (x = 1), disarming, and rearms whenever disarmed; process 1 takes the
// Tick. L is the empty channel. From (x = 1, channel full) the only way to
// stay outside L for ever is to emit into the full channel again and
// again: each of those sends overflows, and process 1, enabled throughout,
// never moves, so the cycle is unfair under weak fairness.
func rearmer(t *testing.T, policy model.Overflow) (*model.System, *model.State) {
	t.Helper()
	b := model.NewBuilder("rearmer", model.UniRing, 2)
	x := b.Var("x", model.IntRange(0, 1), 0)
	tick := b.Message("Tick")
	ch := b.Channel(model.Channel{From: 0, To: 1, Capacity: 1, Overflow: policy})
	b.Action(model.Action{
		Name:  "emit",
		Guard: func(c *model.Ctx) bool { return c.Get(x) == 1 },
		Effect: func(c *model.Ctx, _ int) {
			c.Set(x, 0)
			c.Send(c.Out(1), c.Msg(tick))
		},
	}, 0)
	b.Action(model.Action{
		Name:   "rearm",
		Guard:  func(c *model.Ctx) bool { return c.Get(x) == 0 },
		Effect: func(c *model.Ctx, _ int) { c.Set(x, 1) },
	}, 0)
	b.Action(model.Action{
		Name:   "take",
		Guard:  func(c *model.Ctx) bool { return c.HeadIs(c.In(0), tick) },
		Effect: func(c *model.Ctx, _ int) { c.Receive(c.In(0)) },
	}, 1)
	b.Legitimate(model.Predicate{Name: "empty", Holds: func(s *model.State) bool { return s.Len(ch) == 0 }})
	b.Initial(func(*model.System, *model.State) {})
	sys, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	start := sys.NewState()
	start.Set(0, x, 1)
	start.Push(ch, sys.Msg(tick))
	return sys, start
}

// TestConvergenceOnTheRearmer: from the rearmer's full channel with x = 1
// (given), from its two configurations with an empty channel
// (empty-channels, searched together), and from all four. A step that overflows a channel
// whose policy is error leaves the model, so convergence from a
// configuration that reaches one is unknown, with the reason, both when
// the only execution that never reaches L takes such a step (no fairness)
// and when none is found (weak fairness). Under the drop policy the same
// lost sends are steps of the model: with no fairness the cycle that emits
// into the full channel for ever violates; under weak fairness it is
// unfair, every execution reaches L, and the verdict stays unknown with
// what was searched (holds from all). A violation starts in a
// configuration searched from.
func TestConvergenceOnTheRearmer(t *testing.T) {
	tests := []struct {
		from     invariants.From
		policy   model.Overflow
		fairness invariants.Fairness
		verdict  invariants.Verdict
		reason   string
	}{
		{invariants.FromGiven, model.Error, invariants.NoFairness, invariants.Unknown, "the execution found that never reaches L takes such a step"},
		{invariants.FromGiven, model.Error, invariants.WeakFairness, invariants.Unknown, "so some executions leave the model"},
		{invariants.FromGiven, model.Drop, invariants.NoFairness, invariants.Violated, "never reaches L"},
		{invariants.FromGiven, model.Drop, invariants.WeakFairness, invariants.Unknown, "every execution from the 1 given configuration reaches L"},
		{invariants.FromEmptyChannels, model.Drop, invariants.NoFairness, invariants.Violated, "from a configuration with empty channels, an execution never reaches L"},
		{invariants.FromEmptyChannels, model.Drop, invariants.WeakFairness, invariants.Unknown, "every execution from each of the 2 configurations with empty channels reaches L (fairness weak, "},
		{invariants.FromEmptyChannels, model.Error, invariants.WeakFairness, invariants.Unknown, "so some executions leave the model"},
		// From every configuration: the two outside L have a step, and
		// (x = 1, full) a faulty one under the error policy.
		{invariants.FromAll, model.Error, invariants.NoFairness, invariants.Unknown, "from 1 configuration outside L a step overflows a channel whose policy is error (or leaves a variable's domain), so some executions leave the model; the execution found that never reaches L takes such a step"},
		{invariants.FromAll, model.Error, invariants.WeakFairness, invariants.Unknown, "from 1 configuration outside L a step overflows a channel whose policy is error (or leaves a variable's domain), so some executions leave the model"},
		{invariants.FromAll, model.Drop, invariants.NoFairness, invariants.Violated, "a shortest cycle of configurations outside L"},
		{invariants.FromAll, model.Drop, invariants.WeakFairness, invariants.Holds, ""},
	}
	for _, tt := range tests {
		sys, start := rearmer(t, tt.policy)
		opts := invariants.Options{Properties: []invariants.Property{invariants.Convergence}, From: tt.from, Fairness: tt.fairness}
		if tt.from == invariants.FromGiven {
			opts.Start = []*model.State{start}
		}
		rep, err := invariants.Check(context.Background(), sys, opts)
		if err != nil {
			t.Fatal(err)
		}
		o := rep.Outcomes[0]
		if o.Verdict != tt.verdict || !strings.Contains(o.Reason, tt.reason) {
			t.Errorf("from %s, %s, fairness %s: %s (%s), want %s (%q)", tt.from, tt.policy, tt.fairness, o.Verdict, o.Reason, tt.verdict, tt.reason)
		}
		if o.Verdict != invariants.Violated {
			continue
		}
		ce := o.Counterexample
		if err := ce.Replay(sys); err != nil {
			t.Errorf("from %s, %s, fairness %s: %v", tt.from, tt.policy, tt.fairness, err)
		}
		if tt.from == invariants.FromGiven && !ce.States[0].Equal(start) {
			t.Errorf("from %s: the counterexample does not start in the given configuration", tt.from)
		}
		for c := range sys.Channels {
			if tt.from == invariants.FromEmptyChannels && ce.States[0].Len(model.ChanID(c)) != 0 {
				t.Errorf("from %s: the counterexample starts with %d messages in channel %d", tt.from, ce.States[0].Len(model.ChanID(c)), c)
			}
		}
	}
}

// TestConvergenceFromRandomFill: with Fill, every channel of a random
// configuration holds at most Fill messages, and a sample from which an
// overflow under the error policy is reachable decides nothing and is
// counted as such. Fill goes with FromRandom only.
func TestConvergenceFromRandomFill(t *testing.T) {
	sys, _ := rearmer(t, model.Error)
	// At most 0 messages is not expressible (0 is no bound), so the
	// rearmer's capacity of 1 is drawn in full without Fill: some samples
	// reach an overflow.
	rep, err := invariants.Check(context.Background(), sys, invariants.Options{
		Properties: []invariants.Property{invariants.Convergence}, From: invariants.FromRandom,
		Samples: 20, Seed: 1, Fairness: invariants.WeakFairness,
	})
	if err != nil {
		t.Fatal(err)
	}
	// Every configuration of the rearmer reaches an overflow.
	if o := rep.Outcomes[0]; o.Verdict != invariants.Unknown || o.Reason != "none of 20 random configurations (seed 1) decided anything; from 20, a step overflows a channel whose policy is error (or leaves a variable's domain), so they decide nothing" {
		t.Fatalf("from random configurations: %s (%s)", o.Verdict, o.Reason)
	}
	rep, err = invariants.Check(context.Background(), sys, invariants.Options{
		Properties: []invariants.Property{invariants.Convergence}, From: invariants.FromRandom,
		Samples: 20, Seed: 1, Fill: 1, Fairness: invariants.WeakFairness,
	})
	if err != nil {
		t.Fatal(err)
	}
	if o := rep.Outcomes[0]; !strings.Contains(o.Reason, "random configurations of at most 1 message a channel") {
		t.Fatalf("with Fill 1: %s (%s)", o.Verdict, o.Reason)
	}
	for name, opts := range map[string]invariants.Options{
		"negative": {Properties: []invariants.Property{invariants.Convergence}, From: invariants.FromRandom, Samples: 1, Fill: -1},
		"from all": {Properties: []invariants.Property{invariants.Convergence}, From: invariants.FromAll, Fill: 1},
	} {
		if _, err := invariants.Check(context.Background(), sys, opts); err == nil || !strings.Contains(err.Error(), "Fill") {
			t.Errorf("%s: error %v, want one naming Fill", name, err)
		}
	}
}

// TestFairCycleNamesTheFairness: the reason of a convergence violation
// names the fairness its cycle meets, per process or per action, as both
// engines say it.
func TestFairCycleNamesTheFairness(t *testing.T) {
	tests := []struct {
		fairness invariants.Fairness
		shortest bool
		want     string
	}{
		{invariants.NoFairness, false, "a cycle of configurations outside L"},
		{invariants.NoFairness, true, "a shortest cycle of configurations outside L"},
		{invariants.WeakFairness, false, "a weakly fair cycle of configurations outside L"},
		{invariants.StrongFairness, true, "a shortest strongly fair cycle of configurations outside L"},
		{invariants.WeakActionFairness, false, "a cycle of configurations outside L, weakly fair per action"},
		{invariants.StrongActionFairness, true, "a shortest cycle of configurations outside L, strongly fair per action"},
	}
	for _, tt := range tests {
		if got := invariants.FairCycle(tt.fairness, tt.shortest); got != tt.want {
			t.Errorf("%s, shortest %v: %q, want %q", tt.fairness, tt.shortest, got, tt.want)
		}
	}
}

// TestConvergenceFromEmptyChannelsRefuses: a spec without channels, and
// any property but convergence, are refused, naming From.
func TestConvergenceFromEmptyChannelsRefuses(t *testing.T) {
	rearm, _ := rearmer(t, model.Drop)
	for name, tc := range map[string]struct {
		sys   *model.System
		props []invariants.Property
	}{
		"no channels": {spinner(t, false), []invariants.Property{invariants.Convergence}},
		"closure":     {rearm, []invariants.Property{invariants.Closure}},
	} {
		_, err := invariants.Check(context.Background(), tc.sys, invariants.Options{Properties: tc.props, From: invariants.FromEmptyChannels})
		if err == nil || !strings.Contains(err.Error(), "From") {
			t.Errorf("%s: error %v, want one naming From", name, err)
		}
	}
}
