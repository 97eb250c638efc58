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

// MaxFieldTable bounds the letters of one message type whose fields are
// tabulated.
const MaxFieldTable = 1 << 16

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
	// noFused compiles every guard and assignment through the general
	// closures, without the single-closure forms of actions.go
	// (leafGuard, recvGuard, leafAssign).
	noFused bool
	// noRoll unrolls every for loop, however large (loop.go).
	noRoll bool
	// rolled records, per for loop, whether it is compiled as a loop
	// (loop.go).
	rolled map[*ir.For]bool
	// entryTab holds the entries of the arrays compiled so far
	// (entries).
	entryTab map[*ir.Array]arrayEntries
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
	// code is the generated code that replaces closures (nil: none;
	// SystemWith), and codeErr the first error of its Prepare.
	code    *Code
	codeErr error
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
// every daemon. It drops act's Source, so that the guard runs wherever
// the action is tried.
func (l *faultLatch) failing(act model.Action) model.Action {
	guard, eff := act.Guard, act.Effect
	act.Source = nil
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
	if within == "" {
		return DivisionByZero(c.spec.File, e.Pos)
	}
	return &syntax.Error{File: c.spec.File, Pos: e.Pos, Msg: "division by zero in " + within}
}

func (c *compiler) build() (*model.System, error) {
	spec := c.spec
	c.b = model.NewBuilder(spec.Name, spec.Topology, spec.N)
	c.b.ReportRangeFaults()
	for _, v := range spec.Vars {
		c.vars = append(c.vars, c.b.VarIn(v.Name, v.Type.Domain(), v.Procs))
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
	var index []int // of each of actions in spec.Actions
	for i, a := range spec.Actions {
		if len(a.Procs) == 0 {
			// An action of a block of no process.
			continue
		}
		if k, ok := a.Guard.(*ir.Const); !ok || k.Value != 0 {
			actions = append(actions, a)
			index = append(index, i)
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
	for i, p := range spec.Invariants {
		mp, cp := c.predicate(p, "invariant "+p.Name)
		mp.Abstraction = p.Abstraction
		if c.code != nil && i < len(c.code.Invariants) {
			mp = c.predicateCode(mp, c.code.Invariants[i])
		}
		c.b.Invariant(mp)
		preds = append(preds, cp)
	}
	if spec.Legitimate != nil {
		mp, cp := c.predicate(spec.Legitimate, "the legitimacy predicate")
		if c.code != nil {
			mp = c.predicateCode(mp, c.code.Legitimate)
		}
		c.b.Legitimate(mp)
		preds = append(preds, cp)
	}
	if spec.ValidEnd != nil {
		mp, cp := c.predicate(spec.ValidEnd, "the valid_end predicate")
		if c.code != nil {
			mp = c.predicateCode(mp, c.code.ValidEnd)
		}
		c.b.ValidEnd(mp)
		preds = append(preds, cp)
	}
	initSet := c.setPredicates(&preds)
	for i, pp := range spec.ProcessPredicates {
		mp, cps := c.processPredicate(pp)
		c.b.ProcessPredicate(c.processPredicateCode(mp, i))
		preds = append(preds, cps...)
	}
	for i, a := range actions {
		act := c.action(a)
		act.Source = c.source(a)
		if err := c.addAction(index[i], a, act); err != nil {
			return nil, err
		}
	}
	if c.faults != nil {
		c.b.PredicateFaults(c.faults.fault)
	}
	if len(spec.FirstEnabled) > 0 {
		c.b.FirstEnabledOnly(spec.FirstEnabled...)
	}
	if spec.Symmetry != nil {
		c.b.Symmetry(spec.Symmetry.Reflection)
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
	if c.codeErr != nil {
		return nil, c.codeErr
	}
	if initSet != nil {
		if sys, err = c.initialSet(sys, initSet); err != nil {
			return nil, err
		}
	}
	if sys, err = sys.WithAccess(c.access(sys, actions)); err != nil {
		return nil, err
	}
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
	c.prepareCode(sys)
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
		c.post.fields[i], c.post.base[i], _ = sys.FieldTable(c.types[i], MaxFieldTable)
	}
}
