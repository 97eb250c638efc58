package check

import (
	"slices"

	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
)

// This file checks run receives (recv run M, ... while FIELD from Q),
// the loops over their runs (for m in run { ... }) and the tests of a
// message's type (m is M): see ir.RunRecv.

// runBinding is what a loop over a run binds its name to: the message
// held in t, read by m.f and m is M.
type runBinding struct {
	t *ir.Temp
	r *ir.Receive
}

// Type is invalid: the name is not a value (its fields are).
func (runBinding) Type() *ir.Type { return invalidType }

// receiveRun checks recv run M, ... while FIELD from Q.
func (c *checker) receiveRun(r *syntax.Receive, sc *scope) *ir.Receive {
	if c.spec.Channels == nil {
		c.errorf(r.Pos, "recv needs channels (channels capacity C)")
	}
	run := &ir.RunRecv{More: r.More.Name}
	rc := &ir.Receive{Any: true, From: c.procExpr(r.From, sc), Run: run}
	for _, id := range r.Types {
		m, ok := c.messages[id.Name]
		switch {
		case !ok:
			c.errorf(id.Pos, "unknown message %s", id.Name)
			continue
		case slices.Contains(run.Types, m):
			c.errorf(id.Pos, "the run names %s twice", m.Name)
			continue
		}
		i := slices.IndexFunc(m.Fields, func(f *ir.Field) bool { return f.Name == r.More.Name })
		switch {
		case i < 0:
			c.errorf(id.Pos, "message %s has no field %s to chain the run", m.Name, r.More.Name)
		case m.Fields[i].Type != invalidType && m.Fields[i].Type.Kind == ir.Enum:
			c.errorf(id.Pos, "field %s of %s chains the run: it is a boolean or an integer (0 ends the run), not %s", r.More.Name, m.Name, typeName(m.Fields[i].Type))
		}
		run.Types = append(run.Types, m)
	}
	for _, m := range c.spec.Messages {
		i := -1
		if slices.Contains(run.Types, m) {
			i = slices.IndexFunc(m.Fields, func(f *ir.Field) bool { return f.Name == r.More.Name })
		} else {
			rc.Except = append(rc.Except, m)
		}
		run.MoreIndex = append(run.MoreIndex, i)
	}
	c.link(r.From.ExprPos(), rc.From, &ir.Self{}, sc, "receive from")
	sc.recordChan(rc.From, &ir.Self{})
	return rc
}

// forRun checks for m in run { ... }: in a sequential block of an
// action that receives a run.
func (c *checker) forRun(s *syntax.ForStmt, sc *scope, assigned assignments) []ir.Stmt {
	r := sc.recv
	switch {
	case r == nil || r.Run == nil:
		c.errorf(s.Over.Pos, "run is the messages a run receive takes (recv run M, ... while FIELD from Q): this action takes none")
		return nil
	case sc.seq == nil:
		c.errorf(s.Pos, "for %s in run reads the run's messages in order: write it in do { ... }", s.Var.Name)
		return nil
	}
	if c.taken(s.Var.Name) {
		c.errorf(s.Var.Pos, "%s is already declared: name the message differently", s.Var.Name)
	}
	blk := sc.seq
	t := &ir.Temp{Name: s.Var.Name, Type: ir.IntType(), Slot: blk.slots, Len: 1, Dirty: -1, Pos: s.Var.Pos}
	blk.slots++
	blk.temps = append(blk.temps, t)
	inner := sc.with(s.Var.Name, runBinding{t, r})
	return []ir.Stmt{&ir.ForRun{Recv: r, Temp: t, Body: c.stmts(s.Body, inner, assigned)}}
}

// runField checks m.f, field f of the run's message m: 0 for a message
// whose type has no field f.
func (c *checker) runField(e *syntax.SelectorExpr, b runBinding) ir.Expr {
	rf := &ir.RunField{Temp: b.t, Field: e.Field.Name}
	for _, m := range c.spec.Messages {
		idx := -1
		if slices.Contains(b.r.Run.Types, m) {
			for i, f := range m.Fields {
				if f.Name != e.Field.Name {
					continue
				}
				idx = i
				if rf.T == nil || f.Type == invalidType {
					rf.T = f.Type
				} else if rf.T != invalidType && !sameType(rf.T, f.Type) {
					c.errorf(e.Field.Pos, "the run's messages have fields %s of different types: %s.%s would not have one type", e.Field.Name, b.t.Name, e.Field.Name)
				}
			}
		}
		rf.Index = append(rf.Index, idx)
	}
	if rf.T == nil {
		c.errorf(e.Field.Pos, "no message of the run has a field %s", e.Field.Name)
		return poison{}
	}
	if rf.T == invalidType {
		return poison{}
	}
	return rf
}

// isExpr checks m is M, for a run's message m.
func (c *checker) isExpr(e *syntax.IsExpr, sc *scope) ir.Expr {
	id, ok := e.X.(*syntax.Ident)
	var b runBinding
	if ok {
		x, _, found := sc.lookup(id.Name)
		b, ok = x.(runBinding)
		ok = ok && found
	}
	if !ok {
		c.errorf(e.Pos, "only a run's message has a type to test: for m in run { if m is M { ... } }")
		return poison{}
	}
	m, found := c.messages[e.Msg.Name]
	switch {
	case !found:
		c.errorf(e.Msg.Pos, "unknown message %s", e.Msg.Name)
		return poison{}
	case !slices.Contains(b.r.Run.Types, m):
		c.errorf(e.Msg.Pos, "the run holds no %s (recv run %s)", m.Name, typeNames(b.r.Run.Types))
		return poison{}
	}
	return &ir.RunIs{Temp: b.t, Msg: m}
}

// typeNames lists message types as M, N.
func typeNames(ms []*ir.Message) string {
	s := ""
	for i, m := range ms {
		if i > 0 {
			s += ", "
		}
		s += m.Name
	}
	return s
}
