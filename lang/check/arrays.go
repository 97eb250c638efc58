package check

import (
	"fmt"
	"slices"

	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
)

// array declares an array variable of procs: one ir.Var per index, named
// NAME[i], declared in the processes that have entry i (for an array over
// peers, those whose peer i is).
func (c *checker) array(d *syntax.VarDecl, t *ir.Type, init int, procs []int) {
	if d.Index2 != nil {
		c.array2(d, t, init, procs)
		return
	}
	a := &ir.Array{Name: d.Name.Name, Type: t, Doc: d.Doc, Pos: d.Pos}
	if d.Index.Chan {
		c.errorf(d.Index.Pos, "an array is indexed by peers or lo..hi, not by a channel's messages")
		d = &syntax.VarDecl{Name: d.Name, Index: &syntax.Set{Peers: true}, Doc: d.Doc, Pos: d.Pos}
	}
	if d.Index.Peers {
		if d.Index.Of != nil {
			c.errorf(d.Index.Of.ExprPos(), "an array over peers is indexed by each process's own peers: write %s[peers]", a.Name)
		}
		a.Peers, a.Lo, a.Hi = true, 0, c.spec.N-1
	} else {
		var okLo, okHi bool
		a.Lo, okLo = c.bound(d.Index.Lo, "an array's index bound")
		a.Hi, okHi = c.bound(d.Index.Hi, "an array's index bound")
		switch {
		case !okLo || !okHi:
			a.Hi = a.Lo
		case a.Hi < a.Lo || tooWide(a.Lo, a.Hi, maxArrayLen):
			c.errorf(d.Index.Pos, "array %s has %d entries: an array has 1..%d", a.Name, a.Hi-a.Lo+1, maxArrayLen)
			a.Hi = a.Lo
		}
	}
	for i := a.Lo; i <= a.Hi; i++ {
		with := procs
		if a.Peers {
			with = nil
			for _, p := range procs {
				if slices.Contains(c.spec.Peers[p], i) {
					with = append(with, p)
				}
			}
		}
		if len(with) == 0 {
			a.Elems = append(a.Elems, nil)
			continue
		}
		v := &ir.Var{Name: fmt.Sprintf("%s[%d]", a.Name, i), Type: t, Procs: with, Init: init, Doc: d.Doc, Pos: d.Pos, ID: len(c.spec.Vars), Array: a, Index: i}
		a.Elems = append(a.Elems, v)
		c.spec.Vars = append(c.spec.Vars, v)
	}
	c.arrays[a.Name] = a
	c.spec.Arrays = append(c.spec.Arrays, a)
}

// maxArrayLen bounds an array's index range.
const maxArrayLen = 64

// maxSetLen bounds the range a quantifier or a for loop runs over, and
// the alternatives of an action's choice.
const maxSetLen = maxArrayLen * maxArrayLen

// boundSet is a checked set with the type of the names that range over it.
type boundSet struct {
	*ir.Set
	lo, hi int
}

// local returns a local named name ranging over the set.
func (s boundSet) local(name string) *ir.Local {
	return &ir.Local{Name: name, Type: &ir.Type{Kind: ir.Int, Lo: s.lo, Hi: s.hi}, Lo: s.lo, Hi: s.hi}
}

// set checks what a quantifier or a for loop ranges over.
func (c *checker) set(s *syntax.Set, sc *scope) boundSet {
	if s.Chan {
		c.errorf(s.Pos, "chan(...) is the messages of a channel: only a quantifier ranges over it (count m in chan(p, q): ...)")
		return boundSet{&ir.Set{}, 0, 0}
	}
	if s.Peers {
		out := &ir.Set{Peers: c.spec.Peers}
		if s.Of == nil {
			if !sc.acting {
				c.errorf(s.Pos, "peers are the acting process's: only actions and init have one (write peers(p))")
			}
			out.Of = &ir.Self{}
		} else {
			out.Of = c.procExpr(s.Of, sc)
		}
		return boundSet{out, 0, c.spec.N - 1}
	}
	lo, okLo := c.bound(s.Lo, "a range bound")
	hi, okHi := c.bound(s.Hi, "a range bound")
	if !okLo || !okHi {
		hi = lo
	}
	if tooWide(lo, hi, maxSetLen) {
		c.errorf(s.Pos, "range %d..%d has more than %d members", lo, hi, maxSetLen)
		hi = lo
	}
	// An empty range is allowed: a sum over it is 0, a loop runs no effect.
	return boundSet{&ir.Set{Lo: lo, Hi: hi}, lo, max(lo, hi)}
}

// elem checks a read of an array's entry: a[i] of the acting process, or
// a[p][i] of process p.
func (c *checker) elem(e *syntax.IndexExpr, a *ir.Array, sc *scope) ir.Expr {
	if a.Cols != nil {
		return c.elem2(e, a, sc)
	}
	if e.Elem2 != nil {
		c.errorf(e.Elem2.ExprPos(), "%s has one index: %s[i] is the acting process's entry, %s[p][i] process p's", a.Name, a.Name, a.Name)
		return poison{}
	}
	var proc ir.Expr
	index := e.Index
	if e.Elem != nil {
		proc = c.readProc(e.Index, a.Name, e.Var.Pos, sc)
		index = e.Elem
	} else if !sc.acting {
		c.errorf(e.Var.Pos, "%s is an array of each process: say whose entry (%s[p][i])", a.Name, a.Name)
	}
	i := c.intExpr(index, sc, "an array's index")
	c.notSelf(a, i, index.ExprPos())
	k, constant := i.(*ir.Const)
	if !constant || invalid(i) {
		for _, v := range a.Elems {
			if v != nil {
				sc.recordVar(v, proc)
			}
		}
		return &ir.ElemRef{Array: a, Proc: proc, Index: i, Pos: index.ExprPos()}
	}
	v := c.entry(a, k.Value, index.ExprPos(), sc)
	if v == nil {
		return &ir.Const{Value: a.Type.Lo, T: a.Type}
	}
	if kp, ok := proc.(*ir.Const); ok && !slices.Contains(v.Procs, kp.Value) {
		c.errorf(e.Index.ExprPos(), "process %d has no entry %d of %s", kp.Value, k.Value, a.Name)
	}
	if proc == nil && !sc.dead {
		c.owns(v, index.ExprPos(), sc)
	}
	sc.recordVar(v, proc)
	return &ir.VarRef{Var: v, Proc: proc}
}

// entry returns entry i of a, reporting one that does not exist.
func (c *checker) entry(a *ir.Array, i int, pos syntax.Pos, sc *scope) *ir.Var {
	v := a.Elem(i)
	if v == nil && !sc.dead {
		if a.Peers {
			c.errorf(pos, "no process has process %d as a peer: %s has no entry %d", i, a.Name, i)
		} else {
			c.errorf(pos, "index %d is outside %s's %d..%d", i, a.Name, a.Lo, a.Hi)
		}
	}
	return v
}

// notSelf reports an array over peers indexed by the acting process.
func (c *checker) notSelf(a *ir.Array, i ir.Expr, pos syntax.Pos) {
	if _, self := i.(*ir.Self); self && a.Peers {
		c.errorf(pos, "a process is not its own peer: %s has no entry self", a.Name)
	}
}

// owns reports an acting process that lacks entry v.
func (c *checker) owns(v *ir.Var, pos syntax.Pos, sc *scope) {
	for _, p := range sc.procs {
		if !slices.Contains(v.Procs, p) {
			c.errorf(pos, "process %d has no entry %s of %s (a process's peers exclude itself)", p, v.Array.EntryName(v.Index), v.Array.Name)
			return
		}
	}
}

// assignElem checks an assignment to an entry of the acting process's
// array a.
func (c *checker) assignElem(s *syntax.AssignStmt, a *ir.Array, sc *scope, assigned assignments) ir.Stmt {
	if a.Cols != nil {
		return c.assignElem2(s, a, sc, assigned)
	}
	if s.Index2 != nil {
		c.errorf(s.Index2.ExprPos(), "%s has one index: assign an entry (%s[i] := ...)", a.Name, a.Name)
		return nil
	}
	if s.Index == nil {
		c.errorf(s.Var.Pos, "%s is an array: assign an entry (%s[i] := ...)", a.Name, a.Name)
		return nil
	}
	i := c.intExpr(s.Index, sc, "an array's index")
	c.notSelf(a, i, s.Index.ExprPos())
	if n := len(sc.loops); n > 0 {
		ref, ok := i.(*ir.LocalRef)
		if n > 1 || !ok || ref.Local != sc.loops[0] {
			c.errorf(s.Pos, "for assigns %s once per member: in a for loop only an entry indexed by the loop's name may be assigned, and in one loop only", a.Name)
		}
	}
	if k, ok := i.(*ir.Const); ok && !invalid(i) {
		v := c.entry(a, k.Value, s.Index.ExprPos(), sc)
		if v == nil {
			return nil
		}
		if !sc.dead {
			c.owns(v, s.Index.ExprPos(), sc)
		}
		c.record(assigned, v, v.Name, s.Pos)
		return c.assign(v, s.Value, sc)
	}
	return c.assignDynamic(s, a, a, i, s.Index.ExprPos(), sc, assigned)
}

// assignDynamic checks an assignment to the entry of a at index i, not a
// constant, written at pos; key is what it records in assigned (a, or the
// line of a two-dimensional array's entry).
func (c *checker) assignDynamic(s *syntax.AssignStmt, a *ir.Array, key any, i ir.Expr, pos syntax.Pos, sc *scope, assigned assignments) ir.Stmt {
	c.record(assigned, key, a.Name+"[...]", s.Pos)
	x := c.expr(s.Value, sc)
	if invalid(x) || a.Type == invalidType {
		return &ir.AssignElem{Array: a, Index: i, Value: x, Pos: pos}
	}
	if !assignable(a.Type, x.Type()) {
		c.errorf(s.Value.ExprPos(), "cannot assign %s to %s of type %s", typeName(x.Type()), a.Name, typeName(a.Type))
	}
	if k, ok := x.(*ir.Const); ok && !sc.dead && (k.Value < a.Type.Lo || k.Value > a.Type.Hi) {
		c.errorf(s.Value.ExprPos(), "%d is outside %s's domain %s", k.Value, a.Name, a.Type.Domain())
	}
	if sc.writes != nil {
		for _, v := range a.Elems {
			if v != nil {
				sc.writes.Vars = append(sc.writes.Vars, ir.VarAccess{Var: v})
			}
		}
	}
	return &ir.AssignElem{Array: a, Index: i, Value: x, Pos: pos}
}
