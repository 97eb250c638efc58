package symbolic

import (
	"github.com/ringcheck/ringcheck/internal/rudd"
	"github.com/ringcheck/ringcheck/lang/ir"
)

// This file encodes the quantifiers over a channel's messages, unrolled
// over the channel's slots, and the receive of a message of any type but
// some.

// msgQuant evaluates a quantifier over the messages of a channel: slot i
// is a member where the channel holds more than i messages (and the one
// at i is of the quantifier's type, if it names one). A sum or a count
// keeps its running total narrowed to what want and the slots still to
// come tell apart.
func (e *Encoding) msgQuant(x *ir.MsgQuant, in env, want *interest) (cases, error) {
	b := e.b
	ch, err := e.endpoints(x.From, x.To, in)
	if err != nil {
		return nil, err
	}
	// Each slot adds a term within term (0 where it is not a member).
	term, narrow := ir.Interval{Lo: 0, Hi: 1}, want != nil
	if narrow && x.Kind == "sum" {
		bb, ok := e.bound(x.Body)
		_, total := e.bound(x)
		term, narrow = ir.Interval{Lo: min(bb.Lo, 0), Hi: max(bb.Hi, 0)}, ok && total
	}
	acc := e.constant(0)
	truth := b.From(x.Kind == "forall")
	for i := range ch.typ {
		member := e.lengthAbove(ch, i)
		if x.Msg != nil {
			member = e.holds(ch, i, x.Msg)
		}
		rest := times(len(ch.typ)-i-1, term)
		var bw *interest
		if narrow && x.Kind == "sum" {
			bw = termInterest(want, acc, rest)
		}
		if x.Kind == "forall" || x.Kind == "exists" {
			holds, err := e.boolean(x.Body, in.with(x.Var, i))
			if err != nil {
				return nil, err
			}
			if x.Kind == "forall" {
				truth = b.And(truth, b.Or(b.Not(member), holds))
			} else {
				truth = b.Or(truth, b.And(member, holds))
			}
			continue
		}
		body, err := e.evalWant(x.Body, in.with(x.Var, i), bw)
		if err != nil {
			return nil, err
		}
		if x.Kind == "count" {
			body = e.fromTruth(e.truth(body))
		}
		// A slot that is not a member adds 0.
		part := cases{}
		for v, m := range body {
			e.add(part, v, b.And(member, m))
		}
		e.add(part, 0, b.Not(member))
		var total *interest
		if narrow {
			total = running(want, rest)
		}
		if acc, err = e.accumulate(acc, part, x.Pos, total); err != nil {
			return nil, err
		}
		acc = e.clamp(acc, total)
	}
	if x.Kind == "forall" || x.Kind == "exists" {
		return e.fromTruth(truth), nil
	}
	return e.clamp(acc, want), nil
}

// msgField evaluates field x.Field of the message in the slot x's
// quantifier binds: 0 where the slot holds no message or one of a type
// without the field.
func (e *Encoding) msgField(x *ir.MsgField, in env) (cases, error) {
	b := e.b
	ch, err := e.endpoints(x.Quant.From, x.Quant.To, in)
	if err != nil {
		return nil, err
	}
	i := in.locals[x.Quant.Var]
	out, none := cases{}, b.True()
	for _, m := range e.carry.types {
		at := e.holds(ch, i, m)
		none = b.And(none, b.Not(at))
		k := x.Index[m.ID]
		if k < 0 {
			e.add(out, 0, at)
			continue
		}
		for v, c := range e.fieldAt(ch, i, m, k) {
			e.add(out, v, b.And(at, c))
		}
	}
	e.add(out, 0, none)
	return out, nil
}

// anyHead is the BDD of the configurations where ch's head is a message
// that receive r takes: any type but those r excepts.
func (e *Encoding) anyHead(ch *channel, r *ir.Receive) rudd.Node {
	b := e.b
	n := e.lengthAbove(ch, 0)
	for _, m := range r.Except {
		n = b.And(n, b.Not(e.holds(ch, 0, m)))
	}
	return n
}
