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
	index, missing := cx.expr(s.Index, b), cx.noLocalEntry(t, s.Pos)
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
	index := cx.expr(e.Index, b)
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
