package compile

import (
	"fmt"
	"strconv"

	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
	"github.com/ringcheck/ringcheck/model"
)

// actionFn is a compiled expression of an action: the value for the
// acting process of c, with choice the value of the choice parameter.
type actionFn func(c *model.Ctx, choice int) int

// stateFn is a compiled expression over a configuration alone.
type stateFn func(s *stateEval) int

// bindings map the locals of quantifiers (unrolled) to their values.
type bindings map[*ir.Local]int

func (b bindings) with(l *ir.Local, v int) bindings {
	out := make(bindings, len(b)+1)
	for k, x := range b {
		out[k] = x
	}
	out[l] = v
	return out
}

func (c *compiler) action(a *ir.Action) model.Action {
	act := model.Action{Name: a.Name, Kind: a.Kind, Liveness: a.Liveness, Atomic: a.Atomic}
	lo := 0
	if a.Choice != nil {
		lo = a.Choice.Lo
		act.Choices = a.Choice.Hi - a.Choice.Lo + 1
		name := a.Choice.Name
		act.ChoiceLabel = func(i int) string { return name + "=" + strconv.Itoa(lo+i) }
	}
	cx := &actionCtx{compiler: c, action: a, guard: true}
	if cx.specializable() {
		whole, before := act, c.nodes
		cx.specialize(&act, lo)
		if c.nodes-before <= maxSpecializedNodes {
			return act
		}
		// Compiled once per alternative, the action would take too many
		// of the spec's nodes: it is compiled once, for every alternative.
		act, c.nodes = whole, before
		cx = &actionCtx{compiler: c, action: a, guard: true}
	}
	guard := cx.expr(a.Guard, nil)
	var in func(*model.Ctx) model.ChanID
	if a.Recv != nil && !isPred(a.Recv.From) {
		in = cx.inChannel(a.Recv.From)
	}
	cx.guard = false
	effects := cx.stmts(a.Effects, nil)
	if a.Recv != nil && a.Recv.Run != nil {
		effects = cx.takeRun(effects)
	}
	r := a.Recv
	if perChoice := a.Choice != nil && ir.Reads(a.Guard, a.Choice); perChoice || (r != nil && r.Any) {
		cx.general(&act, guard, effects, in, lo, perChoice)
		return act
	}
	if r == nil {
		act.Guard = func(ctx *model.Ctx) bool { return guard(ctx, 0) != 0 }
		if g := cx.leafGuard(a.Guard); g != nil && !c.noFused {
			act.Guard = g
		} else if g := cx.chainGuard(a.Guard); g != nil && !c.noFused {
			act.Guard = g
		}
		act.Effect = func(ctx *model.Ctx, i int) { effects(ctx, frame(lo+i, 0)) }
		if lo == 0 && !c.noFused {
			// frame(i, 0) is i: the effects run without a frame of their
			// own.
			act.Effect = effects
		}
		return act
	}
	// The head is read once: the guard and the effects find it in their
	// frame.
	t := c.types[r.Msg.ID]
	if isPred(r.From) {
		// The common case, without a call to find the channel.
		act.Guard = func(ctx *model.Ctx) bool {
			m, ok := ctx.Head(ctx.In(ctx.Pred()))
			return ok && ctx.TypeOf(m) == t && guard(ctx, frame(0, m)) != 0
		}
		if g := cx.recvGuard(a.Guard, r, t); g != nil && !c.noFused {
			act.Guard = g
		} else if g := cx.chainGuard(a.Guard); g != nil && !c.noFused {
			// A guard that does not read the message: its type tested,
			// then the guard, without a frame.
			act.Guard = func(ctx *model.Ctx) bool {
				m, ok := ctx.Head(ctx.In(ctx.Pred()))
				return ok && ctx.TypeOf(m) == t && g(ctx)
			}
		}
		act.Effect = func(ctx *model.Ctx, i int) {
			m := ctx.Receive(ctx.In(ctx.Pred()))
			effects(ctx, frame(lo+i, m))
		}
		return act
	}
	act.Guard = func(ctx *model.Ctx) bool {
		m, ok := ctx.Head(in(ctx))
		return ok && ctx.TypeOf(m) == t && guard(ctx, frame(0, m)) != 0
	}
	act.Effect = func(ctx *model.Ctx, i int) {
		m := ctx.Receive(in(ctx))
		effects(ctx, frame(lo+i, m))
	}
	return act
}

// source returns the process from which the acting process receives in
// each alternative of a (model.Action.Source), where a receives and that
// process follows from the acting process, the alternative and constants
// alone; nil otherwise.
func (c *compiler) source(a *ir.Action) func(*model.Ctx, int) int {
	if a.Recv == nil || !stateFree(a.Recv.From, a.Choice) {
		return nil
	}
	cx := &actionCtx{compiler: c, action: a, guard: true}
	lo, n := 0, 1
	if a.Choice != nil {
		lo, n = a.Choice.Lo, a.Choice.Hi-a.Choice.Lo+1
	}
	procs := make([]actionFn, n)
	for i := range procs {
		var b bindings
		if a.Choice != nil {
			b = bindings{a.Choice: lo + i}
		}
		procs[i] = cx.proc(a.Recv.From, b)
	}
	return func(ctx *model.Ctx, k int) int { return procs[k](ctx, 0) }
}

// stateFree reports whether process expression e names a process without
// reading the configuration: the acting process, a constant, a neighbour
// of one, or the choice parameter.
func stateFree(e ir.Expr, choice *ir.Local) bool {
	switch e := e.(type) {
	case *ir.Self, *ir.Const:
		return true
	case *ir.Neighbor:
		return stateFree(e.Of, choice)
	case *ir.LocalRef:
		return choice != nil && e.Local == choice
	}
	return false
}

// frame packs what the closures of an action read besides the
// configuration into their int argument: the value of the choice
// parameter in the low 32 bits, the received message in the high ones.
func frame(choice int, m model.Msg) int { return int(uint64(uint32(int32(choice))) | uint64(m)<<32) }

// frameChoice is the choice parameter's value in a frame.
func frameChoice(k int) int { return int(int32(uint32(k))) }

// frameMsg is the received message in a frame.
func frameMsg(k int) model.Msg { return model.Msg(uint64(k) >> 32) }

// inChannel compiles the channel a receive reads, from the process from.
func (cx *actionCtx) inChannel(from ir.Expr) func(*model.Ctx) model.ChanID {
	return cx.inChannelOf(from, nil)
}

// inChannelOf compiles the channel a receive reads, from the process
// from, with the bindings b.
func (cx *actionCtx) inChannelOf(from ir.Expr, b bindings) func(*model.Ctx) model.ChanID {
	if isPred(from) {
		return func(c *model.Ctx) model.ChanID { return c.In(c.Pred()) }
	}
	q := cx.proc(from, b)
	return func(c *model.Ctx) model.ChanID { return c.In(q(c, 0)) }
}

// actionCtx compiles the expressions of one action.
type actionCtx struct {
	*compiler
	action *ir.Action
	// guard is set while the guard (and the channel a receive reads) is
	// compiled, whose faults name the action themselves: the expansion
	// names it for an effect's.
	guard bool
	// loops holds the slots of the locals of the loops compiled as
	// loops (nil until the first).
	loops *loopSlots
}

// faultAt returns what makes the error of a fault found at pos as the
// action runs: file:line:col: message, after the action's name in a
// guard.
func (cx *actionCtx) faultAt(pos syntax.Pos) func(format string, args ...any) error {
	file, name := cx.spec.File, ""
	if cx.guard {
		name = cx.action.Name
	}
	return func(format string, args ...any) error { return Fault(file, pos, name, format, args...) }
}

func (cx *actionCtx) timeout() bool { return cx.action.Kind == model.Timeout }

// effect is a compiled effect.
type effect func(c *model.Ctx, choice int)

func (cx *actionCtx) stmts(ss []ir.Stmt, b bindings) effect {
	parts := make([]effect, 0, len(ss))
	for _, s := range ss {
		parts = append(parts, cx.stmt(s, b))
	}
	switch len(parts) {
	case 0:
		return func(*model.Ctx, int) {}
	case 1:
		return parts[0]
	case 2:
		p, q := parts[0], parts[1]
		return func(c *model.Ctx, k int) { p(c, k); q(c, k) }
	}
	return func(c *model.Ctx, k int) {
		for _, p := range parts {
			p(c, k)
		}
	}
}

func (cx *actionCtx) stmt(s ir.Stmt, b bindings) effect {
	switch s := s.(type) {
	case *ir.Assign:
		id := cx.vars[s.Var.ID]
		if cx.action.Atomic {
			val := cx.expr(s.Value, b)
			return func(c *model.Ctx, k int) { c.SetLogged(id, val(c, k)) }
		}
		if l, ok := cx.asLeaf(s.Value, b); ok && !cx.noFused {
			// A copy of a variable or a constant, read inline.
			return leafAssign(id, l)
		}
		if f, ok := s.Value.(*ir.FieldRef); ok && !cx.noFused {
			// A field of the received message, read inline.
			i, nf := f.Index, len(f.Recv.Msg.Fields)
			t, post := cx.types[f.Recv.Msg.ID], cx.post
			return func(c *model.Ctx, k int) { c.Set(id, post.field(frameMsg(k), t, i, nf)) }
		}
		val := cx.expr(s.Value, b)
		return func(c *model.Ctx, k int) { c.Set(id, val(c, k)) }
	case *ir.Send:
		to := cx.proc(s.To, b)
		t, mid := cx.types[s.Msg.ID], s.Msg.ID
		if len(s.Args) == 0 {
			letters := cx.post
			return func(c *model.Ctx, k int) { c.Send(c.Out(to(c, k)), letters.letters[mid]) }
		}
		if forwards(s, cx.action.Recv) {
			// The received message passed on: its letter as it is.
			return func(c *model.Ctx, k int) { c.Send(c.Out(to(c, k)), frameMsg(k)) }
		}
		args := make([]actionFn, len(s.Args))
		for i, a := range s.Args {
			args[i] = cx.expr(a, b)
		}
		return func(c *model.Ctx, k int) {
			var vals [ir.MaxFields]int
			for i, a := range args {
				vals[i] = a(c, k)
			}
			c.SendFields(c.Out(to(c, k)), t, vals[:len(args)]...)
		}
	case *ir.If:
		cond, then, els := cx.expr(s.Cond, b), cx.stmts(s.Then, b), cx.stmts(s.Else, b)
		return func(c *model.Ctx, k int) {
			if cond(c, k) != 0 {
				then(c, k)
			} else {
				els(c, k)
			}
		}
	case *ir.AssignElem:
		return cx.assignElem(s, b)
	case *ir.AssignAt:
		return cx.assignAt(s, b)
	case *ir.For:
		return cx.forLoop(s, b)
	case *ir.Seq:
		return cx.seq(s, b)
	case *ir.SetTemp:
		return cx.setTemp(s, b)
	case *ir.ForRun:
		return cx.forRun(s, b)
	case *ir.Repeat:
		count, body := cx.expr(s.Count, b), cx.stmts(s.Body, b)
		fault := cx.faultAt(s.Pos)
		return func(c *model.Ctx, k int) {
			n := count(c, k)
			if err := repeatCount(n, fault); err != nil {
				c.Fail(err)
				return
			}
			for range n {
				body(c, k)
			}
		}
	}
	err := fmt.Errorf("cannot run an effect of type %T", s)
	return func(c *model.Ctx, _ int) { c.Fail(err) }
}

// repeatCount returns the fault of a repeat count n outside
// 0..MaxRepeat, made by fault, or nil.
func repeatCount(n int, fault func(format string, args ...any) error) error {
	switch {
	case n < 0:
		return fault("repeat %d times: a repeat count is not negative", n)
	case n > MaxRepeat:
		return fault("repeat %d times: a repeat runs at most %d times", n, MaxRepeat)
	}
	return nil
}

// leafAssign compiles the assignment of leaf l to the acting process's
// variable id, with the read of l inline.
func leafAssign(id model.VarID, l leaf) effect {
	v := model.VarID(l.v)
	switch l.kind {
	case leafConst:
		k := l.v
		return func(c *model.Ctx, _ int) { c.Set(id, k) }
	case leafOwn:
		return func(c *model.Ctx, _ int) { c.Set(id, c.Get(v)) }
	case leafPred:
		return func(c *model.Ctx, _ int) { c.Set(id, c.Read(c.Pred(), v)) }
	case leafSucc:
		return func(c *model.Ctx, _ int) { c.Set(id, c.Read(c.Succ(), v)) }
	}
	return func(c *model.Ctx, _ int) { c.Set(id, l.get(c)) }
}

// leafGuard compiles a guard that compares the acting process's variable
// with a constant, another of its variables or a neighbour's into the
// action's Guard itself, one closure with every read inline; or returns
// nil.
func (cx *actionCtx) leafGuard(g ir.Expr) func(*model.Ctx) bool {
	e, ok := g.(*ir.Binary)
	if !ok {
		return nil
	}
	if _, ok := constValue(e, nil, -1, cx.n); ok {
		return nil
	}
	x, okx := cx.asLeaf(e.X, nil)
	y, oky := cx.asLeaf(e.Y, nil)
	m, okm := outcomesOf(e.Op)
	if !okx || !oky || !okm || x.kind != leafOwn {
		return nil
	}
	xv, yv, k := model.VarID(x.v), model.VarID(y.v), y.v
	switch {
	case e.Op == syntax.Eq && y.kind == leafPred:
		return func(c *model.Ctx) bool { return c.Get(xv) == c.Read(c.Pred(), yv) }
	case e.Op == syntax.Neq && y.kind == leafPred:
		return func(c *model.Ctx) bool { return c.Get(xv) != c.Read(c.Pred(), yv) }
	case e.Op == syntax.Eq && y.kind == leafSucc:
		return func(c *model.Ctx) bool { return c.Get(xv) == c.Read(c.Succ(), yv) }
	case e.Op == syntax.Neq && y.kind == leafSucc:
		return func(c *model.Ctx) bool { return c.Get(xv) != c.Read(c.Succ(), yv) }
	case e.Op == syntax.Eq && y.kind == leafOwn:
		return func(c *model.Ctx) bool { return c.Get(xv) == c.Get(yv) }
	case e.Op == syntax.Neq && y.kind == leafOwn:
		return func(c *model.Ctx) bool { return c.Get(xv) != c.Get(yv) }
	case e.Op == syntax.Eq && y.kind == leafConst:
		return func(c *model.Ctx) bool { return c.Get(xv) == k }
	case e.Op == syntax.Neq && y.kind == leafConst:
		return func(c *model.Ctx) bool { return c.Get(xv) != k }
	case y.kind == leafConst:
		return func(c *model.Ctx) bool { return m.of(c.Get(xv), k) != 0 }
	case y.kind == leafOwn:
		return func(c *model.Ctx) bool { return m.of(c.Get(xv), c.Get(yv)) != 0 }
	case y.kind == leafPred:
		return func(c *model.Ctx) bool { return m.of(c.Get(xv), c.Read(c.Pred(), yv)) != 0 }
	case y.kind == leafSucc:
		return func(c *model.Ctx) bool { return m.of(c.Get(xv), c.Read(c.Succ(), yv)) != 0 }
	}
	return nil
}

// recvGuard compiles the guard of an action that receives from its
// predecessor a message of type t, when it compares a field of the
// message with the acting process's variable or a constant, into the
// action's Guard itself: the head read, its type tested and the
// comparison made in one closure. It returns nil for another guard.
func (cx *actionCtx) recvGuard(g ir.Expr, r *ir.Receive, t model.MsgType) func(*model.Ctx) bool {
	e, ok := g.(*ir.Binary)
	if !ok {
		return nil
	}
	m, ok := outcomesOf(e.Op)
	if !ok {
		return nil
	}
	f, ok := e.X.(*ir.FieldRef)
	other := e.Y
	if !ok {
		// other op field: the outcomes of field against other swapped.
		f, ok = e.Y.(*ir.FieldRef)
		other = e.X
		m = m.swapped()
	}
	if !ok || f.Recv != r {
		return nil
	}
	l, ok := cx.asLeaf(other, nil)
	if !ok || (l.kind != leafOwn && l.kind != leafConst) {
		return nil
	}
	post, i, nf := cx.post, f.Index, len(r.Msg.Fields)
	v, k := model.VarID(l.v), l.v
	switch {
	case l.kind == leafOwn && m == 0b010:
		return func(c *model.Ctx) bool {
			msg, ok := c.Head(c.In(c.Pred()))
			return ok && c.TypeOf(msg) == t && post.field(msg, t, i, nf) == c.Get(v)
		}
	case l.kind == leafOwn && m == 0b101:
		return func(c *model.Ctx) bool {
			msg, ok := c.Head(c.In(c.Pred()))
			return ok && c.TypeOf(msg) == t && post.field(msg, t, i, nf) != c.Get(v)
		}
	case l.kind == leafOwn:
		return func(c *model.Ctx) bool {
			msg, ok := c.Head(c.In(c.Pred()))
			return ok && c.TypeOf(msg) == t && m.of(post.field(msg, t, i, nf), c.Get(v)) != 0
		}
	}
	return func(c *model.Ctx) bool {
		msg, ok := c.Head(c.In(c.Pred()))
		return ok && c.TypeOf(msg) == t && m.of(post.field(msg, t, i, nf), k) != 0
	}
}
