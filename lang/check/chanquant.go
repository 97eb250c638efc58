package check

import (
	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
	"github.com/ringcheck/ringcheck/model"
)

// This file checks the quantifiers over a channel's messages (count m in
// chan(p, q): m.v > 0) and the receive of a message of any type but some
// (recv any except M from q).

// msgBinding is what a quantifier over a channel binds its name to: the
// message read by m.f.
type msgBinding struct{ q *ir.MsgQuant }

// Type is invalid: the name is not a value (its fields are).
func (msgBinding) Type() *ir.Type { return invalidType }

// msgQuant checks a quantifier over the messages of a channel.
func (c *checker) msgQuant(e *syntax.QuantExpr, sc *scope) ir.Expr {
	s := e.Over
	if c.spec.Channels == nil {
		c.errorf(s.Pos, "chan reads a channel, and there are no channels")
		return poison{}
	}
	q := &ir.MsgQuant{Kind: e.Kind, Pos: e.Pos}
	if s.Msg != nil {
		q.Msg = c.messageArg(s.Msg, "chan")
	}
	q.From, q.To = c.procExpr(s.From, sc), c.procExpr(s.To, sc)
	if invalid(q.From) || invalid(q.To) {
		return poison{}
	}
	if kf, ok := q.From.(*ir.Const); ok {
		if kt, ok := q.To.(*ir.Const); ok {
			n := c.spec.N
			from, to := ir.Mod(kf.Value, n), ir.Mod(kt.Value, n)
			if !(model.Topology{Kind: c.spec.Topology, N: n}).Linked(from, to) {
				c.errorf(s.Pos, "there is no channel %d→%d", from, to)
			}
		}
	}
	sc.recordChan(q.From, q.To)
	capacity := c.spec.Channels.Capacity
	q.Var = &ir.Local{Name: e.Var.Name, Type: &ir.Type{Kind: ir.Int, Lo: 0, Hi: max(capacity-1, 0)}, Lo: 0, Hi: max(capacity-1, 0)}
	inner := sc.with(e.Var.Name, msgBinding{q})
	if e.Kind == "sum" {
		q.Body = c.intExpr(e.Body, inner, "the body of sum")
	} else {
		q.Body = c.boolExpr(e.Body, inner, "the body of "+e.Kind)
	}
	if invalid(q.Body) {
		return poison{}
	}
	return q
}

// msgField checks m.f, field f of the message m a quantifier over a
// channel binds: 0 for a message whose type has no field f.
func (c *checker) msgField(e *syntax.SelectorExpr, b msgBinding) ir.Expr {
	mf := &ir.MsgField{Quant: b.q, Field: e.Field.Name}
	for _, m := range c.spec.Messages {
		idx := -1
		if b.q.Msg == nil || m == b.q.Msg {
			for i, f := range m.Fields {
				if f.Name != e.Field.Name {
					continue
				}
				idx = i
				if mf.T == nil || f.Type == invalidType {
					mf.T = f.Type
				} else if mf.T != invalidType && !sameType(mf.T, f.Type) {
					c.errorf(e.Field.Pos, "messages have fields %s of different types: %s.%s would not have one type", e.Field.Name, identName(e.X.(*syntax.Ident)), e.Field.Name)
				}
			}
		}
		mf.Index = append(mf.Index, idx)
	}
	if mf.T == nil {
		if b.q.Msg != nil {
			c.errorf(e.Field.Pos, "message %s has no field %s", b.q.Msg.Name, e.Field.Name)
		} else {
			c.errorf(e.Field.Pos, "no message has a field %s", e.Field.Name)
		}
		return poison{}
	}
	if mf.T == invalidType {
		return poison{}
	}
	return mf
}

// receiveAny checks recv any [except M, ...] from Q.
func (c *checker) receiveAny(r *syntax.Receive, sc *scope) *ir.Receive {
	if c.spec.Channels == nil {
		c.errorf(r.Pos, "recv needs channels (channels capacity C)")
	}
	rc := &ir.Receive{Any: true, From: c.procExpr(r.From, sc)}
	for _, id := range r.Except {
		m, ok := c.messages[id.Name]
		if !ok {
			c.errorf(id.Pos, "unknown message %s", id.Name)
			continue
		}
		rc.Except = append(rc.Except, m)
	}
	c.link(r.From.ExprPos(), rc.From, &ir.Self{}, sc, "receive from")
	sc.recordChan(rc.From, &ir.Self{})
	return rc
}
