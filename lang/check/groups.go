package check

import (
	"slices"

	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
)

// This file checks a variable name declared by several process blocks,
// over sets of processes that have none in common, and the values a
// block holds fixed (`process 0 { const up = true }`): together they are
// the name's group of parts. Declarations of one type and one initial
// value make one variable over all their processes; others are variables
// of their own, of the same name. A fixed value is no variable: the
// block's processes read it as a constant, and it takes no place in the
// configuration. Reading the name of a process selects the part that
// declares it for that process: statically where the process is known
// (the acting process and its neighbours in an action, a constant), by
// a condition on the process otherwise.

// varGroup is the parts of a name declared by several process blocks, or
// held fixed by one.
type varGroup struct {
	name  string
	parts []*varPart
}

// varPart is one part of a group: a variable (v) or a fixed value
// (fixed), of the processes procs (ascending), declared at pos.
type varPart struct {
	procs []int
	v     *ir.Var
	fixed *ir.Const
	pos   syntax.Pos
}

func (p *varPart) typ() *ir.Type {
	if p.v != nil {
		return p.v.Type
	}
	return p.fixed.T
}

// partOf returns the part that declares the name for process q, or nil.
func (g *varGroup) partOf(q int) *varPart {
	for _, p := range g.parts {
		if slices.Contains(p.procs, q) {
			return p
		}
	}
	return nil
}

// declarePart declares, in a process block of procs, the variable d
// whose name a variable or a group already has: as a part of the group,
// or merged with a part of the same type and initial value. It reports
// false, declaring nothing, where the name is not a variable's or a
// group's, or d is an array or the name's an array: the caller reports
// the name declared twice.
func (c *checker) declarePart(d *syntax.VarDecl, procs []int) bool {
	name := d.Name.Name
	g := c.groups[name]
	if g == nil {
		old, ok := c.vars[name]
		if !ok || d.Index != nil || len(old.Procs) == c.spec.N && len(procs) == c.spec.N {
			// Not a variable's name, or two declarations for every
			// process: the name is declared twice.
			return false
		}
		g = &varGroup{name: name, parts: []*varPart{{procs: old.Procs, v: old, pos: old.Pos}}}
	} else if d.Index != nil {
		return false
	}
	t := c.typ(d.Type)
	if !c.disjointPart(g, procs, t, d.Name.Pos) {
		return true
	}
	init := c.initial(d, t)
	for _, p := range g.parts {
		if v := p.v; v != nil && sameDomain(v.Type, t) && v.Init == init {
			// One variable over the processes of both declarations.
			v.Procs = union(v.Procs, procs)
			p.procs = v.Procs
			return true
		}
	}
	v := &ir.Var{Name: name, Type: t, Procs: procs, Doc: d.Doc, Pos: d.Pos, ID: len(c.spec.Vars), Init: init}
	c.spec.Vars = append(c.spec.Vars, v)
	g.parts = append(g.parts, &varPart{procs: procs, v: v, pos: d.Pos})
	c.setGroup(g)
	return true
}

// fixedValue declares `const NAME = EXPR` in a process block of procs:
// the value the block's processes hold fixed.
func (c *checker) fixedValue(d *syntax.ConstDecl, procs []int) {
	name := d.Name.Name
	x := c.expr(d.Value, &scope{global: true})
	k, ok := x.(*ir.Const)
	switch {
	case invalid(x):
		return
	case !ok:
		c.errorf(d.Value.ExprPos(), "a fixed value must be a constant")
		return
	}
	g := c.groups[name]
	if g == nil {
		if old, ok := c.vars[name]; ok {
			g = &varGroup{name: name, parts: []*varPart{{procs: old.Procs, v: old, pos: old.Pos}}}
		} else if c.taken(name) || name == "bool" {
			c.errorf(d.Name.Pos, "%s is declared twice", name)
			return
		} else {
			g = &varGroup{name: name}
		}
	}
	if !c.disjointPart(g, procs, k.T, d.Name.Pos) {
		return
	}
	g.parts = append(g.parts, &varPart{procs: procs, fixed: k, pos: d.Pos})
	c.setGroup(g)
}

// disjointPart reports whether a part of type t for procs may join g:
// no process of procs has a part of g already, and t is of the parts'
// kind. It reports the problem, at pos, where it may not.
func (c *checker) disjointPart(g *varGroup, procs []int, t *ir.Type, pos syntax.Pos) bool {
	for _, p := range g.parts {
		for _, q := range procs {
			if slices.Contains(p.procs, q) {
				c.errorf(pos, "%s is declared twice for process %d (first at %s): the blocks that declare a name have no process in common", g.name, q, p.pos)
				return false
			}
		}
		if t != invalidType && p.typ() != invalidType && !sameType(p.typ(), t) {
			c.errorf(pos, "%s is of type %s here and %s at %s: the blocks that declare a name give it one kind of type", g.name, typeName(t), typeName(p.typ()), p.pos)
			return false
		}
	}
	return true
}

// setGroup records g as its name's: the name is no single variable.
func (c *checker) setGroup(g *varGroup) {
	if c.groups == nil {
		c.groups = map[string]*varGroup{}
	}
	c.groups[g.name] = g
	delete(c.vars, g.name)
}

// sameDomain reports whether two types have the same values.
func sameDomain(a, b *ir.Type) bool {
	return sameType(a, b) && a.Lo == b.Lo && a.Hi == b.Hi
}

// union returns the processes of a or b, ascending.
func union(a, b []int) []int {
	out := append(slices.Clone(a), b...)
	slices.Sort(out)
	return slices.Compact(out)
}

// groupIdent reads the acting process's own value of g's name.
func (c *checker) groupIdent(g *varGroup, e *syntax.Ident, sc *scope) ir.Expr {
	if !sc.acting {
		c.errorf(e.Pos, "%s is a process variable: say whose (%s[p])", e.Name, e.Name)
		return c.partPlaceholder(g)
	}
	return c.groupRead(g, nil, e.Pos, sc)
}

// groupIndex reads g's name of the process e's index names.
func (c *checker) groupIndex(g *varGroup, e *syntax.IndexExpr, sc *scope) ir.Expr {
	if e.Elem != nil {
		c.errorf(e.Elem.ExprPos(), "%s is not an array: %s[p] is process p's", g.name, g.name)
	}
	proc := c.readProc(e.Index, g.name, e.Var.Pos, sc)
	if invalid(orSelf(proc)) {
		return poison{}
	}
	return c.groupRead(g, proc, e.Index.ExprPos(), sc)
}

func orSelf(proc ir.Expr) ir.Expr {
	if proc == nil {
		return &ir.Self{}
	}
	return proc
}

// partPlaceholder stands for a read already reported: a constant of the
// group's type.
func (c *checker) partPlaceholder(g *varGroup) ir.Expr {
	for _, p := range g.parts {
		if t := p.typ(); t != invalidType {
			return &ir.Const{Value: t.Lo, T: t}
		}
	}
	return poison{}
}

// groupRead reads g's name of process proc (nil: the acting process):
// the part of the process where every process it may be is known, a
// condition on the process over the parts otherwise. A process that has
// no part reads as it reads a variable it does not declare (0 outside
// actions, a fault in an action where the checker cannot tell).
func (c *checker) groupRead(g *varGroup, proc ir.Expr, pos syntax.Pos, sc *scope) ir.Expr {
	n := c.spec.N
	var targets []int
	static := true
	switch {
	case sc.acting && !sc.global:
		for _, p := range sc.procs {
			q, ok := staticProc(orSelf(proc), p, n)
			if !ok {
				static = false
				break
			}
			targets = append(targets, q)
		}
	default:
		k, ok := proc.(*ir.Const)
		static = ok
		if ok {
			targets = []int{k.Value}
		}
	}
	parts := g.parts
	if static {
		parts = nil
		for _, q := range targets {
			p := g.partOf(q)
			if p == nil {
				c.errorf(pos, "process %d has no variable %s", q, g.name)
				return c.partPlaceholder(g)
			}
			if !slices.Contains(parts, p) {
				parts = append(parts, p)
			}
		}
		if len(parts) == 0 {
			// An empty block: nothing is read.
			return c.partPlaceholder(g)
		}
	}
	read := func(p *varPart) ir.Expr {
		if p.v == nil {
			return p.fixed
		}
		sc.recordVar(p.v, proc)
		return &ir.VarRef{Var: p.v, Proc: proc}
	}
	// The last branch is a variable's, where there is one: a process
	// without a part reads as it reads one it does not declare.
	var last *varPart
	for _, p := range parts {
		if p.v != nil {
			last = p
		}
	}
	var out ir.Expr
	if last != nil {
		out = read(last)
	} else if static {
		last = parts[len(parts)-1]
		out = read(last)
	} else {
		out = c.partPlaceholder(g)
	}
	for i := len(parts) - 1; i >= 0; i-- {
		p := parts[i]
		if p == last || len(p.procs) == 0 {
			continue
		}
		out = &ir.Cond{C: member(orSelf(proc), p.procs, n), X: read(p), Y: out}
	}
	return out
}

// member is the condition that process proc (taken modulo n) is one of
// procs (ascending, not empty).
func member(proc ir.Expr, procs []int, n int) ir.Expr {
	q := proc
	switch proc.(type) {
	case *ir.Self, *ir.Neighbor:
	default:
		q = &ir.Binary{Op: syntax.Percent, X: proc, Y: &ir.Const{Value: n, T: ir.IntType()}, T: ir.IntType()}
	}
	num := func(v int) ir.Expr { return &ir.Const{Value: v, T: ir.IntType()} }
	cmp := func(op syntax.Token, v int) ir.Expr {
		return &ir.Binary{Op: op, X: q, Y: num(v), T: ir.BoolType()}
	}
	var out ir.Expr
	for i := 0; i < len(procs); {
		j := i
		for j+1 < len(procs) && procs[j+1] == procs[j]+1 {
			j++
		}
		var run ir.Expr
		if i == j {
			run = cmp(syntax.Eq, procs[i])
		} else {
			run = &ir.Binary{Op: syntax.AndAnd, X: cmp(syntax.Ge, procs[i]), Y: cmp(syntax.Le, procs[j]), T: ir.BoolType()}
		}
		if out == nil {
			out = run
		} else {
			out = &ir.Binary{Op: syntax.OrOr, X: out, Y: run, T: ir.BoolType()}
		}
		i = j + 1
	}
	return out
}

// assignedPart returns the variable an assignment to g's name by the
// acting processes writes: the part of every one of them. It reports
// false, with the problem, where there is no such variable.
func (c *checker) assignedPart(g *varGroup, s *syntax.AssignStmt, sc *scope) (*ir.Var, bool) {
	if s.Index != nil {
		c.errorf(s.Index.ExprPos(), "%s is declared by several blocks or held fixed by one: an action assigns only its own process's (%s := ...)", g.name, g.name)
		return nil, false
	}
	var v *ir.Var
	for _, q := range sc.procs {
		p := g.partOf(q)
		switch {
		case p == nil:
			c.errorf(s.Var.Pos, "process %d has no variable %s", q, g.name)
			return nil, false
		case p.v == nil:
			c.errorf(s.Var.Pos, "process %d holds %s fixed (const at %s): it cannot assign it", q, g.name, p.pos)
			return nil, false
		case v != nil && p.v != v:
			c.errorf(s.Var.Pos, "the processes of the block have %s of different declarations (at %s and %s): assign it in blocks within one of them", g.name, v.Pos, p.pos)
			return nil, false
		}
		v = p.v
	}
	if v == nil {
		// A block of no process: checked against the first variable.
		for _, p := range g.parts {
			if p.v != nil {
				return p.v, true
			}
		}
		c.errorf(s.Var.Pos, "%s is a fixed value (const), not a variable: it cannot be assigned", g.name)
		return nil, false
	}
	return v, true
}
