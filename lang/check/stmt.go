package check

import (
	"fmt"
	"maps"
	"slices"
	"sort"

	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
	"github.com/ringcheck/ringcheck/model"
)

func (c *checker) action(d *syntax.ActionDecl, procs []int) {
	if d.Peer == nil {
		c.actionFor(d, d.Name.Name, procs, nil)
		return
	}
	// One action per peer j, of the processes j is a peer of, with the
	// parameter bound to the constant j.
	declared := false
	for j := range c.spec.N {
		var with []int
		for _, p := range procs {
			if slices.Contains(c.spec.Peers[p], j) {
				with = append(with, p)
			}
		}
		if len(with) > 0 {
			declared = true
			c.actionFor(d, fmt.Sprintf("%s(%d)", d.Name.Name, j), with, &ir.Const{Value: j, T: ir.IntType()})
		}
	}
	if !declared && len(procs) > 0 {
		c.errorf(d.Peer.Pos, "no process of the block has a peer: %s(%s in peers) declares no action", d.Name.Name, d.Peer.Name)
	}
}

// actionFor checks an action named name of procs; peer, when not nil, is
// the value of the family's parameter.
func (c *checker) actionFor(d *syntax.ActionDecl, name string, procs []int, peer ir.Expr) {
	a := &ir.Action{Name: name, Pos: d.Pos, Procs: procs}
	switch {
	case d.Environment:
		a.Kind = model.Environment
	case d.Timeout:
		a.Kind = model.Timeout
	}
	a.Liveness = c.role(d)
	a.Atomic = d.Atomic != nil
	sc := &scope{procs: procs, acting: true, timeout: d.Timeout, atomic: a.Atomic, access: &a.Reads}
	if peer != nil {
		if c.taken(d.Peer.Name) {
			c.errorf(d.Peer.Pos, "%s is already declared: name the peer differently", d.Peer.Name)
		}
		sc = sc.with(d.Peer.Name, peer)
	}
	// The choice is bound before the guard, which may read it: each
	// alternative is enabled where the guard holds for it.
	if d.Choice != nil {
		lo, okLo := c.bound(d.ChoiceLo, "a choice's bound")
		hi, okHi := c.bound(d.ChoiceHi, "a choice's bound")
		switch {
		case !okLo || !okHi:
			hi = lo
		case lo > hi:
			c.errorf(d.ChoiceLo.ExprPos(), "choice %s has an empty range %d..%d", d.Choice.Name, lo, hi)
			hi = lo
		case tooWide(lo, hi, maxSetLen):
			c.errorf(d.ChoiceLo.ExprPos(), "choice %s ranges over %d..%d: a choice has at most %d alternatives", d.Choice.Name, lo, hi, maxSetLen)
			hi = lo
		}
		a.Choice = &ir.Local{Name: d.Choice.Name, Type: &ir.Type{Kind: ir.Int, Lo: lo, Hi: hi}, Lo: lo, Hi: hi}
		sc = sc.with(d.Choice.Name, &ir.LocalRef{Local: a.Choice})
	}
	if d.Recv != nil {
		a.Recv = c.receive(d.Recv, sc)
		sc.recv = a.Recv
	}
	if d.Guard != nil {
		a.Guard = c.boolExpr(d.Guard, sc, "a guard")
	} else {
		a.Guard = &ir.Const{Value: 1, T: ir.BoolType()}
	}
	sc.access = &a.Reads
	sc.writes = &a.Writes
	a.Effects = c.stmts(d.Effects, sc, assignments{})
	c.spec.Actions = append(c.spec.Actions, a)
}

func (c *checker) receive(r *syntax.Receive, sc *scope) *ir.Receive {
	if r.Run {
		return c.receiveRun(r, sc)
	}
	if r.Any {
		return c.receiveAny(r, sc)
	}
	m, ok := c.messages[r.Msg.Name]
	if !ok {
		c.errorf(r.Msg.Pos, "unknown message %s", r.Msg.Name)
		m = &ir.Message{Name: r.Msg.Name}
	}
	if c.spec.Channels == nil {
		c.errorf(r.Pos, "recv needs channels (channels capacity C)")
	}
	rc := &ir.Receive{Msg: m, From: c.procExpr(r.From, sc)}
	arrays, first := declaredFields(m)
	if len(r.Fields) != len(arrays) && ok {
		c.errorf(r.Pos, "message %s has %d fields, recv binds %d", m.Name, len(arrays), len(r.Fields))
	}
	c.link(r.From.ExprPos(), rc.From, &ir.Self{}, sc, "receive from")
	sc.recordChan(rc.From, &ir.Self{})
	for i, f := range r.Fields {
		if i >= len(arrays) {
			break
		}
		if f.Name == "_" {
			continue
		}
		if c.taken(f.Name) {
			c.errorf(f.Pos, "%s is already declared: name the field differently", f.Name)
		}
		if a := arrays[i]; a != nil {
			c.errorf(f.Pos, "field %s of %s is an array: bind it with _ and read its entries in a run receive (for m in run { ... m.%s[i] ... })", a.Name, m.Name, a.Name)
			continue
		}
		sc.bind(f.Name, &ir.FieldRef{Recv: rc, Index: first[i]})
	}
	return rc
}

// link checks, where it can tell, that the topology has a link from → to
// for the acting processes.
func (c *checker) link(pos syntax.Pos, from, to ir.Expr, sc *scope, what string) {
	top := model.Topology{Kind: c.spec.Topology, N: c.spec.N}
	for _, p := range sc.procs {
		f, okf := staticProc(from, p, c.spec.N)
		t, okt := staticProc(to, p, c.spec.N)
		if okf && okt && !top.Linked(f, t) {
			c.errorf(pos, "process %d cannot %s process %d: the %s has no channel %d→%d", p, what, map[bool]int{true: f, false: t}[what == "receive from"], top.Kind, f, t)
			return
		}
	}
}

// staticProc evaluates a process expression for acting process p when it
// depends on nothing else.
func staticProc(e ir.Expr, p, n int) (int, bool) {
	switch e := e.(type) {
	case *ir.Self:
		return p, true
	case *ir.Const:
		return ((e.Value % n) + n) % n, true
	case *ir.Neighbor:
		q, ok := staticProc(e.Of, p, n)
		return ir.Offset(q, e.Offset, n), ok
	}
	return 0, false
}

// assignments records what the effects of one step assign, to refuse a
// second assignment: keys are a *ir.Var (a variable, or an array's entry
// of constant index), an *ir.Array (an entry of an index known only when
// the step runs) or a line (an entry of a two-dimensional array one of
// whose indices is a constant and the other known only when the step
// runs).
type assignments map[any]syntax.Pos

// line is the entries of a two-dimensional array with row at (col false)
// or column at (col true).
type line struct {
	a   *ir.Array
	col bool
	at  int
}

// holds reports whether entry v of l's array lies on l.
func (l line) holds(v *ir.Var) bool {
	if v.Array != l.a {
		return false
	}
	r, c := l.a.Rows.Lo+v.Index/l.a.Cols.Len(), l.a.Cols.Lo+v.Index%l.a.Cols.Len()
	if l.col {
		return c == l.at
	}
	return r == l.at
}

// meets reports whether lines l and o of one array share an entry.
func (l line) meets(o line) bool {
	return l.a == o.a && (l.col != o.col || l.at == o.at)
}

// overlaps reports whether keys k and o of assignments may name one
// entry or variable.
func overlaps(k, o any) bool {
	if k == o {
		return true
	}
	switch k := k.(type) {
	case *ir.Var:
		switch o := o.(type) {
		case *ir.Array:
			return k.Array == o
		case line:
			return o.holds(k)
		}
	case *ir.Array:
		switch o := o.(type) {
		case *ir.Var:
			return o.Array == k
		case line:
			return o.a == k
		}
	case line:
		switch o := o.(type) {
		case *ir.Var:
			return k.holds(o)
		case *ir.Array:
			return k.a == o
		case line:
			return k.meets(o)
		}
	}
	return false
}

// earlier reports whether p comes before q in the file.
func earlier(p, q syntax.Pos) bool {
	return p.Line < q.Line || p.Line == q.Line && p.Col < q.Col
}

// record records an assignment at pos of key, named name, reporting one
// that may assign what an earlier one did.
func (c *checker) record(assigned assignments, key any, name string, pos syntax.Pos) {
	if _, seq := assigned[seqMark{}]; seq {
		// In a sequential block, a variable is assigned as often as
		// the block says.
		assigned[key] = pos
		return
	}
	at, twice := assigned[key]
	if !twice {
		for other, p := range assigned {
			if overlaps(key, other) && (!twice || earlier(p, at)) {
				at, twice = p, true
			}
		}
	}
	if twice {
		c.errorf(pos, "%s is assigned twice in one step (first at %s): assignments are simultaneous", name, at)
	}
	assigned[key] = pos
}

// stmts checks effects; assigned records what is assigned on the way to
// them, to refuse a second assignment in one step.
func (c *checker) stmts(ss []syntax.Stmt, sc *scope, assigned assignments) []ir.Stmt {
	var out []ir.Stmt
	for _, s := range ss {
		if l, ok := s.(*syntax.LetStmt); ok {
			// The local is in scope for the effects after it.
			var st ir.Stmt
			st, sc = c.let(l, sc)
			out = append(out, st)
			continue
		}
		out = append(out, c.stmt(s, sc, assigned)...)
	}
	return out
}

func (c *checker) stmt(s syntax.Stmt, sc *scope, assigned assignments) []ir.Stmt {
	switch s := s.(type) {
	case *syntax.SkipStmt:
		return nil
	case *syntax.AssignStmt:
		if t, ok := c.localOf(s.Var.Name, sc); ok {
			return c.assignLocal(s, t, sc)
		}
		if t, ok := localArrayOf(s.Var.Name, sc); ok {
			return c.assignLocalElem(s, t, sc)
		}
		if a, ok := c.arrays[s.Var.Name]; ok {
			if st := c.assignElem(s, a, sc, assigned); st != nil {
				return []ir.Stmt{st}
			}
			return nil
		}
		v, ok := c.vars[s.Var.Name]
		if g := c.groups[s.Var.Name]; g != nil {
			if v, ok = c.assignedPart(g, s, sc); !ok {
				return nil
			}
		}
		if !ok {
			c.errorf(s.Var.Pos, "%s is not a process variable", s.Var.Name)
			return nil
		}
		if s.Index2 != nil {
			c.errorf(s.Index2.ExprPos(), "%s is not an array: %s[i][j] := ... assigns a two-dimensional array's entry", v.Name, v.Name)
			c.expr(s.Value, sc)
			return nil
		}
		if s.Index != nil {
			if sc.atomic && sc.seq != nil {
				c.errorf(s.Index.ExprPos(), "do { ... } assigns the acting process's variables only: assign %s[...] outside it", v.Name)
				c.expr(s.Value, sc)
				return nil
			}
			if sc.atomic {
				if st := c.assignAt(s, v, sc, assigned); st != nil {
					return []ir.Stmt{st}
				}
				return nil
			}
			c.errorf(s.Index.ExprPos(), "a process assigns only its own variables: write %s := ..., not %s[...] := ... (an atomic action assigns its peers' variables too: atomic action ...)", v.Name, v.Name)
			// Not recorded: another process's variable is no second
			// assignment of the acting process's.
			c.expr(s.Value, sc)
			return nil
		}
		if len(sc.loops) > 0 {
			c.errorf(s.Pos, "for assigns %s once per member: in a for loop only an array's entry indexed by the loop's name may be assigned", v.Name)
		}
		for _, p := range sc.procs {
			if !slices.Contains(v.Procs, p) {
				c.errorf(s.Var.Pos, "process %d has no variable %s", p, v.Name)
				break
			}
		}
		c.recordOwn(assigned, v, sc, s.Pos)
		return []ir.Stmt{c.assign(v, s.Value, sc)}
	case *syntax.SendStmt:
		if st := c.send(s, sc); st != nil {
			return []ir.Stmt{st}
		}
		return nil
	case *syntax.IfStmt:
		cond := c.boolExpr(s.Cond, sc, "a condition")
		thenAssigned := copyAssigned(assigned)
		elseAssigned := copyAssigned(assigned)
		k, constant := cond.(*ir.Const)
		thenScope, elseScope := sc, sc
		if constant {
			// The branch not taken is checked, but its constants are not
			// held to domains a parameter may have emptied (as a ghost
			// variable's 0..0).
			dead := *sc
			dead.dead = true
			if k.Value != 0 {
				elseScope = &dead
			} else {
				thenScope = &dead
			}
		}
		then := c.stmts(s.Then, thenScope, thenAssigned)
		els := c.stmts(s.Else, elseScope, elseAssigned)
		switch {
		case constant && k.Value != 0:
			maps.Copy(assigned, thenAssigned)
			return then
		case constant:
			maps.Copy(assigned, elseAssigned)
			return els
		}
		maps.Copy(assigned, thenAssigned)
		maps.Copy(assigned, elseAssigned)
		return []ir.Stmt{&ir.If{Cond: cond, Then: then, Else: els}}
	case *syntax.RepeatStmt:
		count := c.intExpr(s.Count, sc, "a repeat count")
		if k, ok := count.(*ir.Const); ok && !sc.dead {
			switch {
			case k.Value < 0:
				c.errorf(s.Count.ExprPos(), "repeat %d times: a repeat count is not negative", k.Value)
			case k.Value > ir.MaxRepeat:
				c.errorf(s.Count.ExprPos(), "repeat %d times: a repeat runs at most %d times", k.Value, ir.MaxRepeat)
			}
		}
		inner := assignments{}
		if sc.seq != nil {
			// In a sequential block, each time assigns anew.
			inner = assigned
		}
		body := c.stmts(s.Body, sc, inner)
		if len(inner) > 0 && sc.seq == nil {
			c.errorf(s.Pos, "repeat may only send: it assigns %v, which one step assigns once", assignedNames(inner))
		}
		return []ir.Stmt{&ir.Repeat{Count: count, Body: body, Pos: s.Count.ExprPos()}}
	case *syntax.SeqStmt:
		return c.seqStmt(s, sc, assigned)
	case *syntax.LetStmt:
		st, _ := c.let(s, sc)
		return []ir.Stmt{st}
	case *syntax.ForStmt:
		if s.Over.Run {
			return c.forRun(s, sc, assigned)
		}
		over := c.set(s.Over, sc)
		l := over.local(s.Var.Name)
		inner := sc.with(s.Var.Name, &ir.LocalRef{Local: l})
		if sc.seq == nil {
			// In a sequential block, each member's effects assign
			// anew: the loop constrains nothing.
			inner.loops = append(slices.Clone(sc.loops), l)
		}
		return []ir.Stmt{&ir.For{Var: l, Over: over.Set, Body: c.stmts(s.Body, inner, assigned)}}
	}
	return nil
}

// assign checks the value assigned to v.
func (c *checker) assign(v *ir.Var, value syntax.Expr, sc *scope) *ir.Assign {
	x := c.expr(value, sc)
	if invalid(x) || v.Type == invalidType {
		return &ir.Assign{Var: v, Value: x}
	}
	if !assignable(v.Type, x.Type()) {
		c.errorf(value.ExprPos(), "cannot assign %s to %s of type %s", typeName(x.Type()), v.Name, typeName(v.Type))
	}
	if k, ok := x.(*ir.Const); ok && !sc.dead && (k.Value < v.Type.Lo || k.Value > v.Type.Hi) {
		c.errorf(value.ExprPos(), "%d is outside %s's domain %s", k.Value, v.Name, v.Type.Domain())
	}
	if sc.writes != nil {
		sc.writes.Vars = append(sc.writes.Vars, ir.VarAccess{Var: v})
	}
	return &ir.Assign{Var: v, Value: x}
}

// send checks a send.
func (c *checker) send(s *syntax.SendStmt, sc *scope) ir.Stmt {
	m, ok := c.messages[s.Msg.Name]
	if !ok {
		c.errorf(s.Msg.Pos, "unknown message %s", s.Msg.Name)
		return nil
	}
	if c.spec.Channels == nil {
		c.errorf(s.Pos, "send needs channels (channels capacity C)")
	} else if len(c.spec.Channels.Carry) > 0 && !slices.Contains(c.spec.Channels.Carry, m) {
		c.errorf(s.Msg.Pos, "the channels do not carry %s", m.Name)
	}
	arrays, first := declaredFields(m)
	if len(s.Args) != len(arrays) {
		c.errorf(s.Pos, "message %s has %d fields, not %d", m.Name, len(arrays), len(s.Args))
		return nil
	}
	send := &ir.Send{Msg: m, To: c.procExpr(s.To, sc)}
	for d, a := range s.Args {
		if arr := arrays[d]; arr != nil {
			xs := c.arrayArg(a, arr, m, sc)
			if xs == nil {
				for range arr.Len() {
					send.Args = append(send.Args, poison{})
				}
				continue
			}
			for i, x := range xs {
				send.Args = append(send.Args, c.sendArg(a, x, m, m.Fields[first[d]+i], sc))
			}
			continue
		}
		send.Args = append(send.Args, c.sendArg(a, c.expr(a, sc), m, m.Fields[first[d]], sc))
	}
	c.link(s.To.ExprPos(), &ir.Self{}, send.To, sc, "send to")
	if sc.writes != nil {
		sc.writes.Chans = append(sc.writes.Chans, ir.ChanAccess{From: &ir.Self{}, To: send.To})
		if !relative(send.To) {
			sc.writes.Global = true
		}
	}
	return send
}

// sendArg checks x, the value a send gives field f of m, written a.
func (c *checker) sendArg(a syntax.Expr, x ir.Expr, m *ir.Message, f *ir.Field, sc *scope) ir.Expr {
	if invalid(x) || f.Type == invalidType {
		return x
	}
	if !assignable(f.Type, x.Type()) {
		c.errorf(a.ExprPos(), "field %s of %s has type %s, not %s", f.Name, m.Name, typeName(f.Type), typeName(x.Type()))
	}
	if k, ok := x.(*ir.Const); ok && !sc.dead && (k.Value < f.Type.Lo || k.Value > f.Type.Hi) {
		c.errorf(a.ExprPos(), "%d is outside field %s's domain %s", k.Value, f.Name, f.Type.Domain())
	}
	return x
}

// assignedNames lists the names of what assigned holds, sorted.
func assignedNames(assigned assignments) []string {
	names := make([]string, 0, len(assigned))
	for k := range assigned {
		switch k := k.(type) {
		case *ir.Var:
			names = append(names, k.Name)
		case *ir.Array:
			names = append(names, k.Name)
		case target:
			names = append(names, k.v.Name)
		}
	}
	slices.Sort(names)
	names = slices.Compact(names)
	sort.Strings(names)
	return names
}

func copyAssigned(m assignments) assignments {
	return maps.Clone(m)
}
