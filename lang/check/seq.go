package check

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
)

// This file checks sequential blocks (do { ... }) and their locals
// (let): see ir.Seq for what they compile to.

// seqBlock is what the checker knows of the sequential block it is in:
// its temps (locals, then shadows) and how many slots they take.
type seqBlock struct {
	temps []*ir.Temp
	slots int
}

// seqMark is the key that marks the assignments of a sequential block,
// which record lets assign a variable more than once.
type seqMark struct{}

// seqStmt checks do { ... }. A block inside another is the outer one's
// effects, which run in order already.
func (c *checker) seqStmt(s *syntax.SeqStmt, sc *scope, assigned assignments) []ir.Stmt {
	if sc.seq != nil {
		return c.stmts(s.Body, sc, assigned)
	}
	blk := &seqBlock{}
	in := *sc
	in.seq = blk
	inner := assignments{seqMark{}: s.Pos}
	body := c.stmts(s.Body, &in, inner)
	delete(inner, seqMark{})
	// The block is one effect of the step: what it assigns, the step's
	// other effects do not.
	keys := make([]any, 0, len(inner))
	for k := range inner {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b any) int {
		pa, pb := inner[a], inner[b]
		if pa != pb {
			if earlier(pa, pb) {
				return -1
			}
			return 1
		}
		return cmp.Compare(keyID(a), keyID(b))
	})
	before := maps.Clone(assigned)
	for _, k := range keys {
		// Checked against the step's other effects, not the block's.
		c.record(maps.Clone(before), k, keyName(k), inner[k])
		assigned[k] = inner[k]
	}
	sh := c.shadows(keys, blk)
	return []ir.Stmt{&ir.Seq{Body: sh.stmts(body), Temps: blk.temps, Frame: blk.slots, Pos: s.Pos}}
}

// keyName names what an assignments key stands for, for a message.
func keyName(k any) string {
	switch k := k.(type) {
	case *ir.Var:
		return k.Name
	case *ir.Array:
		return k.Name + "[...]"
	case line:
		return k.a.Name + "[...]"
	case target:
		return k.v.Name
	}
	return fmt.Sprint(k)
}

// keyID orders the keys of one position: by the first variable they
// stand for.
func keyID(k any) int {
	switch k := k.(type) {
	case *ir.Var:
		return k.ID
	case *ir.Array:
		return firstID(k)
	case line:
		return firstID(k.a)
	case target:
		return k.v.ID
	}
	return -1
}

func firstID(a *ir.Array) int {
	for _, v := range a.Elems {
		if v != nil {
			return v.ID
		}
	}
	return -1
}

// shadowing maps what a sequential block assigns to the temps that
// shadow it, and rewrites the block's effects to use them.
type shadowing struct {
	vars   map[*ir.Var]*ir.Temp
	arrays map[*ir.Array]*ir.Temp
	n      int
}

// shadows makes a shadow for each variable and array keys assign
// (an array's whole, for any entry), in blk's frame.
func (c *checker) shadows(keys []any, blk *seqBlock) *shadowing {
	sh := &shadowing{vars: map[*ir.Var]*ir.Temp{}, arrays: map[*ir.Array]*ir.Temp{}, n: c.spec.N}
	add := func(t *ir.Temp) {
		t.Slot = blk.slots
		t.Dirty = blk.slots + t.Len
		blk.slots += 2 * t.Len
		blk.temps = append(blk.temps, t)
	}
	array := func(a *ir.Array) {
		if sh.arrays[a] == nil {
			t := &ir.Temp{Name: a.Name, Type: a.Type, Len: len(a.Elems), Array: a, Pos: a.Pos}
			sh.arrays[a] = t
			add(t)
		}
	}
	for _, k := range keys {
		switch k := k.(type) {
		case *ir.Var:
			if k.Array != nil {
				array(k.Array)
			} else if sh.vars[k] == nil {
				t := &ir.Temp{Name: k.Name, Type: k.Type, Len: 1, Var: k, Pos: k.Pos}
				sh.vars[k] = t
				add(t)
			}
		case *ir.Array:
			array(k)
		case line:
			array(k.a)
		}
	}
	return sh
}

// stmts rewrites effects of the block: an assignment of a shadowed
// variable or entry sets its shadow, and a read of one by the acting
// process reads it.
func (sh *shadowing) stmts(ss []ir.Stmt) []ir.Stmt {
	out := make([]ir.Stmt, 0, len(ss))
	for _, s := range ss {
		out = append(out, sh.stmt(s))
	}
	return out
}

func (sh *shadowing) stmt(s ir.Stmt) ir.Stmt {
	switch s := s.(type) {
	case *ir.Assign:
		if t := sh.vars[s.Var]; t != nil {
			return &ir.SetTemp{Temp: t, Value: sh.expr(s.Value)}
		}
		if a := s.Var.Array; a != nil && sh.arrays[a] != nil {
			return &ir.SetTemp{Temp: sh.arrays[a], Index: &ir.Const{Value: s.Var.Index, T: ir.IntType()}, Value: sh.expr(s.Value), Pos: s.Var.Pos}
		}
		return &ir.Assign{Var: s.Var, Value: sh.expr(s.Value)}
	case *ir.AssignElem:
		if t := sh.arrays[s.Array]; t != nil {
			return &ir.SetTemp{Temp: t, Index: sh.expr(s.Index), Value: sh.expr(s.Value), Pos: s.Pos}
		}
		return &ir.AssignElem{Array: s.Array, Index: sh.expr(s.Index), Value: sh.expr(s.Value), Pos: s.Pos}
	case *ir.SetTemp:
		return &ir.SetTemp{Temp: s.Temp, Index: sh.expr(s.Index), Value: sh.expr(s.Value), Pos: s.Pos}
	case *ir.Send:
		args := make([]ir.Expr, len(s.Args))
		for i, a := range s.Args {
			args[i] = sh.expr(a)
		}
		return &ir.Send{Msg: s.Msg, Args: args, To: sh.expr(s.To)}
	case *ir.If:
		return &ir.If{Cond: sh.expr(s.Cond), Then: sh.stmts(s.Then), Else: sh.stmts(s.Else)}
	case *ir.For:
		over := s.Over
		if of := sh.expr(over.Of); of != over.Of {
			o := *over
			o.Of = of
			over = &o
		}
		return &ir.For{Var: s.Var, Over: over, Body: sh.stmts(s.Body)}
	case *ir.Repeat:
		return &ir.Repeat{Count: sh.expr(s.Count), Body: sh.stmts(s.Body), Pos: s.Pos}
	case *ir.ForRun:
		return &ir.ForRun{Recv: s.Recv, Temp: s.Temp, Body: sh.stmts(s.Body)}
	}
	return s
}

// expr rewrites an expression of the block.
func (sh *shadowing) expr(e ir.Expr) ir.Expr {
	if e == nil {
		return nil
	}
	return ir.Rewrite(e, sh.read)
}

// read replaces a read of a shadowed variable or entry: by its shadow
// for the acting process, and, for a process known only as the step
// runs, by its shadow where that process is the acting one.
func (sh *shadowing) read(e ir.Expr) (ir.Expr, bool) {
	var ref *ir.TempRef
	var proc ir.Expr
	var other func(proc ir.Expr) ir.Expr
	switch e := e.(type) {
	case *ir.VarRef:
		if t := sh.vars[e.Var]; t != nil {
			ref = &ir.TempRef{Temp: t}
		} else if a := e.Var.Array; a != nil && sh.arrays[a] != nil {
			ref = &ir.TempRef{Temp: sh.arrays[a], Index: &ir.Const{Value: e.Var.Index, T: ir.IntType()}, Pos: e.Var.Pos}
		} else {
			return nil, false
		}
		proc = e.Proc
		other = func(p ir.Expr) ir.Expr { return &ir.VarRef{Var: e.Var, Proc: p} }
	case *ir.ElemRef:
		t := sh.arrays[e.Array]
		if t == nil {
			return nil, false
		}
		index := sh.expr(e.Index)
		ref = &ir.TempRef{Temp: t, Index: index, Pos: e.Pos}
		proc = e.Proc
		other = func(p ir.Expr) ir.Expr { return &ir.ElemRef{Array: e.Array, Proc: p, Index: index, Pos: e.Pos} }
	default:
		return nil, false
	}
	if _, self := proc.(*ir.Self); proc == nil || self {
		return ref, true
	}
	p := sh.expr(proc)
	isSelf := &ir.Binary{Op: syntax.Eq, T: ir.BoolType(),
		X: &ir.Binary{Op: syntax.Percent, X: p, Y: &ir.Const{Value: sh.n, T: ir.IntType()}, T: ir.IntType()},
		Y: &ir.Self{}}
	return &ir.Cond{C: isSelf, X: ref, Y: other(p)}, true
}

// localOf returns the local name stands for in sc, if it is one.
func (c *checker) localOf(name string, sc *scope) (*ir.Temp, bool) {
	x, _, ok := sc.lookup(name)
	if !ok {
		return nil, false
	}
	r, ok := x.(*ir.TempRef)
	if !ok || r.Temp.Shadow() {
		return nil, false
	}
	return r.Temp, true
}

// let checks let NAME [: TYPE] := EXPR, or a local array's let
// (letArray), returning its effect and the scope of the effects after it.
func (c *checker) let(s *syntax.LetStmt, sc *scope) (ir.Stmt, *scope) {
	if s.Index != nil {
		return c.letArray(s, sc)
	}
	x := c.expr(s.Value, sc)
	name := s.Name.Name
	if sc.seq == nil {
		c.errorf(s.Pos, "let declares a local of a sequential block: write it in do { ... }")
	}
	if _, _, bound := sc.lookup(name); bound || c.taken(name) {
		c.errorf(s.Name.Pos, "%s is already declared: name the local differently", name)
	}
	var t *ir.Type
	switch {
	case s.Type != nil:
		t = c.typ(s.Type)
		if !invalid(x) && t != invalidType && !assignable(t, x.Type()) {
			c.errorf(s.Value.ExprPos(), "cannot assign %s to %s of type %s", typeName(x.Type()), name, typeName(t))
		}
	case invalid(x):
		t = invalidType
	case x.Type().Kind == ir.Int:
		// A local is not stored: an integer without a type is any 32-bit
		// value, as a value of a declared type may be.
		t = &ir.Type{Kind: ir.Int, Lo: math.MinInt32, Hi: math.MaxInt32}
	default:
		t = x.Type()
	}
	tmp := &ir.Temp{Name: name, Type: t, Len: 1, Dirty: -1, Pos: s.Name.Pos}
	if blk := sc.seq; blk != nil {
		tmp.Slot = blk.slots
		blk.slots++
		blk.temps = append(blk.temps, tmp)
	}
	c.inDomain(x, t, "local "+name, s.Value.ExprPos(), sc)
	return &ir.SetTemp{Temp: tmp, Value: x, Pos: s.Pos}, sc.with(name, &ir.TempRef{Temp: tmp})
}

// assignLocal checks NAME := EXPR of a local t.
func (c *checker) assignLocal(s *syntax.AssignStmt, t *ir.Temp, sc *scope) []ir.Stmt {
	if s.Index != nil {
		c.errorf(s.Index.ExprPos(), "%s is a local, not an array: assign it whole (%s := ...)", t.Name, t.Name)
	}
	x := c.expr(s.Value, sc)
	if !invalid(x) && t.Type != invalidType && !assignable(t.Type, x.Type()) {
		c.errorf(s.Value.ExprPos(), "cannot assign %s to %s of type %s", typeName(x.Type()), t.Name, typeName(t.Type))
	}
	c.inDomain(x, t.Type, "local "+t.Name, s.Value.ExprPos(), sc)
	return []ir.Stmt{&ir.SetTemp{Temp: t, Value: x, Pos: s.Pos}}
}

// inDomain reports a constant x outside t, the type of what is named.
func (c *checker) inDomain(x ir.Expr, t *ir.Type, what string, pos syntax.Pos, sc *scope) {
	if invalid(x) || t == invalidType {
		return
	}
	if k, ok := x.(*ir.Const); ok && !sc.dead && (k.Value < t.Lo || k.Value > t.Hi) {
		c.errorf(pos, "%d is outside %s's domain %s", k.Value, what, t.Domain())
	}
}
