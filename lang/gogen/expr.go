package gogen

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
	"github.com/ringcheck/ringcheck/model"
)

// ctx generates the expressions of one action for one process (p ≥ 0),
// or of a state predicate (state set, p = -1).
type ctx struct {
	g *generator
	a *ir.Action
	p int
	// b binds the locals of unrolled quantifiers and loops, and the
	// choice parameter, to their values.
	b map[*ir.Local]int
	// guard is set while the guard is generated (its faults name the
	// action).
	guard bool
	// state: a state predicate, over the configuration s.
	state bool
	// rv binds the locals of loops generated as Go loops (for loops,
	// quantifiers over a channel's messages) to their Go variables.
	rv map[*ir.Local]string
	// temps holds the Go of the temps of the sequential blocks being
	// generated.
	temps map[*ir.Temp]*goTemp
	// msgs holds the Go of the message each quantifier over a channel
	// being generated binds.
	msgs map[*ir.MsgQuant]msgAt
	// within names the predicate being generated, for its faults.
	within string
	// mf, when set, is the variable of the array of the received
	// message's fields (hoistFields).
	mf string
}

// newCtx returns the context of action a for process p (-1 and state
// set: a state predicate).
func newCtx(g *generator, a *ir.Action, p int, state bool) *ctx {
	return &ctx{g: g, a: a, p: p, state: state, b: map[*ir.Local]int{}, rv: map[*ir.Local]string{}, temps: map[*ir.Temp]*goTemp{}, msgs: map[*ir.MsgQuant]msgAt{}}
}

// with returns x with l bound to v.
func (x *ctx) with(l *ir.Local, v int) *ctx {
	y := *x
	y.b = make(map[*ir.Local]int, len(x.b)+1)
	for k, w := range x.b {
		y.b[k] = w
	}
	y.b[l] = v
	return &y
}

// name is the action's name in a guard's faults, "" elsewhere.
func (x *ctx) name() string {
	if x.guard {
		return strconv.Quote(x.a.Name)
	}
	return `""`
}

// fault writes the failure of the step with compile.Fault at pos; in a
// predicate, the report of the fault to the latch (predFault).
func (x *ctx) fault(w block, at syntax.Pos, format string, args ...string) {
	a := ""
	for _, s := range args {
		a += ", " + s
	}
	if x.state {
		x.predFault(w, fmt.Sprintf("compile.Fault(g.File, %s, \"\", %q%s)", pos(at), format, a))
		return
	}
	w.line("c.Fail(compile.Fault(g.File, %s, %s, %q%s))", pos(at), x.name(), format, a)
}

// predFault writes, in a predicate, the report of the error err (a
// generated expression) to the predicate's fault latch, and the
// predicate's holding, as compile's predicates do on a fault.
func (x *ctx) predFault(w block, err string) {
	x.g.faulty = true
	w.line("fail(%s)", err)
	w.line("return true")
}

// overflow writes the fault of an operation that overflows, op its text
// (a generated string), as compile reports it: in an action, with
// ir.OverflowMessage; in a predicate, naming it.
func (x *ctx) overflow(w block, at syntax.Pos, op string) {
	if x.state {
		x.predFault(w, fmt.Sprintf("&syntax.Error{File: g.File, Pos: %s, Msg: %q + %s + \" is outside int64\"}", pos(at), "integer overflow in "+x.within+": ", op))
		return
	}
	x.fault(w, at, "%s", "ir.OverflowMessage("+op+")")
}

// divisionByZero writes the fault of a division by zero at pos, as
// compile reports it.
func (x *ctx) divisionByZero(w block, at syntax.Pos) {
	if x.state {
		x.predFault(w, fmt.Sprintf("&syntax.Error{File: g.File, Pos: %s, Msg: %q}", pos(at), "division by zero in "+x.within))
		return
	}
	w.line("c.Fail(compile.DivisionByZero(g.File, %s))", pos(at))
}

// constant evaluates an expression that depends on no configuration, as
// compile does, with the acting process known.
func (x *ctx) constant(e ir.Expr) (int, bool) {
	switch e := e.(type) {
	case *ir.Const:
		return e.Value, true
	case *ir.FieldRef:
		if r := e.Recv; r != nil && r.Msg != nil && !r.Any && e.Index >= 0 && e.Index < len(r.Msg.Fields) {
			return oneValue(r.Msg.Fields[e.Index].Type)
		}
		return 0, false
	case *ir.VarRef:
		if !x.state && e.Proc == nil && e.Var != nil && slices.Contains(e.Var.Procs, x.p) {
			return oneValue(e.Var.Type)
		}
		return 0, false
	case *ir.LocalRef:
		v, ok := x.b[e.Local]
		return v, ok
	case *ir.Self:
		return x.p, x.p >= 0
	case *ir.Neighbor:
		q, ok := x.constant(e.Of)
		return ir.Offset(q, e.Offset, x.g.n), ok
	case *ir.Unary:
		v, ok := x.constant(e.X)
		if !ok {
			return 0, false
		}
		if e.Op == syntax.Not {
			return 1 - v, true
		}
		return ir.Neg(v)
	case *ir.Binary:
		u, oku := x.constant(e.X)
		v, okv := x.constant(e.Y)
		return ir.FoldBinary(e.Op, u, oku, v, okv)
	case *ir.Cond:
		c, ok := x.constant(e.C)
		if !ok {
			return 0, false
		}
		if c != 0 {
			return x.constant(e.X)
		}
		return x.constant(e.Y)
	}
	return 0, false
}

func oneValue(t *ir.Type) (int, bool) {
	if t == nil || t.Lo != t.Hi {
		return 0, false
	}
	return t.Lo, true
}

// proc generates a process expression: its value modulo N, and whether
// it is a constant (then the int is the process).
func (x *ctx) proc(w block, e ir.Expr) (string, int, bool) {
	if q, ok := x.constant(e); ok {
		q = ir.Mod(q, x.g.n)
		return strconv.Itoa(q), q, true
	}
	v := x.expr(w, e)
	return fmt.Sprintf("rt.Proc(%s, %d)", v.num(), x.g.n), 0, false
}

// chanIn generates the channel from process expression from to the
// acting process, as Ctx.In finds it.
func (x *ctx) chanIn(w block, from ir.Expr) string {
	s, q, ok := x.proc(w, from)
	if ok && x.g.chans[q*x.g.n+x.p] >= 0 {
		return fmt.Sprintf("model.ChanID(%d)", x.g.chans[q*x.g.n+x.p])
	}
	return "c.In(" + s + ")"
}

// chanOut generates the channel from the acting process to process q
// (a generated process expression), as Ctx.Out finds it.
func (x *ctx) chanOut(s string, q int, ok bool) string {
	if ok && x.g.chans[x.p*x.g.n+q] >= 0 {
		return fmt.Sprintf("model.ChanID(%d)", x.g.chans[x.p*x.g.n+q])
	}
	return "c.Out(" + s + ")"
}

var tokenName = map[syntax.Token]string{
	syntax.Plus: "syntax.Plus", syntax.Minus: "syntax.Minus", syntax.Star: "syntax.Star",
	syntax.Slash: "syntax.Slash", syntax.Percent: "syntax.Percent",
}

var goOp = map[syntax.Token]string{
	syntax.Plus: "+", syntax.Minus: "-", syntax.Star: "*",
	syntax.Eq: "==", syntax.Neq: "!=", syntax.Lt: "<", syntax.Le: "<=", syntax.Gt: ">", syntax.Ge: ">=",
}

// mayOverflow reports whether compile checks e's operation for overflow
// (ir.Bounds.Checked).
func (x *ctx) mayOverflow(e ir.Expr) bool { return x.g.bounds.Checked(e) }

// temp assigns v to a new variable, so that it is computed once.
func temp(w block, v val) val {
	t := w.fresh()
	w.line("%s := %s", t, v.s)
	return val{s: t, isBool: v.isBool}
}

// expr generates e: statements in w, and the value's expression.
func (x *ctx) expr(w block, e ir.Expr) val {
	if v, ok := x.constant(e); ok {
		if t := e.Type(); t != nil && t.Kind == ir.Bool {
			return val{s: strconv.FormatBool(v != 0), isBool: true}
		}
		return lit(v)
	}
	switch e := e.(type) {
	case *ir.Self, *ir.Neighbor:
		s, _, _ := x.proc(w, e)
		return val{s: s}
	case *ir.LocalRef:
		if v, ok := x.rv[e.Local]; ok {
			return val{s: v}
		}
		skip("an unbound local %s", e.Local.Name)
	case *ir.TempRef:
		return x.tempRef(w, e)
	case *ir.MsgQuant:
		return x.msgQuant(w, e)
	case *ir.MsgField:
		return x.msgField(e)
	case *ir.RunField:
		return x.runField(e)
	case *ir.RunIs:
		return x.runIs(e)
	case *ir.FieldElem:
		return x.fieldElem(w, e)
	case *ir.VarRef:
		return x.varRef(w, e)
	case *ir.FieldRef:
		return x.field(e)
	case *ir.Unary:
		if inv, ok := ir.Negated(e); ok {
			return x.expr(w, inv)
		}
		v := x.expr(w, e.X)
		if e.Op == syntax.Not {
			return val{s: "!" + paren(v.cond()), isBool: true}
		}
		if x.mayOverflow(e) {
			u := temp(w, val{s: v.num()})
			r := w.fresh()
			w.line("%s, ok%s := ir.Neg(%s)", r, r, u.s)
			w.line("if !ok%s {", r)
			x.overflow(w, e.Pos, fmt.Sprintf(`fmt.Sprintf("-(%%d)", %s)`, u.s))
			w.line("%s = 0", r)
			w.line("}")
			return val{s: r}
		}
		return val{s: "(-" + paren(v.num()) + ")"}
	case *ir.Binary:
		return x.binary(w, e)
	case *ir.Cond:
		c := x.expr(w, e.C)
		t := w.fresh()
		isBool := e.Type() != nil && e.Type().Kind == ir.Bool
		if isBool {
			w.line("var %s bool", t)
		} else {
			w.line("var %s int", t)
		}
		w.line("if %s {", c.cond())
		x.assignTo(w, t, isBool, e.X)
		w.line("} else {")
		x.assignTo(w, t, isBool, e.Y)
		w.line("}")
		return val{s: t, isBool: isBool}
	case *ir.Quant:
		return x.quant(w, e)
	case *ir.ElemRef:
		return x.elemRef(w, e)
	case *ir.ChanLen:
		return x.chanLen(w, e)
	case *ir.HeadField:
		return x.headField(w, e)
	case *ir.ChanPos:
		ch, none := x.channel(w, e.From, e.To)
		if none {
			return lit(0)
		}
		return val{s: fmt.Sprintf("rt.Pos(%s, %s, %d)", x.stateVar(), ch, e.Msg.ID)}
	}
	skip("an expression of type %T", e)
	return val{}
}

// assignTo generates e into the variable t (of type bool or int).
func (x *ctx) assignTo(w block, t string, isBool bool, e ir.Expr) {
	sub := w.sub()
	v := x.expr(sub, e)
	w.b.WriteString(sub.b.String())
	if isBool {
		w.line("%s = %s", t, v.cond())
	} else {
		w.line("%s = %s", t, v.num())
	}
}

func paren(s string) string {
	if strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") && balanced(s[1:len(s)-1]) {
		return s
	}
	for _, r := range s {
		if !(r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return "(" + s + ")"
		}
	}
	return s
}

// balanced reports whether the parentheses of s match.
func balanced(s string) bool {
	d := 0
	for _, r := range s {
		switch r {
		case '(':
			d++
		case ')':
			if d--; d < 0 {
				return false
			}
		}
	}
	return d == 0
}

// varRef generates a read of a variable, as compile reads it.
func (x *ctx) varRef(w block, e *ir.VarRef) val {
	id := e.Var.ID
	if x.state {
		if e.Proc == nil {
			skip("a variable of no process in a predicate")
		}
		q, ok := x.constant(e.Proc)
		if !ok {
			p := x.expr(w, e.Proc).num()
			return val{s: fmt.Sprintf("rt.VarOf(s, rt.Proc(%s, %d), %d, %#x)", p, x.g.n, id, mask(e.Var.Procs))}
		}
		q = ir.Mod(q, x.g.n)
		if !slices.Contains(e.Var.Procs, q) {
			return lit(0)
		}
		return val{s: fmt.Sprintf("s.Get(%d, %d)", q, id)}
	}
	if e.Proc == nil {
		return val{s: fmt.Sprintf("c.Get(%d)", id)}
	}
	if x.a.Kind == model.Timeout {
		s, _, _ := x.proc(w, e.Proc)
		return val{s: fmt.Sprintf("c.Config().Get(%s, %d)", s, id)}
	}
	if nb, ok := e.Proc.(*ir.Neighbor); ok {
		if _, self := nb.Of.(*ir.Self); self && (nb.Offset == -1 || nb.Offset == 1) {
			return val{s: fmt.Sprintf("c.Read(%d, %d)", ir.Offset(x.p, nb.Offset, x.g.n), id)}
		}
	}
	s, q, ok := x.proc(w, e.Proc)
	if _, isConst := e.Proc.(*ir.Const); isConst {
		return val{s: fmt.Sprintf("c.Read(%d, %d)", q, id)}
	}
	if ok {
		if q == x.p || x.g.topo.Linked(q, x.p) {
			return val{s: fmt.Sprintf("c.Read(%d, %d)", q, id)}
		}
		return val{s: fmt.Sprintf("rt.NotLinked(c, %q, %d)", e.Var.Name, q)}
	}
	return val{s: fmt.Sprintf("rt.ReadLinked(c, g.Sys, %d, %q, %s)", id, e.Var.Name, s)}
}

// field generates a field of the received message m.
func (x *ctx) field(e *ir.FieldRef) val {
	r := e.Recv
	if x.state || r == nil || r.Msg == nil || r.Any || r != x.a.Recv {
		skip("a field of a message that is not the action's receive")
	}
	t, nf := r.Msg.ID, len(r.Msg.Fields)
	if x.mf != "" {
		return val{s: fmt.Sprintf("int(%s[%d])", x.mf, e.Index)}
	}
	if x.g.tabulated(r.Msg) {
		return val{s: fmt.Sprintf("int(g.Fields[%d][int(m-g.Base[%d])*%d+%d])", t, t, nf, e.Index)}
	}
	return val{s: fmt.Sprintf("g.Sys.Field(m, %d)", e.Index)}
}

// binary generates a binary operation as compile computes it.
func (x *ctx) binary(w block, e *ir.Binary) val {
	switch e.Op {
	case syntax.AndAnd, syntax.OrOr:
		l := x.expr(w, e.X)
		sub := w.sub()
		r := x.expr(sub, e.Y)
		op := "&&"
		if e.Op == syntax.OrOr {
			op = "||"
		}
		if sub.b.Len() == 0 {
			lb, lok := literal(l)
			rb, rok := literal(r)
			switch {
			case lok && rok && e.Op == syntax.AndAnd:
				return val{s: strconv.FormatBool(lb != 0 && rb != 0), isBool: true}
			case lok && rok:
				return val{s: strconv.FormatBool(lb != 0 || rb != 0), isBool: true}
			}
			return val{s: "(" + l.cond() + " " + op + " " + r.cond() + ")", isBool: true}
		}
		// The right operand's statements run only where it is evaluated.
		t := w.fresh()
		w.line("%s := %s", t, l.cond())
		if e.Op == syntax.AndAnd {
			w.line("if %s {", t)
		} else {
			w.line("if !%s {", t)
		}
		w.b.WriteString(sub.b.String())
		w.line("%s = %s", t, r.cond())
		w.line("}")
		return val{s: t, isBool: true}
	case syntax.Eq, syntax.Neq, syntax.Lt, syntax.Le, syntax.Gt, syntax.Ge:
		l, r := x.expr(w, e.X), x.expr(w, e.Y)
		if u, ok := literal(l); ok {
			if v, ok := literal(r); ok {
				// Constants the configuration made (a variable of no
				// process reads 0).
				c, _ := ir.EvalBinary(e.Op, u, v)
				return val{s: strconv.FormatBool(c != 0), isBool: true}
			}
		}
		if (e.Op == syntax.Eq || e.Op == syntax.Neq) && l.isBool && r.isBool {
			return val{s: "(" + l.s + " " + goOp[e.Op] + " " + r.s + ")", isBool: true}
		}
		return val{s: "(" + l.num() + " " + goOp[e.Op] + " " + r.num() + ")", isBool: true}
	}
	if x.mayOverflow(e) {
		return x.checked(w, e)
	}
	l, r := x.expr(w, e.X), x.expr(w, e.Y)
	switch e.Op {
	case syntax.Plus, syntax.Minus, syntax.Star:
		return val{s: "(" + l.num() + " " + goOp[e.Op] + " " + r.num() + ")"}
	case syntax.Slash, syntax.Percent:
		if k, ok := x.constant(e.Y); ok {
			switch {
			case e.Op == syntax.Percent && k > 0:
				return val{s: fmt.Sprintf("rt.ModK(%s, %d)", l.num(), k)}
			case e.Op == syntax.Slash && k != 0 && k != -1:
				return val{s: fmt.Sprintf("(%s / %d)", l.num(), k)}
			}
		}
		t := w.fresh()
		if k, ok := x.constant(e.Y); ok && k != 0 && x.state {
			// A divisor that is not 0: no fault (compile's predicates
			// check none).
			w.line("%s, _ := ir.EvalBinary(%s, %s, %s)", t, tokenName[e.Op], l.num(), r.num())
			return val{s: t}
		}
		w.line("%s, f%s := ir.EvalBinary(%s, %s, %s)", t, t, tokenName[e.Op], l.num(), r.num())
		w.line("if f%s != ir.NoFault {", t)
		x.divisionByZero(w, e.Pos)
		w.line("}")
		return val{s: t}
	}
	skip("the operator %s", e.Op)
	return val{}
}

// checked generates an arithmetic operation that may overflow, checked.
func (x *ctx) checked(w block, e *ir.Binary) val {
	l := temp(w, val{s: x.expr(w, e.X).num()})
	r := temp(w, val{s: x.expr(w, e.Y).num()})
	t := w.fresh()
	op := tokenName[e.Op]
	w.line("%s, f%s := ir.EvalBinary(%s, %s, %s)", t, t, op, l.s, r.s)
	w.line("switch f%s {", t)
	w.line("case ir.NoFault:")
	w.line("case ir.DivisionByZero:")
	x.divisionByZero(w, e.Pos)
	w.line("%s = 0", t)
	w.line("default:")
	x.overflow(w, e.Pos, fmt.Sprintf("ir.BinaryText(%s, %s, %s)", op, l.s, r.s))
	w.line("%s = 0", t)
	w.line("}")
	return val{s: t}
}

// members returns the members of a quantifier's or a loop's set.
func (x *ctx) members(s *ir.Set) []int {
	if s == nil {
		out := make([]int, x.g.n)
		for q := range out {
			out[q] = q
		}
		return out
	}
	if s.Of == nil {
		return s.Members(0)
	}
	q, ok := x.constant(s.Of)
	if !ok {
		skip("the peers of a process known only as the step runs")
	}
	return s.Members(ir.Mod(q, x.g.n))
}

// quant generates a quantifier, unrolled.
func (x *ctx) quant(w block, e *ir.Quant) val {
	var parts []*ctx
	for _, q := range x.members(e.Over) {
		y := x.with(e.Var, q)
		// A part that cannot change the result is left out.
		if v, ok := y.constant(e.Body); ok && (v == 0) == (e.Kind != "forall") {
			continue
		}
		parts = append(parts, y)
	}
	switch e.Kind {
	case "forall", "exists":
		if len(parts) == 0 {
			return val{s: strconv.FormatBool(e.Kind == "forall"), isBool: true}
		}
		op := "&&"
		if e.Kind == "exists" {
			op = "||"
		}
		// Each part evaluated only when the ones before have not
		// decided.
		var inline []string
		t := ""
		for _, y := range parts {
			sub := w.sub()
			v := y.expr(sub, e.Body)
			if t == "" && sub.b.Len() == 0 {
				if b, ok := literal(v); ok {
					if (b != 0) == (e.Kind == "forall") {
						// A part that cannot change the result.
						continue
					}
					// A part that decides it.
					return val{s: strconv.FormatBool(e.Kind != "forall"), isBool: true}
				}
				inline = append(inline, v.cond())
				continue
			}
			if t == "" {
				t = w.fresh()
				if len(inline) == 0 {
					w.line("%s := %s", t, strconv.FormatBool(e.Kind == "forall"))
				} else {
					w.line("%s := %s", t, strings.Join(inline, " "+op+" "))
				}
			}
			if e.Kind == "forall" {
				w.line("if %s {", t)
			} else {
				w.line("if !%s {", t)
			}
			w.b.WriteString(sub.b.String())
			w.line("%s = %s", t, v.cond())
			w.line("}")
		}
		if t == "" {
			if len(inline) == 0 {
				return val{s: strconv.FormatBool(e.Kind == "forall"), isBool: true}
			}
			return val{s: "(" + strings.Join(inline, " "+op+" ") + ")", isBool: true}
		}
		return val{s: t, isBool: true}
	case "count":
		var terms []string
		for _, y := range parts {
			terms = append(terms, "rt.B2i("+y.expr(w, e.Body).cond()+")")
		}
		if len(terms) == 0 {
			return lit(0)
		}
		return val{s: "(" + strings.Join(terms, " + ") + ")"}
	case "sum":
		if x.mayOverflow(e) {
			acc := w.fresh()
			w.line("%s := 0", acc)
			for _, y := range parts {
				v := temp(w, val{s: y.expr(w, e.Body).num()})
				w.line("if s%s, ok := ir.Add(%s, %s); ok {", v.s, acc, v.s)
				w.line("%s = s%s", acc, v.s)
				w.line("} else {")
				x.overflow(w, e.Pos, fmt.Sprintf(`"sum " + ir.BinaryText(syntax.Plus, %s, %s)`, acc, v.s))
				w.line("%s = 0", acc)
				w.line("}")
			}
			return val{s: acc}
		}
		var terms []string
		for _, y := range parts {
			terms = append(terms, y.expr(w, e.Body).num())
		}
		if len(terms) == 0 {
			return lit(0)
		}
		return val{s: "(" + strings.Join(terms, " + ") + ")"}
	}
	skip("a quantifier %s", e.Kind)
	return val{}
}

// elemRef generates a read of an array's entry whose index is a
// constant once the sets are unrolled.
func (x *ctx) elemRef(w block, e *ir.ElemRef) val {
	a := e.Array
	i, ok := x.constant(e.Index)
	if !ok {
		if x.state {
			return x.stateEntry(w, e)
		}
		return x.elemAt(w, e)
	}
	v := a.Elem(i)
	if x.state {
		if v == nil {
			return lit(0)
		}
		return x.varRef(w, &ir.VarRef{Var: v, Proc: e.Proc})
	}
	q := x.p
	if e.Proc != nil {
		var okq bool
		if _, q, okq = x.proc(w, e.Proc); !okq {
			skip("an array entry of a process known only as the step runs")
		}
	}
	if v == nil || !slices.Contains(v.Procs, q) {
		x.fault(w, e.Pos, "%s", strconv.Quote(a.Missing(x.p, i)))
		return lit(0)
	}
	return x.varRef(w, &ir.VarRef{Var: v, Proc: e.Proc})
}

// chanLen generates the number of messages in a channel between
// processes known when it is generated.
func (x *ctx) chanLen(w block, e *ir.ChanLen) val {
	ch, none := x.channel(w, e.From, e.To)
	if none {
		return lit(0)
	}
	s := x.stateVar()
	if e.Upto != nil {
		upto := x.expr(w, e.Upto).num()
		t := -1
		if e.Msg != nil {
			t = e.Msg.ID
		}
		return val{s: fmt.Sprintf("rt.CountUpTo(%s, %s, %d, max(0, %s))", s, ch, t, upto)}
	}
	if e.Msg == nil {
		if _, err := strconv.Atoi(ch); err == nil {
			return val{s: fmt.Sprintf("%s.Len(%s)", s, ch)}
		}
		return val{s: fmt.Sprintf("rt.Len(%s, %s)", s, ch)}
	}
	return val{s: fmt.Sprintf("rt.Count(%s, %s, %d)", s, ch, e.Msg.ID)}
}

// channel generates the channel from process from to process to: a
// constant where both are known when it is generated (none set when
// there is no such channel), otherwise a variable holding the channel
// (-1 for none) found as the step runs.
func (x *ctx) channel(w block, from, to ir.Expr) (ch string, none bool) {
	f, okf := x.constant(from)
	t, okt := x.constant(to)
	if okf && okt {
		c := x.g.chans[ir.Mod(f, x.g.n)*x.g.n+ir.Mod(t, x.g.n)]
		return strconv.Itoa(int(c)), c < 0
	}
	fs := x.expr(w, from).num()
	ts := x.expr(w, to).num()
	v := w.fresh()
	w.line("%s := g.Sys.ChanBetween(rt.Proc(%s, %d), rt.Proc(%s, %d))", v, fs, x.g.n, ts, x.g.n)
	return v, false
}

// elemAt generates a read of an array's entry at an index known only as
// the step runs: a switch over the entries the process has, and the
// missing entry's fault for any other index.
func (x *ctx) elemAt(w block, e *ir.ElemRef) val {
	a, q := e.Array, x.p
	if e.Proc != nil {
		var ok bool
		if _, q, ok = x.proc(w, e.Proc); !ok {
			skip("an array entry of a process known only as the step runs")
		}
	}
	idx := x.expr(w, e.Index).num()
	t := w.fresh()
	w.line("var %s int", t)
	if base, ok := consecutive(a, q); ok {
		// The entries are variables base, base+1, ...: one read at
		// the index.
		w.line("if %si := %s - %d; uint(%si) < %d {", t, idx, a.Lo, t, a.Hi-a.Lo+1)
		id := fmt.Sprintf("model.VarID(%d+%si)", base, t)
		switch {
		case q == x.p:
			w.line("%s = c.Get(%s)", t, id)
		case x.a.Kind == model.Timeout:
			w.line("%s = c.Config().Get(%d, %s)", t, q, id)
		default:
			w.line("%s = c.Read(%d, %s)", t, q, id)
		}
		w.line("} else {")
		x.missingAt(w, a, e.Pos, fmt.Sprintf("%si+%d", t, a.Lo))
		w.line("}")
		return val{s: t}
	}
	w.line("switch %s := %s; %s {", t+"i", idx, t+"i")
	for i := a.Lo; i <= a.Hi; i++ {
		v := a.Elem(i)
		w.line("case %d:", i)
		if v == nil || !slices.Contains(v.Procs, q) {
			x.fault(w, e.Pos, "%s", strconv.Quote(a.Missing(x.p, i)))
			continue
		}
		switch {
		case q == x.p:
			w.line("%s = c.Get(%d)", t, v.ID)
		case x.a.Kind == model.Timeout:
			w.line("%s = c.Config().Get(%d, %d)", t, q, v.ID)
		default:
			w.line("%s = c.Read(%d, %d)", t, q, v.ID)
		}
	}
	w.line("default:")
	x.missingAt(w, a, e.Pos, t+"i")
	w.line("}")
	return val{s: t}
}

// missingAt generates the fault of the acting process's access to the
// entry of a at index idx (a generated variable) outside a's indices.
func (x *ctx) missingAt(w block, a *ir.Array, at syntax.Pos, idx string) {
	if a.Cols == nil {
		x.fault(w, at, "%s", fmt.Sprintf("fmt.Sprintf(%q, %s)", fmt.Sprintf("process %d has no entry %%d of %s", x.p, a.Name), idx))
		return
	}
	x.fault(w, at, "%s", strconv.Quote(a.Missing(x.p, a.Hi+1)))
	w.line("_ = %s", idx)
}

// headField generates a field of the first message (of a type) of a
// channel between processes known when it is generated.
func (x *ctx) headField(w block, e *ir.HeadField) val {
	ch, none := x.channel(w, e.From, e.To)
	if none {
		return lit(0)
	}
	s := x.stateVar()
	first := -1
	if e.First != nil {
		first = e.First.ID
	}
	idx := make([]string, len(e.Index))
	for i, v := range e.Index {
		idx[i] = strconv.Itoa(v)
	}
	return val{s: fmt.Sprintf("g.HeadField(%s, %s, %d, []int{%s})", s, ch, first, strings.Join(idx, ", "))}
}

// consecutive reports whether process q has every entry of a and their
// variables are base, base+1, ... in index order.
func consecutive(a *ir.Array, q int) (int, bool) {
	if len(a.Elems) == 0 || a.Elems[0] == nil {
		return 0, false
	}
	base := a.Elems[0].ID
	for i, v := range a.Elems {
		if v == nil || v.ID != base+i || !slices.Contains(v.Procs, q) {
			return 0, false
		}
	}
	return base, true
}

// literal returns the value of v when it is a literal: an integer, true
// or false.
func literal(v val) (int, bool) {
	switch v.s {
	case "true":
		return 1, true
	case "false":
		return 0, true
	}
	n, err := strconv.Atoi(v.s)
	return n, err == nil
}

// mask is the bit mask of the processes ps.
func mask(ps []int) uint64 {
	var m uint64
	for _, p := range ps {
		m |= 1 << p
	}
	return m
}

// stateEntry generates, in a predicate, the read of an array's entry at
// an index known only in the configuration: 0 where the process has no
// such entry.
func (x *ctx) stateEntry(w block, e *ir.ElemRef) val {
	a := e.Array
	if e.Proc == nil {
		skip("a variable of no process in a predicate")
	}
	p := x.expr(w, e.Proc).num()
	idx := x.expr(w, e.Index).num()
	ids := make([]string, len(a.Elems))
	has := make([]string, len(a.Elems))
	for i, v := range a.Elems {
		ids[i], has[i] = "0", "0"
		if v != nil {
			ids[i], has[i] = strconv.Itoa(v.ID), fmt.Sprintf("%#x", mask(v.Procs))
		}
	}
	return val{s: fmt.Sprintf("rt.EntryOf(s, rt.Proc(%s, %d), %s-%d, []model.VarID{%s}, []uint64{%s})", p, x.g.n, idx, a.Lo, strings.Join(ids, ", "), strings.Join(has, ", "))}
}
