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
	msgs := cx.msgParts(e)
	bodies := make([]actionFn, len(msgs))
	for i, m := range msgs {
		bodies[i] = cx.expr(e.Body, b.with(e.Var, m.i))
	}
	q := &ir.Quant{Kind: e.Kind, Pos: e.Pos, Var: e.Var, Over: &ir.Set{Lo: 0, Hi: len(msgs) - 1}, Body: e.Body}
	if !cx.mayOverflow(q) {
		fold, filter := folder(e.Kind), filterOf(msgs)
		return func(c *model.Ctx, k int) int {
			st := c.Config()
			return fold.over(st, post.chans[from(c, k)*n+to(c, k)], filter, len(bodies), func(i int) int { return bodies[i](c, k) })
		}
	}
	parts := make([]actionFn, len(msgs))
	for i, m := range msgs {
		body := bodies[i]
		parts[i] = func(c *model.Ctx, k int) int {
			if !m.holds(c.Config(), post.chans[from(c, k)*n+to(c, k)]) {
				return none
			}
			return body(c, k)
		}
	}
	return cx.total(q, parts)
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
	post, n, none := c.post, c.n, neutral(e.Kind)
	var chanOf func(*stateEval) model.ChanID
	p, okp := constProc(e.From, b, self, n)
	q, okq := constProc(e.To, b, self, n)
	if okp && okq {
		// Between processes known at compile time: the channel from
		// the table, without a call.
		idx := p*n + q
		chanOf = func(*stateEval) model.ChanID { return post.chans[idx] }
	} else {
		from, to := c.state(e.From, b, self), c.state(e.To, b, self)
		chanOf = func(s *stateEval) model.ChanID { return post.chans[ir.Mod(from(s), n)*n+ir.Mod(to(s), n)] }
	}
	msgs := c.msgParts(e)
	bodies := make([]stateFn, len(msgs))
	for i, m := range msgs {
		bodies[i] = c.state(e.Body, b.with(e.Var, m.i), self)
	}
	quant := &ir.Quant{Kind: e.Kind, Pos: e.Pos, Var: e.Var, Over: &ir.Set{Lo: 0, Hi: len(msgs) - 1}, Body: e.Body}
	if !c.mayOverflow(quant) {
		fold, filter := folder(e.Kind), filterOf(msgs)
		return func(s *stateEval) int {
			return fold.over(s.State, chanOf(s), filter, len(bodies), func(i int) int { return bodies[i](s) })
		}
	}
	parts := make([]stateFn, len(msgs))
	for i, m := range msgs {
		body := bodies[i]
		parts[i] = func(s *stateEval) int {
			if !m.holds(s.State, chanOf(s)) {
				return none
			}
			return body(s)
		}
	}
	return c.stateTotal(quant, parts)
}

// fold is how a quantifier over a channel's messages combines the values
// of its body: count, sum, forall or exists.
type fold int

const (
	foldCount fold = iota
	foldSum
	foldForall
	foldExists
)

// folder returns the fold of a quantifier of kind.
func folder(kind string) fold {
	switch kind {
	case "count":
		return foldCount
	case "sum":
		return foldSum
	case "forall":
		return foldForall
	}
	return foldExists
}

// filterOf is the message type the positions msgs test (-1: every type).
func filterOf(msgs []msgPart) model.MsgType {
	if len(msgs) == 0 {
		return -1
	}
	return msgs[0].filter
}

// over folds body(i) over the positions i of channel ch of s (at most
// max) that hold a message of type filter (-1: any): only the positions
// filled, as the others add the neutral value, and a sum that cannot
// overflow.
func (f fold) over(s *model.State, ch model.ChanID, filter model.MsgType, max int, body func(i int) int) int {
	acc := 0
	if f == foldForall {
		acc = 1
	}
	if ch < 0 {
		return acc
	}
	l := min(s.Len(ch), max)
	for i := range l {
		if filter >= 0 && s.TypeOf(s.At(ch, i)) != filter {
			continue
		}
		v := body(i)
		switch f {
		case foldCount:
			if v != 0 {
				acc++
			}
		case foldSum:
			acc += v
		case foldForall:
			if v == 0 {
				return 0
			}
		default:
			if v != 0 {
				return 1
			}
		}
	}
	return acc
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
