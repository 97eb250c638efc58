package compile

import (
	"fmt"

	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
	"github.com/ringcheck/ringcheck/model"
)

// This file compiles the local arrays of sequential blocks (let
// t[LO..HI]: ...): Len slots of the block's frame in the step's scratch
// space, from the temp's Slot.

// setLocalArray compiles the assignment of an entry of a local array or,
// Index nil (its let), of every entry. A value outside the type is a
// range fault, the assignment dropped (a let's entries then start at the
// type's first value); an index that is no entry fails the step at the
// index.
func (cx *actionCtx) setLocalArray(s *ir.SetTemp, b bindings) effect {
	t, val := s.Temp, cx.expr(s.Value, b)
	slot, n, lo, hi, domain := t.Slot, t.Len, t.Type.Lo, t.Type.Hi, t.Type.Domain()
	top := slot + n
	if s.Index == nil {
		if k, ok := constValue(s.Value, b, -1, cx.n); ok && k >= lo && k <= hi {
			return func(c *model.Ctx, _ int) {
				f := c.Scratch(top)[slot:top]
				for i := range f {
					f[i] = k
				}
			}
		}
		return func(c *model.Ctx, k int) {
			v := val(c, k)
			if v < lo || v > hi {
				// The entries start at the type's first value instead,
				// not at what an earlier step left in the scratch space.
				c.RangeFault(fmt.Sprintf("process %d sets local %s to %d, outside %s", c.P, t.Name, v, domain))
				v = lo
			}
			f := c.Scratch(top)[slot:top]
			for i := range f {
				f[i] = v
			}
		}
	}
	outside := func(c *model.Ctx, off, v int) {
		c.RangeFault(fmt.Sprintf("process %d sets local %s%s to %d, outside %s", c.P, t.Name, t.EntryName(off), v, domain))
	}
	if i, ok := constValue(s.Index, b, -1, cx.n); ok {
		if off, ok := t.Offset(i); ok {
			at := slot + off
			return func(c *model.Ctx, k int) {
				v := val(c, k)
				if v < lo || v > hi {
					outside(c, off, v)
					return
				}
				c.Scratch(top)[at] = v
			}
		}
	}
	index, missing := cx.index(s.Index, b), cx.noLocalEntry(t, s.Pos)
	return func(c *model.Ctx, k int) {
		i := index(c, k)
		off, ok := t.Offset(i)
		if !ok {
			missing(c, i)
			return
		}
		v := val(c, k)
		if v < lo || v > hi {
			outside(c, off, v)
			return
		}
		c.Scratch(top)[slot+off] = v
	}
}

// localArrayRef compiles the read of an entry of a local array; an index
// that is no entry fails the step at the index.
func (cx *actionCtx) localArrayRef(e *ir.TempRef, b bindings) actionFn {
	t := e.Temp
	slot, top := t.Slot, t.Slot+t.Len
	if i, ok := constValue(e.Index, b, -1, cx.n); ok {
		if off, ok := t.Offset(i); ok {
			at := slot + off
			return func(c *model.Ctx, _ int) int { return c.Scratch(top)[at] }
		}
	}
	index := cx.index(e.Index, b)
	missing := cx.noLocalEntry(t, e.Pos)
	return func(c *model.Ctx, k int) int {
		i := index(c, k)
		off, ok := t.Offset(i)
		if !ok {
			missing(c, i)
			return 0
		}
		return c.Scratch(top)[slot+off]
	}
}

// noLocalEntry returns what fails the step when the local array t is
// accessed at index i, which is none of its entries, written at pos.
func (cx *actionCtx) noLocalEntry(t *ir.Temp, pos syntax.Pos) func(c *model.Ctx, i int) {
	fault := cx.faultAt(pos)
	return func(c *model.Ctx, i int) {
		c.Fail(fault("%s", t.MissingLocal(i)))
	}
}

// runSetLocalArray applies the init effect of SetTemp s, which assigns
// the local array s.Temp (an entry, or every one with Index nil).
func runSetLocalArray(s *ir.SetTemp, env *stateEnv) error {
	t := s.Temp
	val, err := ir.Eval(s.Value, env)
	if err != nil {
		return err
	}
	f := env.temps[t.Slot : t.Slot+t.Len]
	if s.Index == nil {
		if val < t.Type.Lo || val > t.Type.Hi {
			return fmt.Errorf("init sets local %s to %d, outside %s", t.Name, val, t.Type.Domain())
		}
		for i := range f {
			f[i] = val
		}
		return nil
	}
	i, err := ir.Eval(s.Index, env)
	if err != nil {
		return err
	}
	off, ok := t.Offset(i)
	if !ok {
		return fmt.Errorf("init: %s", t.MissingLocal(i))
	}
	if val < t.Type.Lo || val > t.Type.Hi {
		return fmt.Errorf("init sets local %s%s to %d, outside %s", t.Name, t.EntryName(off), val, t.Type.Domain())
	}
	f[off] = val
	return nil
}

// index compiles e, the index of an entry of an array, a shadowed array
// or a local array. The index of a two-dimensional one's entry [x][y], as
// the checker writes it (if rows.Lo <= x && x <= rows.Hi && cols.Lo <= y
// && y <= cols.Hi then (x-rows.Lo)*cols.Len()+(y-cols.Lo) else -1), is
// computed with x read once and y at most once, not at all when x is
// outside its range, as the expression would; any other index as
// written.
func (cx *actionCtx) index(e ir.Expr, b bindings) actionFn {
	f, ok := matchIndex2(e)
	if !ok {
		return cx.expr(e, b)
	}
	x, y := cx.expr(f.x, b), cx.expr(f.y, b)
	rlo, rhi, clo, chi, n := f.rlo, f.rhi, f.clo, f.chi, f.n
	return func(c *model.Ctx, k int) int {
		i := x(c, k)
		if i < rlo || i > rhi {
			return -1
		}
		j := y(c, k)
		if j < clo || j > chi {
			return -1
		}
		return (i-rlo)*n + j - clo
	}
}

// index2 is the index of an entry [x][y] of a two-dimensional array of
// rows rlo..rhi and columns clo..chi, n of them.
type index2 struct {
	x, y                  ir.Expr
	rlo, rhi, clo, chi, n int
}

// matchIndex2 recognizes the index of a two-dimensional array's entry as
// the checker writes it (see index): every occurrence of x, and of y, the
// same expression.
func matchIndex2(e ir.Expr) (index2, bool) {
	var f index2
	c, ok := e.(*ir.Cond)
	if !ok || !isConst(c.Y, -1) {
		return f, false
	}
	in, ok := binary(c.C, syntax.AndAnd)
	if !ok {
		return f, false
	}
	var ok1, ok2 bool
	f.x, f.rlo, f.rhi, ok1 = rangeTest(in.X)
	f.y, f.clo, f.chi, ok2 = rangeTest(in.Y)
	if !ok1 || !ok2 {
		return f, false
	}
	// (x - rlo) * n + (y - clo)
	sum, ok := binary(c.X, syntax.Plus)
	if !ok {
		return f, false
	}
	prod, ok := binary(sum.X, syntax.Star)
	if !ok {
		return f, false
	}
	n, ok := prod.Y.(*ir.Const)
	if !ok || n.Value != f.chi-f.clo+1 || !isOffset(prod.X, f.x, f.rlo) || !isOffset(sum.Y, f.y, f.clo) {
		return f, false
	}
	f.n = n.Value
	return f, true
}

// rangeTest matches lo <= x && x <= hi, constants lo and hi.
func rangeTest(e ir.Expr) (x ir.Expr, lo, hi int, ok bool) {
	and, ok := binary(e, syntax.AndAnd)
	if !ok {
		return nil, 0, 0, false
	}
	l, okl := binary(and.X, syntax.Le)
	h, okh := binary(and.Y, syntax.Le)
	if !okl || !okh {
		return nil, 0, 0, false
	}
	klo, ok1 := l.X.(*ir.Const)
	khi, ok2 := h.Y.(*ir.Const)
	if !ok1 || !ok2 || !sameExpr(l.Y, h.X) {
		return nil, 0, 0, false
	}
	return l.Y, klo.Value, khi.Value, true
}

// isOffset matches x - lo.
func isOffset(e, x ir.Expr, lo int) bool {
	d, ok := binary(e, syntax.Minus)
	return ok && isConst(d.Y, lo) && sameExpr(d.X, x)
}

// binary returns e as a binary expression of operator op.
func binary(e ir.Expr, op syntax.Token) (*ir.Binary, bool) {
	b, ok := e.(*ir.Binary)
	return b, ok && b.Op == op
}

// isConst reports whether e is the constant v.
func isConst(e ir.Expr, v int) bool {
	k, ok := e.(*ir.Const)
	return ok && k.Value == v
}

// sameExpr reports whether a and b are the same expression, written
// alike over the same locals, variables and temps: the reads the
// checker repeats in an index. Any other kind of node is the same only
// as itself.
func sameExpr(a, b ir.Expr) bool {
	if a == b {
		return true
	}
	switch a := a.(type) {
	case *ir.Const:
		b, ok := b.(*ir.Const)
		return ok && a.Value == b.Value
	case *ir.Self:
		_, ok := b.(*ir.Self)
		return ok
	case *ir.LocalRef:
		b, ok := b.(*ir.LocalRef)
		return ok && a.Local == b.Local
	case *ir.TempRef:
		b, ok := b.(*ir.TempRef)
		return ok && a.Temp == b.Temp && (a.Index == nil) == (b.Index == nil) && (a.Index == nil || sameExpr(a.Index, b.Index))
	case *ir.VarRef:
		b, ok := b.(*ir.VarRef)
		return ok && a.Var == b.Var && (a.Proc == nil) == (b.Proc == nil) && (a.Proc == nil || sameExpr(a.Proc, b.Proc))
	case *ir.Unary:
		b, ok := b.(*ir.Unary)
		return ok && a.Op == b.Op && sameExpr(a.X, b.X)
	case *ir.Binary:
		b, ok := b.(*ir.Binary)
		return ok && a.Op == b.Op && sameExpr(a.X, b.X) && sameExpr(a.Y, b.Y)
	}
	return false
}
