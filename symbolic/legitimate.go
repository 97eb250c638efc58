package symbolic

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"

	"github.com/ringcheck/ringcheck/budget"
	"github.com/ringcheck/ringcheck/internal/rudd"
	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/model"
)

// Legitimate is the legitimate configurations of a spec: the BDD of its
// legitimacy predicate over the encoding of its configurations, channel
// contents included, restricted to the valid encodings (every value in
// its domain, every bit beyond a channel's length 0), so that each
// satisfying assignment of the configuration's bits is one configuration
// and no two are the same. The BDD is drawn out of the kernel into a
// table of its nodes, which Enumerate walks.
type Legitimate struct {
	e *Encoding
	// vars is the BDD variables of a configuration, in the BDD's order.
	vars []int
	// nodes is the BDD of L: nodes[0] and nodes[1] are false and true;
	// root is its root.
	nodes []bddNode
	root  int32
	count *big.Int
}

// bddNode is a node of a BDD drawn out of the kernel: the BDD variable
// it tests and the indices of its two branches in the table.
type bddNode struct {
	level     int
	low, high int32
}

// EncodeLegitimate builds the BDD of spec's legitimacy predicate over its
// configurations, without the transition relation. ctx and memory (nil:
// no limit) bound it as they bound Encode: when ctx ends or the budget is
// reached, it ends within about a second with a *Stopped error. A
// predicate the engine cannot encode gives an error that wraps
// ErrUnsupported.
func EncodeLegitimate(ctx context.Context, spec *ir.Spec, memory *budget.Memory) (*Legitimate, error) {
	return encodeLegitimate(ctx, spec, memory, false)
}

// encodeLegitimate is EncodeLegitimate, drawing with closure only the
// legitimate configurations closure is decided from (those where the
// spec's closure from predicate holds too).
func encodeLegitimate(ctx context.Context, spec *ir.Spec, memory *budget.Memory, closure bool) (*Legitimate, error) {
	if spec.Legitimate == nil {
		return nil, fmt.Errorf("spec %s declares no legitimacy predicate", spec.Name)
	}
	w := newWatch(ctx, memory, nil)
	var l *Legitimate
	if err := w.run(func() error {
		e, err := encodeConfigurations(spec, Options{Memory: memory}, w)
		if err != nil {
			return err
		}
		set := e.legitimate
		if closure {
			set = e.closureFrom
		}
		e.report(Progress{Phase: "drawing the legitimate configurations"})
		l, err = e.draw(set)
		return err
	}); err != nil {
		return nil, err
	}
	// The table is drawn: the kernel is no longer needed.
	l.e.b = nil
	return l, nil
}

// draw copies the BDD s, a set of configurations over the current bits,
// out of the kernel, with its number of configurations.
func (e *Encoding) draw(s rudd.Node) (*Legitimate, error) {
	b := e.b
	l := &Legitimate{e: e, vars: slices.Sorted(slices.Values(e.current)), nodes: []bddNode{{}, {}}}
	current := make(map[int]bool, len(e.current))
	for _, v := range e.current {
		current[v] = true
	}
	index := map[int]int32{0: 0, 1: 1}
	type raw struct{ level, low, high int }
	var drawn []raw
	if err := b.Allnodes(func(id, level, low, high int) error {
		if id < 2 {
			return nil
		}
		if !current[level] {
			return fmt.Errorf("the BDD of L tests BDD variable %d, not a bit of the configuration", level)
		}
		index[id] = int32(len(l.nodes) + len(drawn))
		drawn = append(drawn, raw{level, low, high})
		return nil
	}, s); err != nil {
		return nil, err
	}
	for _, r := range drawn {
		low, okLow := index[r.low]
		high, okHigh := index[r.high]
		if !okLow || !okHigh {
			return nil, errors.New("the BDD of L has a branch to a node it does not hold")
		}
		l.nodes = append(l.nodes, bddNode{level: r.level, low: low, high: high})
	}
	root, ok := index[*s]
	if !ok {
		return nil, errors.New("the BDD of L does not hold its root")
	}
	l.root = root
	l.count = e.count(s)
	if b.Errored() {
		return nil, e.bddError()
	}
	return l, nil
}

// Count is the number of legitimate configurations.
func (l *Legitimate) Count() *big.Int { return new(big.Int).Set(l.count) }

// Enumerator returns an enumerator of the legitimate configurations as
// states of sys, the explicit model compiled from the same spec: it
// yields each exactly once, in the order of their encodings, and reuses
// the state it yields. It fails if sys lacks a channel or a message type
// of the encoding.
func (l *Legitimate) Enumerator(sys *model.System) (model.Enumerator, error) {
	d, err := newDecoder(l.e, sys)
	if err != nil {
		return nil, err
	}
	return func(_ *model.System, yield func(*model.State) bool) {
		st := sys.NewState()
		bits := make([]bool, l.maxVar()+1)
		l.walk(l.root, 0, bits, func() bool {
			d.state(st, bits)
			return yield(st)
		})
	}, nil
}

// maxVar is the largest BDD variable of a configuration.
func (l *Legitimate) maxVar() int {
	if len(l.vars) == 0 {
		return 0
	}
	return l.vars[len(l.vars)-1]
}

// walk calls leaf with every assignment of l.vars[i:] (in bits) that
// leads from node n to true, until leaf returns false; it returns false
// if leaf did. A variable n does not test is free: both its values lead
// on.
func (l *Legitimate) walk(n int32, i int, bits []bool, leaf func() bool) bool {
	if n == 0 {
		return true
	}
	if i == len(l.vars) {
		return leaf()
	}
	v := l.vars[i]
	low, high := n, n
	if n != 1 && l.nodes[n].level == v {
		low, high = l.nodes[n].low, l.nodes[n].high
	}
	bits[v] = false
	if !l.walk(low, i+1, bits, leaf) {
		return false
	}
	bits[v] = true
	ok := l.walk(high, i+1, bits, leaf)
	bits[v] = false
	return ok
}

// decoder turns an assignment of an encoding's configuration bits into a
// state of the explicit model, as State does a Configuration: the
// channels and message types of the encoding resolved once to the
// model's.
type decoder struct {
	vars  []decodedVar
	chans []decodedChan
	// types[t] is the model's message type of the encoding's carried type
	// t, and lo[t] its fields' least values.
	types []model.MsgType
	lo    [][]int
	sys   *model.System
	args  []int
}

type decodedVar struct {
	p  int
	v  model.VarID
	f  *field
	in bool // the model has the variable
}

type decodedChan struct {
	id model.ChanID
	ch *channel
}

// newDecoder resolves e's channels and carried message types to sys's.
func newDecoder(e *Encoding, sys *model.System) (*decoder, error) {
	if sys.N() != e.spec.N {
		return nil, fmt.Errorf("an encoding of %d processes for a system of %d", e.spec.N, sys.N())
	}
	d := &decoder{sys: sys}
	for p, fs := range e.fields {
		for v, f := range fs {
			if f == nil {
				continue
			}
			if v >= len(sys.Vars) {
				return nil, fmt.Errorf("process %d has variable %d, the system %d", p, v, len(sys.Vars))
			}
			d.vars = append(d.vars, decodedVar{p: p, v: model.VarID(v), f: f, in: sys.HasVar(p, model.VarID(v))})
		}
	}
	for _, link := range (model.Topology{Kind: e.spec.Topology, N: e.spec.N}).Links() {
		ch := e.chans[link]
		if ch == nil {
			continue
		}
		id := slices.IndexFunc(sys.Channels, func(mc model.Channel) bool { return mc.From == ch.from && mc.To == ch.to })
		if id < 0 {
			return nil, fmt.Errorf("the system has no channel from process %d to process %d", ch.from, ch.to)
		}
		if sys.Channels[id].Capacity < ch.length.hi {
			return nil, fmt.Errorf("channel %d→%d of the system holds fewer messages than the encoding's", ch.from, ch.to)
		}
		d.chans = append(d.chans, decodedChan{id: model.ChanID(id), ch: ch})
	}
	if e.carry != nil {
		for _, m := range e.carry.types {
			t := slices.IndexFunc(sys.Messages, func(mt model.MessageType) bool { return mt.Name == m.Name })
			if t < 0 {
				return nil, fmt.Errorf("the system has no message type %s", m.Name)
			}
			d.types = append(d.types, model.MsgType(t))
			var lo []int
			for _, f := range m.Fields {
				lo = append(lo, f.Type.Lo)
			}
			d.lo = append(d.lo, lo)
		}
	}
	return d, nil
}

// decode is field f's value under bits.
func (f *field) decode(bits []bool) int {
	code := 0
	for i, bit := range f.bits {
		if bits[bit] {
			code |= 1 << i
		}
	}
	return f.lo + code
}

// state sets st to the configuration bits encodes.
func (d *decoder) state(st *model.State, bits []bool) {
	for _, v := range d.vars {
		if v.in {
			st.Set(v.p, v.v, v.f.decode(bits))
		}
	}
	clear(st.Msgs)
	clear(st.Lens)
	for _, c := range d.chans {
		for i := range c.ch.length.decode(bits) {
			t := c.ch.typ[i].decode(bits)
			lo := d.lo[t]
			d.args = d.args[:0]
			for k := range lo {
				d.args = append(d.args, lo[k]+c.ch.args[i][k].decode(bits))
			}
			st.Push(c.id, d.sys.Msg(d.types[t], d.args...))
		}
	}
}

// LegitimateConfigurations returns the source of an enumerator of spec's
// legitimate configurations closure is decided from, derived from its
// legitimacy predicate and its closure from predicate if it has one, for
// the explicit model compiled from spec (model.System's
// DeriveLegitimateConfigurations). A predicate the engine cannot encode
// gives an error that says so and wraps ErrUnsupported; a bound, a
// *Stopped error.
func LegitimateConfigurations(spec *ir.Spec) model.EnumeratorSource {
	return func(ctx context.Context, sys *model.System, memory *budget.Memory) (model.Enumerator, error) {
		l, err := encodeLegitimate(ctx, spec, memory, true)
		if err != nil {
			var st *Stopped
			if errors.As(err, &st) {
				return nil, err
			}
			return nil, fmt.Errorf("the symbolic engine cannot encode the legitimacy predicate to enumerate it: %w", err)
		}
		return l.Enumerator(sys)
	}
}
