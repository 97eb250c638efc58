package check

import (
	"fmt"
	"strings"

	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
	"github.com/ringcheck/ringcheck/model"
)

// This file proves a file's symmetry declaration (symmetry rotation [,
// reflection]) on the instance's checked form, syntactically and
// conservatively: every action belongs to every process, every variable
// to every process, and every action and predicate names processes only
// relative to the acting process, a quantified process or a process
// predicate's process (self, pred, succ, p+E, p-E, pred(P), succ(P)),
// never as a value (self == 0, x[0], x := self, p < q). With
// reflection, the topology is a bidirectional ring and the mirror of
// every action (pred and succ exchanged, P+E and P-E exchanged) is an
// action, and every predicate is its own mirror.

// symmetry checks the file's symmetry declaration, if any, once the rest
// of the instance is checked, and records it in the spec.
func (c *checker) symmetry(decls []syntax.Decl) {
	var d *syntax.SymmetryDecl
	for _, x := range decls {
		if x, ok := x.(*syntax.SymmetryDecl); ok {
			if d != nil {
				c.errorf(x.Pos, "a second symmetry declaration (the first is at %s)", d.Pos)
				continue
			}
			d = x
		}
	}
	if d == nil {
		return
	}
	sym := &model.Symmetry{}
	rotation := false
	for _, k := range d.Kinds {
		switch k.Name {
		case "rotation":
			if rotation {
				c.errorf(k.Pos, "symmetry: rotation is given twice")
			}
			rotation = true
		case "reflection":
			if sym.Reflection {
				c.errorf(k.Pos, "symmetry: reflection is given twice")
			}
			sym.Reflection = true
		default:
			c.errorf(k.Pos, "symmetry is rotation or rotation, reflection, not %q", k.Name)
			return
		}
	}
	if !rotation {
		c.errorf(d.Pos, "symmetry: reflection goes with rotation (symmetry rotation, reflection)")
		return
	}
	if len(c.errs) > 0 {
		return
	}
	s := &symChecker{c: c, name: "symmetry " + sym.String(), procs: map[*ir.Local]bool{}}
	spec := c.spec
	if spec.Topology != model.UniRing && spec.Topology != model.BiRing {
		c.errorf(d.Pos, "%s: the topology is a %s; rotation needs a ring (topology ring(N) or biring(N))", s.name, spec.Topology)
		return
	}
	if sym.Reflection && spec.Topology != model.BiRing {
		c.errorf(d.Pos, "%s: the topology is a %s; reflection needs a bidirectional ring (topology biring(N))", s.name, spec.Topology)
		return
	}
	for _, a := range spec.Arrays {
		if a.Peers {
			c.errorf(a.Pos, "%s: array %s is indexed by processes (over peers), which the symmetry check does not cover", s.name, a.Name)
			return
		}
	}
	for _, v := range spec.Vars {
		if len(v.Procs) != spec.N {
			c.errorf(v.Pos, "%s: variable %s belongs to %s only, not to every process", s.name, v.Name, procList(v.Procs))
			return
		}
	}
	if n := len(spec.FirstEnabled); n != 0 && n != spec.N {
		c.errorf(d.Pos, "%s: first_enabled holds for %s only, not for every process", s.name, procList(spec.FirstEnabled))
		return
	}
	for _, a := range spec.Actions {
		if !s.action(a) {
			return
		}
	}
	preds := map[string]*syntax.PredicateDecl{}
	for _, x := range decls {
		p, ok := x.(*syntax.PredicateDecl)
		if !ok {
			continue
		}
		what, body, param := s.predicate(p, preds)
		if body == nil {
			continue
		}
		if param != nil {
			s.procs[param] = true
		}
		if v := s.value(body); v != nil {
			s.fail(v, what, p.Pos)
			return
		}
		if sym.Reflection && !s.mirror(body, body) {
			c.errorf(p.Pos, "%s: %s is not its own mirror (pred and succ, P+E and P-E exchanged)", s.name, what)
			return
		}
	}
	if sym.Reflection {
		for _, a := range spec.Actions {
			twin := false
			for _, b := range spec.Actions {
				if s.mirrorAction(a, b) {
					twin = true
					break
				}
			}
			if !twin {
				c.errorf(a.Pos, "%s: action %s has no mirror among the actions (pred and succ, P+E and P-E exchanged)", s.name, a.Name)
				return
			}
		}
	}
	spec.Symmetry = sym
}

// predicate returns what the symmetry check reads of a predicate
// declaration: how messages name it, its body in the instance (nil for
// a declaration the check does not cover: init and start, which only
// pick the configurations a search starts from, each of which the
// search replaces by its orbit's representative) and its process
// parameter.
func (s *symChecker) predicate(p *syntax.PredicateDecl, seen map[string]*syntax.PredicateDecl) (string, ir.Expr, *ir.Local) {
	spec := s.c.spec
	body := func(ps *ir.Predicate) ir.Expr {
		if ps == nil {
			return nil
		}
		return ps.Body
	}
	switch p.Kind {
	case "invariant":
		for _, in := range spec.Invariants {
			if in.Name == p.Name.Name {
				return "invariant " + in.Name, in.Body, nil
			}
		}
	case "legitimate":
		return "the legitimacy predicate", body(spec.Legitimate), nil
	case "valid_end":
		return "the valid_end predicate", body(spec.ValidEnd), nil
	case "start":
		return "the start predicate", nil, nil
	case "closure from":
		return "the closure from predicate", body(spec.ClosureFrom), nil
	case "predicate":
		for _, pp := range spec.ProcessPredicates {
			if pp.Name == p.Name.Name {
				return "predicate " + pp.Name, pp.Body, pp.Param
			}
		}
	}
	return "", nil, nil
}

func procList(ps []int) string {
	var b strings.Builder
	b.WriteString("process")
	if len(ps) != 1 {
		b.WriteString("es")
	}
	for i, p := range ps {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, " %d", p)
	}
	return b.String()
}

// symChecker proves that an instance's expressions read process indices
// only relatively.
type symChecker struct {
	c    *checker
	name string // "symmetry rotation" or "symmetry rotation, reflection"
	// procs are the locals bound to processes: quantified over every
	// process or over the peers of one, and process predicates'
	// parameters.
	procs map[*ir.Local]bool
}

// violation is where and how an expression reads a process index as a
// value.
type violation struct {
	pos    syntax.Pos
	detail string
	// other, when set, replaces "reads the process index as a value".
	other string
}

func (s *symChecker) fail(v *violation, what string, at syntax.Pos) {
	pos := v.pos
	if pos.Line == 0 {
		pos = at
	}
	if v.other != "" {
		s.c.errorf(pos, "%s: %s %s (%s)", s.name, what, v.other, v.detail)
		return
	}
	s.c.errorf(pos, "%s: %s reads the process index as a value (%s)", s.name, what, v.detail)
}

// action checks one action: it belongs to every process and its receive,
// guard and effects read processes only relatively.
func (s *symChecker) action(a *ir.Action) bool {
	what := "action " + a.Name
	if len(a.Procs) != s.c.spec.N {
		s.c.errorf(a.Pos, "%s: %s belongs to %s only, not to every process", s.name, what, procList(a.Procs))
		return false
	}
	var v *violation
	if a.Recv != nil {
		v = s.proc(a.Recv.From)
	}
	if v == nil {
		v = s.value(a.Guard)
	}
	if v == nil {
		v = s.stmts(a.Effects)
	}
	if v != nil {
		s.fail(v, what, a.Pos)
		return false
	}
	return true
}

// pterm reports whether e denotes a process relatively: the acting
// process, a process local, a neighbour of one, or one plus or minus a
// value (taken modulo N, so that rotating the processes rotates it).
func (s *symChecker) pterm(e ir.Expr) bool {
	switch e := e.(type) {
	case *ir.Self:
		return true
	case *ir.Neighbor:
		return e.Of == nil || s.pterm(e.Of)
	case *ir.LocalRef:
		return s.procs[e.Local]
	case *ir.Binary:
		switch e.Op {
		case syntax.Plus:
			return s.pterm(e.X) && s.value(e.Y) == nil || s.value(e.X) == nil && s.pterm(e.Y)
		case syntax.Minus:
			return s.pterm(e.X) && s.value(e.Y) == nil
		}
	case *ir.Cond:
		return s.value(e.C) == nil && s.pterm(e.X) && s.pterm(e.Y)
	}
	return false
}

// proc checks an expression that selects a process (nil: the acting
// process).
func (s *symChecker) proc(e ir.Expr) *violation {
	if e == nil || s.pterm(e) {
		return nil
	}
	return &violation{pos: exprPos(e), detail: "process " + describe(e) + " named by its index"}
}

// value checks an expression used as a value: it reads processes only
// where they are selected, and compares two processes only for
// equality.
func (s *symChecker) value(e ir.Expr) *violation {
	switch e := e.(type) {
	case nil, *ir.Const, *ir.FieldRef, *ir.MsgField, *ir.RunField, *ir.RunIs:
		return nil
	case *ir.Self, *ir.Neighbor:
		return &violation{detail: describe(e)}
	case *ir.LocalRef:
		if s.procs[e.Local] {
			return &violation{detail: describe(e)}
		}
		return nil
	case *ir.VarRef:
		if e.Proc != nil && !s.pterm(e.Proc) {
			return &violation{detail: describe(e)}
		}
		return nil
	case *ir.ElemRef:
		if e.Proc != nil && !s.pterm(e.Proc) {
			return &violation{pos: e.Pos, detail: describe(e)}
		}
		return s.value(e.Index)
	case *ir.TempRef:
		return s.value(e.Index)
	case *ir.Unary:
		if s.pterm(e.X) {
			return &violation{pos: e.Pos, detail: describe(e)}
		}
		return s.value(e.X)
	case *ir.Binary:
		px, py := s.pterm(e.X), s.pterm(e.Y)
		if (e.Op == syntax.Eq || e.Op == syntax.Neq) && px && py {
			return nil
		}
		if px || py {
			return &violation{pos: e.Pos, detail: describe(e)}
		}
		return first(s.value(e.X), s.value(e.Y))
	case *ir.Cond:
		return first(s.value(e.C), s.value(e.X), s.value(e.Y))
	case *ir.Quant:
		if e.Over == nil {
			s.procs[e.Var] = true
		} else if e.Over.Of != nil {
			if v := s.proc(e.Over.Of); v != nil {
				return v
			}
			s.procs[e.Var] = true
		}
		return s.value(e.Body)
	case *ir.ChanLen:
		return first(s.proc(e.From), s.proc(e.To), s.value(e.Upto))
	case *ir.ChanPos:
		return first(s.proc(e.From), s.proc(e.To))
	case *ir.HeadField:
		return first(s.proc(e.From), s.proc(e.To))
	case *ir.MsgQuant:
		return first(s.proc(e.From), s.proc(e.To), s.value(e.Body))
	case *ir.FieldElem:
		v := s.value(e.Index)
		for _, x := range e.Elems {
			v = first(v, s.value(x))
		}
		return v
	}
	return &violation{pos: exprPos(e), other: "uses a construct the symmetry check does not cover", detail: fmt.Sprintf("%T", e)}
}

func (s *symChecker) stmts(list []ir.Stmt) *violation {
	for _, st := range list {
		if v := s.stmt(st); v != nil {
			return v
		}
	}
	return nil
}

func (s *symChecker) stmt(st ir.Stmt) *violation {
	switch st := st.(type) {
	case *ir.Assign:
		if s.pterm(st.Value) {
			return &violation{detail: st.Var.Name + " := " + describe(st.Value)}
		}
		return s.value(st.Value)
	case *ir.AssignElem:
		return first(s.value(st.Index), s.value(st.Value))
	case *ir.AssignAt:
		if s.pterm(st.Value) {
			return &violation{pos: st.Pos, detail: st.Var.Name + "[" + describe(st.Proc) + "] := " + describe(st.Value)}
		}
		v := s.proc(st.Proc)
		if v != nil && v.pos.Line == 0 {
			v.pos = st.Pos
		}
		return first(v, s.value(st.Value))
	case *ir.Send:
		v := s.proc(st.To)
		for _, a := range st.Args {
			v = first(v, s.value(a))
		}
		return v
	case *ir.If:
		return first(s.value(st.Cond), s.stmts(st.Then), s.stmts(st.Else))
	case *ir.Repeat:
		return first(s.value(st.Count), s.stmts(st.Body))
	case *ir.For:
		if st.Over != nil && st.Over.Of != nil {
			// The peers are visited in ascending order, which a rotation
			// does not keep.
			return &violation{other: "loops over peers, in an order a rotation does not keep", detail: "for " + st.Var.Name + " in peers"}
		}
		return s.stmts(st.Body)
	case *ir.Seq:
		return s.stmts(st.Body)
	case *ir.SetTemp:
		return first(s.value(st.Index), s.value(st.Value))
	case *ir.ForRun:
		return s.stmts(st.Body)
	}
	return &violation{other: "uses an effect the symmetry check does not cover", detail: fmt.Sprintf("%T", st)}
}

func first(vs ...*violation) *violation {
	for _, v := range vs {
		if v != nil {
			return v
		}
	}
	return nil
}

func exprPos(e ir.Expr) syntax.Pos {
	switch e := e.(type) {
	case *ir.Binary:
		return e.Pos
	case *ir.Unary:
		return e.Pos
	case *ir.ElemRef:
		return e.Pos
	case *ir.Quant:
		return e.Pos
	case *ir.MsgQuant:
		return e.Pos
	}
	return syntax.Pos{}
}

// describe writes e as the file would, for a message: processes, locals,
// constants, variables and operators; "…" for anything else.
func describe(e ir.Expr) string {
	switch e := e.(type) {
	case nil:
		return "self"
	case *ir.Self:
		return "self"
	case *ir.Neighbor:
		name := map[int]string{-1: "pred", 1: "succ"}[e.Offset]
		if name == "" {
			name = fmt.Sprintf("neighbour %+d", e.Offset)
		}
		if _, self := e.Of.(*ir.Self); self || e.Of == nil {
			return name
		}
		return name + "(" + describe(e.Of) + ")"
	case *ir.LocalRef:
		return e.Local.Name
	case *ir.Const:
		if e.T != nil {
			switch e.T.Kind {
			case ir.Bool:
				return fmt.Sprint(e.Value != 0)
			case ir.Enum:
				if e.Value >= 0 && e.Value < len(e.T.Labels) {
					return e.T.Labels[e.Value]
				}
			}
		}
		return fmt.Sprint(e.Value)
	case *ir.VarRef:
		if e.Proc == nil {
			return e.Var.Name
		}
		if e.Var.Array != nil {
			return fmt.Sprintf("%s[%s][%s]", e.Var.Array.Name, describe(e.Proc), e.Var.Array.EntryName(e.Var.Index))
		}
		return e.Var.Name + "[" + describe(e.Proc) + "]"
	case *ir.ElemRef:
		if e.Proc == nil {
			return e.Array.Name + "[" + describe(e.Index) + "]"
		}
		return e.Array.Name + "[" + describe(e.Proc) + "][" + describe(e.Index) + "]"
	case *ir.Unary:
		return strings.Trim(e.Op.String(), "'") + describe(e.X)
	case *ir.Binary:
		return describe(e.X) + " " + strings.Trim(e.Op.String(), "'") + " " + describe(e.Y)
	}
	return "…"
}

// mirrorAction reports whether action a is the mirror of action b: the
// same kind, role, choice and receive, and a guard and effects that are
// b's with pred and succ exchanged.
func (s *symChecker) mirrorAction(a, b *ir.Action) bool {
	m := &mirrorer{s: s, locals: map[*ir.Local]*ir.Local{}, quants: map[*ir.MsgQuant]*ir.MsgQuant{}}
	if a.Kind != b.Kind || a.Liveness != b.Liveness || a.Atomic != b.Atomic {
		return false
	}
	if (a.Choice == nil) != (b.Choice == nil) || (a.Recv == nil) != (b.Recv == nil) {
		return false
	}
	if a.Choice != nil {
		if a.Choice.Lo != b.Choice.Lo || a.Choice.Hi != b.Choice.Hi {
			return false
		}
		m.locals[a.Choice] = b.Choice
	}
	if a.Recv != nil {
		ra, rb := a.Recv, b.Recv
		if ra.Msg != rb.Msg || ra.Any != rb.Any || ra.Run != nil || rb.Run != nil || len(ra.Except) != len(rb.Except) {
			return false
		}
		for i := range ra.Except {
			if ra.Except[i] != rb.Except[i] {
				return false
			}
		}
		if !m.expr(ra.From, rb.From) {
			return false
		}
	}
	return m.expr(a.Guard, b.Guard) && m.stmts(a.Effects, b.Effects)
}

// mirror reports whether a is the mirror of b.
func (s *symChecker) mirror(a, b ir.Expr) bool {
	m := &mirrorer{s: s, locals: map[*ir.Local]*ir.Local{}, quants: map[*ir.MsgQuant]*ir.MsgQuant{}}
	return m.expr(a, b)
}

// mirrorer compares two expressions, one the other's mirror, matching
// the locals and quantifiers they bind.
type mirrorer struct {
	s      *symChecker
	locals map[*ir.Local]*ir.Local
	quants map[*ir.MsgQuant]*ir.MsgQuant
}

func (m *mirrorer) local(a, b *ir.Local) bool {
	if x, ok := m.locals[a]; ok {
		return x == b
	}
	return a == b
}

func (m *mirrorer) expr(a, b ir.Expr) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	switch a := a.(type) {
	case *ir.Const:
		b, ok := b.(*ir.Const)
		return ok && a.Value == b.Value
	case *ir.Self:
		_, ok := b.(*ir.Self)
		return ok
	case *ir.Neighbor:
		b, ok := b.(*ir.Neighbor)
		return ok && a.Offset == -b.Offset && m.expr(a.Of, b.Of)
	case *ir.LocalRef:
		b, ok := b.(*ir.LocalRef)
		return ok && m.local(a.Local, b.Local)
	case *ir.FieldRef:
		b, ok := b.(*ir.FieldRef)
		return ok && a.Index == b.Index
	case *ir.VarRef:
		b, ok := b.(*ir.VarRef)
		return ok && a.Var == b.Var && m.expr(a.Proc, b.Proc)
	case *ir.ElemRef:
		b, ok := b.(*ir.ElemRef)
		return ok && a.Array == b.Array && m.expr(a.Proc, b.Proc) && m.expr(a.Index, b.Index)
	case *ir.Unary:
		b, ok := b.(*ir.Unary)
		return ok && a.Op == b.Op && m.expr(a.X, b.X)
	case *ir.Binary:
		b, ok := b.(*ir.Binary)
		if !ok {
			return false
		}
		op := a.Op
		if op == syntax.Plus || op == syntax.Minus {
			switch {
			case m.s.pterm(a.X):
				// P + E mirrors to P' - E, and P - E to P' + E.
				op = map[syntax.Token]syntax.Token{syntax.Plus: syntax.Minus, syntax.Minus: syntax.Plus}[op]
			case m.s.pterm(a.Y):
				// E + P mirrors to P' - E, which the comparison does
				// not match: refused.
				return false
			}
		}
		if op != b.Op {
			return false
		}
		if m.expr(a.X, b.X) && m.expr(a.Y, b.Y) {
			return true
		}
		switch op {
		case syntax.Plus, syntax.Star, syntax.Eq, syntax.Neq, syntax.AndAnd, syntax.OrOr:
			// Commutative: the mirror may have its operands exchanged.
			return m.expr(a.X, b.Y) && m.expr(a.Y, b.X)
		}
		return false
	case *ir.Cond:
		b, ok := b.(*ir.Cond)
		return ok && m.expr(a.C, b.C) && m.expr(a.X, b.X) && m.expr(a.Y, b.Y)
	case *ir.Quant:
		b, ok := b.(*ir.Quant)
		if !ok || a.Kind != b.Kind || (a.Over == nil) != (b.Over == nil) {
			return false
		}
		if a.Over != nil && (a.Over.Lo != b.Over.Lo || a.Over.Hi != b.Over.Hi || !m.expr(a.Over.Of, b.Over.Of)) {
			return false
		}
		m.locals[a.Var] = b.Var
		return m.expr(a.Body, b.Body)
	case *ir.ChanLen:
		b, ok := b.(*ir.ChanLen)
		return ok && a.Msg == b.Msg && m.expr(a.From, b.From) && m.expr(a.To, b.To) && m.expr(a.Upto, b.Upto)
	case *ir.ChanPos:
		b, ok := b.(*ir.ChanPos)
		return ok && a.Msg == b.Msg && m.expr(a.From, b.From) && m.expr(a.To, b.To)
	case *ir.HeadField:
		b, ok := b.(*ir.HeadField)
		return ok && a.First == b.First && a.Field == b.Field && m.expr(a.From, b.From) && m.expr(a.To, b.To)
	case *ir.MsgQuant:
		b, ok := b.(*ir.MsgQuant)
		if !ok || a.Kind != b.Kind || a.Msg != b.Msg || !m.expr(a.From, b.From) || !m.expr(a.To, b.To) {
			return false
		}
		m.locals[a.Var] = b.Var
		m.quants[a] = b
		return m.expr(a.Body, b.Body)
	case *ir.MsgField:
		b, ok := b.(*ir.MsgField)
		return ok && a.Field == b.Field && (m.quants[a.Quant] == b.Quant || a.Quant == b.Quant)
	case *ir.FieldElem:
		b, ok := b.(*ir.FieldElem)
		if !ok || a.Name != b.Name || a.Lo != b.Lo || len(a.Elems) != len(b.Elems) || !m.expr(a.Index, b.Index) {
			return false
		}
		for i := range a.Elems {
			if !m.expr(a.Elems[i], b.Elems[i]) {
				return false
			}
		}
		return true
	}
	return false
}

func (m *mirrorer) stmts(a, b []ir.Stmt) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !m.stmt(a[i], b[i]) {
			return false
		}
	}
	return true
}

func (m *mirrorer) stmt(a, b ir.Stmt) bool {
	switch a := a.(type) {
	case *ir.Assign:
		b, ok := b.(*ir.Assign)
		return ok && a.Var == b.Var && m.expr(a.Value, b.Value)
	case *ir.AssignElem:
		b, ok := b.(*ir.AssignElem)
		return ok && a.Array == b.Array && m.expr(a.Index, b.Index) && m.expr(a.Value, b.Value)
	case *ir.AssignAt:
		b, ok := b.(*ir.AssignAt)
		return ok && a.Var == b.Var && m.expr(a.Proc, b.Proc) && m.expr(a.Value, b.Value)
	case *ir.Send:
		b, ok := b.(*ir.Send)
		if !ok || a.Msg != b.Msg || len(a.Args) != len(b.Args) || !m.expr(a.To, b.To) {
			return false
		}
		for i := range a.Args {
			if !m.expr(a.Args[i], b.Args[i]) {
				return false
			}
		}
		return true
	case *ir.If:
		b, ok := b.(*ir.If)
		return ok && m.expr(a.Cond, b.Cond) && m.stmts(a.Then, b.Then) && m.stmts(a.Else, b.Else)
	case *ir.Repeat:
		b, ok := b.(*ir.Repeat)
		return ok && m.expr(a.Count, b.Count) && m.stmts(a.Body, b.Body)
	case *ir.For:
		b, ok := b.(*ir.For)
		if !ok || a.Over == nil || b.Over == nil || a.Over.Of != nil || b.Over.Of != nil || a.Over.Lo != b.Over.Lo || a.Over.Hi != b.Over.Hi {
			return false
		}
		m.locals[a.Var] = b.Var
		return m.stmts(a.Body, b.Body)
	}
	return false
}
