package invariants_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/internal/testsys"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
)

// greedy: two processes share a critical section with no turn: a waiting
// process enters whenever the other is not inside. Process 0 can re-request
// and re-enter forever while process 1 waits: its entry is enabled
// infinitely often but not continuously, so weak fairness allows the
// starvation and strong fairness forbids it.
func greedy(t *testing.T) (*model.System, model.VarID) {
	t.Helper()
	return testsys.Requests{N: 2}.Build(t)
}

func TestStarvationUnderFairness(t *testing.T) {
	sys, _ := greedy(t)
	for _, tt := range []struct {
		fairness invariants.Fairness
		verdict  invariants.Verdict
	}{
		{invariants.NoFairness, invariants.Violated},
		{invariants.WeakFairness, invariants.Violated},
		{invariants.StrongFairness, invariants.Holds},
	} {
		o := starvation(t, sys, tt.fairness)
		if o.Verdict != tt.verdict {
			t.Fatalf("%s fairness: %s (%s), want %s", tt.fairness, o.Verdict, o.Reason, tt.verdict)
		}
		if o.Verdict == invariants.Violated {
			CheckStarvationLasso(t, sys, o.Counterexample, o.Starving[0], tt.fairness)
		}
	}
}

// starvation checks starvation on sys from its initial states under
// fairness, with two workers.
func starvation(t *testing.T, sys *model.System, fairness invariants.Fairness) invariants.Outcome {
	t.Helper()
	rep, err := invariants.Check(context.Background(), sys, invariants.Options{
		Properties: []invariants.Property{invariants.Starvation},
		From:       invariants.FromInit,
		Fairness:   fairness,
		Search:     explore.Options{Workers: 2},
	})
	if err != nil {
		t.Fatal(err)
	}
	return rep.Outcomes[0]
}

// CheckStarvationLasso checks a starvation counterexample: a real
// execution from an initial state, a lasso whose cycle closes, the
// starving process requesting and outside its critical section throughout
// the cycle, and the cycle fair: every process's scheduled actions under
// the chosen fairness, its finite actions under at least weak fairness.
func CheckStarvationLasso(t *testing.T, sys *model.System, ce *invariants.Counterexample, p int, fairness invariants.Fairness) {
	t.Helper()
	if ce == nil || ce.Kind != invariants.Lasso || len(ce.Steps) != len(ce.States) {
		t.Fatalf("want a lasso, got %+v", ce)
	}
	isInit := false
	for _, s := range sys.Initial() {
		isInit = isInit || s.Equal(ce.States[0])
	}
	if !isInit {
		t.Fatal("the lasso does not start in an initial configuration")
	}
	if err := ce.Replay(sys); err != nil {
		t.Fatal(err)
	}
	ex := sys.NewExpander()
	req, _ := sys.ProcessPredicateByName("requesting")
	cs, _ := sys.ProcessPredicateByName("inCS")
	type role struct {
		proc int
		l    model.Liveness
	}
	enabledEverywhere := map[role]bool{}
	enabledSomewhere := map[role]bool{}
	taken := map[role]bool{}
	for q := 0; q < sys.N(); q++ {
		for _, l := range []model.Liveness{model.Scheduled, model.Finite} {
			enabledEverywhere[role{q, l}] = true
		}
	}
	for i := ce.LoopStart; i < len(ce.States); i++ {
		s := ce.States[i]
		if !req.Holds(s, p) || cs.Holds(s, p) {
			t.Fatalf("process %d does not wait in state %d of the cycle", p, i)
		}
		here := map[role]bool{}
		if _, err := ex.Expand(s, func(step *model.Step, _ *model.State) bool {
			for _, m := range step.Moves {
				here[role{int(m.Proc), sys.Processes[m.Proc].Actions[m.Action].Liveness}] = true
			}
			return true
		}); err != nil {
			t.Fatal(err)
		}
		for r := range enabledEverywhere {
			enabledEverywhere[r] = enabledEverywhere[r] && here[r]
			enabledSomewhere[r] = enabledSomewhere[r] || here[r]
		}
		for _, m := range ce.Steps[i].Moves {
			taken[role{int(m.Proc), sys.Processes[m.Proc].Actions[m.Action].Liveness}] = true
		}
	}
	for r := range enabledEverywhere {
		f := fairness
		if r.l == model.Finite && f == invariants.NoFairness {
			f = invariants.WeakFairness
		}
		switch {
		case f == invariants.WeakFairness && enabledEverywhere[r] && !taken[r]:
			t.Fatalf("the cycle is not weakly fair to process %d's %v actions", r.proc, r.l)
		case f == invariants.StrongFairness && enabledSomewhere[r] && !taken[r]:
			t.Fatalf("the cycle is not strongly fair to process %d's %v actions", r.proc, r.l)
		}
	}
}

// TestLeavingIsAlwaysFair: under no fairness a process may still not stay
// in its critical section forever: a cycle in which process 0 sits in its
// critical section while process 1 waits is not a counterexample, because
// leaving is a finite action. The greedy lock's counterexamples all have
// process 0 leave.
func TestLeavingIsAlwaysFair(t *testing.T) {
	sys, st := greedy(t)
	rep, err := invariants.Check(context.Background(), sys, invariants.Options{
		Properties: []invariants.Property{invariants.Starvation},
		From:       invariants.FromInit,
		Fairness:   invariants.NoFairness,
	})
	if err != nil {
		t.Fatal(err)
	}
	ce := rep.Outcomes[0].Counterexample
	left := false
	for i := ce.LoopStart; i < len(ce.States); i++ {
		left = left || ce.States[i].Get(0, st) != 2
	}
	if !left {
		t.Fatal("the starvation cycle keeps process 0 in its critical section forever")
	}
}

func TestLeadsTo(t *testing.T) {
	sys, _ := greedy(t)
	for _, tt := range []struct {
		lt       invariants.LeadsTo
		fairness invariants.Fairness
		verdict  invariants.Verdict
	}{
		// The same as starvation: strong fairness forces the entry.
		{invariants.LeadsTo{From: "requesting", To: "inCS"}, invariants.WeakFairness, invariants.Violated},
		{invariants.LeadsTo{From: "requesting", To: "inCS"}, invariants.StrongFairness, invariants.Holds},
		// Leaving is finite, so a process in its critical section always
		// stops being in it; but requesting again is optional.
		{invariants.LeadsTo{From: "inCS", To: "requesting"}, invariants.StrongFairness, invariants.Violated},
	} {
		rep, err := invariants.Check(context.Background(), sys, invariants.Options{
			Properties: []invariants.Property{invariants.LeadsToProperty},
			From:       invariants.FromInit,
			Fairness:   tt.fairness,
			LeadsTo:    tt.lt,
		})
		if err != nil {
			t.Fatal(err)
		}
		o := rep.Outcomes[0]
		if o.Verdict != tt.verdict {
			t.Fatalf("%v under %s fairness: %s, want %s", tt.lt, tt.fairness, o.Verdict, tt.verdict)
		}
		if o.Verdict != invariants.Violated {
			continue
		}
		// The counterexample passes through a From state and then never
		// meets To: check it on the states after the first From state.
		ce := o.Counterexample
		p := *ce.Process
		from, _ := sys.ProcessPredicateByName(tt.lt.From)
		to, _ := sys.ProcessPredicateByName(tt.lt.To)
		first := -1
		for i, s := range ce.States {
			if from.Holds(s, p) && !to.Holds(s, p) {
				first = i
				break
			}
		}
		if first < 0 || first > ce.LoopStart {
			t.Fatalf("%v: no %s state before the loop", tt.lt, tt.lt.From)
		}
		for i := first; i < len(ce.States); i++ {
			if to.Holds(ce.States[i], p) {
				t.Fatalf("%v: %s holds in state %d after the %s state %d", tt.lt, tt.lt.To, i, tt.lt.From, first)
			}
		}
	}
}

// TestStarvationOverFiniteExecutions: a liveness verdict that holds says
// so when every execution is finite, and only then.
func TestStarvationOverFiniteExecutions(t *testing.T) {
	greedySys, _ := greedy(t)
	onceSys, _ := testsys.Requests{N: 2, Once: true}.Build(t)
	for _, tt := range []struct {
		name   string
		sys    *model.System
		reason string
	}{
		{"one request each", onceSys, invariants.FiniteExecutions},
		{"requests forever", greedySys, ""},
	} {
		rep, err := invariants.Check(context.Background(), tt.sys, invariants.Options{
			Properties: []invariants.Property{invariants.Starvation},
			From:       invariants.FromInit,
			Fairness:   invariants.StrongFairness,
		})
		if err != nil {
			t.Fatal(err)
		}
		o := rep.Outcomes[0]
		if o.Verdict != invariants.Holds || o.Reason != tt.reason {
			t.Errorf("%s: starvation %s, reason %q; want holds, reason %q", tt.name, o.Verdict, o.Reason, tt.reason)
		}
	}
}

// oneProcess builds one process that requests (optional), enters and
// leaves (finite), with the predicates requesting and inCS; more adds to
// the builder, given the variable st (0 idle, 1 requesting, 2 inside).
func oneProcess(t *testing.T, name string, more func(b *model.Builder, st model.VarID)) *model.System {
	t.Helper()
	b := model.NewBuilder(name, model.UniRing, 1)
	st := b.Var("st", model.Enum("idle", "want", "cs"))
	step := func(name string, kind model.ActionKind, role model.Liveness, from, to int) {
		b.Action(model.Action{Name: name, Kind: kind, Liveness: role,
			Guard:  func(c *model.Ctx) bool { return c.Get(st) == from },
			Effect: func(c *model.Ctx, _ int) { c.Set(st, to) }})
	}
	step("request", model.Environment, model.Optional, 0, 1)
	step("enter", model.Protocol, model.Scheduled, 1, 2)
	step("leave", model.Environment, model.Finite, 2, 0)
	b.ProcessPredicate(model.ProcessPredicate{Name: "requesting", Holds: func(s *model.State, p int) bool { return s.Get(p, st) == 1 }})
	b.ProcessPredicate(model.ProcessPredicate{Name: "inCS", Holds: func(s *model.State, p int) bool { return s.Get(p, st) == 2 }})
	more(b, st)
	b.Initial(func(*model.System, *model.State) {})
	sys, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// busy: one process that, once requesting, can enter its critical section
// (a step continuously enabled while it waits) or keep ticking a counter
// of its own (another scheduled action). Per-process fairness is met by
// ticking for ever, so the process may starve under weak and strong
// fairness; fairness per action obliges the entry.
func busy(t *testing.T) *model.System {
	t.Helper()
	return oneProcess(t, "busy", func(b *model.Builder, _ model.VarID) {
		tick := b.Var("tick", model.IntRange(0, 1))
		b.Action(model.Action{
			Name:   "tick",
			Guard:  func(c *model.Ctx) bool { return true },
			Effect: func(c *model.Ctx, _ int) { c.Set(tick, 1-c.Get(tick)) },
		})
	})
}

// TestFairnessPerAction: per process, a process that keeps moving by one
// action is treated fairly though another stays enabled; per action, each
// enabled action must be taken (weakly: if continuously enabled; strongly:
// if infinitely often enabled).
func TestFairnessPerAction(t *testing.T) {
	for _, tt := range []struct {
		name     string
		sys      func(*testing.T) *model.System
		fairness invariants.Fairness
		verdict  invariants.Verdict
	}{
		{"busy, weak", busy, invariants.WeakFairness, invariants.Violated},
		{"busy, strong", busy, invariants.StrongFairness, invariants.Violated},
		{"busy, weak-action", busy, invariants.WeakActionFairness, invariants.Holds},
		{"busy, strong-action", busy, invariants.StrongActionFairness, invariants.Holds},
		{"greedy, weak-action", func(t *testing.T) *model.System { s, _ := greedy(t); return s }, invariants.WeakActionFairness, invariants.Violated},
		{"greedy, strong-action", func(t *testing.T) *model.System { s, _ := greedy(t); return s }, invariants.StrongActionFairness, invariants.Holds},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sys := tt.sys(t)
			o := starvation(t, sys, tt.fairness)
			if o.Verdict != tt.verdict {
				t.Fatalf("%s (%s), want %s", o.Verdict, o.Reason, tt.verdict)
			}
			if o.Verdict == invariants.Violated {
				if err := o.Counterexample.Replay(sys); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// TestBrokenAbstractionLeavesLivenessUnknown: a liveness verdict over
// reachable states where an invariant the model's abstraction rests on
// fails is unknown, whatever the graph says; the same invariant without
// the mark leaves the verdict as the graph decides it.
func TestBrokenAbstractionLeavesLivenessUnknown(t *testing.T) {
	for _, tt := range []struct {
		abstraction bool
		want        invariants.Verdict
	}{
		{false, invariants.Holds},
		{true, invariants.Unknown},
	} {
		sys := oneProcess(t, "guarded", func(b *model.Builder, st model.VarID) {
			b.Invariant(model.Predicate{Name: "never-inside", Holds: func(s *model.State) bool { return s.Get(0, st) != 2 }, Abstraction: tt.abstraction})
		})
		if o := starvation(t, sys, invariants.WeakFairness); o.Verdict != tt.want {
			t.Errorf("abstraction %v: starvation %s (%s), want %s", tt.abstraction, o.Verdict, o.Reason, tt.want)
		}
	}
}

// asker: process 0 requests (an optional environment step), asks process
// 1 for the critical section with a Req once the channel 0→1 (capacity 1,
// policy policy) has room, and enters when process 1's Grant arrives;
// process 1 discards Junk and grants every Req. The channel starts with
// one Junk. With lossy, the request sends its Req itself, into the full
// channel, where it is lost or overflows; otherwise a one-shot noise
// action of process 0 sends a Junk whenever it likes, which overflows
// when the channel is full, and nothing else is lost.
func asker(t *testing.T, policy model.Overflow, lossy bool) *model.System {
	t.Helper()
	b := model.NewBuilder("asker", model.UniRing, 2)
	const idle, want, cs = 0, 1, 2
	st := b.Var("st", model.IntRange(idle, cs), 0)
	asked := b.Var("asked", model.IntRange(0, 1), 0)
	noise := b.Var("noise", model.IntRange(0, 1), 0)
	req, grant, junk := b.Message("Req"), b.Message("Grant"), b.Message("Junk")
	down := b.Channel(model.Channel{From: 0, To: 1, Capacity: 1, Overflow: policy})
	b.Channel(model.Channel{From: 1, To: 0, Capacity: 1, Overflow: model.Block})
	b.Action(model.Action{
		Name: "request", Kind: model.Environment, Liveness: model.Optional,
		Guard: func(c *model.Ctx) bool { return c.Get(st) == idle },
		Effect: func(c *model.Ctx, _ int) {
			c.Set(st, want)
			if lossy {
				c.Set(asked, 1)
				c.Send(c.Out(1), c.Msg(req))
			}
		},
	}, 0)
	b.Action(model.Action{
		Name: "ask",
		Guard: func(c *model.Ctx) bool {
			return c.Get(st) == want && c.Get(asked) == 0 && c.Config().Len(down) == 0
		},
		Effect: func(c *model.Ctx, _ int) {
			c.Set(asked, 1)
			c.Send(c.Out(1), c.Msg(req))
		},
	}, 0)
	b.Action(model.Action{
		Name:  "noise",
		Guard: func(c *model.Ctx) bool { return !lossy && c.Get(noise) == 0 },
		Effect: func(c *model.Ctx, _ int) {
			c.Set(noise, 1)
			c.Send(c.Out(1), c.Msg(junk))
		},
	}, 0)
	b.Action(model.Action{
		Name:   "enter",
		Guard:  func(c *model.Ctx) bool { return c.HeadIs(c.In(1), grant) },
		Effect: func(c *model.Ctx, _ int) { c.Receive(c.In(1)); c.Set(st, cs); c.Set(asked, 0) },
	}, 0)
	b.Action(model.Action{
		Name: "leave", Kind: model.Environment, Liveness: model.Finite,
		Guard:  func(c *model.Ctx) bool { return c.Get(st) == cs },
		Effect: func(c *model.Ctx, _ int) { c.Set(st, idle) },
	}, 0)
	b.Action(model.Action{
		Name:   "discard",
		Guard:  func(c *model.Ctx) bool { return c.HeadIs(c.In(0), junk) },
		Effect: func(c *model.Ctx, _ int) { c.Receive(c.In(0)) },
	}, 1)
	b.Action(model.Action{
		Name:   "grant",
		Guard:  func(c *model.Ctx) bool { return c.HeadIs(c.In(0), req) },
		Effect: func(c *model.Ctx, _ int) { c.Receive(c.In(0)); c.Send(c.Out(0), c.Msg(grant)) },
	}, 1)
	b.ProcessPredicate(model.ProcessPredicate{Name: "requesting", Holds: func(s *model.State, p int) bool { return p == 0 && s.Get(p, st) == want }})
	b.ProcessPredicate(model.ProcessPredicate{Name: "inCS", Holds: func(s *model.State, p int) bool { return p == 0 && s.Get(p, st) == cs }})
	b.Initial(func(sys *model.System, s *model.State) { s.Push(down, sys.Msg(junk)) })
	sys, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// TestStarvationThroughFaults: a step that overflows a channel whose
// policy is error leaves the model. Under that policy a starvation
// violation whose lasso takes such a step is unknown (where a dropped
// Req violates, and a blocked one waits for room and holds), and a
// verdict that would hold over the graph is unknown while such a step is
// reachable (where the drop policy holds).
func TestStarvationThroughFaults(t *testing.T) {
	for _, tt := range []struct {
		policy  model.Overflow
		lossy   bool
		verdict invariants.Verdict
		reason  string
	}{
		{model.Error, true, invariants.Unknown, ", but the execution found takes a step that overflows a channel whose policy is error (or leaves a variable's domain), which leaves the model (safety reports it)"},
		{model.Drop, true, invariants.Violated, ""},
		{model.Block, true, invariants.Holds, ""},
		{model.Error, false, invariants.Unknown, "a reachable step overflows a channel whose policy is error (or leaves a variable's domain), so some executions leave the model and starvation is not decided (safety shows a path)"},
		{model.Drop, false, invariants.Holds, ""},
	} {
		o := starvation(t, asker(t, tt.policy, tt.lossy), invariants.WeakFairness)
		if o.Verdict != tt.verdict || !strings.HasSuffix(o.Reason, tt.reason) {
			t.Errorf("%s, lossy %v: %s (%s), want %s (…%s)", tt.policy, tt.lossy, o.Verdict, o.Reason, tt.verdict, tt.reason)
		}
	}
}

// TestStarvationStoppedInTheAnalysis: a limit (here Ctrl-C) that stops the
// starvation analysis after a complete search leaves starvation unknown
// and marks the search as stopped by it, so that the report says it was
// cut; safety, decided by the search alone, still holds, though asked for
// after starvation.
func TestStarvationStoppedInTheAnalysis(t *testing.T) {
	const size = 1 << 16
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	b := model.NewBuilder("turning", model.UniRing, 1)
	x := b.Var("x", model.IntRange(0, size-1))
	b.Action(model.Action{Name: "turn", Guard: func(*model.Ctx) bool { return true }, Effect: func(c *model.Ctx, _ int) { c.Set(x, (c.Get(x)+1)%size) }})
	b.Invariant(model.Predicate{Name: "in range", Holds: func(s *model.State) bool { return s.Get(0, x) < size }})
	// The search does not evaluate the per-process predicates; the
	// analysis after it does.
	var once sync.Once
	b.ProcessPredicate(model.ProcessPredicate{Name: "requesting", Holds: func(s *model.State, p int) bool {
		once.Do(cancel)
		return s.Get(p, x) != 0
	}})
	b.ProcessPredicate(model.ProcessPredicate{Name: "inCS", Holds: func(s *model.State, p int) bool { return s.Get(p, x) == 0 }})
	b.Initial(func(*model.System, *model.State) {})
	sys, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	rep, err := invariants.Check(ctx, sys, invariants.Options{Properties: []invariants.Property{invariants.Starvation, invariants.Safety}})
	if err != nil {
		t.Fatal(err)
	}
	if o := rep.Outcomes[0]; o.Verdict != invariants.Unknown || o.Reason != "interrupted" {
		t.Errorf("starvation %s (%s), want unknown (interrupted)", o.Verdict, o.Reason)
	}
	if o := rep.Outcomes[1]; o.Verdict != invariants.Holds {
		t.Errorf("safety %s (%s), want holds", o.Verdict, o.Reason)
	}
	if rep.Search.Stop != explore.Interrupted || rep.Search.States != size {
		t.Errorf("the search stopped on %v after %d states, want interrupted after %d", rep.Search.Stop, rep.Search.States, size)
	}
}
