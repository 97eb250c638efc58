package check

import (
	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
)

// sumBody checks the body of a sum and returns it with the quantifier it
// makes: a sum of integers, or, over a boolean body, the count of the
// members where it holds (a boolean counts 1 where true, 0 where false).
func (c *checker) sumBody(e syntax.Expr, sc *scope) (ir.Expr, string) {
	x := c.expr(e, sc)
	switch {
	case invalid(x):
	case x.Type().Kind == ir.Bool:
		return x, "count"
	case x.Type().Kind != ir.Int:
		c.errorf(e.ExprPos(), "the body of sum must be an integer or a boolean, not %s", typeName(x.Type()))
	}
	return x, "sum"
}
