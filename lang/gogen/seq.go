package gogen

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
)

// This file generates sequential blocks (ir.Seq) as plain Go: a local is
// a Go variable, a local array a Go array, the shadow of each entry of
// a variable or an array the acting process has a value and a dirty
// flag, written to the configuration after the step at the block's end,
// as package compile's seq does with its frame of scratch slots; loops
// over the run a receive takes (ir.ForRun); for loops too large to
// unroll, as Go loops; and quantifiers over a channel's messages
// (ir.MsgQuant), as Go loops over the channel.

// goTemp is the Go of a sequential block's temp: the variable of a local
// or of a local array (name), or, for a shadow, the value and dirty flag
// variables of each entry by slot offset ("" where the acting process has
// no such entry) and the variable each shadows (ids).
type goTemp struct {
	name        string
	vals, dirty []string
	ids         []int
	// arr and darr, when set, are the Go arrays of the values and dirty
	// flags of a shadow of an array whose every entry the acting process
	// has (vals[i] is then arr[i]).
	arr, darr string
}

// maxUnrolledText bounds the generated text of a for loop unrolled once
// per member (its body's for the first member, times the members); a
// larger one is generated as a Go loop.
const maxUnrolledText = 4 << 10

// walkStmts calls f for every expression of ss, nested statements
// included.
func walkStmts(ss []ir.Stmt, f func(ir.Expr)) {
	in := func(e ir.Expr) {
		ir.Inspect(e, func(x ir.Expr) bool { f(x); return true })
	}
	for _, s := range ss {
		switch s := s.(type) {
		case *ir.Assign:
			in(s.Value)
		case *ir.AssignElem:
			in(s.Index)
			in(s.Value)
		case *ir.AssignAt:
			in(s.Proc)
			in(s.Value)
		case *ir.Send:
			for _, a := range s.Args {
				in(a)
			}
			in(s.To)
		case *ir.If:
			in(s.Cond)
			walkStmts(s.Then, f)
			walkStmts(s.Else, f)
		case *ir.For:
			if s.Over != nil {
				in(s.Over.Of)
			}
			walkStmts(s.Body, f)
		case *ir.Repeat:
			in(s.Count)
			walkStmts(s.Body, f)
		case *ir.Seq:
			walkStmts(s.Body, f)
		case *ir.SetTemp:
			in(s.Index)
			in(s.Value)
		case *ir.ForRun:
			in(s.Recv.From)
			walkStmts(s.Body, f)
		}
	}
}

// entryLo is the first index of the array t shadows (0 for another).
func entryLo(t *ir.Temp) int {
	if t.Array != nil {
		return t.Array.Lo
	}
	return 0
}

// seq generates a sequential block in a scope of its own: its temps
// declared, its body, then the shadows' entries the block assigned
// written to the configuration after the step. A shadow's entry starts
// at the variable's value before the step where the block reads it (the
// closures read it there until the block assigns it, or copy it first in
// an atomic action, where the two are the same).
func (x *ctx) seq(w block, s *ir.Seq) {
	read := map[*ir.Temp]map[int]bool{} // by temp, the offsets read (-1: any)
	walkStmts(s.Body, func(e ir.Expr) {
		r, ok := e.(*ir.TempRef)
		if !ok || !r.Temp.Shadow() {
			return
		}
		m := read[r.Temp]
		if m == nil {
			m = map[int]bool{}
			read[r.Temp] = m
		}
		off := 0
		if r.Index != nil {
			i, ok := x.constant(r.Index)
			if !ok {
				m[-1] = true
				return
			}
			off = i - entryLo(r.Temp)
		}
		m[off] = true
	})
	w.line("{")
	var shadows []*ir.Temp
	for _, t := range s.Temps {
		gt := &goTemp{}
		x.temps[t] = gt
		switch {
		case t.LocalArray():
			gt.name = w.fresh()
			w.line("var %s [%d]int", gt.name, t.Len)
			w.line("_ = %s", gt.name)
		case t.Shadow() && t.Array != nil && t.Len > 1 && hasAll(t, x.p):
			shadows = append(shadows, t)
			gt.arr, gt.darr = w.fresh(), w.fresh()
			var init []string
			for off := range t.Len {
				_, v := t.Entry(off+entryLo(t), x.p)
				gt.vals = append(gt.vals, fmt.Sprintf("%s[%d]", gt.arr, off))
				gt.dirty = append(gt.dirty, fmt.Sprintf("%s[%d]", gt.darr, off))
				gt.ids = append(gt.ids, v.ID)
				if x.a.Atomic || read[t][off] || read[t][-1] {
					init = append(init, fmt.Sprintf("%d: c.Get(%d)", off, v.ID))
				}
			}
			w.line("%s := [%d]int{%s}", gt.arr, t.Len, strings.Join(init, ", "))
			w.line("var %s [%d]bool", gt.darr, t.Len)
			w.line("_, _ = %s, %s", gt.arr, gt.darr)
		case t.Shadow():
			shadows = append(shadows, t)
			for off := range t.Len {
				_, v := t.Entry(off+entryLo(t), x.p)
				if v == nil || !contains(v.Procs, x.p) {
					gt.vals, gt.dirty, gt.ids = append(gt.vals, ""), append(gt.dirty, ""), append(gt.ids, -1)
					continue
				}
				val, d := w.fresh(), w.fresh()
				gt.vals, gt.dirty, gt.ids = append(gt.vals, val), append(gt.dirty, d), append(gt.ids, v.ID)
				if x.a.Atomic || read[t][off] || read[t][-1] {
					w.line("%s, %s := c.Get(%d), false", val, d, v.ID)
				} else {
					w.line("%s, %s := 0, false", val, d)
				}
				w.line("_, _ = %s, %s", val, d)
			}
		default:
			gt.name = w.fresh()
			w.line("var %s int", gt.name)
			w.line("_ = %s", gt.name)
		}
	}
	x.stmts(w, s.Body)
	for _, t := range shadows {
		gt := x.temps[t]
		for off, v := range gt.vals {
			if v == "" {
				continue
			}
			w.line("if %s {", gt.dirty[off])
			x.set(w, gt.ids[off], val{s: v})
			w.line("}")
		}
	}
	w.line("}")
}

// fullRange reports whether t is int's whole range (no value is outside
// it).
func fullRange(t *ir.Type) bool { return t.Lo == math.MinInt && t.Hi == math.MaxInt }

// outside is the Go test of v (a generated int) outside t's range.
func outside(v string, t *ir.Type) string {
	return fmt.Sprintf("%s < %d || %s > %d", v, t.Lo, v, t.Hi)
}

// setTemp generates the assignment of a local, of a local array's entry
// (or of its every entry), or of a shadow's entry, as compile's setTemp
// and setLocalArray run it: a value outside the type is a range fault,
// the assignment dropped.
func (x *ctx) setTemp(w block, s *ir.SetTemp) {
	t := s.Temp
	gt := x.temps[t]
	if gt == nil {
		skip("a temp of a block not generated")
	}
	domain := fmt.Sprint(t.Type.Domain())
	switch {
	case t.LocalArray():
		x.setLocalArray(w, s, gt, domain)
	case t.Shadow():
		x.setShadow(w, s, gt)
	default:
		v := temp(w, val{s: x.expr(w, s.Value).num()})
		if fullRange(t.Type) {
			w.line("%s = %s", gt.name, v.s)
			return
		}
		w.line("if %s {", outside(v.s, t.Type))
		w.line("c.RangeFault(fmt.Sprintf(%q, %s))", fmt.Sprintf("process %d sets local %s to %%d, outside %s", x.p, t.Name, domain), v.s)
		w.line("} else {")
		w.line("%s = %s", gt.name, v.s)
		w.line("}")
	}
}

// setLocalArray generates the assignment of a local array's entry, or
// with no index (its let) of every entry.
func (x *ctx) setLocalArray(w block, s *ir.SetTemp, gt *goTemp, domain string) {
	t := s.Temp
	if s.Index == nil {
		if k, ok := x.constant(s.Value); ok && k >= t.Type.Lo && k <= t.Type.Hi {
			if k == 0 {
				w.line("%s = [%d]int{}", gt.name, t.Len)
				return
			}
			w.line("for i := range %s {", gt.name)
			w.line("%s[i] = %d", gt.name, k)
			w.line("}")
			return
		}
		v := temp(w, val{s: x.expr(w, s.Value).num()})
		if !fullRange(t.Type) {
			w.line("if %s {", outside(v.s, t.Type))
			w.line("c.RangeFault(fmt.Sprintf(%q, %s))", fmt.Sprintf("process %d sets local %s to %%d, outside %s", x.p, t.Name, domain), v.s)
			w.line("%s = %d", v.s, t.Type.Lo)
			w.line("}")
		}
		w.line("for i := range %s {", gt.name)
		w.line("%s[i] = %s", gt.name, v.s)
		w.line("}")
		return
	}
	// entry is the entry's name as a format and its arguments.
	store := func(off string, entry string) {
		v := temp(w, val{s: x.expr(w, s.Value).num()})
		if fullRange(t.Type) {
			w.line("%s[%s] = %s", gt.name, off, v.s)
			return
		}
		w.line("if %s {", outside(v.s, t.Type))
		w.line("c.RangeFault(fmt.Sprintf(%s, %s))", entry, v.s)
		w.line("} else {")
		w.line("%s[%s] = %s", gt.name, off, v.s)
		w.line("}")
	}
	if i, ok := x.constant(s.Index); ok {
		if off, ok := t.Offset(i); ok {
			store(strconv.Itoa(off), strconv.Quote(fmt.Sprintf("process %d sets local %s%s to %%d, outside %s", x.p, t.Name, t.EntryName(off), domain)))
			return
		}
	}
	off := x.localOffset(w, t, s.Index, s.Pos)
	w.line("if %s >= 0 {", off)
	if t.Cols == nil {
		store(off, fmt.Sprintf("%q, %s+%d", fmt.Sprintf("process %d sets local %s[%%d] to %%d, outside %s", x.p, t.Name, domain), off, t.Rows.Lo))
	} else {
		store(off, fmt.Sprintf("%q, %d+%s/%d, %d+%s%%%d", fmt.Sprintf("process %d sets local %s[%%d][%%d] to %%d, outside %s", x.p, t.Name, domain), t.Rows.Lo, off, t.Cols.Len(), t.Cols.Lo, off, t.Cols.Len()))
	}
	w.line("}")
}

// localOffset generates the offset of index e of the local array t in a
// new variable, which is -1 when t has no such entry (the step then
// fails at pos with compile's message).
func (x *ctx) localOffset(w block, t *ir.Temp, e ir.Expr, at syntax.Pos) string {
	i := temp(w, val{s: x.expr(w, e).num()})
	off := w.fresh()
	if t.Cols == nil {
		w.line("%s := %s - %d", off, i.s, t.Rows.Lo)
	} else {
		w.line("%s := %s", off, i.s)
	}
	w.line("if %s < 0 || %s >= %d {", off, off, t.Len)
	if t.Cols == nil {
		x.fault(w, at, "%s", fmt.Sprintf("fmt.Sprintf(%q, %s)", fmt.Sprintf("local %s has no entry %%d (its entries are %s)", t.Name, t.Rows), i.s))
	} else {
		x.fault(w, at, "%s", strconv.Quote(t.MissingLocal(0)))
	}
	w.line("%s = -1", off)
	w.line("}")
	return off
}

// setShadow generates the assignment of a shadow's entry.
func (x *ctx) setShadow(w block, s *ir.SetTemp, gt *goTemp) {
	t := s.Temp
	store := func(off int) {
		v := temp(w, val{s: x.expr(w, s.Value).num()})
		w.line("if %s {", outside(v.s, t.Type))
		// Reported by Set, as compile's setTemp does, and dropped.
		w.line("c.Set(%d, %s)", gt.ids[off], v.s)
		w.line("} else {")
		w.line("%s, %s = %s, true", gt.vals[off], gt.dirty[off], v.s)
		w.line("}")
	}
	if s.Index == nil {
		store(0)
		return
	}
	a := t.Array
	if i, ok := x.constant(s.Index); ok {
		off := i - a.Lo
		if off < 0 || off >= len(gt.vals) || gt.vals[off] == "" {
			x.fault(w, s.Pos, "%s", strconv.Quote(a.Missing(x.p, i)))
			return
		}
		store(off)
		return
	}
	idx := x.expr(w, s.Index).num()
	sw := w.fresh()
	if gt.arr != "" {
		w.line("if %s := %s - %d; uint(%s) < %d {", sw, idx, a.Lo, sw, len(gt.vals))
		v := temp(w, val{s: x.expr(w, s.Value).num()})
		w.line("if %s {", outside(v.s, t.Type))
		w.line("c.Set([...]model.VarID{%s}[%s], %s)", joinInts(gt.ids), sw, v.s)
		w.line("} else {")
		w.line("%s[%s], %s[%s] = %s, true", gt.arr, sw, gt.darr, sw, v.s)
		w.line("}")
		w.line("} else {")
		x.missingAt(w, a, s.Pos, fmt.Sprintf("%s+%d", sw, a.Lo))
		w.line("}")
		return
	}
	w.line("switch %s := %s; %s {", sw, idx, sw)
	for off, v := range gt.vals {
		if v == "" {
			continue
		}
		w.line("case %d:", off+a.Lo)
		store(off)
	}
	w.line("default:")
	x.missingAt(w, a, s.Pos, sw)
	w.line("}")
}

// tempRef generates the read of a local, of a local array's entry or of
// a shadow's entry.
func (x *ctx) tempRef(w block, e *ir.TempRef) val {
	t := e.Temp
	gt := x.temps[t]
	if gt == nil {
		skip("a temp of a block not generated")
	}
	switch {
	case t.LocalArray():
		if i, ok := x.constant(e.Index); ok {
			if off, ok := t.Offset(i); ok {
				return val{s: fmt.Sprintf("%s[%d]", gt.name, off)}
			}
		}
		off := x.localOffset(w, t, e.Index, e.Pos)
		r := w.fresh()
		w.line("%s := 0", r)
		w.line("if %s >= 0 {", off)
		w.line("%s = %s[%s]", r, gt.name, off)
		w.line("}")
		return val{s: r}
	case t.Shadow():
		if e.Index == nil {
			if gt.vals[0] == "" {
				skip("a shadow of a variable the process has not")
			}
			return val{s: gt.vals[0]}
		}
		a := t.Array
		if i, ok := x.constant(e.Index); ok {
			off := i - a.Lo
			if off < 0 || off >= len(gt.vals) || gt.vals[off] == "" {
				x.fault(w, e.Pos, "%s", strconv.Quote(a.Missing(x.p, i)))
				return lit(0)
			}
			return val{s: gt.vals[off]}
		}
		idx := x.expr(w, e.Index).num()
		r, sw := w.fresh(), w.fresh()
		w.line("var %s int", r)
		if gt.arr != "" {
			w.line("if %s := %s - %d; uint(%s) < %d {", sw, idx, a.Lo, sw, len(gt.vals))
			w.line("%s = %s[%s]", r, gt.arr, sw)
			w.line("} else {")
			x.missingAt(w, a, e.Pos, fmt.Sprintf("%s+%d", sw, a.Lo))
			w.line("}")
			return val{s: r}
		}
		w.line("switch %s := %s; %s {", sw, idx, sw)
		for off, v := range gt.vals {
			if v == "" {
				continue
			}
			w.line("case %d:", off+a.Lo)
			w.line("%s = %s", r, v)
		}
		w.line("default:")
		x.missingAt(w, a, e.Pos, sw)
		w.line("}")
		return val{s: r}
	}
	return val{s: gt.name}
}

// forLoop generates a for loop: unrolled, or as a Go loop over its
// members when unrolling would make it large.
func (x *ctx) forLoop(w block, s *ir.For) {
	members := x.members(s.Over)
	if len(members) == 0 {
		return
	}
	if len(members) > 1 {
		probe := w.sub()
		x.with(s.Var, members[0]).stmts(probe, s.Body)
		if probe.b.Len()*len(members) <= maxUnrolledText {
			w.b.WriteString(probe.b.String())
			for _, q := range members[1:] {
				x.with(s.Var, q).stmts(w, s.Body)
			}
			return
		}
	} else {
		x.with(s.Var, members[0]).stmts(w, s.Body)
		return
	}
	v := w.fresh()
	if contiguous(members) {
		w.line("for %s := %d; %s <= %d; %s++ {", v, members[0], v, members[len(members)-1], v)
	} else {
		w.line("for _, %s := range [...]int{%s} {", v, joinInts(members))
	}
	x.rv[s.Var] = v
	x.stmts(w, s.Body)
	delete(x.rv, s.Var)
	w.line("}")
}

func contiguous(ms []int) bool {
	for i := 1; i < len(ms); i++ {
		if ms[i] != ms[i-1]+1 {
			return false
		}
	}
	return true
}

func joinInts(ms []int) string {
	s := make([]string, len(ms))
	for i, m := range ms {
		s[i] = strconv.Itoa(m)
	}
	return strings.Join(s, ", ")
}

// state is the Go of the configuration an expression reads: s in a
// predicate, the configuration before the step in an action.
func (x *ctx) stateVar() string {
	if x.state {
		return "s"
	}
	return "c.Config()"
}

// msgQuant generates a quantifier over a channel's messages between
// processes known when it is generated: a Go loop over the channel's
// messages (at most its capacity), of the quantifier's type, with the
// body's value folded as compile's fold does, and a sum that may
// overflow checked.
func (x *ctx) msgQuant(w block, e *ir.MsgQuant) val {
	ch, none := x.channel(w, e.From, e.To)
	acc := w.fresh()
	isBool := e.Kind == "forall" || e.Kind == "exists"
	switch e.Kind {
	case "forall":
		w.line("%s := true", acc)
	case "exists":
		w.line("%s := false", acc)
	default:
		w.line("%s := 0", acc)
	}
	capacity := 0
	if x.g.spec.Channels != nil {
		capacity = x.g.spec.Channels.Capacity
	}
	if none || capacity == 0 {
		return val{s: acc, isBool: isBool}
	}
	checked := false
	if e.Kind == "sum" {
		q := &ir.Quant{Kind: e.Kind, Pos: e.Pos, Var: e.Var, Over: &ir.Set{Lo: 0, Hi: capacity - 1}, Body: e.Body}
		checked = x.g.bounds.MayOverflow(q)
	}
	st, i, m := w.fresh(), w.fresh(), w.fresh()
	w.line("%s := %s", st, x.stateVar())
	w.line("for %s, %s_n := 0, min(rt.Len(%s, %s), %d); %s < %s_n; %s++ {", i, i, st, ch, capacity, i, i, i)
	w.line("%s := %s.At(%s, %s)", m, st, ch, i)
	if e.Msg != nil {
		w.line("if %s.TypeOf(%s) != %d {", st, m, e.Msg.ID)
		w.line("continue")
		w.line("}")
	}
	w.line("_ = %s", m)
	x.rv[e.Var] = i
	x.msgs[e] = msgAt{st: st, m: m}
	body := w.sub()
	v := x.expr(body, e.Body)
	delete(x.rv, e.Var)
	delete(x.msgs, e)
	w.b.WriteString(body.b.String())
	switch e.Kind {
	case "forall":
		w.line("if !%s {", paren(v.cond()))
		w.line("%s = false", acc)
		w.line("break")
		w.line("}")
	case "exists":
		w.line("if %s {", v.cond())
		w.line("%s = true", acc)
		w.line("break")
		w.line("}")
	case "count":
		w.line("if %s {", v.cond())
		w.line("%s++", acc)
		w.line("}")
	default:
		if !checked {
			w.line("%s += %s", acc, v.num())
			break
		}
		t := temp(w, val{s: v.num()})
		w.line("if s%s, ok := ir.Add(%s, %s); ok {", t.s, acc, t.s)
		w.line("%s = s%s", acc, t.s)
		w.line("} else {")
		x.overflow(w, e.Pos, fmt.Sprintf(`"sum " + ir.BinaryText(syntax.Plus, %s, %s)`, acc, t.s))
		w.line("%s = 0", acc)
		w.line("break")
		w.line("}")
	}
	w.line("}")
	return val{s: acc, isBool: isBool}
}

// msgAt is the Go of the message a quantifier over a channel binds: the
// configuration's variable and the message's.
type msgAt struct{ st, m string }

// msgField generates a field of the message a quantifier over a channel
// binds: 0 where its type has no such field.
func (x *ctx) msgField(e *ir.MsgField) val {
	at, ok := x.msgs[e.Quant]
	if !ok {
		skip("a message's field outside its quantifier")
	}
	return x.fieldOfMsg(at.st+".TypeOf("+at.m+")", at.m, e.Index, e.Quant.Msg)
}

// fieldOfMsg generates field index[t] of message m (a generated
// model.Msg) of type t (the generated typ), known to be msg when msg is
// set: 0 where the type has no such field.
func (x *ctx) fieldOfMsg(typ, m string, index []int, msg *ir.Message) val {
	one := func(id int) string {
		mt := x.g.spec.Messages[id]
		if index[id] < 0 {
			return "0"
		}
		if x.g.tabulated(mt) {
			return fmt.Sprintf("int(g.Fields[%d][int(%s-g.Base[%d])*%d+%d])", id, m, id, len(mt.Fields), index[id])
		}
		return fmt.Sprintf("g.Sys.Field(%s, %d)", m, index[id])
	}
	if msg != nil {
		return val{s: one(msg.ID)}
	}
	var with []int
	for id := range x.g.spec.Messages {
		if index[id] >= 0 {
			with = append(with, id)
		}
	}
	if len(with) == 0 {
		return lit(0)
	}
	// A switch over the types that have the field.
	var b strings.Builder
	fmt.Fprintf(&b, "func() int {\nswitch %s {\n", typ)
	for _, id := range with {
		fmt.Fprintf(&b, "case %d:\nreturn %s\n", id, one(id))
	}
	b.WriteString("}\nreturn 0\n}()")
	return val{s: b.String()}
}

// runLen generates the length of the run receive r takes at the head of
// channel ch (a generated model.ChanID) of the configuration before the
// step.
func (x *ctx) runLen(r *ir.Receive, ch string) string {
	more := make([]int, len(x.g.spec.Messages))
	copy(more, r.Run.MoreIndex)
	return fmt.Sprintf("g.RunLen(c.Config(), %s, []int{%s})", ch, joinInts(more))
}

// forRun generates a loop over the run the action receives: its body
// once per message, in order.
func (x *ctx) forRun(w block, s *ir.ForRun) {
	ch := x.chanIn(w, s.Recv.From)
	chv := w.fresh()
	w.line("%s := %s", chv, ch)
	l := x.runLen(s.Recv, chv)
	i, m := w.fresh(), w.fresh()
	w.line("for %s := range %s {", i, l)
	w.line("%s := c.Config().At(%s, %s)", m, chv, i)
	w.line("_ = %s", m)
	gt := x.temps[s.Temp]
	if gt == nil {
		skip("a run loop outside its block")
	}
	old := gt.name
	gt.name = m
	x.stmts(w, s.Body)
	gt.name = old
	w.line("}")
}

// runField generates m.f for the message m of a run loop.
func (x *ctx) runField(e *ir.RunField) val {
	gt := x.temps[e.Temp]
	if gt == nil {
		skip("a run's message outside its loop")
	}
	return x.fieldOfMsg("c.TypeOf("+gt.name+")", gt.name, e.Index, nil)
}

// runIs generates m is M for the message m of a run loop.
func (x *ctx) runIs(e *ir.RunIs) val {
	gt := x.temps[e.Temp]
	if gt == nil {
		skip("a run's message outside its loop")
	}
	return val{s: fmt.Sprintf("(c.TypeOf(%s) == %d)", gt.name, e.Msg.ID), isBool: true}
}

// fieldElem generates an entry of an array field read at an index: the
// entry's read at a constant index; otherwise a switch over the entries,
// an index outside them a fault in an action (at the index, with
// compile's message) and 0 in a predicate.
func (x *ctx) fieldElem(w block, e *ir.FieldElem) val {
	if i, ok := x.constant(e.Index); ok {
		if el := e.Elem(i); el != nil {
			return val{s: x.expr(w, el).num()}
		}
		if x.state {
			return lit(0)
		}
	}
	idx := x.expr(w, e.Index).num()
	r, sw := w.fresh(), w.fresh()
	w.line("var %s int", r)
	w.line("switch %s := %s; %s {", sw, idx, sw)
	for i, el := range e.Elems {
		w.line("case %d:", e.Lo+i)
		x.assignTo(w, r, false, el)
	}
	if !x.state {
		w.line("default:")
		x.fault(w, e.Pos, "%s", fmt.Sprintf("fmt.Sprintf(%q, %s)", fmt.Sprintf("%s has no entry %%d (its entries are %d..%d)", e.Name, e.Lo, e.Lo+len(e.Elems)-1), sw))
	}
	w.line("}")
	return val{s: r}
}

// hasAll reports whether process p has every entry of the array the
// shadow t shadows.
func hasAll(t *ir.Temp, p int) bool {
	for off := range t.Len {
		if _, v := t.Entry(off+entryLo(t), p); v == nil || !contains(v.Procs, p) {
			return false
		}
	}
	return true
}
