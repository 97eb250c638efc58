package ir

import (
	"math"

	"github.com/ringcheck/ringcheck/lang/syntax"
)

// Interval is the least and the greatest value an expression may take.
type Interval struct{ Lo, Hi int }

// Bounds computes, for the expressions of one instance, the interval of
// the values each may take in any configuration, and whether its
// operation may overflow int64 there, so that a compiled form checks for
// overflow only where one may happen. It remembers what it computed; it
// is not safe for concurrent use.
type Bounds struct {
	spec *Spec
	memo map[Expr]bound
}

// bound is what Bounds knows of an expression: its interval (clamped to
// int64: the values it takes when its evaluation does not fail), and
// whether its own operation may overflow.
type bound struct {
	iv       Interval
	overflow bool
}

// NewBounds returns the bounds of spec's expressions.
func NewBounds(spec *Spec) *Bounds {
	return &Bounds{spec: spec, memo: map[Expr]bound{}}
}

// Of returns the interval of e's values, where its evaluation does not
// fail.
func (b *Bounds) Of(e Expr) Interval { return b.of(e).iv }

// MayOverflow reports whether e's own operation (a +, -, * or / of
// Binary, a - of Unary, the running total of a sum) may overflow int64
// for operands within their intervals: false when it never does.
func (b *Bounds) MayOverflow(e Expr) bool { return b.of(e).overflow }

// Checked reports whether a compiled form checks e's own operation for
// overflow: e is an arithmetic operator (+, -, *, /), a negation or a sum
// over a set, and MayOverflow(e). (A sum over a channel's messages is
// checked as the sum over its positions it stands for.)
func (b *Bounds) Checked(e Expr) bool {
	switch e := e.(type) {
	case *Binary:
		switch e.Op {
		case syntax.Plus, syntax.Minus, syntax.Star, syntax.Slash:
		default:
			return false
		}
	case *Unary:
		if e.Op != syntax.Minus {
			return false
		}
	case *Quant:
		if e.Kind != "sum" {
			return false
		}
	default:
		return false
	}
	return b.MayOverflow(e)
}

// with0 is iv widened to hold 0: what a read of a process that lacks the
// variable, or of an empty channel, gives.
func with0(iv Interval) Interval { return Interval{min(iv.Lo, 0), max(iv.Hi, 0)} }

func (b *Bounds) of(e Expr) bound {
	if r, ok := b.memo[e]; ok {
		return r
	}
	r := b.compute(e)
	b.memo[e] = r
	return r
}

var (
	boolInterval = Interval{0, 1}
	anyInterval  = Interval{math.MinInt, math.MaxInt}
)

func (b *Bounds) compute(e Expr) bound {
	n := b.spec.N
	procs := Interval{0, max(n-1, 0)}
	switch e := e.(type) {
	case *Const:
		return bound{iv: Interval{e.Value, e.Value}}
	case *Self, *Neighbor:
		return bound{iv: procs}
	case *VarRef:
		return bound{iv: with0(Interval{e.Var.Type.Lo, e.Var.Type.Hi})}
	case *ElemRef:
		return bound{iv: with0(Interval{e.Array.Type.Lo, e.Array.Type.Hi})}
	case *LocalRef:
		return bound{iv: Interval{e.Local.Lo, e.Local.Hi}}
	case *TempRef:
		return bound{iv: Interval{e.Temp.Type.Lo, e.Temp.Type.Hi}}
	case *RunField:
		return bound{iv: with0(Interval{e.T.Lo, e.T.Hi})}
	case *RunIs:
		return bound{iv: boolInterval}
	case *FieldRef:
		t := e.Type()
		return bound{iv: Interval{t.Lo, t.Hi}}
	case *HeadField:
		return bound{iv: with0(Interval{e.T.Lo, e.T.Hi})}
	case *ChanLen, *ChanPos:
		capacity := 0
		if b.spec.Channels != nil {
			capacity = b.spec.Channels.Capacity
		}
		return bound{iv: Interval{0, capacity}}
	case *Unary:
		x := b.of(e.X).iv
		if e.Op == syntax.Not {
			return bound{iv: boolInterval}
		}
		lo, okl := Neg(x.Hi)
		hi, okh := Neg(x.Lo)
		if !okh {
			hi = math.MaxInt
		}
		if !okl {
			lo = math.MaxInt
		}
		return bound{iv: Interval{lo, hi}, overflow: !okl || !okh}
	case *Binary:
		return b.binary(e)
	case *Cond:
		x, y := b.of(e.X).iv, b.of(e.Y).iv
		return bound{iv: Interval{min(x.Lo, y.Lo), max(x.Hi, y.Hi)}}
	case *MsgField:
		return bound{iv: with0(Interval{e.T.Lo, e.T.Hi})}
	case *FieldElem:
		return bound{iv: with0(Interval{e.T.Lo, e.T.Hi})}
	case *MsgQuant:
		// As a quantifier over as many members as a channel holds.
		capacity := 0
		if b.spec.Channels != nil {
			capacity = b.spec.Channels.Capacity
		}
		return b.compute(&Quant{Kind: e.Kind, Var: e.Var, Over: &Set{Lo: 0, Hi: capacity - 1}, Body: e.Body, Pos: e.Pos})
	case *Quant:
		switch e.Kind {
		case "forall", "exists":
			return bound{iv: boolInterval}
		}
		members := n
		if e.Over != nil && e.Over.Of == nil {
			members = max(e.Over.Hi-e.Over.Lo+1, 0)
		}
		if e.Kind == "count" {
			return bound{iv: Interval{0, members}}
		}
		// A running total of up to members values of the body's interval
		// (a non-member adds 0).
		body := with0(b.of(e.Body).iv)
		lo, okl := Mul(members, body.Lo)
		hi, okh := Mul(members, body.Hi)
		if !okl {
			lo = math.MinInt
		}
		if !okh {
			hi = math.MaxInt
		}
		return bound{iv: Interval{lo, hi}, overflow: !okl || !okh}
	}
	return bound{iv: anyInterval}
}

// binary bounds an operator's result from its operands' intervals.
func (b *Bounds) binary(e *Binary) bound {
	switch e.Op {
	case syntax.Plus, syntax.Minus, syntax.Star, syntax.Slash, syntax.Percent:
	default:
		return bound{iv: boolInterval}
	}
	x, y := b.of(e.X).iv, b.of(e.Y).iv
	switch e.Op {
	case syntax.Plus:
		lo, okl := Add(x.Lo, y.Lo)
		hi, okh := Add(x.Hi, y.Hi)
		return clamp(lo, okl, hi, okh)
	case syntax.Minus:
		lo, okl := Sub(x.Lo, y.Hi)
		hi, okh := Sub(x.Hi, y.Lo)
		return clamp(lo, okl, hi, okh)
	case syntax.Star:
		r := bound{iv: Interval{math.MaxInt, math.MinInt}}
		for _, u := range [2]int{x.Lo, x.Hi} {
			for _, v := range [2]int{y.Lo, y.Hi} {
				p, ok := Mul(u, v)
				if !ok {
					// The product's sign is the operands'.
					r.overflow = true
					p = math.MaxInt
					if (u < 0) != (v < 0) {
						p = math.MinInt
					}
				}
				r.iv.Lo, r.iv.Hi = min(r.iv.Lo, p), max(r.iv.Hi, p)
			}
		}
		return r
	case syntax.Slash:
		// |x / y| <= |x|; only the least int divided by -1 overflows.
		m := max(abs(x.Lo), abs(x.Hi))
		r := bound{iv: Interval{-m, m}}
		if x.Lo == math.MinInt {
			// The least int divided by 1 is itself, by -1 an overflow.
			r.iv.Lo = math.MinInt
			r.overflow = y.Lo <= -1 && y.Hi >= -1
		}
		return r
	}
	// x mod y has y's sign and |x mod y| < |y|.
	m := max(abs(y.Lo), abs(y.Hi))
	return bound{iv: Interval{-m, m}}
}

// clamp is the bound of a sum or a difference whose ends are lo and hi,
// each ok when it did not overflow.
func clamp(lo int, okl bool, hi int, okh bool) bound {
	if !okl {
		// The lower end overflows below (a sum of two negative values)
		// or above (a sum of two large ones): either way, the result may
		// not fit.
		lo = math.MinInt
	}
	if !okh {
		hi = math.MaxInt
	}
	return bound{iv: Interval{lo, hi}, overflow: !okl || !okh}
}

// abs is |x|, the greatest int for the least.
func abs(x int) int {
	if x >= 0 {
		return x
	}
	if x == math.MinInt {
		return math.MaxInt
	}
	return -x
}
