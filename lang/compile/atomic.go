package compile

import (
	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/model"
)

// This file compiles what atomic actions, guards that depend on the
// choice and receives of any type add to an action.

// assignAt compiles x[Q] := E in an atomic action: the assignment of
// variable x of process Q. A Q not linked to the acting process, or a
// variable the step assigns twice, fails the step with the assignment's
// place.
func (cx *actionCtx) assignAt(s *ir.AssignAt, b bindings) effect {
	id := cx.vars[s.Var.ID]
	to, val := cx.proc(s.Proc, b), cx.expr(s.Value, b)
	fault := cx.faultAt(s.Pos)
	return func(c *model.Ctx, k int) {
		if err := c.SetOf(to(c, k), id, val(c, k)); err != nil {
			c.Fail(fault("%v", err))
		}
	}
}

// general sets the guard and effect of act in the cases the common ones
// of action do not cover: a guard that depends on the choice (perChoice:
// alternative i is a step where the guard holds with the choice lo+i, and
// the action is enabled where one is), and a receive of any type but
// some. guard and effects are the action's compiled guard and effects,
// in the channel it receives on (nil: its predecessor's, or none).
func (cx *actionCtx) general(act *model.Action, guard actionFn, effects effect, in func(*model.Ctx) model.ChanID, lo int, perChoice bool) {
	r := cx.action.Recv
	// head returns the message the action would receive, and whether
	// the channel's head is one it takes (always, without a receive).
	head := func(*model.Ctx) (model.Msg, bool) { return 0, true }
	if r != nil {
		if in == nil {
			in = func(c *model.Ctx) model.ChanID { return c.In(c.Pred()) }
		}
		if !r.Any {
			t := cx.types[r.Msg.ID]
			head = func(ctx *model.Ctx) (model.Msg, bool) {
				m, ok := ctx.Head(in(ctx))
				return m, ok && ctx.TypeOf(m) == t
			}
		} else {
			accepted := cx.accepted(r)
			head = func(ctx *model.Ctx) (model.Msg, bool) {
				m, ok := ctx.Head(in(ctx))
				return m, ok && accepted[ctx.TypeOf(m)]
			}
		}
	}
	choices := act.Choices
	if choices < 1 {
		choices = 1
	}
	if perChoice {
		act.Allows = func(ctx *model.Ctx, i int) bool {
			m, ok := head(ctx)
			return ok && guard(ctx, frame(lo+i, m)) != 0
		}
		act.Guard = func(ctx *model.Ctx) bool {
			m, ok := head(ctx)
			if !ok {
				return false
			}
			for i := range choices {
				if guard(ctx, frame(lo+i, m)) != 0 {
					return true
				}
			}
			return false
		}
	} else {
		act.Guard = func(ctx *model.Ctx) bool {
			m, ok := head(ctx)
			return ok && guard(ctx, frame(0, m)) != 0
		}
	}
	if r == nil {
		act.Effect = func(ctx *model.Ctx, i int) { effects(ctx, frame(lo+i, 0)) }
		return
	}
	act.Effect = func(ctx *model.Ctx, i int) {
		m := ctx.Receive(in(ctx))
		effects(ctx, frame(lo+i, m))
	}
}

// maxSpecialized bounds the alternatives of an action compiled once each
// (specialize).
const maxSpecialized = 16

// maxSpecializedNodes bounds the closures an action compiled once per
// alternative may take; past it, it is compiled once for all of them, so
// that specializing never brings a spec to the compiler's bound on nodes
// (maxNodes).
const maxSpecializedNodes = maxNodes / 64

// specializable reports whether the action's alternatives are compiled
// one by one, the choice parameter a constant in each: an action with a
// choice parameter of at most maxSpecialized values that does not
// receive a message of any type or a run.
func (cx *actionCtx) specializable() bool {
	a := cx.action
	if a.Choice == nil || cx.noFused || a.Choice.Hi-a.Choice.Lo+1 > maxSpecialized {
		return false
	}
	return a.Recv == nil || (!a.Recv.Any && a.Recv.Run == nil)
}

// specialize compiles the guard and the effects of each alternative of
// the action with its choice parameter bound to the alternative's value,
// so that what it indexes (an array's entry, a channel, a peer) is known
// at compile time, and sets act's Guard, Allows and Effect. A guard (or
// the process received from) that reads the choice parameter is an
// Allows per alternative, the Guard holding where one does; any other is
// compiled once, as Guard.
func (cx *actionCtx) specialize(act *model.Action, lo int) {
	a, r := cx.action, cx.action.Recv
	perChoice := ir.Reads(a.Guard, a.Choice) || (r != nil && ir.Reads(r.From, a.Choice))
	n := act.Choices
	// head returns the message alternative i receives, and whether the
	// head of its channel is one (always, without a receive).
	heads := make([]func(*model.Ctx) (model.Msg, bool), n)
	guards := make([]actionFn, n)
	effects := make([]effect, n)
	for i := range n {
		b := bindings{a.Choice: lo + i}
		cx.guard = true
		if perChoice || i == 0 {
			guards[i] = cx.expr(a.Guard, b)
			heads[i] = cx.head(r, b)
		} else {
			guards[i], heads[i] = guards[0], heads[0]
		}
		cx.guard = false
		effects[i] = cx.stmts(a.Effects, b)
	}
	if perChoice {
		act.Allows = func(ctx *model.Ctx, i int) bool {
			m, ok := heads[i](ctx)
			return ok && guards[i](ctx, frame(lo+i, m)) != 0
		}
		act.Guard = func(ctx *model.Ctx) bool {
			for i := range n {
				if m, ok := heads[i](ctx); ok && guards[i](ctx, frame(lo+i, m)) != 0 {
					return true
				}
			}
			return false
		}
	} else {
		head, guard := heads[0], guards[0]
		act.Guard = func(ctx *model.Ctx) bool {
			m, ok := head(ctx)
			return ok && guard(ctx, frame(lo, m)) != 0
		}
		if g := cx.chainGuard(a.Guard); g != nil && r == nil {
			act.Guard = g
		}
	}
	if r == nil {
		act.Effect = func(ctx *model.Ctx, i int) { effects[i](ctx, frame(lo+i, 0)) }
		return
	}
	ins := make([]func(*model.Ctx) model.ChanID, n)
	for i := range n {
		ins[i] = cx.inChannelOf(r.From, bindings{a.Choice: lo + i})
	}
	act.Effect = func(ctx *model.Ctx, i int) {
		m := ctx.Receive(ins[i](ctx))
		effects[i](ctx, frame(lo+i, m))
	}
}

// head compiles what a receive r (nil: none) finds at the head of its
// channel, with the bindings b: the message, and whether it is one r
// takes (always, without a receive).
func (cx *actionCtx) head(r *ir.Receive, b bindings) func(*model.Ctx) (model.Msg, bool) {
	if r == nil {
		return func(*model.Ctx) (model.Msg, bool) { return 0, true }
	}
	in, t := cx.inChannelOf(r.From, b), cx.types[r.Msg.ID]
	return func(ctx *model.Ctx) (model.Msg, bool) {
		m, ok := ctx.Head(in(ctx))
		return m, ok && ctx.TypeOf(m) == t
	}
}
