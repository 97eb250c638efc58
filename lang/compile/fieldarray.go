package compile

import (
	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/model"
)

// fieldElem compiles an entry of an array field read at a computed index
// in an action: the entry's read when the index is a constant once the
// enclosing sets are unrolled; otherwise the index picks the entry as the
// step runs, and an index outside the array's range stops the check with
// an error at the index's place, as a missing entry of an array variable.
func (cx *actionCtx) fieldElem(e *ir.FieldElem, b bindings) actionFn {
	if i, ok := constValue(e.Index, b, -1, cx.n); ok {
		if x := e.Elem(i); x != nil {
			return cx.expr(x, b)
		}
	}
	index := cx.expr(e.Index, b)
	elems := make([]actionFn, len(e.Elems))
	for i, x := range e.Elems {
		elems[i] = cx.expr(x, b)
	}
	fault, lo := cx.faultAt(e.Pos), e.Lo
	return func(c *model.Ctx, k int) int {
		i := index(c, k)
		if i < lo || i-lo >= len(elems) {
			c.Fail(fault("%s", e.Missing(i)))
			return 0
		}
		return elems[i-lo](c, k)
	}
}

// stateFieldElem compiles an entry of an array field read at a computed
// index in a state expression: an index outside the array's range reads
// 0, as a missing entry of an array variable does there.
func (c *compiler) stateFieldElem(e *ir.FieldElem, b bindings, self int) stateFn {
	if i, ok := constValue(e.Index, b, self, c.n); ok {
		if x := e.Elem(i); x != nil {
			return c.state(x, b, self)
		}
		return func(*stateEval) int { return 0 }
	}
	index := c.state(e.Index, b, self)
	elems := make([]stateFn, len(e.Elems))
	for i, x := range e.Elems {
		elems[i] = c.state(x, b, self)
	}
	lo := e.Lo
	return func(s *stateEval) int {
		i := index(s)
		if i < lo || i-lo >= len(elems) {
			return 0
		}
		return elems[i-lo](s)
	}
}
