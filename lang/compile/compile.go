// Package compile turns a checked ring-language instance (package lang/ir)
// into a model.System the engines run. Guards, effects and predicates
// become trees of Go closures built once per instance: quantifiers over
// processes are unrolled (the number of processes is fixed), constants are
// folded, and the common reads (the acting process's variable, its
// neighbour's, a constant process's) are direct accessor calls, so that no
// syntax tree is walked on the search's path.
package compile

import (
	"fmt"
	"strconv"

	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
	"github.com/ringcheck/ringcheck/model"
)

// System builds the model of spec.
func System(spec *ir.Spec) (*model.System, error) {
	c := &compiler{spec: spec, n: spec.N, post: &post{}}
	return c.build()
}

// post holds what is known only once the system is built: the letters of
// messages without fields, and the channel between two processes.
type post struct {
	sys     *model.System
	letters []model.Msg // per message type; valid for types without fields
}

// MaxRepeat is the most times a repeat runs its effects in one step.
const MaxRepeat = 1024

// maxNodes bounds the closures an instance compiles to: quantifiers are
// unrolled, so nested ones grow as a power of the number of processes.
const maxNodes = 1 << 20

type compiler struct {
	// nodes counts the closures compiled so far.
	nodes int
	spec  *ir.Spec
	n     int
	b     *model.Builder
	vars  []model.VarID
	types []model.MsgType
	post  *post
}

func (c *compiler) build() (*model.System, error) {
	spec := c.spec
	c.b = model.NewBuilder(spec.Name, spec.Topology, spec.N)
	c.b.ReportRangeFaults()
	for _, v := range spec.Vars {
		c.vars = append(c.vars, c.b.Var(v.Name, v.Type.Domain(), v.Procs...))
	}
	for _, m := range spec.Messages {
		fields := make([]model.Var, len(m.Fields))
		for i, f := range m.Fields {
			fields[i] = model.Var{Name: f.Name, Domain: f.Type.Domain()}
		}
		c.types = append(c.types, c.b.Message(m.Name, fields...))
	}
	if ch := spec.Channels; ch != nil {
		carry := make([]model.MsgType, len(ch.Carry))
		for i, m := range ch.Carry {
			carry[i] = c.types[m.ID]
		}
		c.b.LinkChannels(ch.Capacity, ch.Overflow, carry...)
	}
	for _, a := range spec.Actions {
		c.b.Action(c.action(a), a.Procs...)
	}
	if len(spec.FirstEnabled) > 0 {
		c.b.FirstEnabledOnly(spec.FirstEnabled...)
	}
	for _, p := range spec.Invariants {
		c.b.Invariant(c.predicate(p))
	}
	if spec.Legitimate != nil {
		c.b.Legitimate(c.predicate(spec.Legitimate))
	}
	if spec.ValidEnd != nil {
		c.b.ValidEnd(c.predicate(spec.ValidEnd))
	}
	for _, pp := range spec.ProcessPredicates {
		c.b.ProcessPredicate(c.processPredicate(pp))
	}
	// The builder runs the initial function once, on the system it has
	// just laid out: that is where the letters of messages and the initial
	// configuration are computed.
	var initErr error
	c.b.Initial(func(sys *model.System, s *model.State) {
		c.prepare(sys)
		st, err := c.initial(sys)
		if err != nil {
			initErr = err
			return
		}
		s.CopyFrom(st)
	})
	if c.nodes > maxNodes {
		return nil, fmt.Errorf("spec %s: its expressions, with every quantifier unrolled over the %d processes, are more than %d nodes", spec.Name, spec.N, maxNodes)
	}
	sys, err := c.b.Build()
	if initErr != nil {
		return nil, fmt.Errorf("spec %s: the initial configuration: %w", spec.Name, initErr)
	}
	if err != nil {
		return nil, fmt.Errorf("spec %s: %w", spec.Name, err)
	}
	c.prepare(sys)
	return sys, nil
}

// prepare records what the compiled closures need of the built system.
func (c *compiler) prepare(sys *model.System) {
	c.post.sys = sys
	c.post.letters = make([]model.Msg, len(c.spec.Messages))
	for i, m := range c.spec.Messages {
		if len(m.Fields) == 0 {
			c.post.letters[i] = sys.Msg(c.types[i])
		}
	}
}

// actionFn is a compiled expression of an action: the value for the
// acting process of c, with choice the value of the choice parameter.
type actionFn func(c *model.Ctx, choice int) int

// stateFn is a compiled expression over a configuration alone.
type stateFn func(s *model.State) int

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
	act := model.Action{Name: a.Name, Kind: a.Kind, Liveness: a.Liveness}
	lo := 0
	if a.Choice != nil {
		lo = a.Choice.Lo
		act.Choices = a.Choice.Hi - a.Choice.Lo + 1
		name := a.Choice.Name
		act.ChoiceLabel = func(i int) string { return name + "=" + strconv.Itoa(lo+i) }
	}
	cx := &actionCtx{compiler: c, action: a}
	guard := cx.expr(a.Guard, nil)
	if r := a.Recv; r != nil {
		from := cx.proc(r.From, nil)
		t := c.types[r.Msg.ID]
		inner := guard
		guard = func(ctx *model.Ctx, k int) int {
			if !ctx.HeadIs(ctx.In(from(ctx, k)), t) {
				return 0
			}
			return inner(ctx, k)
		}
	}
	effects := cx.stmts(a.Effects, nil)
	if r := a.Recv; r != nil {
		from := cx.proc(r.From, nil)
		rest := effects
		effects = func(ctx *model.Ctx, k int) {
			ctx.Receive(ctx.In(from(ctx, k)))
			rest(ctx, k)
		}
	}
	act.Guard = func(ctx *model.Ctx) bool { return guard(ctx, 0) != 0 }
	act.Effect = func(ctx *model.Ctx, i int) { effects(ctx, lo+i) }
	return act
}

// actionCtx compiles the expressions of one action.
type actionCtx struct {
	*compiler
	action *ir.Action
}

func (cx *actionCtx) timeout() bool { return cx.action.Kind == model.Timeout }

// proc compiles a process expression: its value modulo n.
func (cx *actionCtx) proc(e ir.Expr, b bindings) actionFn {
	n := cx.n
	switch e := e.(type) {
	case *ir.Self:
		return func(c *model.Ctx, _ int) int { return c.P }
	case *ir.Const:
		q := ((e.Value % n) + n) % n
		return func(*model.Ctx, int) int { return q }
	case *ir.Neighbor:
		if _, self := e.Of.(*ir.Self); self {
			if e.Offset == -1 {
				return func(c *model.Ctx, _ int) int { return c.Pred() }
			}
			if e.Offset == 1 {
				return func(c *model.Ctx, _ int) int { return c.Succ() }
			}
		}
		of, off := cx.proc(e.Of, b), e.Offset
		return func(c *model.Ctx, k int) int { return ((of(c, k)+off)%n + n) % n }
	case *ir.LocalRef:
		if v, ok := b[e.Local]; ok {
			q := ((v % n) + n) % n
			return func(*model.Ctx, int) int { return q }
		}
	}
	x := cx.expr(e, b)
	return func(c *model.Ctx, k int) int { return ((x(c, k) % n) + n) % n }
}

func (cx *actionCtx) expr(e ir.Expr, b bindings) actionFn {
	if cx.nodes++; cx.nodes > maxNodes {
		return func(*model.Ctx, int) int { return 0 }
	}
	switch e := e.(type) {
	case *ir.Const:
		v := e.Value
		return func(*model.Ctx, int) int { return v }
	case *ir.Self, *ir.Neighbor:
		return cx.proc(e, b)
	case *ir.LocalRef:
		if v, ok := b[e.Local]; ok {
			return func(*model.Ctx, int) int { return v }
		}
		if e.Local == cx.action.Choice {
			return func(_ *model.Ctx, k int) int { return k }
		}
		return cx.fault("an unbound local " + e.Local.Name)
	case *ir.VarRef:
		return cx.varRef(e, b)
	case *ir.FieldRef:
		from := cx.proc(e.Recv.From, b)
		i := e.Index
		return func(c *model.Ctx, k int) int {
			m, _ := c.Head(c.In(from(c, k)))
			return c.Field(m, i)
		}
	case *ir.Unary:
		x := cx.expr(e.X, b)
		if e.Op == syntax.Not {
			return func(c *model.Ctx, k int) int { return 1 - x(c, k) }
		}
		return func(c *model.Ctx, k int) int { return -x(c, k) }
	case *ir.Binary:
		return cx.binary(e, b)
	case *ir.Cond:
		cond, x, y := cx.expr(e.C, b), cx.expr(e.X, b), cx.expr(e.Y, b)
		return func(c *model.Ctx, k int) int {
			if cond(c, k) != 0 {
				return x(c, k)
			}
			return y(c, k)
		}
	case *ir.Quant:
		parts := make([]actionFn, cx.n)
		for p := range parts {
			parts[p] = cx.expr(e.Body, b.with(e.Var, p))
		}
		return quantAction(e.Kind, parts)
	case *ir.ChanLen:
		from, to := cx.proc(e.From, b), cx.proc(e.To, b)
		msg := e.Msg
		return func(c *model.Ctx, k int) int {
			return cx.chanLen(c.Config(), from(c, k), to(c, k), msg, c)
		}
	case *ir.HeadField:
		from, to := cx.proc(e.From, b), cx.proc(e.To, b)
		return func(c *model.Ctx, k int) int {
			return cx.headField(c.Config(), from(c, k), to(c, k), e)
		}
	}
	return cx.fault(fmt.Sprintf("an expression of type %T", e))
}

// fault compiles a node the compiler does not know, which check never
// produces: evaluating it fails the step.
func (cx *actionCtx) fault(what string) actionFn {
	err := fmt.Errorf("action %s: cannot evaluate %s", cx.action.Name, what)
	return func(c *model.Ctx, _ int) int {
		c.Fail(err)
		return 0
	}
}

func (c *compiler) chanLen(s *model.State, from, to int, msg *ir.Message, fail interface{ Fail(error) }) int {
	ch := c.post.sys.ChanBetween(from, to)
	if ch < 0 {
		if fail != nil {
			fail.Fail(fmt.Errorf("there is no channel %d→%d", from, to))
		}
		return 0
	}
	if msg == nil {
		return s.Len(ch)
	}
	t, count := c.types[msg.ID], 0
	for i := range s.Len(ch) {
		if s.TypeOf(s.At(ch, i)) == t {
			count++
		}
	}
	return count
}

// head returns the message at the head of the channel from one process
// to another, as its IR type and field values.
func (c *compiler) head(s *model.State, from, to int) (*ir.Message, []int, bool) {
	sys := c.post.sys
	ch := sys.ChanBetween(from, to)
	if ch < 0 || s.Len(ch) == 0 {
		return nil, nil, false
	}
	m := s.At(ch, 0)
	t := int(s.TypeOf(m))
	msg := c.spec.Messages[t]
	fields := make([]int, len(msg.Fields))
	for i := range fields {
		fields[i] = sys.Field(m, i)
	}
	return msg, fields, true
}

// headField is field e.Field of the message at the head of the channel
// from one process to another (0 if empty or without that field).
func (c *compiler) headField(s *model.State, from, to int, e *ir.HeadField) int {
	sys := c.post.sys
	ch := sys.ChanBetween(from, to)
	if ch < 0 || s.Len(ch) == 0 {
		return 0
	}
	m := s.At(ch, 0)
	i := e.Index[s.TypeOf(m)]
	if i < 0 {
		return 0
	}
	return sys.Field(m, i)
}

func quantAction(kind string, parts []actionFn) actionFn {
	switch kind {
	case "count":
		return func(c *model.Ctx, k int) int {
			n := 0
			for _, p := range parts {
				if p(c, k) != 0 {
					n++
				}
			}
			return n
		}
	case "sum":
		return func(c *model.Ctx, k int) int {
			n := 0
			for _, p := range parts {
				n += p(c, k)
			}
			return n
		}
	case "forall":
		return func(c *model.Ctx, k int) int {
			for _, p := range parts {
				if p(c, k) == 0 {
					return 0
				}
			}
			return 1
		}
	}
	return func(c *model.Ctx, k int) int {
		for _, p := range parts {
			if p(c, k) != 0 {
				return 1
			}
		}
		return 0
	}
}

// varRef compiles a read of a variable, with the direct accessor for the
// acting process and its neighbours.
func (cx *actionCtx) varRef(e *ir.VarRef, b bindings) actionFn {
	id := cx.vars[e.Var.ID]
	if e.Proc == nil {
		return func(c *model.Ctx, _ int) int { return c.Get(id) }
	}
	if cx.timeout() {
		q := cx.proc(e.Proc, b)
		return func(c *model.Ctx, k int) int { return c.Config().Get(q(c, k), id) }
	}
	if nb, ok := e.Proc.(*ir.Neighbor); ok {
		if _, self := nb.Of.(*ir.Self); self && nb.Offset == -1 {
			return func(c *model.Ctx, _ int) int { return c.Read(c.Pred(), id) }
		}
		if _, self := nb.Of.(*ir.Self); self && nb.Offset == 1 {
			return func(c *model.Ctx, _ int) int { return c.Read(c.Succ(), id) }
		}
	}
	q := cx.proc(e.Proc, b)
	if k, ok := e.Proc.(*ir.Const); ok {
		p := ((k.Value % cx.n) + cx.n) % cx.n
		return func(c *model.Ctx, _ int) int { return c.Read(p, id) }
	}
	name := e.Var.Name
	return func(c *model.Ctx, k int) int {
		p := q(c, k)
		if p != c.P && !cx.post.sys.Topology.Linked(p, c.P) {
			c.Fail(fmt.Errorf("process %d reads %s of process %d, which is not linked to it", c.P, name, p))
			return 0
		}
		return c.Read(p, id)
	}
}

func (cx *actionCtx) binary(e *ir.Binary, b bindings) actionFn {
	x, y := cx.expr(e.X, b), cx.expr(e.Y, b)
	switch e.Op {
	case syntax.AndAnd:
		return func(c *model.Ctx, k int) int {
			if x(c, k) == 0 {
				return 0
			}
			return y(c, k)
		}
	case syntax.OrOr:
		return func(c *model.Ctx, k int) int {
			if x(c, k) != 0 {
				return 1
			}
			return y(c, k)
		}
	case syntax.Plus:
		return func(c *model.Ctx, k int) int { return x(c, k) + y(c, k) }
	case syntax.Minus:
		return func(c *model.Ctx, k int) int { return x(c, k) - y(c, k) }
	case syntax.Star:
		return func(c *model.Ctx, k int) int { return x(c, k) * y(c, k) }
	case syntax.Eq:
		return func(c *model.Ctx, k int) int { return b2i(x(c, k) == y(c, k)) }
	case syntax.Neq:
		return func(c *model.Ctx, k int) int { return b2i(x(c, k) != y(c, k)) }
	case syntax.Lt:
		return func(c *model.Ctx, k int) int { return b2i(x(c, k) < y(c, k)) }
	case syntax.Le:
		return func(c *model.Ctx, k int) int { return b2i(x(c, k) <= y(c, k)) }
	case syntax.Gt:
		return func(c *model.Ctx, k int) int { return b2i(x(c, k) > y(c, k)) }
	case syntax.Ge:
		return func(c *model.Ctx, k int) int { return b2i(x(c, k) >= y(c, k)) }
	}
	op := e.Op
	if kc, ok := e.Y.(*ir.Const); ok && op == syntax.Percent && kc.Value > 0 {
		m := kc.Value
		return func(c *model.Ctx, k int) int {
			v := x(c, k) % m
			if v < 0 {
				v += m
			}
			return v
		}
	}
	return func(c *model.Ctx, k int) int {
		v, ok := ir.EvalBinary(op, x(c, k), y(c, k))
		if !ok {
			c.Fail(fmt.Errorf("division by zero"))
		}
		return v
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

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
		id, val := cx.vars[s.Var.ID], cx.expr(s.Value, b)
		return func(c *model.Ctx, k int) { c.Set(id, val(c, k)) }
	case *ir.Send:
		to := cx.proc(s.To, b)
		t, mid := cx.types[s.Msg.ID], s.Msg.ID
		if len(s.Args) == 0 {
			letters := cx.post
			return func(c *model.Ctx, k int) { c.Send(c.Out(to(c, k)), letters.letters[mid]) }
		}
		args := make([]actionFn, len(s.Args))
		for i, a := range s.Args {
			args[i] = cx.expr(a, b)
		}
		return func(c *model.Ctx, k int) {
			var vals [8]int
			for i, a := range args {
				vals[i] = a(c, k)
			}
			c.Send(c.Out(to(c, k)), c.Msg(t, vals[:len(args)]...))
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
	case *ir.Repeat:
		count, body := cx.expr(s.Count, b), cx.stmts(s.Body, b)
		name := cx.action.Name
		return func(c *model.Ctx, k int) {
			n := count(c, k)
			if n > MaxRepeat {
				c.Fail(fmt.Errorf("action %s: repeat %d times, more than %d", name, n, MaxRepeat))
				return
			}
			for range n {
				body(c, k)
			}
		}
	}
	err := fmt.Errorf("action %s: cannot run an effect of type %T", cx.action.Name, s)
	return func(c *model.Ctx, _ int) { c.Fail(err) }
}
