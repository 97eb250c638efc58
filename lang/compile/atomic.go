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

// reads reports whether e reads local l.
func reads(e ir.Expr, l *ir.Local) bool {
	found := false
	ir.Inspect(e, func(x ir.Expr) bool {
		if r, ok := x.(*ir.LocalRef); ok && r.Local == l {
			found = true
		}
		return !found
	})
	return found
}
