package replay_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/internal/testsys"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/replay"
	"github.com/ringcheck/ringcheck/reports"
)

// spinner is a system of two processes: process 0 spins for ever
// (x := 1-x), process 1 enters its critical section (cs := 1) and leaves
// it. Its invariant "outside" says process 1 is not in its critical
// section, its legitimacy predicate that it is; process 1 requests when
// it is not in its critical section, process 0 never. It returns the
// configurations (x, cs) = (0, 0), (1, 0) and (0, 1), the first initial.
func spinner(t *testing.T) (*model.System, [3]*model.State) {
	t.Helper()
	b := model.NewBuilder("spinner", model.UniRing, 2)
	x := b.Var("x", model.IntRange(0, 1))
	cs := b.Var("cs", model.IntRange(0, 1))
	b.Action(model.Action{Name: "spin", Guard: func(*model.Ctx) bool { return true },
		Effect: func(c *model.Ctx, _ int) { c.Set(x, 1-c.Get(x)) }}, 0)
	b.Action(model.Action{Name: "enter", Guard: func(c *model.Ctx) bool { return c.Get(cs) == 0 },
		Effect: func(c *model.Ctx, _ int) { c.Set(cs, 1) }}, 1)
	b.Action(model.Action{Name: "leave", Guard: func(c *model.Ctx) bool { return c.Get(cs) == 1 },
		Effect: func(c *model.Ctx, _ int) { c.Set(cs, 0) }}, 1)
	b.Invariant(model.Predicate{Name: "outside", Holds: func(s *model.State) bool { return s.Get(1, cs) == 0 }})
	b.Legitimate(model.Predicate{Name: "inside", Holds: func(s *model.State) bool { return s.Get(1, cs) == 1 }})
	b.ProcessPredicate(model.ProcessPredicate{Name: "requesting", Holds: func(s *model.State, p int) bool { return p == 1 && s.Get(p, cs) == 0 }})
	b.ProcessPredicate(model.ProcessPredicate{Name: "inCS", Holds: func(s *model.State, p int) bool { return s.Get(p, cs) == 1 }})
	b.Initial(func(*model.System, *model.State) {})
	sys, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	s0 := sys.Initial()[0]
	s1, s2 := s0.Clone(), s0.Clone()
	s1.Set(0, x, 1)
	s2.Set(1, cs, 1)
	return sys, [3]*model.State{s0, s1, s2}
}

// traceOf is the trace of property through states: a path, or a lasso
// whose loop starts at loopStart (>= 0) and closes back on it.
func traceOf(t *testing.T, sys *model.System, property string, loopStart int, states ...*model.State) *reports.Trace {
	t.Helper()
	through := states
	ce := &invariants.Counterexample{Kind: invariants.Path, States: states}
	if loopStart >= 0 {
		through = append(append([]*model.State(nil), states...), states[loopStart])
		ce.Kind, ce.LoopStart = invariants.Lasso, loopStart
	}
	steps, err := sys.StepsThrough(through, false)
	if err != nil {
		t.Fatal(err)
	}
	ce.Steps = steps
	return reports.NewTrace(sys, nil, property, ce)
}

// checkClaim replays tr on sys and compares with want: "" for a trace
// that shows what it claims, otherwise a part of the *replay.FalseClaim
// expected.
func checkClaim(t *testing.T, sys *model.System, tr *reports.Trace, want string) {
	t.Helper()
	err := replay.Check(sys, tr)
	switch {
	case want == "" && err != nil:
		t.Fatalf("refused: %v", err)
	case want == "":
		return
	case err == nil:
		t.Fatalf("accepted; want a false claim with %q", want)
	}
	var claim *replay.FalseClaim
	if !errors.As(err, &claim) {
		t.Fatalf("%v is not a *replay.FalseClaim", err)
	}
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("%v; want %q", err, want)
	}
}

func TestSafetyClaims(t *testing.T) {
	sys, s := spinner(t)
	for _, tc := range []struct {
		name      string
		states    []*model.State
		invariant string
		want      string
	}{
		{"an invariant false at the end", []*model.State{s[0], s[2]}, "", ""},
		{"the invariant named false at the end", []*model.State{s[0], s[2]}, "outside", ""},
		{"no invariant false at the end", []*model.State{s[0], s[1]}, "",
			"the trace claims a violation of safety, but every invariant holds in its last state (state 1)"},
		{"the invariant named holds at the end", []*model.State{s[0], s[1]}, "outside",
			"the trace claims a violation of safety: invariant outside false, but outside holds in its last state (state 1)"},
		{"an invariant the spec lacks", []*model.State{s[0], s[2]}, "elsewhere", "spinner has no invariant elsewhere (it has outside)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := traceOf(t, sys, "safety", -1, tc.states...)
			tr.Invariant = tc.invariant
			checkClaim(t, sys, tr, tc.want)
		})
	}
	t.Run("a lasso", func(t *testing.T) {
		checkClaim(t, sys, traceOf(t, sys, "safety", 0, s[0], s[2]), "it is a lasso: a violation of safety is shown by a path")
	})
}

// TestOverflowIsASafetyViolation: a trace of safety whose last step
// overflows a channel whose policy is error shows a violation, with no
// invariant false.
func TestOverflowIsASafetyViolation(t *testing.T) {
	b := model.NewBuilder("overflow", model.UniRing, 2)
	ping := b.Message("Ping")
	b.LinkChannels(1, model.Error, ping)
	var sys *model.System
	b.Action(model.Action{Name: "ping", Guard: func(*model.Ctx) bool { return true },
		Effect: func(c *model.Ctx, _ int) { c.Send(c.Out((c.P+1)%2), sys.Msg(ping)) }}, 0)
	b.Initial(func(*model.System, *model.State) {})
	var err error
	if sys, err = b.Build(); err != nil {
		t.Fatal(err)
	}
	s0 := sys.NewState()
	s1 := s0.Clone()
	s1.Push(sys.ChanBetween(0, 1), sys.Msg(ping))
	ex := sys.NewExpander()
	var overflow *model.Step
	var s2 *model.State
	if _, err := ex.Expand(s1, func(st *model.Step, next *model.State) bool {
		c := st.Clone()
		overflow, s2 = &c, next.Clone()
		return false
	}); err != nil {
		t.Fatal(err)
	}
	if !overflow.Overflow {
		t.Fatal("the second ping does not overflow")
	}
	steps, err := sys.StepsThrough([]*model.State{s0, s1}, false)
	if err != nil {
		t.Fatal(err)
	}
	ce := &invariants.Counterexample{Kind: invariants.Path, States: []*model.State{s0, s1, s2}, Steps: append(steps, *overflow)}
	checkClaim(t, sys, reports.NewTrace(sys, nil, "safety", ce), "")
	ce.States, ce.Steps = ce.States[:2], ce.Steps[:1]
	checkClaim(t, sys, reports.NewTrace(sys, nil, "safety", ce), "no last step overflows a channel whose policy is error")
}

func TestDeadlockClaims(t *testing.T) {
	sys, tr := gridTrace(t)
	checkClaim(t, sys, tr, "")
	// The last step dropped: (2,1) still has b enabled.
	tr.States, tr.Steps = tr.States[:4], tr.Steps[:3]
	checkClaim(t, sys, tr, "the trace claims a deadlock, but its last state (state 3) has 1 enabled step: p0 b")
	// From the start: two steps.
	tr.States, tr.Steps = tr.States[:1], tr.Steps[:0]
	checkClaim(t, sys, tr, "its last state (state 0) has 2 enabled steps: p0 a, p0 b")
}

// TestDeadlockAtAValidEnd: a state with no step where the spec says
// having none is no deadlock shows no deadlock.
func TestDeadlockAtAValidEnd(t *testing.T) {
	sys, st := testsys.Requests{N: 1, Once: true}.Build(t)
	s0 := sys.Initial()[0]
	var states []*model.State
	for _, v := range []int{testsys.Idle, testsys.Want, testsys.InCS, testsys.Done} {
		c := s0.Clone()
		c.Set(0, st, v)
		states = append(states, c)
	}
	checkClaim(t, sys, traceOf(t, sys, "deadlock", -1, states...), "its last state (state 3) is a valid end state (nobody waits)")
}

func TestLassoClaims(t *testing.T) {
	sys, s := spinner(t)
	one := 1
	for _, tc := range []struct {
		name, property, fairness string
		process                  *int
		want                     string
	}{
		{"starvation, no fairness", "starvation", "", &one, ""},
		{"starvation, fairness none", "starvation", "none", &one, ""},
		{"starvation, weak fairness", "starvation", "weak", &one,
			"the trace claims the starvation of process 1 under fairness weak, but its loop is not fair: process 1: enabled in every state of the loop (states 0 to 1) and never taken in it, which weak fairness forbids"},
		{"starvation, strong fairness", "starvation", "strong", &one,
			"process 1: enabled in state 0 of the loop and never taken in it, which strong fairness forbids"},
		{"starvation, weak fairness per action", "starvation", "weak-action", &one,
			"action enter of process 1: enabled in every state of the loop (states 0 to 1) and never taken in it, which weak per-action fairness forbids"},
		{"starvation of a process that does not request", "starvation", "", new(int), "process 0 is not requesting in state 0"},
		{"starvation of no process", "starvation", "", nil, `it names no "process"`},
		{"leads-to, no fairness", "leads-to", "", &one, ""},
		{"leads-to, weak fairness", "leads-to", "weak", &one, "its loop is not fair: process 1"},
		{"convergence, no fairness", "convergence", "", nil, ""},
		{"convergence, strong fairness", "convergence", "strong", nil, "its loop is not fair: process 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := traceOf(t, sys, tc.property, 0, s[0], s[1])
			tr.Fairness, tr.Process = tc.fairness, tc.process
			checkClaim(t, sys, tr, tc.want)
		})
	}
	t.Run("convergence through L", func(t *testing.T) {
		checkClaim(t, sys, traceOf(t, sys, "convergence", 0, s[0], s[2]), "state 1 is legitimate: the execution reaches L")
	})
	t.Run("convergence to a state with steps", func(t *testing.T) {
		checkClaim(t, sys, traceOf(t, sys, "convergence", -1, s[0], s[1]), "its last state (state 1) has 2 enabled steps: p0 spin, p1 enter")
	})
}

// TestFoundLassoIsFair: the lasso the starvation check finds under weak
// fairness in a system where a waiting process can be overtaken for ever
// shows starvation under weak fairness, and not under strong fairness,
// which forbids the overtaking.
func TestFoundLassoIsFair(t *testing.T) {
	sys, _ := testsys.Requests{N: 2}.Build(t)
	rep, err := invariants.Check(context.Background(), sys, invariants.Options{
		Properties: []invariants.Property{invariants.Starvation}, Fairness: invariants.WeakFairness,
		Search: explore.Options{Workers: 1},
	})
	if err != nil {
		t.Fatal(err)
	}
	o := rep.Outcomes[0]
	if o.Verdict != invariants.Violated || o.Counterexample.Kind != invariants.Lasso {
		t.Fatalf("starvation %s (%s); want a lasso", o.Verdict, o.Reason)
	}
	tr := reports.NewTrace(sys, nil, "starvation", o.Counterexample)
	tr.Fairness = "weak"
	checkClaim(t, sys, tr, "")
	tr.Fairness = "strong"
	checkClaim(t, sys, tr, "which strong fairness forbids")
}

func TestClosureClaims(t *testing.T) {
	sys, s := spinner(t)
	out := traceOf(t, sys, "closure", -1, s[2], s[0])
	out.Start = "all"
	checkClaim(t, sys, out, "")
	checkClaim(t, sys, traceOf(t, sys, "closure", -1, s[0], s[2]), "state 0, where its last step starts, is not legitimate")
	checkClaim(t, sys, traceOf(t, sys, "closure", -1, s[0]), "it has no step to leave L")
	// Narrowed to the configurations where process 0's x is 1, closure is
	// not decided from s[2] (x = 0), so a step from it violates nothing.
	sys.ClosureFrom = &model.Predicate{Name: "closure-from", Holds: func(st *model.State) bool { return st.Get(0, 0) == 1 }}
	checkClaim(t, sys, out, "state 0, where its last step starts, is not one closure is decided from")
}

func TestWitnessClaims(t *testing.T) {
	sys, s := spinner(t)
	checkClaim(t, sys, traceOf(t, sys, "stabilization", -1, s[0], s[1], s[0], s[2]), "")
	checkClaim(t, sys, traceOf(t, sys, "stabilization", -1, s[0], s[1]),
		"the trace claims a witness of stabilization: a path to L, but its last state (state 1) is not legitimate")
	checkClaim(t, sys, traceOf(t, sys, "stabilization", -1, s[0], s[2], s[0], s[2]), "state 1, before its last, is legitimate already")
}
