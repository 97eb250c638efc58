package check

import (
	"strconv"
	"strings"

	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
)

// This file bounds the size of an instance's expressions. A def or a
// predicate is expanded at each use, its parameters bound to the
// arguments' expressions, so the expressions can grow exponentially in
// the file's length (def d1 = d0 + d0, def d2 = d1 + d1, ...). The checker
// counts the nodes as it builds them, a parameter's use counting as many
// as its argument has, and stops at ir.MaxNodes with the place of the
// outermost use being expanded; at that use, it first estimates the
// expansion's size from the syntax (inlined), so that one too large is
// refused before it is built.

// count adds n nodes, found at pos, to those of the instance, and stops
// the check when they are more than ir.MaxNodes.
func (c *checker) count(n int, pos syntax.Pos) {
	c.nodes = addSat(c.nodes, n)
	if c.nodes <= ir.MaxNodes {
		return
	}
	msg := "the expressions have more than %d nodes here"
	var args []any
	if c.use != nil {
		pos = c.use.pos
		msg = "expanding %s here takes the expressions past %d nodes (a def or predicate is copied at each use, with its arguments for its parameters)"
		args = append(args, c.use.name)
	}
	args = append(args, ir.MaxNodes)
	// Reported even while a placeholder is checked silently: the check
	// stops here.
	c.silent = 0
	c.errorf(pos, msg, args...)
	panic(stop{})
}

// addSat is a + b, at most ir.MaxNodes + 1.
func addSat(a, b int) int {
	if a+b > ir.MaxNodes {
		return ir.MaxNodes + 1
	}
	return a + b
}

// inlined estimates the nodes of e once every def and predicate it uses
// is expanded, with params the sizes of the names bound to expressions
// (a def's parameters); at most ir.MaxNodes + 1. expanding holds the defs
// and predicates being estimated, whose recursive uses (reported as
// such) count 1.
func (c *checker) inlined(e syntax.Expr, params map[string]int, expanding map[string]bool) int {
	switch e := e.(type) {
	case *syntax.ParenExpr:
		return addSat(1, c.inlined(e.X, params, expanding))
	case *syntax.Ident:
		if n, ok := params[e.Name]; ok {
			return max(1, n)
		}
		if d, ok := c.defs[e.Name]; ok && len(d.Params) == 0 {
			return addSat(1, c.inlinedUse(e.Name, d.Body, nil, nil, expanding))
		}
		return 1
	case *syntax.IndexExpr:
		n := addSat(1, c.inlined(e.Index, params, expanding))
		if e.Elem != nil {
			n = addSat(n, c.inlined(e.Elem, params, expanding))
		}
		if e.Elem2 != nil {
			n = addSat(n, c.inlined(e.Elem2, params, expanding))
		}
		return n
	case *syntax.CallExpr:
		n := 1
		sizes := make([]int, len(e.Args))
		for i, a := range e.Args {
			sizes[i] = c.inlined(a, params, expanding)
			n = addSat(n, sizes[i])
		}
		if d, ok := c.defs[e.Fun.Name]; ok && len(d.Params) == len(e.Args) {
			return addSat(n, c.inlinedUse(e.Fun.Name, d.Body, d.Params, sizes, expanding))
		}
		if d, ok := c.preds[e.Fun.Name]; ok && len(e.Args) == 1 {
			return addSat(n, c.inlinedUse(e.Fun.Name, d.Body, []*syntax.Ident{d.Param}, sizes, expanding))
		}
		return n
	case *syntax.SelectorExpr:
		n := addSat(1, c.inlined(e.X, params, expanding))
		if e.Index != nil {
			// An entry read at a computed index is a read of each entry.
			n = addSat(n, c.inlined(e.Index, params, expanding))
		}
		return n
	case *syntax.IsExpr:
		return addSat(1, c.inlined(e.X, params, expanding))
	case *syntax.UnaryExpr:
		return addSat(1, c.inlined(e.X, params, expanding))
	case *syntax.BinaryExpr:
		return addSat(1, addSat(c.inlined(e.X, params, expanding), c.inlined(e.Y, params, expanding)))
	case *syntax.CondExpr:
		n := addSat(1, c.inlined(e.Cond, params, expanding))
		return addSat(n, addSat(c.inlined(e.X, params, expanding), c.inlined(e.Y, params, expanding)))
	case *syntax.QuantExpr:
		// The quantified name hides a parameter of the same name.
		inner := params
		if _, hides := params[e.Var.Name]; hides {
			inner = make(map[string]int, len(params))
			for k, v := range params {
				inner[k] = v
			}
			delete(inner, e.Var.Name)
		}
		return addSat(1, c.inlined(e.Body, inner, expanding))
	}
	return 1
}

// inlinedUse estimates the nodes of the body of the def or predicate
// name, with its parameters of the sizes given (nil: 1 each), memoized.
func (c *checker) inlinedUse(name string, body syntax.Expr, params []*syntax.Ident, sizes []int, expanding map[string]bool) int {
	if expanding[name] {
		return 1
	}
	var key strings.Builder
	key.WriteString(name)
	bound := make(map[string]int, len(params))
	for i, p := range params {
		bound[p.Name] = 1
		if sizes != nil {
			bound[p.Name] = sizes[i]
		}
		key.WriteByte(' ')
		key.WriteString(strconv.Itoa(bound[p.Name]))
	}
	if n, ok := c.inlinedSizes[key.String()]; ok {
		return n
	}
	expanding[name] = true
	n := c.inlined(body, bound, expanding)
	delete(expanding, name)
	if c.inlinedSizes == nil {
		c.inlinedSizes = map[string]int{}
	}
	c.inlinedSizes[key.String()] = n
	return n
}
