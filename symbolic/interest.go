package symbolic

import (
	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
)

// This file narrows the evaluation of integer expressions to the values
// their consumer tells apart. A comparison x < y cannot tell apart the
// values of x below every value y may take, nor those above; a sum
// x + y, compared with something, cannot tell apart the values of x for
// which every value of y leaves the total below (or above) what the
// comparison tells apart. So an integer expression may be evaluated with
// an interest, an interval [Lo, Hi] of the values its consumer tells
// apart: every value below Lo may be given as Lo−1 and every value above
// Hi as Hi+1. Sums, counts and channel lengths then keep a handful of
// cases (the running total clamped to what the rest of the sum can still
// bring into the interval) instead of one case for every total, which is
// what makes the sums of a legitimacy predicate over the messages of
// every channel cheap to encode. An exact interest (that of an operand of
// ==) goes further: its consumer needs no case for the values outside
// [Lo, Hi] at all, so they are dropped, and so is every pair of operands
// of a sum whose total falls outside.

// interestLimit bounds the intervals the engine narrows by: beyond it, an
// expression is evaluated in full (no interval arithmetic overflows).
const interestLimit = 1 << 40

// interest is the values an integer expression's consumer tells apart:
// those in [Lo, Hi], and, unless exact, whether a value is below Lo or
// above Hi. Where exact, the consumer reads no case of a value outside.
type interest struct {
	ir.Interval
	exact bool
}

// bound is the interval of x's values in every configuration, as the
// intermediate representation's interval analysis computes it; ok is
// false when the interval is too wide to narrow by (or x's own operation
// may overflow).
func (e *Encoding) bound(x ir.Expr) (iv ir.Interval, ok bool) {
	if e.bounds == nil {
		e.bounds = ir.NewBounds(e.spec)
	}
	iv = e.bounds.Of(x)
	return iv, small(iv) && !e.bounds.MayOverflow(x)
}

// small reports whether iv lies within ±interestLimit.
func small(iv ir.Interval) bool {
	return iv.Lo > -interestLimit && iv.Hi < interestLimit && iv.Lo <= iv.Hi
}

// within returns the interest in [lo, hi], exact or not, or nil (no
// narrowing) if the interval is too wide or empty.
func within(lo, hi int, exact bool) *interest {
	w := &interest{Interval: ir.Interval{Lo: lo, Hi: hi}, exact: exact}
	if !small(w.Interval) {
		return nil
	}
	return w
}

// span is the least and the greatest value c has a case for; ok is false
// for no case, or values too large to narrow by.
func span(c cases) (iv ir.Interval, ok bool) {
	first := true
	for v := range c {
		if first {
			iv, first = ir.Interval{Lo: v, Hi: v}, false
			continue
		}
		iv.Lo, iv.Hi = min(iv.Lo, v), max(iv.Hi, v)
	}
	return iv, !first && small(iv)
}

// clamp narrows c to want: it drops the cases outside an exact want, and
// otherwise merges those below want.Lo into want.Lo−1 and those above
// want.Hi into want.Hi+1 (nil want: c as it is).
func (e *Encoding) clamp(c cases, want *interest) cases {
	if want == nil {
		return c
	}
	out := cases{}
	for _, v := range c.values() {
		if want.exact && (v < want.Lo || v > want.Hi) {
			continue
		}
		e.add(out, min(max(v, want.Lo-1), want.Hi+1), c[v])
	}
	return out
}

// outside reports whether a value v is one an exact want reads no case
// of.
func (w *interest) outside(v int) bool {
	return w != nil && w.exact && (v < w.Lo || v > w.Hi)
}

// comparison reports whether op is one of the six comparisons, whose
// result depends only on the order of its operands.
func comparison(op syntax.Token) bool {
	switch op {
	case syntax.Eq, syntax.Neq, syntax.Lt, syntax.Le, syntax.Gt, syntax.Ge:
		return true
	}
	return false
}

// narrowedOperands evaluates the operands of a comparison, or of a + or
// a − whose result is of interest in want, each narrowed to what the
// operator tells apart given the other: x by y's static interval, then y
// by the values x turned out to take. The operands of == are narrowed
// exactly (a value the other operand never takes is never equal to it),
// as are those of a + or a − of exact interest. ok is false when the
// operator cannot be narrowed (the caller then evaluates it in full).
func (e *Encoding) narrowedOperands(x *ir.Binary, in env, want *interest) (l, r cases, ok bool, err error) {
	yb, yok := e.bound(x.Y)
	if !yok {
		return nil, nil, false, nil
	}
	exact := x.Op == syntax.Eq || want != nil && want.exact
	var lw *interest
	switch {
	case comparison(x.Op):
		lw = within(yb.Lo, yb.Hi, x.Op == syntax.Eq)
	case want == nil:
		return nil, nil, false, nil
	case x.Op == syntax.Plus:
		if _, ok := e.bound(x); !ok {
			return nil, nil, false, nil
		}
		lw = within(want.Lo-yb.Hi, want.Hi-yb.Lo, exact)
	case x.Op == syntax.Minus:
		if _, ok := e.bound(x); !ok {
			return nil, nil, false, nil
		}
		lw = within(want.Lo+yb.Lo, want.Hi+yb.Hi, exact)
	default:
		return nil, nil, false, nil
	}
	if lw == nil {
		return nil, nil, false, nil
	}
	if l, err = e.evalWant(x.X, in, lw); err != nil {
		return nil, nil, false, err
	}
	xs, xok := span(l)
	var rw *interest
	if xok {
		switch {
		case comparison(x.Op):
			rw = within(xs.Lo, xs.Hi, x.Op == syntax.Eq)
		case x.Op == syntax.Plus:
			rw = within(want.Lo-xs.Hi, want.Hi-xs.Lo, exact)
		default: // x − y is in [lo, hi] where y is in [x−hi, x−lo].
			rw = within(xs.Lo-want.Hi, xs.Hi-want.Lo, exact)
		}
	}
	if r, err = e.evalWant(x.Y, in, rw); err != nil {
		return nil, nil, false, err
	}
	return l, r, true, nil
}

// running is the interest of a running total (of a sum, a count or a
// channel's length) whose result is of interest in want, when the terms
// still to come add between rest.Lo and rest.Hi: nil if want is nil.
func running(want *interest, rest ir.Interval) *interest {
	if want == nil {
		return nil
	}
	return within(want.Lo-rest.Hi, want.Hi-rest.Lo, want.exact)
}

// termInterest is the interest of the next term of a running total that
// takes the values of acc, when the terms after it add between rest.Lo
// and rest.Hi: nil if want is nil.
func termInterest(want *interest, acc cases, rest ir.Interval) *interest {
	if want == nil {
		return nil
	}
	as, ok := span(acc)
	if !ok {
		return nil
	}
	return within(want.Lo-as.Hi-rest.Hi, want.Hi-as.Lo-rest.Lo, want.exact)
}

// times is n terms of the interval iv, added (n ≥ 0; iv small).
func times(n int, iv ir.Interval) ir.Interval {
	return ir.Interval{Lo: n * iv.Lo, Hi: n * iv.Hi}
}
