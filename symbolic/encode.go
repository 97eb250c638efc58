// Package symbolic decides closure and convergence of a ring-language spec
// over its whole configuration space with binary decision diagrams
// (package internal/rudd, the project's fork of github.com/dalzilio/rudd),
// where walking every configuration one by one cannot reach.
//
// A configuration is the values of every process's variables, each value
// encoded in binary over as many BDD variables as its domain needs; the
// bits of the current configuration and of the next one are interleaved
// (x0, x0', x1, x1', ...), and the processes come in ring order, so that
// a guard over a process and its neighbours, and the relation between a
// bit and its next value, stay close together in the order. Expressions
// of the intermediate representation (package lang/ir) are evaluated
// symbolically by cases: an integer expression is a map from each value it
// may take to the BDD of the configurations where it takes it.
//
// The engine covers state-reading specs under the central, distributed and
// synchronous daemons, and message-passing specs (FIFO channels, each slot
// of a channel beside its endpoints in the order) and atomic actions
// (which assign their peers' variables) under the central daemon.
package symbolic

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/bits"
	"slices"

	"github.com/ringcheck/ringcheck/internal/rudd"
	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
	"github.com/ringcheck/ringcheck/model"
)

// ErrUnsupported wraps the reasons a spec is out of the engine's reach.
var ErrUnsupported = errors.New("not supported by the symbolic engine")

// field is the encoding of one process's variable: its bits' positions
// among the current-configuration bits, low bit first, and its domain.
type field struct {
	bits   []int // BDD variables of the current value; the next value's are bits[i]+1
	lo, hi int
}

// Encoding is a spec's configurations and transition relation as BDDs.
type Encoding struct {
	spec *ir.Spec
	b    *kernel
	// fields[p][v] is process p's variable v (nil when p does not
	// declare it).
	fields [][]*field
	// current and next are the BDD variables of the current and of the
	// next configuration; toNext and toCurrent rename one into the other.
	current, next     []int
	curSet, nextSet   rudd.Node
	toNext, toCurrent rudd.Replacer
	valid, validNext  rudd.Node
	legitimate        rudd.Node
	// closureFrom is the legitimate configurations closure is decided
	// from: legitimate, narrowed by the spec's closure from predicate.
	closureFrom rudd.Node
	// faulty is the configurations with a step that overflows a channel
	// whose policy is error.
	faulty             rudd.Node
	configurationCount float64
	// procs is every process's share of the relation; trans is the whole
	// relation of a concurrent daemon (nil under the central one, whose
	// images go process by process).
	procs []*local
	trans rudd.Node
	opts  Options
	// carry, chans and incident encode the channels: what they carry,
	// the channel of each link, and the channels each process sends or
	// receives on.
	carry    *carriage
	chans    map[[2]int]*channel
	incident [][]*channel
	// pending[p] is the BDD variable of process p's pending bit (its next
	// value is pending[p]+1), with Options.Rounds; nil otherwise.
	pending []int
	// bounds is the intervals of the spec's expressions, computed when
	// an evaluation is first narrowed (interest.go).
	bounds *ir.Bounds
	// spent is the *Stopped error of a computation whose caller returned
	// without it (an operation under way could not be interrupted): the
	// kernel is still in its hands, and no other computation may start.
	spent error
}

// Supports says why the engine cannot encode spec under opts, or nil: the
// checks Encode makes before it builds anything.
func Supports(spec *ir.Spec, opts Options) error {
	if err := opts.validate(); err != nil {
		return err
	}
	if spec.Channels != nil && opts.Daemon != model.Central {
		// The explicit model runs message passing under the central
		// daemon only.
		return fmt.Errorf("spec %s passes messages: the %s daemon: %w (the central daemon only)", spec.Name, opts.Daemon, ErrUnsupported)
	}
	if err := atomicDaemon(spec, opts.Daemon); err != nil {
		return err
	}
	if err := sequential(spec); err != nil {
		return err
	}
	if spec.Legitimate == nil {
		return fmt.Errorf("spec %s declares no legitimacy predicate: closure and convergence mean nothing for it", spec.Name)
	}
	if opts.Start && spec.Start == nil {
		return fmt.Errorf("spec %s declares no start predicate (start: EXPR) to start from", spec.Name)
	}
	return nil
}

// Encode builds the encoding of spec under opts. ctx and opts.Memory
// bound it: when ctx ends or the budget is reached, it ends within about
// a second with a *Stopped error (see Options.Memory), and reports its
// progress to opts.Progress at every action of every process.
func Encode(ctx context.Context, spec *ir.Spec, opts Options) (*Encoding, error) {
	if err := Supports(spec, opts); err != nil {
		return nil, err
	}
	w := newWatch(ctx, opts.Memory, opts.Progress)
	var e *Encoding
	if err := w.run(func() (err error) {
		e, err = encode(spec, opts, w)
		return err
	}); err != nil {
		return nil, err
	}
	e.b.w = nil
	return e, nil
}

// encode builds the encoding of spec under opts, watched by w.
func encode(spec *ir.Spec, opts Options, w *watch) (*Encoding, error) {
	e, err := encodeConfigurations(spec, opts, w)
	if err != nil {
		return nil, err
	}
	b := e.b
	e.faulty = b.False()
	if err := e.locals(); err != nil {
		return nil, fmt.Errorf("spec %s: %w", spec.Name, err)
	}
	if opts.Daemon != model.Central {
		e.report(Progress{Phase: fmt.Sprintf("encoding the transition relation, the %s daemon's steps", opts.Daemon)})
		e.trans = e.concurrent(opts.Daemon)
	}
	if b.Errored() {
		return nil, fmt.Errorf("spec %s: %w", spec.Name, e.bddError())
	}
	return e, nil
}

// encodeConfigurations lays out spec's variables and channels over the BDD
// variables and builds the kernel, the valid configurations and the
// legitimate ones (e.legitimate), watched by w: everything but the
// transition relation.
func encodeConfigurations(spec *ir.Spec, opts Options, w *watch) (*Encoding, error) {
	e := &Encoding{spec: spec, fields: make([][]*field, spec.N), opts: opts, chans: map[[2]int]*channel{}, incident: make([][]*channel, spec.N)}
	topology := model.Topology{Kind: spec.Topology, N: spec.N}
	if spec.Channels != nil {
		e.carry = newCarriage(spec)
	}
	nvars := 0
	for p := range spec.N {
		e.fields[p] = make([]*field, len(spec.Vars))
		for _, v := range spec.Vars {
			if !declares(v, p) {
				continue
			}
			size := v.Type.Hi - v.Type.Lo + 1
			f := &field{lo: v.Type.Lo, hi: v.Type.Hi}
			for range bitsFor(size) {
				f.bits = append(f.bits, nvars)
				e.current = append(e.current, nvars)
				e.next = append(e.next, nvars+1)
				nvars += 2
			}
			e.fields[p][v.ID] = f
		}
		if opts.Rounds {
			e.pending = append(e.pending, nvars)
			nvars += 2
		}
		if e.carry == nil {
			continue
		}
		// The channels from p, beside p's variables and before those of
		// the processes they lead to.
		for q := range spec.N {
			if topology.Linked(p, q) {
				e.chans[[2]int{p, q}] = e.allocChannel(p, q, &nvars)
			}
		}
	}
	for _, link := range topology.Links() {
		if ch := e.chans[link]; ch != nil {
			e.incident[link[0]] = append(e.incident[link[0]], ch)
			e.incident[link[1]] = append(e.incident[link[1]], ch)
		}
	}
	if nvars == 0 {
		return nil, fmt.Errorf("spec %s has no variable to encode", spec.Name)
	}
	b, err := newKernel(nvars, w)
	if err != nil {
		return nil, fmt.Errorf("spec %s: the BDD of %d variables: %w", spec.Name, nvars, err)
	}
	e.b = b
	e.report(Progress{Phase: "encoding the configurations", Total: e.actions()})
	e.curSet, e.nextSet = b.Makeset(e.current), b.Makeset(e.next)
	if e.toNext, err = b.NewReplacer(e.current, e.next); err != nil {
		return nil, err
	}
	if e.toCurrent, err = b.NewReplacer(e.next, e.current); err != nil {
		return nil, err
	}
	e.valid = b.True()
	e.configurationCount = 1
	for p := range spec.N {
		for _, f := range e.fields[p] {
			if f == nil {
				continue
			}
			e.valid = b.And(e.valid, e.inRange(f, 0))
			e.configurationCount *= float64(f.hi - f.lo + 1)
		}
	}
	for _, link := range topology.Links() {
		if ch := e.chans[link]; ch != nil {
			e.valid = b.And(e.valid, e.channelValid(ch))
		}
	}
	e.validNext = b.Replace(e.valid, e.toNext)
	l, err := e.boolean(spec.Legitimate.Body, env{self: -1})
	if err != nil {
		return nil, fmt.Errorf("spec %s: the legitimacy predicate: %w", spec.Name, err)
	}
	e.legitimate = b.And(l, e.valid)
	e.closureFrom = e.legitimate
	if spec.ClosureFrom != nil {
		from, err := e.boolean(spec.ClosureFrom.Body, env{self: -1})
		if err != nil {
			return nil, fmt.Errorf("spec %s: the closure from predicate: %w", spec.Name, err)
		}
		e.closureFrom = b.And(e.legitimate, from)
	}
	if b.Errored() {
		return nil, fmt.Errorf("spec %s: %w", spec.Name, e.bddError())
	}
	return e, nil
}

// report records p as where the computation on e stands.
func (e *Encoding) report(p Progress) {
	if e.b.w != nil {
		e.b.w.report(p)
	}
}

// declares reports whether process p declares v.
func declares(v *ir.Var, p int) bool {
	for _, q := range v.Procs {
		if q == p {
			return true
		}
	}
	return false
}

// bitsFor is the number of bits that encode size values (at least one).
func bitsFor(size int) int {
	return max(1, bits.Len(uint(size-1)))
}

// newValue is the relation of field f's next value to the cases of the
// value an assignment gives it, where guard holds: a value outside f's
// domain (a range fault, for the explicit engine) gives ok false and the
// least such value.
func (e *Encoding) newValue(f *field, next cases, guard rudd.Node) (v rudd.Node, bad int, ok bool) {
	b := e.b
	v = b.False()
	for _, x := range next.values() {
		m := b.And(next[x], guard)
		if b.Equal(m, b.False()) {
			continue
		}
		if x < f.lo || x > f.hi {
			return nil, x, false
		}
		v = b.Or(v, b.And(m, e.value(f, x, 1)))
	}
	return v, 0, true
}

// value is the BDD of the configurations where field f holds x, over the
// current bits (shift 0) or the next ones (shift 1).
func (e *Encoding) value(f *field, x, shift int) rudd.Node {
	b := e.b
	if x < f.lo || x > f.hi {
		return b.False()
	}
	code, n := x-f.lo, b.True()
	for i, v := range f.bits {
		if code>>i&1 == 1 {
			n = b.And(n, b.Ithvar(v+shift))
		} else {
			n = b.And(n, b.NIthvar(v+shift))
		}
	}
	return n
}

// inRange is the BDD of the encodings of f that are values of its domain.
func (e *Encoding) inRange(f *field, shift int) rudd.Node {
	n := e.b.False()
	for x := f.lo; x <= f.hi; x++ {
		n = e.b.Or(n, e.value(f, x, shift))
	}
	return n
}

// unchanged is the BDD of the steps that leave f as it is.
func (e *Encoding) unchanged(f *field) rudd.Node {
	n := e.b.True()
	for _, v := range f.bits {
		n = e.b.And(n, e.b.Equiv(e.b.Ithvar(v), e.b.Ithvar(v+1)))
	}
	return n
}

// cases is an integer expression evaluated symbolically: for each value
// it may take, the configurations where it takes it (never false).
type cases map[int]rudd.Node

// values returns the values c has a case for, in increasing order, so
// that what is computed over them (and the first fault met) does not
// depend on the map's order.
func (c cases) values() []int {
	return slices.Sorted(maps.Keys(c))
}

// env is what an expression is evaluated in: the acting process (-1 in a
// predicate of the configuration), the values of the locals bound by the
// enclosing quantifiers and of the choice parameter.
type env struct {
	self   int
	locals map[*ir.Local]int
	// recv is the message the action receives (nil: none).
	recv *receiving
}

func (v env) with(l *ir.Local, x int) env {
	locals := make(map[*ir.Local]int, len(v.locals)+1)
	for k, y := range v.locals {
		locals[k] = y
	}
	locals[l] = x
	return env{self: v.self, locals: locals, recv: v.recv}
}

// constant is the cases of the constant x.
func (e *Encoding) constant(x int) cases { return cases{x: e.b.True()} }

// add adds n to the configurations where c takes x.
func (e *Encoding) add(c cases, x int, n rudd.Node) {
	if e.b.Equal(n, e.b.False()) {
		return
	}
	if old, ok := c[x]; ok {
		n = e.b.Or(old, n)
	}
	c[x] = n
}

// impossible reports whether m holds in no configuration whose values
// are within their domains: an index a two-dimensional array's reads
// give outside its ranges only for encodings of no value (2 bits for
// 0..2 also encode 3, where the test of its range is false).
func (e *Encoding) impossible(m rudd.Node) bool {
	return e.b.Equal(e.b.And(m, e.valid), e.b.False())
}

// truth is the BDD of the configurations where c is not 0.
func (e *Encoding) truth(c cases) rudd.Node {
	n := e.b.False()
	for x, m := range c {
		if x != 0 {
			n = e.b.Or(n, m)
		}
	}
	return n
}

// fromTruth is the cases of a boolean: 1 where n holds, 0 elsewhere.
func (e *Encoding) fromTruth(n rudd.Node) cases {
	c := cases{}
	e.add(c, 1, n)
	e.add(c, 0, e.b.Not(n))
	return c
}

// boolean evaluates a boolean expression to the BDD of the configurations
// where it holds: the connectives, comparisons and quantifiers directly,
// without the cases of their false side.
func (e *Encoding) boolean(x ir.Expr, in env) (rudd.Node, error) {
	b := e.b
	switch x := x.(type) {
	case *ir.Binary:
		switch {
		case x.Op == syntax.AndAnd || x.Op == syntax.OrOr:
			l, err := e.boolean(x.X, in)
			if err != nil {
				return nil, err
			}
			r, err := e.boolean(x.Y, in)
			if err != nil {
				return nil, err
			}
			if x.Op == syntax.AndAnd {
				return b.And(l, r), nil
			}
			return b.Or(l, r), nil
		case comparison(x.Op):
			return e.compare(x, in)
		}
	case *ir.Unary:
		if x.Op == syntax.Not {
			n, err := e.boolean(x.X, in)
			if err != nil {
				return nil, err
			}
			return b.Not(n), nil
		}
	case *ir.Quant:
		if x.Kind == "forall" || x.Kind == "exists" {
			return e.quantTruth(x, in)
		}
	}
	c, err := e.eval(x, in)
	if err != nil {
		return nil, err
	}
	return e.truth(c), nil
}

// process evaluates a process expression to a process known now: the
// engine unrolls every quantifier, so each is a constant here.
func (e *Encoding) process(x ir.Expr, in env) (int, error) {
	c, err := e.eval(x, in)
	if err != nil {
		return 0, err
	}
	if len(c) != 1 {
		return 0, fmt.Errorf("a process that depends on the configuration: %w", ErrUnsupported)
	}
	n := e.spec.N
	for p := range c {
		return ((p % n) + n) % n, nil
	}
	return 0, nil
}

// eval evaluates x symbolically.
func (e *Encoding) eval(x ir.Expr, in env) (cases, error) {
	return e.evalWant(x, in, nil)
}

// evalWant evaluates x symbolically for a consumer that tells apart only
// the values in want (nil: every value), as interest.go describes: values
// below or above want may come merged into want.Lo−1 or want.Hi+1.
func (e *Encoding) evalWant(x ir.Expr, in env, want *interest) (cases, error) {
	b := e.b
	n := e.spec.N
	switch x := x.(type) {
	case *ir.Const:
		return e.constant(x.Value), nil
	case *ir.Self:
		if in.self < 0 {
			return nil, errors.New("no acting process here")
		}
		return e.constant(in.self), nil
	case *ir.Neighbor:
		p, err := e.process(x.Of, in)
		if err != nil {
			return nil, err
		}
		return e.constant(((p+x.Offset)%n + n) % n), nil
	case *ir.LocalRef:
		v, ok := in.locals[x.Local]
		if !ok {
			return nil, fmt.Errorf("local %s unbound", x.Local.Name)
		}
		return e.constant(v), nil
	case *ir.FieldRef:
		return e.received(in, x.Index)
	case *ir.ChanLen, *ir.ChanPos, *ir.HeadField:
		return e.channelExpr(x, in, want)
	case *ir.MsgQuant:
		return e.msgQuant(x, in, want)
	case *ir.MsgField:
		return e.msgField(x, in)
	case *ir.VarRef:
		p := in.self
		if x.Proc != nil {
			var err error
			if p, err = e.process(x.Proc, in); err != nil {
				return nil, err
			}
		}
		if p < 0 {
			return nil, fmt.Errorf("variable %s of no process", x.Var.Name)
		}
		f := e.fields[p][x.Var.ID]
		if f == nil {
			return e.constant(0), nil // as the compiled model reads it
		}
		c := cases{}
		for v := f.lo; v <= f.hi; v++ {
			e.add(c, v, e.value(f, v, 0))
		}
		return c, nil
	case *ir.ElemRef:
		idx, err := e.eval(x.Index, in)
		if err != nil {
			return nil, err
		}
		out := cases{}
		for i, cond := range idx {
			v := x.Array.Elem(i)
			if v == nil && e.impossible(cond) {
				continue
			}
			if v == nil {
				return nil, fmt.Errorf("array %s may be read where it has no entry (%s): %w", x.Array.Name, x.Array.EntryName(i), ErrUnsupported)
			}
			elem, err := e.eval(&ir.VarRef{Var: v, Proc: x.Proc}, in)
			if err != nil {
				return nil, err
			}
			for val, m := range elem {
				e.add(out, val, b.And(cond, m))
			}
		}
		return out, nil
	case *ir.FieldElem:
		// An entry of an array field at a computed index: the entry's
		// field read under each value the index may take.
		idx, err := e.eval(x.Index, in)
		if err != nil {
			return nil, err
		}
		out := cases{}
		for i, cond := range idx {
			f := x.Elem(i)
			if f == nil && e.impossible(cond) {
				continue
			}
			if f == nil {
				return nil, fmt.Errorf("%s: %w", x.Missing(i), ErrUnsupported)
			}
			elem, err := e.eval(f, in)
			if err != nil {
				return nil, err
			}
			for val, m := range elem {
				e.add(out, val, b.And(cond, m))
			}
		}
		return out, nil
	case *ir.Unary:
		if x.Op == syntax.Not {
			n, err := e.boolean(x, in)
			if err != nil {
				return nil, err
			}
			return e.fromTruth(n), nil
		}
		var neg *interest
		if want != nil && x.Op != syntax.Not {
			if _, ok := e.bound(x); ok {
				neg = within(-want.Hi, -want.Lo, want.exact)
			}
		}
		c, err := e.evalWant(x.X, in, neg)
		if err != nil {
			return nil, err
		}

		out := cases{}
		for _, v := range c.values() {
			m := c[v]
			w, ok := ir.Neg(v)
			if !ok {
				return nil, e.arithFault(&ir.ArithError{Fault: ir.Overflow, Pos: x.Pos, Op: fmt.Sprintf("-(%d)", v)})
			}
			e.add(out, w, m)
		}
		return out, nil
	case *ir.Binary:
		return e.binary(x, in, want)
	case *ir.Cond:
		cond, err := e.boolean(x.C, in)
		if err != nil {
			return nil, err
		}
		then, err := e.evalWant(x.X, in, want)
		if err != nil {
			return nil, err
		}
		els, err := e.evalWant(x.Y, in, want)
		if err != nil {
			return nil, err
		}
		out := cases{}
		for v, m := range then {
			e.add(out, v, b.And(cond, m))
		}
		for v, m := range els {
			e.add(out, v, b.And(b.Not(cond), m))
		}
		return out, nil
	case *ir.Quant:
		return e.quant(x, in, want)
	}
	return nil, fmt.Errorf("an expression of type %T: %w", x, ErrUnsupported)
}

// binary evaluates an operator over every pair of values of its operands,
// narrowed, for a comparison, a + or a −, to the values the operator and
// want tell apart.
func (e *Encoding) binary(x *ir.Binary, in env, want *interest) (cases, error) {
	b := e.b
	if x.Op == syntax.AndAnd || x.Op == syntax.OrOr || comparison(x.Op) {
		n, err := e.boolean(x, in)
		if err != nil {
			return nil, err
		}
		return e.fromTruth(n), nil
	}
	l, r, ok, err := e.narrowedOperands(x, in, want)
	if err != nil {
		return nil, err
	}
	if !ok {
		if l, err = e.eval(x.X, in); err != nil {
			return nil, err
		}
		if r, err = e.eval(x.Y, in); err != nil {
			return nil, err
		}
	}
	out := cases{}
	for _, u := range l.values() {
		mu := l[u]
		for _, v := range r.values() {
			w, f := ir.EvalBinary(x.Op, u, v)
			if f == ir.NoFault && want.outside(w) {
				continue
			}
			m := b.And(mu, r[v])
			if b.Equal(m, b.False()) {
				continue
			}
			if f != ir.NoFault {
				return nil, e.arithFault(&ir.ArithError{Fault: f, Pos: x.Pos, Op: ir.BinaryText(x.Op, u, v)})
			}
			e.add(out, w, m)
		}
	}
	return e.clamp(out, want), nil
}

// compare is the BDD of the configurations where a comparison holds, its
// operands narrowed as narrowedOperands says.
func (e *Encoding) compare(x *ir.Binary, in env) (rudd.Node, error) {
	b := e.b
	l, r, ok, err := e.narrowedOperands(x, in, nil)
	if err != nil {
		return nil, err
	}
	if !ok {
		if l, err = e.eval(x.X, in); err != nil {
			return nil, err
		}
		if r, err = e.eval(x.Y, in); err != nil {
			return nil, err
		}
	}
	// Only where it holds: a comparison never faults.
	holds := b.False()
	for _, u := range l.values() {
		for _, v := range r.values() {
			if w, _ := ir.EvalBinary(x.Op, u, v); w != 0 {
				holds = b.Or(holds, b.And(l[u], r[v]))
			}
		}
	}
	return holds, nil
}

// arithFault is the error of an operation that has no value in some
// configuration (a division by zero, an overflow), at its place in the
// file: the engine evaluates every case of an expression, guarded or not,
// and reports the fault rather than give the operation a value; the
// explicit engine reports it where a step evaluates it.
func (e *Encoding) arithFault(err *ir.ArithError) error {
	what := err.Error()
	if err.Fault == ir.DivisionByZero {
		what += ": " + err.Op
	}
	pos := &syntax.Error{File: e.spec.File, Pos: err.Pos, Msg: what + " (a fault, for the explicit engine)"}
	return fmt.Errorf("%w: %w", pos, ErrUnsupported)
}

// quant unrolls a quantifier over its processes or its set; a sum or a
// count keeps its running total narrowed to what want and the members
// still to come tell apart.
func (e *Encoding) quant(x *ir.Quant, in env, want *interest) (cases, error) {
	if x.Kind == "forall" || x.Kind == "exists" {
		n, err := e.quantTruth(x, in)
		if err != nil {
			return nil, err
		}
		return e.fromTruth(n), nil
	}
	members, err := e.members(x, in)
	if err != nil {
		return nil, err
	}
	// count and sum: a running total, by cases, each term within term
	// (nil want: no narrowing).
	term, narrow := ir.Interval{Lo: 0, Hi: 1}, want != nil
	if narrow && x.Kind != "count" {
		bb, ok := e.bound(x.Body)
		_, total := e.bound(x)
		term, narrow = ir.Interval{Lo: min(bb.Lo, 0), Hi: max(bb.Hi, 0)}, ok && total
	}
	acc := e.constant(0)
	for i, q := range members {
		rest := times(len(members)-i-1, term)
		var bw *interest
		if narrow && x.Kind != "count" {
			bw = termInterest(want, acc, rest)
		}
		body, err := e.evalWant(x.Body, in.with(x.Var, q), bw)
		if err != nil {
			return nil, err
		}
		if x.Kind == "count" {
			body = e.fromTruth(e.truth(body))
		}
		var total *interest
		if narrow {
			total = running(want, rest)
		}
		if acc, err = e.accumulate(acc, body, x.Pos, total); err != nil {
			return nil, err
		}
		acc = e.clamp(acc, total)
	}
	return e.clamp(acc, want), nil
}

// members is the processes or the values a quantifier ranges over.
func (e *Encoding) members(x *ir.Quant, in env) ([]int, error) {
	if x.Over == nil {
		members := make([]int, 0, e.spec.N)
		for p := range e.spec.N {
			members = append(members, p)
		}
		return members, nil
	}
	of := 0
	if x.Over.Of != nil {
		var err error
		if of, err = e.process(x.Over.Of, in); err != nil {
			return nil, err
		}
	}
	return x.Over.Members(of), nil
}

// quantTruth is the BDD of the configurations where a forall or an
// exists holds, unrolled over its members.
func (e *Encoding) quantTruth(x *ir.Quant, in env) (rudd.Node, error) {
	b := e.b
	members, err := e.members(x, in)
	if err != nil {
		return nil, err
	}
	acc := b.From(x.Kind == "forall")
	for _, q := range members {
		body, err := e.boolean(x.Body, in.with(x.Var, q))
		if err != nil {
			return nil, err
		}
		if x.Kind == "forall" {
			acc = b.And(acc, body)
		} else {
			acc = b.Or(acc, body)
		}
	}
	return acc, nil
}

// accumulate is the running total acc plus the term body, by cases,
// without the totals an exact want reads no case of (nil: every total);
// an overflow is a fault of the sum at pos.
func (e *Encoding) accumulate(acc, body cases, pos syntax.Pos, want *interest) (cases, error) {
	b := e.b
	next := cases{}
	for _, u := range acc.values() {
		mu := acc[u]
		for _, v := range body.values() {
			w, ok := ir.Add(u, v)
			if ok && want.outside(w) {
				continue
			}
			if m := b.And(mu, body[v]); !b.Equal(m, b.False()) {
				if !ok {
					return nil, e.arithFault(&ir.ArithError{Fault: ir.Overflow, Pos: pos, Op: "sum " + ir.BinaryText(syntax.Plus, u, v)})
				}
				e.add(next, w, m)
			}
		}
	}
	return next, nil
}
