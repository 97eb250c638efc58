package check

import (
	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
	"github.com/ringcheck/ringcheck/model"
)

// This file checks the neighbours of the line topology. On `topology
// line(n)`, process i is linked with i-1 and i+1 where they exist: process
// 0 (the bottom) has no predecessor and process n-1 (the top) no
// successor. The checker refuses any use of a neighbour a process lacks,
// so no expression it passes takes pred or succ past an end: in an action
// the neighbour is checked for each acting process, and outside actions
// pred(E) and succ(E) take a constant E.

// neighborOnLine reports whether the neighbour at offset off (-1: pred,
// +1: succ) of process of, used at pos as name, exists on the line for
// every process it may be taken of; where it may not, it reports the
// problem. It reports true on any other topology.
func (c *checker) neighborOnLine(of ir.Expr, off int, pos syntax.Pos, name string, sc *scope) bool {
	if c.spec.Topology != model.Line || invalid(of) {
		return true
	}
	n := c.spec.N
	which := map[int]string{-1: "predecessor", 1: "successor"}[off]
	inside := func(q int) bool { return q+off >= 0 && q+off < n }
	if !sc.acting {
		k, ok := of.(*ir.Const)
		if !ok {
			c.errorf(pos, "on a line, %s(E) outside an action takes a constant E, as the ends have no %s: write E%+d with a guard (a process index is taken modulo n)", name, which, off)
			return false
		}
		if q := ir.Mod(k.Value, n); !inside(q) {
			c.errorf(pos, "process %d has no %s on the line: its ends, 0 and %d, have one neighbour each", q, which, n-1)
			return false
		}
		return true
	}
	for _, p := range sc.procs {
		q, ok := staticProc(of, p, n)
		if !ok {
			c.errorf(pos, "on a line, %s(E) in an action takes a process known for each acting process (self, a neighbour, a constant)", name)
			return false
		}
		if !inside(q) {
			if _, self := of.(*ir.Self); self {
				c.errorf(pos, "process %d has no %s on the line: its ends, 0 and %d, have one neighbour each (declare the actions of an end in a block of its own)", q, which, n-1)
			} else {
				c.errorf(pos, "process %d has no %s on the line: its ends, 0 and %d, have one neighbour each", q, which, n-1)
			}
			return false
		}
	}
	return true
}
