// Package compile turns a checked ring-language instance (package lang/ir)
// into a model.System the engines run. Guards, effects and predicates
// become trees of Go closures built once per instance: quantifiers over
// processes are unrolled (the number of processes is fixed), constants are
// folded, and the common reads (the acting process's variable, its
// neighbour's, a constant process's) are direct accessor calls, so that no
// syntax tree is walked on the search's path. What the actions of a
// process compute more than once in one configuration is computed once
// (memo.go), and one evaluation of a state expression scans each channel
// it reads once (census.go).
package compile

import (
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
	"github.com/ringcheck/ringcheck/model"
)

// System builds the model of spec.
func System(spec *ir.Spec) (*model.System, error) {
	return newCompiler(spec).build()
}

// newCompiler returns a compiler of spec.
func newCompiler(spec *ir.Spec) *compiler {
	return &compiler{spec: spec, n: spec.N, post: &post{}, masks: peerMasks(spec), bounds: ir.NewBounds(spec)}
}

// post holds what is known only once the system is built: the letters of
// messages without fields, and the channel between two processes.
type post struct {
	sys     *model.System
	letters []model.Msg // per message type; valid for types without fields
	// fields[t], when not nil, holds the field values of every letter of
	// message type t: fields[t][(letter-base[t])*len(fields)+i] is field
	// i, a table lookup where decoding a letter takes two divisions.
	fields [][]int32
	base   []model.Msg
	// chans[from*n+to] is the channel from one process to another, or -1.
	chans []model.ChanID
}

// maxFieldTable bounds the letters of one message type whose fields are
// tabulated.
const maxFieldTable = 1 << 16

// field returns field i of message m of type t.
func (p *post) field(m model.Msg, t model.MsgType, i, nfields int) int {
	if tab := p.fields[t]; tab != nil {
		return int(tab[int(m-p.base[t])*nfields+i])
	}
	return p.sys.Field(m, i)
}

// MaxRepeat is the most times a repeat runs its effects in one step.
const MaxRepeat = ir.MaxRepeat

// maxNodes bounds the closures an instance compiles to: quantifiers are
// unrolled, so nested ones grow as a power of the number of processes.
const maxNodes = ir.MaxNodes

type compiler struct {
	// nodes counts the closures compiled so far.
	nodes int
	spec  *ir.Spec
	n     int
	b     *model.Builder
	vars  []model.VarID
	types []model.MsgType
	post  *post
	// masks[p] is the set of p's peers.
	masks []uint64
	// bounds tells which operations may overflow (overflow.go).
	bounds *ir.Bounds
	// plan holds the expressions the actions compute more than once (nil:
	// none is kept, with noMemo).
	plan   *memoPlan
	noMemo bool
	// evals holds the contexts of state expressions' evaluations
	// (*stateEval), one per evaluation running at a time.
	evals sync.Pool
	// within names the state predicate being compiled, for the message
	// of a fault found when it is evaluated.
	within string
	// faults, when a state predicate may fail when evaluated (it
	// divides by a value that may be 0), holds the first failure (nil:
	// none may).
	faults *faultLatch
}

// faultLatch keeps the first fault found while evaluating a state
// predicate. A model.Predicate cannot return an error: a predicate whose
// evaluation fails holds (so that the search goes on rather than report
// a violation the spec does not define), the fault is kept here, and
// every action of the system then fails with it, as an action's own fault
// does: the next expansion of any configuration stops the search with
// the error.
type faultLatch struct {
	err atomic.Pointer[error]
}

// record keeps err if it is the first fault.
func (l *faultLatch) record(err error) {
	l.err.CompareAndSwap(nil, &err)
}

// fault returns the first fault recorded, or nil.
func (l *faultLatch) fault() error {
	if p := l.err.Load(); p != nil {
		return *p
	}
	return nil
}

// failing wraps act so that, once a state predicate has failed, its guard
// and its effect report the predicate's fault. The guard then holds, so
// that the effect runs: the expansion checks an effect's fault under
// every daemon.
func (l *faultLatch) failing(act model.Action) model.Action {
	guard, eff := act.Guard, act.Effect
	act.Guard = func(c *model.Ctx) bool {
		if err := l.fault(); err != nil {
			c.Fail(err)
			return true
		}
		return guard(c)
	}
	act.Effect = func(c *model.Ctx, k int) {
		if err := l.fault(); err != nil {
			c.Fail(err)
			return
		}
		eff(c, k)
	}
	return act
}

// divisionByZero is the error of division e whose divisor is 0, at e's
// position; within, when not empty, names the predicate it is in.
func (c *compiler) divisionByZero(e *ir.Binary, within string) error {
	msg := "division by zero"
	if within != "" {
		msg += " in " + within
	}
	return &syntax.Error{File: c.spec.File, Pos: e.Pos, Msg: msg}
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
	// Never enabled (a guard a parameter makes false): the model has no
	// such action, and the search does not try it.
	var actions []*ir.Action
	for _, a := range spec.Actions {
		if k, ok := a.Guard.(*ir.Const); !ok || k.Value != 0 {
			actions = append(actions, a)
		}
	}
	// The first compilation counts the expressions computed more than
	// once; the second keeps them in the step's memo.
	if !c.noMemo {
		c.plan = newMemoPlan()
		for _, a := range actions {
			c.action(a)
		}
		c.nodes = 0
		c.b.MemoSlots(c.plan.assign())
	}
	// The predicates come before the actions, which report a
	// predicate's fault when one may happen (faultLatch).
	var preds []compiledPredicate
	for _, p := range spec.Invariants {
		mp, cp := c.predicate(p, "invariant "+p.Name)
		c.b.Invariant(mp)
		preds = append(preds, cp)
	}
	if spec.Legitimate != nil {
		mp, cp := c.predicate(spec.Legitimate, "the legitimacy predicate")
		c.b.Legitimate(mp)
		preds = append(preds, cp)
	}
	if spec.ValidEnd != nil {
		mp, cp := c.predicate(spec.ValidEnd, "the valid_end predicate")
		c.b.ValidEnd(mp)
		preds = append(preds, cp)
	}
	for _, pp := range spec.ProcessPredicates {
		mp, cps := c.processPredicate(pp)
		c.b.ProcessPredicate(mp)
		preds = append(preds, cps...)
	}
	for _, a := range actions {
		act := c.action(a)
		if c.faults != nil {
			act = c.faults.failing(act)
		}
		c.b.Action(act, a.Procs...)
	}
	if c.faults != nil {
		c.b.PredicateFaults(c.faults.fault)
	}
	if len(spec.FirstEnabled) > 0 {
		c.b.FirstEnabledOnly(spec.FirstEnabled...)
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
		if e, ok := initErr.(*syntax.Error); ok {
			return nil, e
		}
		return nil, fmt.Errorf("spec %s: the initial configuration: %w", spec.Name, initErr)
	}
	if err != nil {
		return nil, fmt.Errorf("spec %s: %w", spec.Name, err)
	}
	c.prepare(sys)
	// A predicate that fails on the initial configuration is reported
	// now, with the file's other problems.
	if c.faults != nil {
		for _, s := range sys.Initial() {
			for _, p := range preds {
				if _, err := c.evaluate(p.fn, s); err != nil {
					return nil, fmt.Errorf("%w (in the initial configuration)", err)
				}
			}
		}
	}
	return sys, nil
}

// prepare records what the compiled closures need of the built system.
func (c *compiler) prepare(sys *model.System) {
	c.post.sys = sys
	n := len(c.spec.Messages)
	c.post.letters = make([]model.Msg, n)
	c.post.fields = make([][]int32, n)
	c.post.base = make([]model.Msg, n)
	c.post.chans = make([]model.ChanID, c.n*c.n)
	for from := range c.n {
		for to := range c.n {
			c.post.chans[from*c.n+to] = sys.ChanBetween(from, to)
		}
	}
	for i, m := range c.spec.Messages {
		if len(m.Fields) == 0 {
			c.post.letters[i] = sys.Msg(c.types[i])
			continue
		}
		c.post.fields[i], c.post.base[i] = fieldTable(sys, c.types[i], m)
	}
}

// fieldTable tabulates the fields of every letter of message type t, or
// returns nil when it has more than maxFieldTable letters.
func fieldTable(sys *model.System, t model.MsgType, m *ir.Message) ([]int32, model.Msg) {
	count, lo := 1, make([]int, len(m.Fields))
	for i, f := range m.Fields {
		count *= f.Type.Hi - f.Type.Lo + 1
		lo[i] = f.Type.Lo
		if count > maxFieldTable {
			return nil, 0
		}
	}
	base := sys.Msg(t, lo...)
	tab := make([]int32, count*len(m.Fields))
	vals := append([]int(nil), lo...)
	for range count {
		off := int(sys.Msg(t, vals...) - base)
		if off < 0 || off >= count {
			return nil, 0
		}
		for i, v := range vals {
			tab[off*len(vals)+i] = int32(v)
		}
		// Next combination of field values.
		for i := range vals {
			if vals[i]++; vals[i] <= m.Fields[i].Type.Hi {
				break
			}
			vals[i] = lo[i]
		}
	}
	return tab, base
}

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
	act := model.Action{Name: a.Name, Kind: a.Kind, Liveness: a.Liveness}
	lo := 0
	if a.Choice != nil {
		lo = a.Choice.Lo
		act.Choices = a.Choice.Hi - a.Choice.Lo + 1
		name := a.Choice.Name
		act.ChoiceLabel = func(i int) string { return name + "=" + strconv.Itoa(lo+i) }
	}
	cx := &actionCtx{compiler: c, action: a, guard: true}
	guard := cx.expr(a.Guard, nil)
	var in func(*model.Ctx) model.ChanID
	if a.Recv != nil && !isPred(a.Recv.From) {
		in = cx.inChannel(a.Recv.From)
	}
	cx.guard = false
	effects := cx.stmts(a.Effects, nil)
	r := a.Recv
	if r == nil {
		act.Guard = func(ctx *model.Ctx) bool { return guard(ctx, 0) != 0 }
		act.Effect = func(ctx *model.Ctx, i int) { effects(ctx, frame(lo+i, 0)) }
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
	if isPred(from) {
		return func(c *model.Ctx) model.ChanID { return c.In(c.Pred()) }
	}
	q := cx.proc(from, nil)
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
}

// faultAt returns what makes the error of a fault found at pos as the
// action runs: file:line:col: message, after the action's name in a
// guard.
func (cx *actionCtx) faultAt(pos syntax.Pos) func(format string, args ...any) error {
	file, name, guard := cx.spec.File, cx.action.Name, cx.guard
	return func(format string, args ...any) error {
		var err error = &syntax.Error{File: file, Pos: pos, Msg: fmt.Sprintf(format, args...)}
		if guard {
			err = fmt.Errorf("action %s: %w", name, err)
		}
		return err
	}
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
	if v, ok := constValue(e, b, -1, cx.n); ok {
		// A parameter's comparison, or one over the unrolled processes.
		return func(*model.Ctx, int) int { return v }
	}
	return cx.memoized(e, b, func() actionFn { return cx.compute(e, b) })
}

// compute compiles e into the closures that compute it.
func (cx *actionCtx) compute(e ir.Expr, b bindings) actionFn {
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
			return func(_ *model.Ctx, k int) int { return frameChoice(k) }
		}
		return cx.fault("an unbound local " + e.Local.Name)
	case *ir.VarRef:
		return cx.varRef(e, b)
	case *ir.FieldRef:
		i, nf := e.Index, len(e.Recv.Msg.Fields)
		t, post := cx.types[e.Recv.Msg.ID], cx.post
		return func(_ *model.Ctx, k int) int { return post.field(frameMsg(k), t, i, nf) }
	case *ir.Unary:
		if inv, ok := negated(e); ok {
			return cx.expr(inv, b)
		}
		x := cx.expr(e.X, b)
		if e.Op == syntax.Not {
			return func(c *model.Ctx, k int) int { return 1 - x(c, k) }
		}
		if cx.mayOverflow(e) {
			return cx.checkedNeg(e, x)
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
		return cx.quant(e, b)
	case *ir.ElemRef:
		return cx.elemRef(e, b)
	case *ir.ChanLen:
		p, okp := constProc(e.From, b, -1, cx.n)
		q, okq := constProc(e.To, b, -1, cx.n)
		if okp && okq && e.Upto == nil {
			// Between processes known at compile time (an unrolled
			// quantifier's): the channel from a table.
			post, idx, msg := cx.post, p*cx.n+q, e.Msg
			return func(c *model.Ctx, _ int) int { return cx.countIn(c.Config(), post.chans[idx], msg) }
		}
		from, to := cx.proc(e.From, b), cx.proc(e.To, b)
		msg := e.Msg
		if e.Upto != nil {
			upto := cx.expr(e.Upto, b)
			return func(c *model.Ctx, k int) int {
				return cx.chanCount(c.Config(), from(c, k), to(c, k), msg, max(0, upto(c, k)))
			}
		}
		return func(c *model.Ctx, k int) int {
			return cx.chanLen(c.Config(), from(c, k), to(c, k), msg, c)
		}
	case *ir.HeadField:
		from, to := cx.proc(e.From, b), cx.proc(e.To, b)
		return func(c *model.Ctx, k int) int {
			return cx.headField(c.Config(), from(c, k), to(c, k), e)
		}
	case *ir.ChanPos:
		from, to := cx.proc(e.From, b), cx.proc(e.To, b)
		return func(c *model.Ctx, k int) int {
			return cx.chanPos(c.Config(), from(c, k), to(c, k), e.Msg)
		}
	}
	return cx.fault(fmt.Sprintf("an expression of type %T", e))
}

// fault compiles a node the compiler does not know, which check never
// produces: evaluating it fails the step.
func (cx *actionCtx) fault(what string) actionFn {
	err := fmt.Errorf("cannot evaluate %s", what)
	if cx.guard {
		err = fmt.Errorf("action %s: %w", cx.action.Name, err)
	}
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
	return c.countIn(s, ch, msg)
}

// countIn is the number of messages in channel ch (0 if ch < 0), or of
// type msg when it is not nil.
func (c *compiler) countIn(s *model.State, ch model.ChanID, msg *ir.Message) int {
	if ch < 0 {
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

// at returns message i of the channel from one process to another, as its
// IR type and field values.
func (c *compiler) at(s *model.State, from, to, i int) (*ir.Message, []int, bool) {
	sys := c.post.sys
	ch := sys.ChanBetween(from, to)
	if ch < 0 || i < 0 || s.Len(ch) <= i {
		return nil, nil, false
	}
	m := s.At(ch, i)
	msg := c.spec.Messages[int(s.TypeOf(m))]
	fields := make([]int, len(msg.Fields))
	for f := range fields {
		fields[f] = sys.Field(m, f)
	}
	return msg, fields, true
}

// headField is field e.Field of the message at the head of the channel
// from one process to another (0 if empty or without that field).
func (c *compiler) headField(s *model.State, from, to int, e *ir.HeadField) int {
	sys := c.post.sys
	ch := sys.ChanBetween(from, to)
	if ch < 0 {
		return 0
	}
	for j := range s.Len(ch) {
		m := s.At(ch, j)
		t := s.TypeOf(m)
		if e.First != nil && int(t) != e.First.ID {
			continue
		}
		i := e.Index[t]
		if i < 0 {
			return 0
		}
		return c.post.field(m, c.types[t], i, len(c.spec.Messages[t].Fields))
	}
	return 0
}

// chanCount is the number of messages (of type msg, if not nil) among the
// first upto of the channel from one process to another (upto < 0: all).
func (c *compiler) chanCount(s *model.State, from, to int, msg *ir.Message, upto int) int {
	ch := c.post.sys.ChanBetween(from, to)
	if ch < 0 {
		return 0
	}
	n := s.Len(ch)
	if upto >= 0 && upto < n {
		n = upto
	}
	if msg == nil {
		return n
	}
	t, count := c.types[msg.ID], 0
	for i := range n {
		if s.TypeOf(s.At(ch, i)) == t {
			count++
		}
	}
	return count
}

// chanPos is the index of the first message of type msg in the channel
// from one process to another, or its length.
func (c *compiler) chanPos(s *model.State, from, to int, msg *ir.Message) int {
	ch := c.post.sys.ChanBetween(from, to)
	if ch < 0 {
		return 0
	}
	t := c.types[msg.ID]
	for i := range s.Len(ch) {
		if s.TypeOf(s.At(ch, i)) == t {
			return i
		}
	}
	return s.Len(ch)
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
	if f := cx.checkedBinary(e, b); f != nil {
		return f
	}
	if f := cx.leafBinary(e, b); f != nil {
		return f
	}
	if e.Op == syntax.AndAnd || e.Op == syntax.OrOr {
		// A chain of conjunctions (disjunctions) is one loop, not a nest
		// of calls.
		// Each part stops the chain when it is stop (0 for &&, 1 for ||);
		// a constant part that does not stop it is left out.
		stop := 0
		if e.Op == syntax.OrOr {
			stop = 1
		}
		var parts []actionFn
		for _, x := range chain(e, e.Op) {
			if v, ok := constValue(x, b, -1, cx.n); ok && b2i(v != 0) != stop {
				continue
			}
			parts = append(parts, cx.expr(x, b))
		}
		switch len(parts) {
		case 0:
			return func(*model.Ctx, int) int { return 1 - stop }
		case 1:
			p := parts[0]
			return func(c *model.Ctx, k int) int { return b2i(p(c, k) != 0) }
		case 2:
			p, q := parts[0], parts[1]
			if stop == 0 {
				return func(c *model.Ctx, k int) int { return b2i(p(c, k) != 0 && q(c, k) != 0) }
			}
			return func(c *model.Ctx, k int) int { return b2i(p(c, k) != 0 || q(c, k) != 0) }
		}
		return func(c *model.Ctx, k int) int {
			for _, p := range parts {
				if b2i(p(c, k) != 0) == stop {
					return stop
				}
			}
			return 1 - stop
		}
	}
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
	op, divByZero := e.Op, cx.divisionByZero(e, "")
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
		// Only a division by zero: an operation that may overflow is
		// checkedBinary's.
		v, f := ir.EvalBinary(op, x(c, k), y(c, k))
		if f != ir.NoFault {
			c.Fail(divByZero)
		}
		return v
	}
}

// negated rewrites !(x op y) for a comparison op as x op' y.
func negated(e *ir.Unary) (ir.Expr, bool) {
	bin, ok := e.X.(*ir.Binary)
	if e.Op != syntax.Not || !ok {
		return nil, false
	}
	inverse := map[syntax.Token]syntax.Token{
		syntax.Eq: syntax.Neq, syntax.Neq: syntax.Eq, syntax.Lt: syntax.Ge,
		syntax.Ge: syntax.Lt, syntax.Gt: syntax.Le, syntax.Le: syntax.Gt,
	}
	op, ok := inverse[bin.Op]
	if !ok {
		return nil, false
	}
	return &ir.Binary{Op: op, X: bin.X, Y: bin.Y, T: bin.T}, true
}

// conjuncts flattens a chain of && into its operands, left to right.
func conjuncts(e ir.Expr) []ir.Expr { return chain(e, syntax.AndAnd) }

// chain flattens a chain of op (&& or ||) into its operands, left to
// right.
func chain(e ir.Expr, op syntax.Token) []ir.Expr {
	if b, ok := e.(*ir.Binary); ok && b.Op == op {
		return append(chain(b.X, op), chain(b.Y, op)...)
	}
	return []ir.Expr{e}
}

// isPred reports whether a process expression is the acting process's
// predecessor.
func isPred(e ir.Expr) bool {
	nb, ok := e.(*ir.Neighbor)
	if !ok || nb.Offset != -1 {
		return false
	}
	_, self := nb.Of.(*ir.Self)
	return self
}

// forwards reports whether a send passes on the received message as it
// is: same type, and each argument the received field of its rank.
func forwards(s *ir.Send, r *ir.Receive) bool {
	if r == nil || s.Msg != r.Msg || len(s.Args) != len(r.Msg.Fields) {
		return false
	}
	for i, a := range s.Args {
		f, ok := a.(*ir.FieldRef)
		if !ok || f.Recv != r || f.Index != i {
			return false
		}
	}
	return true
}

// asLeaf returns e as a leaf, if it is one.
func (cx *actionCtx) asLeaf(e ir.Expr, b bindings) (leaf, bool) {
	if l, ok := constLeaf(e, b); ok {
		return l, true
	}
	switch e := e.(type) {
	case *ir.VarRef:
		if cx.timeout() {
			return leaf{}, false
		}
		id := int(cx.vars[e.Var.ID])
		if e.Proc == nil {
			return leaf{kind: leafOwn, v: id}, true
		}
		if nb, ok := e.Proc.(*ir.Neighbor); ok {
			if _, self := nb.Of.(*ir.Self); self && nb.Offset == -1 {
				return leaf{kind: leafPred, v: id}, true
			}
			if _, self := nb.Of.(*ir.Self); self && nb.Offset == 1 {
				return leaf{kind: leafSucc, v: id}, true
			}
		}
	}
	return leaf{}, false
}

// leafBinary compiles a comparison or a sum of two leaves into one
// closure, or returns nil.
func (cx *actionCtx) leafBinary(e *ir.Binary, b bindings) actionFn {
	x, okx := cx.asLeaf(e.X, b)
	y, oky := cx.asLeaf(e.Y, b)
	if !okx || !oky {
		return nil
	}
	if f := ownComparison(e.Op, x, y); f != nil {
		return f
	}
	switch e.Op {
	case syntax.Eq:
		return func(c *model.Ctx, _ int) int { return b2i(x.get(c) == y.get(c)) }
	case syntax.Neq:
		return func(c *model.Ctx, _ int) int { return b2i(x.get(c) != y.get(c)) }
	case syntax.Lt:
		return func(c *model.Ctx, _ int) int { return b2i(x.get(c) < y.get(c)) }
	case syntax.Le:
		return func(c *model.Ctx, _ int) int { return b2i(x.get(c) <= y.get(c)) }
	case syntax.Gt:
		return func(c *model.Ctx, _ int) int { return b2i(x.get(c) > y.get(c)) }
	case syntax.Ge:
		return func(c *model.Ctx, _ int) int { return b2i(x.get(c) >= y.get(c)) }
	case syntax.Plus:
		return func(c *model.Ctx, _ int) int { return x.get(c) + y.get(c) }
	case syntax.Minus:
		return func(c *model.Ctx, _ int) int { return x.get(c) - y.get(c) }
	}
	return nil
}

// ownComparison compiles a comparison of the acting process's variable
// with a constant, another of its variables or its predecessor's, the
// commonest guards, with every read inline; or returns nil.
func ownComparison(op syntax.Token, x, y leaf) actionFn {
	m, ok := outcomesOf(op)
	if !ok || x.kind != leafOwn {
		return nil
	}
	xv, yv := model.VarID(x.v), model.VarID(y.v)
	switch y.kind {
	case leafConst:
		k := y.v
		return func(c *model.Ctx, _ int) int { return m.of(c.Get(xv), k) }
	case leafOwn:
		return func(c *model.Ctx, _ int) int { return m.of(c.Get(xv), c.Get(yv)) }
	case leafPred:
		return func(c *model.Ctx, _ int) int { return m.of(c.Get(xv), c.Read(c.Pred(), yv)) }
	}
	return nil
}

// outcomeMask is a comparison as the set of the outcomes of a against b
// it holds for: bit 0 a < b, bit 1 a = b, bit 2 a > b.
type outcomeMask uint

// of is 1 when the comparison holds for a and b, 0 otherwise, without a
// branch.
func (m outcomeMask) of(a, b int) int { return int(m>>(b2i(a >= b)+b2i(a > b))) & 1 }

// outcomesOf returns comparison operator op as an outcome mask, or false
// for another operator.
func outcomesOf(op syntax.Token) (outcomeMask, bool) {
	switch op {
	case syntax.Lt:
		return 0b001, true
	case syntax.Eq:
		return 0b010, true
	case syntax.Le:
		return 0b011, true
	case syntax.Gt:
		return 0b100, true
	case syntax.Neq:
		return 0b101, true
	case syntax.Ge:
		return 0b110, true
	}
	return 0, false
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
		id := cx.vars[s.Var.ID]
		if l, ok := cx.asLeaf(s.Value, b); ok {
			// A copy of a variable or a constant, read inline.
			return func(c *model.Ctx, _ int) { c.Set(id, l.get(c)) }
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
	case *ir.For:
		return cx.forLoop(s, b)
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
