package check

import (
	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
)

// This file checks the local arrays of sequential blocks, `let
// t[LO..HI] [[LO2..HI2]]: TYPE [:= EXPR]`: temps of Len slots of the
// block's frame, not stored, read and assigned per entry (ir.Temp).

// localArray is what a local array's name stands for in the scope of the
// effects after its let: not a value (its entries are).
type localArray struct{ t *ir.Temp }

// Type is invalid: the name is not a value.
func (localArray) Type() *ir.Type { return invalidType }

// localArrayOf returns the local array name stands for in sc, if it is
// one.
func localArrayOf(name string, sc *scope) (*ir.Temp, bool) {
	x, _, ok := sc.lookup(name)
	if !ok {
		return nil, false
	}
	la, ok := x.(localArray)
	return la.t, ok
}

// letArray checks let NAME[LO..HI] [[LO2..HI2]]: TYPE [:= EXPR], returning
// its effect, which sets every entry to EXPR (TYPE's first value without
// one), and the scope of the effects after it.
func (c *checker) letArray(s *syntax.LetStmt, sc *scope) (ir.Stmt, *scope) {
	name := s.Name.Name
	t := c.typ(s.Type)
	var x ir.Expr = &ir.Const{Value: t.Lo, T: t}
	if s.Value != nil {
		x = c.expr(s.Value, sc)
		if !invalid(x) && t != invalidType && !assignable(t, x.Type()) {
			c.errorf(s.Value.ExprPos(), "cannot assign %s to the entries of %s of type %s", typeName(x.Type()), name, typeName(t))
		} else {
			c.inDomain(x, t, "local "+name, s.Value.ExprPos(), sc)
		}
	}
	if sc.seq == nil {
		c.errorf(s.Pos, "let declares a local of a sequential block: write it in do { ... }")
	}
	if _, _, bound := sc.lookup(name); bound || c.taken(name) {
		c.errorf(s.Name.Pos, "%s is already declared: name the local differently", name)
	}
	tmp := &ir.Temp{Name: name, Type: t, Dirty: -1, Pos: s.Name.Pos}
	tmp.Rows = c.localDim(s.Index, name)
	tmp.Len = tmp.Rows.Len()
	if s.Index2 != nil {
		tmp.Cols = c.localDim(s.Index2, name)
		tmp.Len *= tmp.Cols.Len()
	}
	if tmp.Len > maxArrayLen {
		c.errorf(s.Index.Pos, "local array %s has %d entries: an array has 1..%d", name, tmp.Len, maxArrayLen)
		tmp.Rows = &ir.Range{Lo: tmp.Rows.Lo, Hi: tmp.Rows.Lo}
		tmp.Len = 1
		if tmp.Cols != nil {
			tmp.Cols = &ir.Range{Lo: tmp.Cols.Lo, Hi: tmp.Cols.Lo}
		}
	}
	if blk := sc.seq; blk != nil {
		tmp.Slot = blk.slots
		blk.slots += tmp.Len
		blk.temps = append(blk.temps, tmp)
	}
	return &ir.SetTemp{Temp: tmp, Value: x, Pos: s.Pos}, sc.with(name, localArray{tmp})
}

// localDim checks an index range of a local array: constant bounds, 1 to
// maxArrayLen values.
func (c *checker) localDim(s *syntax.Set, name string) *ir.Range {
	if s.Peers || s.Chan || s.Run {
		c.errorf(s.Pos, "local array %s is indexed by a range lo..hi", name)
		return &ir.Range{}
	}
	return c.indexRange(s, "local array "+name, "a local array's index bound")
}

// localIndex checks the indices of an entry of the local array t, written
// at pos: one (i) or two (i2 too), as t has, each reported when a constant
// outside its range. It returns the entry's index (see ir.Temp), or nil
// when an index has a problem.
func (c *checker) localIndex(t *ir.Temp, i, i2 syntax.Expr, pos syntax.Pos, sc *scope) ir.Expr {
	switch {
	case t.Cols == nil && i2 != nil:
		c.errorf(i2.ExprPos(), "local %s has one index: %s[i] is its entry i", t.Name, t.Name)
		return nil
	case t.Cols != nil && i2 == nil:
		c.errorf(pos, "local %s has two indices: %s[i][j] is its entry i, j", t.Name, t.Name)
		return nil
	}
	ok := true
	var first ir.Expr
	for _, x := range []struct {
		e     syntax.Expr
		rng   *ir.Range
		which string
	}{{i, t.Rows, ""}, {i2, t.Cols, "second "}} {
		if x.e == nil {
			continue
		}
		v := c.intExpr(x.e, sc, "an array's index")
		if first == nil {
			first = v
		}
		if invalid(v) || v.Type().Kind != ir.Int {
			ok = false
			continue
		}
		if k, constant := v.(*ir.Const); constant && (k.Value < x.rng.Lo || k.Value > x.rng.Hi) {
			if !sc.dead {
				c.errorf(x.e.ExprPos(), "index %d is outside local %s's %sindex %s", k.Value, t.Name, x.which, x.rng)
			}
			ok = false
		}
	}
	if !ok {
		return nil
	}
	if t.Cols == nil {
		return first
	}
	return c.flatIndex(t.Rows, t.Cols, i, i2, sc)
}

// localElem checks a read of an entry of the local array t: t[i], or
// t[i][j] of a two-dimensional one.
func (c *checker) localElem(e *syntax.IndexExpr, t *ir.Temp, sc *scope) ir.Expr {
	if e.Elem2 != nil || t.Cols == nil && e.Elem != nil {
		extra := e.Elem2
		if extra == nil {
			extra = e.Elem
		}
		c.errorf(extra.ExprPos(), "local %s is an array of the block, not of each process: %s", t.Name, entryForm(t))
		return poison{}
	}
	index := c.localIndex(t, e.Index, e.Elem, e.Index.ExprPos(), sc)
	if index == nil {
		return poison{}
	}
	return &ir.TempRef{Temp: t, Index: index, Pos: e.Index.ExprPos()}
}

// entryForm says how an entry of the local array t is written.
func entryForm(t *ir.Temp) string {
	if t.Cols == nil {
		return t.Name + "[i] is its entry i"
	}
	return t.Name + "[i][j] is its entry i, j"
}

// assignLocalElem checks an assignment to an entry of the local array t:
// t[i] := EXPR, or t[i][j] := EXPR.
func (c *checker) assignLocalElem(s *syntax.AssignStmt, t *ir.Temp, sc *scope) []ir.Stmt {
	x := c.expr(s.Value, sc)
	if s.Index == nil {
		c.errorf(s.Var.Pos, "%s is a local array: assign an entry (%s)", t.Name, entryForm(t))
		return nil
	}
	index := c.localIndex(t, s.Index, s.Index2, s.Index.ExprPos(), sc)
	if !invalid(x) && t.Type != invalidType && !assignable(t.Type, x.Type()) {
		c.errorf(s.Value.ExprPos(), "cannot assign %s to %s of type %s", typeName(x.Type()), t.Name, typeName(t.Type))
	} else {
		c.inDomain(x, t.Type, "local "+t.Name, s.Value.ExprPos(), sc)
	}
	if index == nil {
		return nil
	}
	return []ir.Stmt{&ir.SetTemp{Temp: t, Index: index, Value: x, Pos: s.Index.ExprPos()}}
}
