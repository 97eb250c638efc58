package compile

import (
	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/model"
)

// This file compiles the quantifiers over a channel's messages (ir.MsgQuant
// and the fields they bind, ir.MsgField), unrolled over the positions of
// the channel as a quantifier over processes is over the processes, and
// the receive of a message of any type but some.

// msgPart is one position of a quantifier over a channel's messages: it
// reports whether the channel holds a message of the quantifier's type
// there.
type msgPart struct {
	i      int
	filter model.MsgType // -1: every type
}

// holds reports whether channel ch of s holds a message at the part's
// position, of its type.
func (m msgPart) holds(s *model.State, ch model.ChanID) bool {
	if ch < 0 || s.Len(ch) <= m.i {
		return false
	}
	return m.filter < 0 || s.TypeOf(s.At(ch, m.i)) == m.filter
}

// msgParts lists the positions a quantifier over a channel unrolls.
func (c *compiler) msgParts(e *ir.MsgQuant) []msgPart {
	filter := model.MsgType(-1)
	if e.Msg != nil {
		filter = c.types[e.Msg.ID]
	}
	capacity := 0
	if c.spec.Channels != nil {
		capacity = c.spec.Channels.Capacity
	}
	parts := make([]msgPart, capacity)
	for i := range parts {
		parts[i] = msgPart{i, filter}
	}
	return parts
}

// neutral is what a position the channel does not fill adds to a
// quantifier of kind: nothing to a count or a sum, true to a forall,
// false to an exists.
func neutral(kind string) int {
	if kind == "forall" {
		return 1
	}
	return 0
}

// fieldOf compiles the reading of field e of a message: per model type,
// the field's index (-1: none) and the type's number of fields.
func (c *compiler) fieldOf(e *ir.MsgField) (index, nfields []int) {
	index = make([]int, len(c.types))
	nfields = make([]int, len(c.types))
	for id, t := range c.types {
		index[t] = e.Index[id]
		nfields[t] = len(c.spec.Messages[id].Fields)
	}
	return index, nfields
}

// msgQuant compiles a quantifier over a channel's messages in an action.
func (cx *actionCtx) msgQuant(e *ir.MsgQuant, b bindings) actionFn {
	from, to := cx.proc(e.From, b), cx.proc(e.To, b)
	post, n, none := cx.post, cx.n, neutral(e.Kind)
	var parts []actionFn
	for _, m := range cx.msgParts(e) {
		body := cx.expr(e.Body, b.with(e.Var, m.i))
		parts = append(parts, func(c *model.Ctx, k int) int {
			if !m.holds(c.Config(), post.chans[from(c, k)*n+to(c, k)]) {
				return none
			}
			return body(c, k)
		})
	}
	return cx.total(&ir.Quant{Kind: e.Kind, Pos: e.Pos, Var: e.Var, Over: &ir.Set{Lo: 0, Hi: len(parts) - 1}, Body: e.Body}, parts)
}

// msgField compiles a field of the message a quantifier over a channel
// binds, in an action.
func (cx *actionCtx) msgField(e *ir.MsgField, b bindings) actionFn {
	q := e.Quant
	i, bound := b[q.Var]
	if !bound {
		return cx.fault("a message's field outside its quantifier")
	}
	from, to := cx.proc(q.From, b), cx.proc(q.To, b)
	index, nfields := cx.fieldOf(e)
	post, n := cx.post, cx.n
	return func(c *model.Ctx, k int) int {
		s := c.Config()
		ch := post.chans[from(c, k)*n+to(c, k)]
		if ch < 0 || s.Len(ch) <= i {
			return 0
		}
		m := s.At(ch, i)
		t := s.TypeOf(m)
		if index[t] < 0 {
			return 0
		}
		return post.field(m, t, index[t], nfields[t])
	}
}

// stateMsgQuant compiles a quantifier over a channel's messages in a
// state expression.
func (c *compiler) stateMsgQuant(e *ir.MsgQuant, b bindings, self int) stateFn {
	from, to := c.state(e.From, b, self), c.state(e.To, b, self)
	post, n, none := c.post, c.n, neutral(e.Kind)
	var parts []stateFn
	for _, m := range c.msgParts(e) {
		body := c.state(e.Body, b.with(e.Var, m.i), self)
		parts = append(parts, func(s *stateEval) int {
			if !m.holds(s.State, post.chans[ir.Mod(from(s), n)*n+ir.Mod(to(s), n)]) {
				return none
			}
			return body(s)
		})
	}
	return c.stateTotal(&ir.Quant{Kind: e.Kind, Pos: e.Pos, Var: e.Var, Over: &ir.Set{Lo: 0, Hi: len(parts) - 1}, Body: e.Body}, parts)
}

// stateMsgField compiles a field of the message a quantifier over a
// channel binds, in a state expression.
func (c *compiler) stateMsgField(e *ir.MsgField, b bindings, self int) stateFn {
	q := e.Quant
	i := b[q.Var]
	from, to := c.state(q.From, b, self), c.state(q.To, b, self)
	index, nfields := c.fieldOf(e)
	post, n := c.post, c.n
	return func(s *stateEval) int {
		ch := post.chans[ir.Mod(from(s), n)*n+ir.Mod(to(s), n)]
		if ch < 0 || s.Len(ch) <= i {
			return 0
		}
		m := s.At(ch, i)
		t := s.TypeOf(m)
		if index[t] < 0 {
			return 0
		}
		return post.field(m, t, index[t], nfields[t])
	}
}

// accepted is, per model message type, whether receive r takes it.
func (c *compiler) accepted(r *ir.Receive) []bool {
	out := make([]bool, len(c.types))
	for id, t := range c.types {
		out[t] = r.Accepts(c.spec.Messages[id])
	}
	return out
}
