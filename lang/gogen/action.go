package gogen

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/model"
)

// action generates action i for each of its processes into w and returns
// its compile.ActionCode literal ("{}" where it is left to the closures).
func (g *generator) action(w *bytes.Buffer, i int, a *ir.Action) string {
	if len(a.Procs) == 0 {
		return "{}"
	}
	if k, ok := a.Guard.(*ir.Const); ok && k.Value == 0 {
		return "{}"
	}
	var why string
	var src strings.Builder
	guards, allows, effects := g.names(), g.names(), g.names()
	func() {
		defer catch(&why)
		r := a.Recv
		perChoice := a.Choice != nil && (ir.Reads(a.Guard, a.Choice) || (r != nil && ir.Reads(r.From, a.Choice)))
		if perChoice && r != nil && r.Any && ir.Reads(r.From, a.Choice) {
			skip("it receives any message from a process its choice names")
		}
		for _, p := range a.Procs {
			fn := fmt.Sprintf("a%dp%d", i, p)
			g.actionProc(&src, fn, a, p, perChoice)
			guards[p], effects[p] = "g."+fn+"Guard", "g."+fn+"Effect"
			if perChoice {
				allows[p] = "g." + fn + "Allows"
			}
		}
	}()
	if why != "" {
		g.fallback = append(g.fallback, fmt.Sprintf("action %s: %s", a.Name, why))
		return "{}"
	}
	w.WriteString(src.String())
	lit := "{\nGuard: []func(*model.Ctx) bool{" + strings.Join(guards, ", ") + "},\n"
	if a.Choice != nil && (ir.Reads(a.Guard, a.Choice) || (a.Recv != nil && ir.Reads(a.Recv.From, a.Choice))) {
		lit += "Allows: []func(*model.Ctx, int) bool{" + strings.Join(allows, ", ") + "},\n"
	}
	return lit + "Effect: []func(*model.Ctx, int){" + strings.Join(effects, ", ") + "},\n}"
}

// names returns N nil entries.
func (g *generator) names() []string {
	out := make([]string, g.n)
	for i := range out {
		out[i] = "nil"
	}
	return out
}

// alternatives returns the contexts of the action's alternatives for
// process p (one, without a choice).
func (g *generator) alternatives(a *ir.Action, p int) []*ctx {
	base := newCtx(g, a, p, false)
	if a.Choice == nil {
		return []*ctx{base}
	}
	if rolledChoice(a) {
		// One body for every alternative, the choice's value computed
		// from the alternative i as the step runs.
		base.rv[a.Choice] = fmt.Sprintf("(i + %d)", a.Choice.Lo)
		return []*ctx{base}
	}
	var out []*ctx
	for v := a.Choice.Lo; v <= a.Choice.Hi; v++ {
		out = append(out, base.with(a.Choice, v))
	}
	return out
}

// actionProc generates the guard, allows and effect of action a for
// process p, as methods fn+"Guard", fn+"Allows", fn+"Effect".
func (g *generator) actionProc(w *strings.Builder, fn string, a *ir.Action, p int, perChoice bool) {
	alts := g.alternatives(a, p)
	tmp := 0
	if perChoice && rolledChoice(a) {
		fmt.Fprintf(w, "func (g *gen) %sAllows(c *model.Ctx, i int) bool {\n", fn)
		b := block{b: &strings.Builder{}, tmp: &tmp}
		alts[0].guardBody(b)
		w.WriteString(b.b.String())
		fmt.Fprintf(w, "}\n\n")
		fmt.Fprintf(w, "func (g *gen) %sGuard(c *model.Ctx) bool {\nfor i := range %d {\nif g.%sAllows(c, i) {\nreturn true\n}\n}\nreturn false\n}\n\n", fn, a.Choice.Hi-a.Choice.Lo+1, fn)
	} else if perChoice {
		fmt.Fprintf(w, "func (g *gen) %sAllows(c *model.Ctx, i int) bool {\nswitch i {\n", fn)
		for i, x := range alts {
			fmt.Fprintf(w, "case %d:\n", i)
			b := block{b: &strings.Builder{}, tmp: &tmp}
			x.guardBody(b)
			w.WriteString(b.b.String())
		}
		fmt.Fprintf(w, "}\nreturn false\n}\n\n")
		fmt.Fprintf(w, "func (g *gen) %sGuard(c *model.Ctx) bool {\nfor i := range %d {\nif g.%sAllows(c, i) {\nreturn true\n}\n}\nreturn false\n}\n\n", fn, len(alts), fn)
	} else {
		fmt.Fprintf(w, "func (g *gen) %sGuard(c *model.Ctx) bool {\n", fn)
		b := block{b: &strings.Builder{}, tmp: &tmp}
		alts[0].guardBody(b)
		w.WriteString(b.b.String())
		w.WriteString("}\n\n")
	}
	fmt.Fprintf(w, "func (g *gen) %sEffect(c *model.Ctx, i int) {\n", fn)
	if len(alts) > 1 {
		w.WriteString("switch i {\n")
	}
	for i, x := range alts {
		if len(alts) > 1 {
			fmt.Fprintf(w, "case %d:\n", i)
		}
		b := block{b: &strings.Builder{}, tmp: &tmp}
		x.effectBody(b)
		w.WriteString(b.b.String())
	}
	if len(alts) > 1 {
		w.WriteString("}\n")
	}
	w.WriteString("}\n\n")
}

// guardBody generates the statements of a guard: the head's test, then
// the guard's value returned.
func (x *ctx) guardBody(w block) {
	x.guard = true
	defer func() { x.guard = false }()
	if r := x.a.Recv; r != nil {
		ch := x.chanIn(w, r.From)
		w.line("m, ok := c.Head(%s)", ch)
		if !r.Any {
			w.line("if !ok || c.TypeOf(m) != %d {", r.Msg.ID)
		} else {
			var acc []string
			for _, m := range x.g.spec.Messages {
				if r.Accepts(m) {
					acc = append(acc, fmt.Sprintf("t == %d", m.ID))
				}
			}
			if len(acc) == 0 {
				acc = []string{"false"}
			}
			w.line("if t := c.TypeOf(m); !ok || !(%s) {", strings.Join(acc, " || "))
		}
		w.line("return false")
		w.line("}")
		w.line("_ = m")
		x.hoistFields(w, readsFields([]ir.Expr{x.a.Guard}, nil, r))
	}
	v := x.expr(w, x.a.Guard)
	w.line("return %s", v.cond())
}

// effectBody generates the statements of an effect: the receive, then
// the effects.
func (x *ctx) effectBody(w block) {
	if r := x.a.Recv; r != nil {
		ch := x.chanIn(w, r.From)
		if r.Run == nil {
			w.line("m := c.Receive(%s)", ch)
		} else {
			// The head, then the rest of the run, as compile's takeRun
			// receives it.
			chv := w.fresh()
			w.line("%s := %s", chv, ch)
			w.line("m := c.Receive(%s)", chv)
			w.line("for i := %s; i > 1; i-- {", x.runLen(r, chv))
			w.line("c.Receive(%s)", chv)
			w.line("}")
		}
		w.line("_ = m")
		x.hoistFields(w, readsFields(nil, x.a.Effects, r))
	}
	x.stmts(w, x.a.Effects)
}

func (x *ctx) stmts(w block, ss []ir.Stmt) {
	for _, s := range ss {
		x.stmt(w, s)
	}
}

// set generates the assignment of the acting process's variable id.
func (x *ctx) set(w block, id int, v val) {
	if x.a.Atomic {
		w.line("c.SetLogged(%d, %s)", id, v.num())
		return
	}
	w.line("c.Set(%d, %s)", id, v.num())
}

func (x *ctx) stmt(w block, s ir.Stmt) {
	switch s := s.(type) {
	case *ir.Assign:
		x.set(w, s.Var.ID, x.expr(w, s.Value))
	case *ir.AssignElem:
		i, ok := x.constant(s.Index)
		if !ok {
			x.assignAt(w, s)
			return
		}
		e := s.Array.Elem(i)
		if e == nil || !contains(e.Procs, x.p) {
			x.fault(w, s.Pos, "%s", fmt.Sprintf("%q", s.Array.Missing(x.p, i)))
			return
		}
		x.set(w, e.ID, x.expr(w, s.Value))
	case *ir.AssignAt:
		q, _, _ := x.proc(w, s.Proc)
		v := x.expr(w, s.Value)
		t := w.fresh()
		w.line("if %s := c.SetOf(%s, %d, %s); %s != nil {", t, q, s.Var.ID, v.num(), t)
		x.fault(w, s.Pos, "%v", t)
		w.line("}")
	case *ir.Send:
		x.send(w, s)
	case *ir.If:
		c := x.expr(w, s.Cond)
		w.line("if %s {", c.cond())
		x.stmts(w, s.Then)
		if len(s.Else) > 0 {
			w.line("} else {")
			x.stmts(w, s.Else)
		}
		w.line("}")
	case *ir.For:
		x.forLoop(w, s)
	case *ir.Seq:
		x.seq(w, s)
	case *ir.SetTemp:
		x.setTemp(w, s)
	case *ir.ForRun:
		x.forRun(w, s)
	case *ir.Repeat:
		n := temp(w, val{s: x.expr(w, s.Count).num()})
		w.line("if err := compile.RepeatFault(g.File, %s, %s); err != nil {", pos(s.Pos), n.s)
		w.line("c.Fail(err)")
		w.line("} else {")
		w.line("for range %s {", n.s)
		x.stmts(w, s.Body)
		w.line("}")
		w.line("}")
	default:
		skip("an effect of type %T", s)
	}
}

func contains(ps []int, p int) bool {
	for _, q := range ps {
		if q == p {
			return true
		}
	}
	return false
}

// send generates a send, as compile runs it.
func (x *ctx) send(w block, s *ir.Send) {
	if len(s.Args) == 0 {
		q, v, ok := x.proc(w, s.To)
		w.line("c.Send(%s, g.Letters[%d])", x.chanOut(q, v, ok), s.Msg.ID)
		return
	}
	if r := x.a.Recv; r != nil && s.Msg == r.Msg && !r.Any && len(s.Args) == len(r.Msg.Fields) {
		forwards := true
		for i, a := range s.Args {
			if f, ok := a.(*ir.FieldRef); !ok || f.Recv != r || f.Index != i {
				forwards = false
			}
		}
		if forwards {
			q, v, ok := x.proc(w, s.To)
			w.line("c.Send(%s, m)", x.chanOut(q, v, ok))
			return
		}
	}
	var args []string
	for _, a := range s.Args {
		args = append(args, x.expr(w, a).num())
	}
	q, v, ok := x.proc(w, s.To)
	w.line("c.SendFields(%s, %d, %s)", x.chanOut(q, v, ok), s.Msg.ID, strings.Join(args, ", "))
}

// predicate generates a state predicate as method fn (param, when not
// nil, bound to the process p: a process predicate's), and returns its
// compile.PredicateCode ("nil" where it is left to the closures). A
// predicate that may fail takes the function its faults are reported
// to; another ignores it.
func (g *generator) predicate(w *bytes.Buffer, fn, what string, body ir.Expr, param *ir.Local, p int) string {
	var why, code string
	var src strings.Builder
	func() {
		defer catch(&why)
		x := newCtx(g, &ir.Action{Kind: model.Protocol}, -1, true)
		x.within = what
		if param != nil {
			x.b[param] = p
		}
		g.faulty = false
		tmp := 0
		b := block{b: &strings.Builder{}, tmp: &tmp}
		v := x.expr(b, body)
		if g.faulty {
			fmt.Fprintf(&src, "func (g *gen) %s(fail func(error)) func(*model.State) bool {\nreturn func(s *model.State) bool {\n%sreturn %s\n}\n}\n\n", fn, b.b.String(), v.cond())
			code = "g." + fn
			return
		}
		fmt.Fprintf(&src, "func (g *gen) %s(s *model.State) bool {\n%sreturn %s\n}\n\n", fn, b.b.String(), v.cond())
		code = "func(func(error)) func(*model.State) bool { return g." + fn + " }"
	}()
	if why != "" {
		g.fallback = append(g.fallback, fmt.Sprintf("%s: %s", what, why))
		return "nil"
	}
	w.WriteString(src.String())
	return code
}

// assignAt generates an assignment to an entry of the acting process's
// array at an index known only as the step runs: a switch over its
// entries, the value computed only for an entry the process has.
func (x *ctx) assignAt(w block, s *ir.AssignElem) {
	a := s.Array
	idx := x.expr(w, s.Index).num()
	t := w.fresh()
	if base, ok := consecutive(a, x.p); ok {
		// The entries are variables base, base+1, ...: one assignment
		// at the index.
		w.line("if %s := %s - %d; uint(%s) < %d {", t, idx, a.Lo, t, a.Hi-a.Lo+1)
		v := x.expr(w, s.Value).num()
		id := fmt.Sprintf("model.VarID(%d+%s)", base, t)
		if x.a.Atomic {
			w.line("c.SetLogged(%s, %s)", id, v)
		} else {
			w.line("c.Set(%s, %s)", id, v)
		}
		w.line("} else {")
		x.missingAt(w, a, s.Pos, fmt.Sprintf("%s+%d", t, a.Lo))
		w.line("}")
		return
	}
	w.line("switch %s := %s; %s {", t, idx, t)
	for i := a.Lo; i <= a.Hi; i++ {
		v := a.Elem(i)
		w.line("case %d:", i)
		if v == nil || !contains(v.Procs, x.p) {
			x.fault(w, s.Pos, "%s", fmt.Sprintf("%q", a.Missing(x.p, i)))
			continue
		}
		x.set(w, v.ID, x.expr(w, s.Value))
	}
	w.line("default:")
	x.missingAt(w, a, s.Pos, t)
	w.line("}")
}

// readsFields reports whether es or ss read a field of the message r
// receives.
func readsFields(es []ir.Expr, ss []ir.Stmt, r *ir.Receive) bool {
	found := false
	f := func(e ir.Expr) {
		if fr, ok := e.(*ir.FieldRef); ok && fr.Recv == r {
			found = true
		}
	}
	for _, e := range es {
		ir.Inspect(e, func(x ir.Expr) bool { f(x); return !found })
	}
	walkStmts(ss, f)
	return found
}

// hoistFields generates, when reads is set and the received message's
// fields are tabulated, the array of its fields (mf), which the reads of
// its fields then index with no bounds check.
func (x *ctx) hoistFields(w block, reads bool) {
	r := x.a.Recv
	x.mf = ""
	if !reads || r.Any || r.Msg == nil || !x.g.tabulated(r.Msg) {
		return
	}
	t, nf := r.Msg.ID, len(r.Msg.Fields)
	w.line("mf := (*[%d]int32)(g.Fields[%d][int(m-g.Base[%d])*%d:])", nf, t, t, nf)
	w.line("_ = mf")
	x.mf = "mf"
}

// rolledChoice reports whether a's choice has more alternatives than are
// generated one by one: its guard, allows and effect are then generated
// once, for every alternative.
func rolledChoice(a *ir.Action) bool {
	return a.Choice != nil && a.Choice.Hi-a.Choice.Lo+1 > maxChoices
}
