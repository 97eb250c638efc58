package compile

import (
	"strconv"

	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
	"github.com/ringcheck/ringcheck/model"
)

// This file compiles the operations that may overflow int64 (ir.Bounds
// says which): each checks its result, and an overflow is a fault of the
// check, as a division by zero is. An operation that cannot overflow
// compiles to the plain closures of compile.go and state.go.

// overflowError is the error of an overflow of op (the operation with its
// operands' values) at pos in a state predicate; within names the
// predicate.
func (c *compiler) overflowError(pos syntax.Pos, within, op string) error {
	msg := ir.OverflowMessage(op)
	if within != "" {
		msg = "integer overflow in " + within + ": " + op + " is outside int64"
	}
	return &syntax.Error{File: c.spec.File, Pos: pos, Msg: msg}
}

// mayOverflow reports whether e's own operation is checked for overflow
// (ir.Bounds.Checked).
func (c *compiler) mayOverflow(e ir.Expr) bool { return c.bounds.Checked(e) }

// checkedBinary compiles an arithmetic operator of an action that may
// overflow, or returns nil when it cannot.
func (cx *actionCtx) checkedBinary(e *ir.Binary, b bindings) actionFn {
	if !cx.mayOverflow(e) {
		return nil
	}
	x, y := cx.expr(e.X, b), cx.expr(e.Y, b)
	op, fault, divByZero := e.Op, cx.faultAt(e.Pos), cx.divisionByZero(e, "")
	return func(c *model.Ctx, k int) int {
		u, v := x(c, k), y(c, k)
		r, f := ir.EvalBinary(op, u, v)
		switch f {
		case ir.NoFault:
			return r
		case ir.DivisionByZero:
			c.Fail(divByZero)
		default:
			c.Fail(fault("%s", ir.OverflowMessage(ir.BinaryText(op, u, v))))
		}
		return 0
	}
}

// checkedNeg compiles -X in an action, where it may overflow.
func (cx *actionCtx) checkedNeg(e *ir.Unary, x actionFn) actionFn {
	fault := cx.faultAt(e.Pos)
	return func(c *model.Ctx, k int) int {
		u := x(c, k)
		v, ok := ir.Neg(u)
		if !ok {
			c.Fail(fault("%s", ir.OverflowMessage(negText(u))))
			return 0
		}
		return v
	}
}

// total compiles a quantifier of an action over its unrolled parts,
// checking a sum's running total where it may overflow.
func (cx *actionCtx) total(e *ir.Quant, parts []actionFn) actionFn {
	if !cx.mayOverflow(e) {
		return quantAction(e.Kind, parts)
	}
	fault := cx.faultAt(e.Pos)
	return func(c *model.Ctx, k int) int {
		acc := 0
		for _, p := range parts {
			v := p(c, k)
			s, ok := ir.Add(acc, v)
			if !ok {
				c.Fail(fault("%s", ir.OverflowMessage(sumText(acc, v))))
				return 0
			}
			acc = s
		}
		return acc
	}
}

// checkedState compiles an arithmetic operator of a state predicate that
// may overflow, or returns nil when it cannot. A predicate that may
// overflow reports its fault as one that divides by zero does
// (faultLatch).
func (c *compiler) checkedState(e *ir.Binary, b bindings, self int) stateFn {
	if !c.mayOverflow(e) {
		return nil
	}
	c.latch()
	x, y := c.state(e.X, b, self), c.state(e.Y, b, self)
	op, within, divByZero := e.Op, c.within, c.divisionByZero(e, c.within)
	return func(s *stateEval) int {
		u, v := x(s), y(s)
		r, f := ir.EvalBinary(op, u, v)
		switch f {
		case ir.NoFault:
			return r
		case ir.DivisionByZero:
			s.fail(divByZero)
		default:
			s.fail(c.overflowError(e.Pos, within, ir.BinaryText(op, u, v)))
		}
		return 0
	}
}

// checkedStateNeg compiles -X in a state predicate, where it may
// overflow.
func (c *compiler) checkedStateNeg(e *ir.Unary, x stateFn) stateFn {
	c.latch()
	within := c.within
	return func(s *stateEval) int {
		u := x(s)
		v, ok := ir.Neg(u)
		if !ok {
			s.fail(c.overflowError(e.Pos, within, negText(u)))
			return 0
		}
		return v
	}
}

// stateTotal compiles a quantifier of a state predicate over its unrolled
// parts, checking a sum's running total where it may overflow.
func (c *compiler) stateTotal(e *ir.Quant, parts []stateFn) stateFn {
	if !c.mayOverflow(e) {
		return quantState(e.Kind, parts)
	}
	c.latch()
	within := c.within
	return func(s *stateEval) int {
		acc := 0
		for _, p := range parts {
			v := p(s)
			t, ok := ir.Add(acc, v)
			if !ok {
				s.fail(c.overflowError(e.Pos, within, sumText(acc, v)))
				return 0
			}
			acc = t
		}
		return acc
	}
}

// latch makes the predicates keep their faults (see faultLatch).
func (c *compiler) latch() {
	if c.faults == nil {
		c.faults = &faultLatch{}
	}
}

// negText writes -u for a message.
func negText(u int) string { return "-(" + strconv.Itoa(u) + ")" }

// sumText writes a sum's running total plus its next part, for a message.
func sumText(acc, v int) string { return "sum " + ir.BinaryText(syntax.Plus, acc, v) }
