package check

import (
	"fmt"
	"slices"

	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
)

// This file checks two-dimensional arrays (var used[0..A-1][0..2]: ...):
// an array of one index whose entry [r][c] is the entry of index
// (r-Rows.Lo)*Cols.Len()+(c-Cols.Lo), so that both engines read and
// assign it as they do an array of one index.

// array2 declares a two-dimensional array variable of procs: one ir.Var
// per pair of indices, named NAME[r][c].
func (c *checker) array2(d *syntax.VarDecl, t *ir.Type, init int, procs []int) {
	a := &ir.Array{Name: d.Name.Name, Type: t, Doc: d.Doc, Pos: d.Pos}
	a.Rows, a.Cols = c.dim(d.Index, a.Name), c.dim(d.Index2, a.Name)
	if n := a.Rows.Len() * a.Cols.Len(); n > maxArrayLen {
		c.errorf(d.Index.Pos, "array %s has %d entries: an array has 1..%d", a.Name, n, maxArrayLen)
		a.Rows.Hi, a.Cols.Hi = a.Rows.Lo, a.Cols.Lo
	}
	a.Lo, a.Hi = 0, a.Rows.Len()*a.Cols.Len()-1
	for r := a.Rows.Lo; r <= a.Rows.Hi; r++ {
		for col := a.Cols.Lo; col <= a.Cols.Hi; col++ {
			if len(procs) == 0 {
				a.Elems = append(a.Elems, nil)
				continue
			}
			v := &ir.Var{Name: fmt.Sprintf("%s[%d][%d]", a.Name, r, col), Type: t, Procs: procs, Init: init, Doc: d.Doc, Pos: d.Pos, ID: len(c.spec.Vars), Array: a, Index: len(a.Elems)}
			a.Elems = append(a.Elems, v)
			c.spec.Vars = append(c.spec.Vars, v)
		}
	}
	c.arrays[a.Name] = a
	c.spec.Arrays = append(c.spec.Arrays, a)
}

// dim checks an index range of a two-dimensional array.
func (c *checker) dim(s *syntax.Set, name string) *ir.Range {
	if s.Peers || s.Chan {
		c.errorf(s.Pos, "a two-dimensional array is indexed by ranges lo..hi: only %s[peers] of one index is indexed by peers", name)
		return &ir.Range{}
	}
	return c.indexRange(s, "array "+name, "an array's index bound")
}

// indexRange checks the range lo..hi of s, an index of what (an array or
// a local array, by name): constant bounds, which context names, and 1 to
// maxArrayLen values.
func (c *checker) indexRange(s *syntax.Set, what, context string) *ir.Range {
	lo, okLo := c.bound(s.Lo, context)
	hi, okHi := c.bound(s.Hi, context)
	switch {
	case !okLo || !okHi:
		hi = lo
	case hi < lo || tooWide(lo, hi, maxArrayLen):
		c.errorf(s.Pos, "%s's index %d..%d has %d values: an index has 1..%d", what, lo, hi, hi-lo+1, maxArrayLen)
		hi = lo
	}
	return &ir.Range{Lo: lo, Hi: hi}
}

// elem2 checks a read of a two-dimensional array's entry: a[r][c] of the
// acting process, or a[p][r][c] of process p.
func (c *checker) elem2(e *syntax.IndexExpr, a *ir.Array, sc *scope) ir.Expr {
	var proc ir.Expr
	rs, cs := e.Index, e.Elem
	switch {
	case e.Elem == nil:
		c.errorf(e.Index.ExprPos(), "%s has two indices: %s[i][j] is the acting process's entry, %s[p][i][j] process p's", a.Name, a.Name, a.Name)
		return poison{}
	case e.Elem2 != nil:
		proc = c.readProc(e.Index, a.Name, e.Var.Pos, sc)
		rs, cs = e.Elem, e.Elem2
	case !sc.acting:
		c.errorf(e.Var.Pos, "%s is an array of each process: say whose entry (%s[p][i][j])", a.Name, a.Name)
	}
	r, col, ok := c.indices2(a, rs, cs, sc)
	if !ok {
		return poison{}
	}
	if v, constant := c.entry2(a, r, col); constant {
		if v == nil {
			return &ir.Const{Value: a.Type.Lo, T: a.Type}
		}
		if kp, ok := proc.(*ir.Const); ok && !slices.Contains(v.Procs, kp.Value) {
			c.errorf(e.Index.ExprPos(), "process %d has no entry %s of %s", kp.Value, a.EntryName(v.Index), a.Name)
		}
		if proc == nil && !sc.dead {
			c.owns(v, rs.ExprPos(), sc)
		}
		sc.recordVar(v, proc)
		return &ir.VarRef{Var: v, Proc: proc}
	}
	for _, v := range a.Elems {
		if v != nil {
			sc.recordVar(v, proc)
		}
	}
	return &ir.ElemRef{Array: a, Proc: proc, Index: c.flatIndex(a.Rows, a.Cols, rs, cs, sc), Pos: rs.ExprPos()}
}

// assignElem2 checks an assignment to an entry of the acting process's
// two-dimensional array a.
func (c *checker) assignElem2(s *syntax.AssignStmt, a *ir.Array, sc *scope, assigned assignments) ir.Stmt {
	if s.Index == nil || s.Index2 == nil {
		c.errorf(s.Var.Pos, "%s has two indices: assign an entry (%s[i][j] := ...)", a.Name, a.Name)
		return nil
	}
	r, col, ok := c.indices2(a, s.Index, s.Index2, sc)
	if !ok {
		c.expr(s.Value, sc)
		return nil
	}
	if n := len(sc.loops); n > 0 {
		if n > 1 || !isLocal(r, sc.loops[0]) && !isLocal(col, sc.loops[0]) {
			c.errorf(s.Pos, "for assigns %s once per member: in a for loop only an entry one of whose indices is the loop's name may be assigned, and in one loop only", a.Name)
		}
	}
	if v, constant := c.entry2(a, r, col); constant {
		if v == nil {
			c.expr(s.Value, sc)
			return nil
		}
		if !sc.dead {
			c.owns(v, s.Index.ExprPos(), sc)
		}
		c.record(assigned, v, v.Name, s.Pos)
		return c.assign(v, s.Value, sc)
	}
	return c.assignDynamic(s, a, lineOf(a, r, col), c.flatIndex(a.Rows, a.Cols, s.Index, s.Index2, sc), s.Index.ExprPos(), sc, assigned)
}

// lineOf is the key of assignments for an entry of a at indices r, col,
// not both constants: the line of the one that is (its row or its
// column), or a itself when neither is.
func lineOf(a *ir.Array, r, col ir.Expr) any {
	if k, ok := r.(*ir.Const); ok && !invalid(r) {
		return line{a: a, at: k.Value}
	}
	if k, ok := col.(*ir.Const); ok && !invalid(col) {
		return line{a: a, col: true, at: k.Value}
	}
	return a
}

// isLocal reports whether x is the value of local l.
func isLocal(x ir.Expr, l *ir.Local) bool {
	ref, ok := x.(*ir.LocalRef)
	return ok && ref.Local == l
}

// indices2 checks the two indices of an entry of a, reporting a constant
// outside its range; ok is false when one has a problem.
func (c *checker) indices2(a *ir.Array, rs, cs syntax.Expr, sc *scope) (r, col ir.Expr, ok bool) {
	r = c.intExpr(rs, sc, "an array's index")
	col = c.intExpr(cs, sc, "an array's index")
	if invalid(r) || invalid(col) || r.Type().Kind != ir.Int || col.Type().Kind != ir.Int {
		return r, col, false
	}
	ok = true
	for _, x := range []struct {
		e     ir.Expr
		pos   syntax.Pos
		rng   *ir.Range
		which string
	}{{r, rs.ExprPos(), a.Rows, "first"}, {col, cs.ExprPos(), a.Cols, "second"}} {
		if k, constant := x.e.(*ir.Const); constant && (k.Value < x.rng.Lo || k.Value > x.rng.Hi) {
			if !sc.dead {
				c.errorf(x.pos, "index %d is outside %s's %s index %s", k.Value, a.Name, x.which, x.rng)
			}
			ok = false
		}
	}
	return r, col, ok
}

// entry2 returns the entry of a at constant indices r and col, within
// their ranges (nil when no process has it); constant is false when an
// index is not a constant.
func (c *checker) entry2(a *ir.Array, r, col ir.Expr) (v *ir.Var, constant bool) {
	kr, okr := r.(*ir.Const)
	kc, okc := col.(*ir.Const)
	if !okr || !okc {
		return nil, false
	}
	return a.Elem((kr.Value-a.Rows.Lo)*a.Cols.Len() + kc.Value - a.Cols.Lo), true
}

// flatIndex returns the index of the entry [rs][cs] of a two-dimensional
// array of ranges rows and cols: (rs-rows.Lo) * cols.Len() + (cs-cols.Lo)
// when both are within their ranges, -1 (no entry) otherwise, so that an
// index outside its range is a missing entry and not another row's. The
// indices were checked already: their problems are not reported twice.
func (c *checker) flatIndex(rows, cols *ir.Range, rs, cs syntax.Expr, sc *scope) ir.Expr {
	pos := rs.ExprPos()
	lit := func(v int) syntax.Expr { return &syntax.IntLit{Pos: pos, Value: v} }
	bin := func(op syntax.Token, x, y syntax.Expr) syntax.Expr {
		return &syntax.BinaryExpr{OpPos: pos, Op: op, X: x, Y: y}
	}
	in := bin(syntax.AndAnd,
		bin(syntax.AndAnd, bin(syntax.Le, lit(rows.Lo), rs), bin(syntax.Le, rs, lit(rows.Hi))),
		bin(syntax.AndAnd, bin(syntax.Le, lit(cols.Lo), cs), bin(syntax.Le, cs, lit(cols.Hi))))
	at := bin(syntax.Plus, bin(syntax.Star, bin(syntax.Minus, rs, lit(rows.Lo)), lit(cols.Len())), bin(syntax.Minus, cs, lit(cols.Lo)))
	c.silent++
	defer func() { c.silent-- }()
	return c.intExpr(&syntax.CondExpr{Pos: pos, Cond: in, X: at, Y: lit(-1)}, sc, "an array's index")
}
