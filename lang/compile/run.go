package compile

import (
	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/model"
)

// This file compiles run receives (ir.RunRecv): the action's guard and
// the receive of the run's head are those of a receive of any of the
// run's types; its effect receives the rest of the run first.

// runLen returns a function that gives the length of the run r takes at
// the head of channel ch in the configuration st.
func (cx *actionCtx) runLen(r *ir.Receive) func(c *model.Ctx, st *model.State, ch model.ChanID) int {
	n := len(cx.spec.Messages)
	more := make([]int, n) // by model type: the field more's index, or -1
	for _, m := range cx.spec.Messages {
		more[cx.types[m.ID]] = r.Run.MoreIndex[m.ID]
	}
	return func(c *model.Ctx, st *model.State, ch model.ChanID) int {
		l := 0
		for l < st.Len(ch) {
			m := st.At(ch, l)
			i := more[c.TypeOf(m)]
			if i < 0 {
				return l
			}
			l++
			if c.Field(m, i) == 0 {
				return l
			}
		}
		return l
	}
}

// takeRun wraps the effects of an action that receives a run, whose
// head the action receives: the rest of the run is received first.
func (cx *actionCtx) takeRun(effects effect) effect {
	r := cx.action.Recv
	in, length := cx.inChannel(r.From), cx.runLen(r)
	return func(c *model.Ctx, k int) {
		ch := in(c)
		for i := length(c, c.Config(), ch); i > 1; i-- {
			c.Receive(ch)
		}
		effects(c, k)
	}
}

// forRun compiles a loop over the run: its body once per message, in
// order, the message (its letter) in the loop's slot.
func (cx *actionCtx) forRun(s *ir.ForRun, b bindings) effect {
	in, length := cx.inChannel(s.Recv.From), cx.runLen(s.Recv)
	slot, body := s.Temp.Slot, cx.stmts(s.Body, b)
	return func(c *model.Ctx, k int) {
		st, ch := c.Config(), in(c)
		for i := range length(c, st, ch) {
			c.Scratch(slot + 1)[slot] = int(st.At(ch, i))
			body(c, k)
		}
	}
}

// runField compiles m.f, for the run's message m.
func (cx *actionCtx) runField(e *ir.RunField) actionFn {
	index := make([]int, len(cx.spec.Messages)) // by model type
	for _, m := range cx.spec.Messages {
		index[cx.types[m.ID]] = e.Index[m.ID]
	}
	slot := e.Temp.Slot
	return func(c *model.Ctx, _ int) int {
		m := model.Msg(c.Scratch(slot + 1)[slot])
		i := index[c.TypeOf(m)]
		if i < 0 {
			return 0
		}
		return c.Field(m, i)
	}
}

// runIs compiles m is M, for the run's message m.
func (cx *actionCtx) runIs(e *ir.RunIs) actionFn {
	t, slot := cx.types[e.Msg.ID], e.Temp.Slot
	return func(c *model.Ctx, _ int) int {
		if c.TypeOf(model.Msg(c.Scratch(slot + 1)[slot])) == t {
			return 1
		}
		return 0
	}
}
