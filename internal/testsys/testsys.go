// Package testsys builds small systems whose state graphs are known, for
// the tests of the engines and the graph analyses.
package testsys

import (
	"testing"

	"github.com/ringcheck/ringcheck/model"
)

// Grid is a system whose state graph is known: one process with variables
// a and b in 0..size-1 and two actions, a := a+1 and b := b+1 (when below
// the maximum). From (0,0) every (a,b) is reachable, at depth a+b, and the
// only state with no successor is (size-1, size-1). Grid returns the
// system and the ids of a and b, and fails t if the system does not build.
func Grid(t testing.TB, size int) (*model.System, model.VarID, model.VarID) {
	t.Helper()
	b := model.NewBuilder("grid", model.UniRing, 1)
	va := b.Var("a", model.IntRange(0, size-1))
	vb := b.Var("b", model.IntRange(0, size-1))
	for _, v := range []model.VarID{va, vb} {
		b.Action(model.Action{
			Name:   b.Name(v),
			Guard:  func(c *model.Ctx) bool { return c.Get(v) < size-1 },
			Effect: func(c *model.Ctx, _ int) { c.Set(v, c.Get(v)+1) },
		})
	}
	b.Initial(func(*model.System, *model.State) {})
	sys, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return sys, va, vb
}

// The local states of Requests' processes.
const (
	Idle = iota
	Want
	InCS
	Done
)

// Requests is a system of one or two processes that request (an optional
// environment step), enter their critical section when the other is not
// in its own (a protocol step, with no turn: a waiting process can be
// overtaken for ever) and leave it (a finite environment step), with the
// per-process predicates requesting and inCS.
type Requests struct {
	// N is the number of processes, 1 or 2.
	N int
	// Once makes a process that leaves done (Done), so that every
	// execution is finite; otherwise it is idle and may request again.
	Once bool
	// NeverLegitimate declares a legitimacy predicate that never holds,
	// for searches that must run as long as they may.
	NeverLegitimate bool
}

// Build builds the system and returns it with the id of the variable st
// (Idle, Want, InCS, and Done with Once), failing t if it does not
// build.
func (r Requests) Build(t testing.TB) (*model.System, model.VarID) {
	t.Helper()
	top := model.BiRing
	if r.N == 1 {
		top = model.UniRing
	}
	b := model.NewBuilder("requests", top, r.N)
	states, after := []string{"idle", "want", "cs"}, Idle
	if r.Once {
		states, after = append(states, "done"), Done
	}
	st := b.Var("st", model.Enum(states...))
	b.Action(model.Action{
		Name: "request", Kind: model.Environment, Liveness: model.Optional,
		Guard:  func(c *model.Ctx) bool { return c.Get(st) == Idle },
		Effect: func(c *model.Ctx, _ int) { c.Set(st, Want) },
	})
	b.Action(model.Action{
		Name:   "enter",
		Guard:  func(c *model.Ctx) bool { return c.Get(st) == Want && (r.N == 1 || c.Read(1-c.P, st) != InCS) },
		Effect: func(c *model.Ctx, _ int) { c.Set(st, InCS) },
	})
	b.Action(model.Action{
		Name: "leave", Kind: model.Environment, Liveness: model.Finite,
		Guard:  func(c *model.Ctx) bool { return c.Get(st) == InCS },
		Effect: func(c *model.Ctx, _ int) { c.Set(st, after) },
	})
	b.ProcessPredicate(model.ProcessPredicate{Name: "requesting", Holds: func(s *model.State, p int) bool { return s.Get(p, st) == Want }})
	b.ProcessPredicate(model.ProcessPredicate{Name: "inCS", Holds: func(s *model.State, p int) bool { return s.Get(p, st) == InCS }})
	b.ValidEnd(model.Predicate{Name: "nobody waits", Holds: func(s *model.State) bool {
		for p := range r.N {
			if v := s.Get(p, st); v == Want || v == InCS {
				return false
			}
		}
		return true
	}})
	if r.NeverLegitimate {
		b.Legitimate(model.Predicate{Name: "never", Holds: func(*model.State) bool { return false }})
	}
	b.Initial(func(*model.System, *model.State) {})
	sys, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return sys, st
}

// Chains is a system whose initial state spreads to w states in one step,
// each the head of a chain of depth-1 more steps: levels of w states, far
// wider than a round of the breadth-first search. It fails t if the
// system does not build.
func Chains(t testing.TB, w, depth int) *model.System {
	t.Helper()
	b := model.NewBuilder("chains", model.UniRing, 1)
	l := b.Var("l", model.IntRange(0, depth))
	x := b.Var("x", model.IntRange(0, w-1))
	b.Action(model.Action{Name: "spread", Choices: w,
		Guard:  func(c *model.Ctx) bool { return c.Get(l) == 0 },
		Effect: func(c *model.Ctx, ch int) { c.Set(l, 1); c.Set(x, ch) }})
	b.Action(model.Action{Name: "advance",
		Guard:  func(c *model.Ctx) bool { return c.Get(l) >= 1 && c.Get(l) < depth },
		Effect: func(c *model.Ctx, _ int) { c.Set(l, c.Get(l)+1) }})
	b.Initial(func(*model.System, *model.State) {})
	sys, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return sys
}
