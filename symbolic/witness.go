package symbolic

import (
	"fmt"

	"github.com/ringcheck/ringcheck/internal/rudd"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/model"
)

// Configuration is one configuration drawn from a BDD.
type Configuration struct {
	// Vars[p][v] is process p's variable v (by the IR's variable ID), 0
	// where p does not declare v.
	Vars [][]int
	// Chans lists the contents of every channel, in the order of the
	// topology's links (by sender, then receiver).
	Chans []Channel
	// bits is the value of every current BDD variable.
	bits map[int]bool
}

// Channel is the contents of the channel from one process to another,
// head first.
type Channel struct {
	From, To int
	Messages []Message
}

// Message is a message: its type and its fields' values.
type Message struct {
	Type   *ir.Message
	Fields []int
}

// pick draws one configuration of s, which must not be empty and must lie
// within the valid configurations: it follows a path of the BDD to true,
// and a bit the path does not test is 0 (any value of it stays in s).
func (e *Encoding) pick(s rudd.Node) Configuration {
	b := e.b
	c := Configuration{bits: map[int]bool{}}
	for n := s; !b.Equal(n, b.True()); {
		v := b.Label(n)
		if low := b.Low(n); !b.Equal(low, b.False()) {
			n = low
			continue
		}
		c.bits[v] = true
		n = b.High(n)
	}
	decode := func(f *field) int {
		code := 0
		for i, bit := range f.bits {
			if c.bits[bit] {
				code |= 1 << i
			}
		}
		return f.lo + code
	}
	c.Vars = make([][]int, e.spec.N)
	for p, fs := range e.fields {
		c.Vars[p] = make([]int, len(fs))
		for v, f := range fs {
			if f != nil {
				c.Vars[p][v] = decode(f)
			}
		}
	}
	for _, link := range (model.Topology{Kind: e.spec.Topology, N: e.spec.N}).Links() {
		ch := e.chans[link]
		if ch == nil {
			continue
		}
		out := Channel{From: ch.from, To: ch.to}
		for i := range decode(ch.length) {
			m := e.carry.types[decode(ch.typ[i])]
			msg := Message{Type: m}
			for k, f := range m.Fields {
				msg.Fields = append(msg.Fields, f.Type.Lo+decode(ch.args[i][k]))
			}
			out.Messages = append(out.Messages, msg)
		}
		c.Chans = append(c.Chans, out)
	}
	return c
}

// point is the BDD of the one configuration c.
func (e *Encoding) point(c Configuration) rudd.Node {
	n := e.b.True()
	for _, v := range e.current {
		if c.bits[v] {
			n = e.b.And(n, e.b.Ithvar(v))
		} else {
			n = e.b.And(n, e.b.NIthvar(v))
		}
	}
	return n
}

// worst is an execution that takes len(layers) steps to L: a configuration
// of the last layer, then at each step a successor one layer lower (one
// exists, or the configuration would lie in a lower layer), then one of L.
func (a *analysis) worst(layers []rudd.Node) []Configuration {
	e, b := a.e, a.b
	if len(layers) == 0 {
		return nil
	}
	a.w.report(Progress{Phase: "the worst-case execution"})
	c := e.pick(layers[len(layers)-1])
	path := []Configuration{c}
	for h := len(layers) - 2; h >= -1; h-- {
		target := e.legitimate
		if h >= 0 {
			target = layers[h]
		}
		c = e.pick(b.And(e.post(e.point(c)), target))
		path = append(path, c)
	}
	return path
}

// lasso draws a cycle from z, a non-empty set of configurations each with
// a successor in z (under weak fairness: z is the Emerson–Lei fixpoint;
// under strong fairness, a union of fair components).
// It moves to a configuration t whose strongly connected component C is
// terminal within z, then walks inside C: through, for each weak
// constraint, a configuration where its actions are disabled or a step of
// one of them, and for each strong one enabled somewhere in C, a step of
// one of them; at least one step; and back to t by a shortest path. The
// cycle is one, not a shortest one.
func (a *analysis) lasso(z rudd.Node) ([]Configuration, error) {
	e, b := a.e, a.b
	a.w.report(Progress{Phase: "the cycle of the counterexample"})
	t := e.pick(z)
	var comp rudd.Node
	for {
		if err := a.b.check(); err != nil {
			return nil, err
		}
		at := e.point(t)
		forward, err := a.reach("the cycle of the counterexample", at, z, true)
		if err != nil {
			return nil, err
		}
		backward, err := a.reach("the cycle of the counterexample", at, z, false)
		if err != nil {
			return nil, err
		}
		rest := b.And(forward, b.Not(backward))
		if b.Equal(rest, b.False()) {
			comp = b.And(forward, backward)
			break
		}
		t = e.pick(rest)
	}
	cycle, cur := []Configuration{t}, t
	for _, j := range e.constraints() {
		o := e.procs[j.p].obligations[j.i]
		target := e.met(j, comp)
		if j.strong {
			if b.Equal(b.And(comp, o.enabled), b.False()) {
				continue // never enabled on the cycle
			}
			// Enabled somewhere in the component: take one of its steps.
			target = b.And(comp, e.preOf(o.moves, j.p, comp))
		}
		path := a.shortestPath(cur, target, comp)
		cycle, cur = append(cycle, path[1:]...), path[len(path)-1]
		if !b.Equal(b.And(e.point(cur), o.enabled), b.False()) {
			cur = e.pick(b.And(e.postOf(o.moves, j.p, e.point(cur)), comp))
			cycle = append(cycle, cur)
		}
	}
	if len(cycle) == 1 {
		cur = e.pick(b.And(e.post(e.point(t)), comp))
		cycle = append(cycle, cur)
	}
	back := a.shortestPath(cur, e.point(t), comp)
	cycle = append(cycle, back[1:]...)
	return cycle[:len(cycle)-1], nil // the last is t again
}

// shortestPath is a shortest path from c through within to a
// configuration of target, c and that configuration included; one exists.
func (a *analysis) shortestPath(c Configuration, target, within rudd.Node) []Configuration {
	e, b := a.e, a.b
	frontier := e.point(c)
	layers := []rudd.Node{frontier}
	seen := frontier
	for b.Equal(b.And(frontier, target), b.False()) {
		frontier = b.And(b.And(e.post(frontier), within), b.Not(seen))
		seen = b.Or(seen, frontier)
		layers = append(layers, frontier)
	}
	path := make([]Configuration, len(layers))
	path[len(layers)-1] = e.pick(b.And(frontier, target))
	for i := len(layers) - 2; i >= 0; i-- {
		path[i] = e.pick(b.And(layers[i], e.pre(e.point(path[i+1]))))
	}
	return path
}

// State is configuration c as a state of sys, the explicit model compiled
// from the same spec.
func State(sys *model.System, c Configuration) (*model.State, error) {
	if len(c.Vars) != sys.N() {
		return nil, fmt.Errorf("a configuration of %d processes for a system of %d", len(c.Vars), sys.N())
	}
	st := sys.NewState()
	for p, vals := range c.Vars {
		for v, x := range vals {
			if v >= len(sys.Vars) {
				return nil, fmt.Errorf("process %d has variable %d, the system %d", p, v, len(sys.Vars))
			}
			if sys.HasVar(p, model.VarID(v)) {
				st.Set(p, model.VarID(v), x)
			}
		}
	}
	for _, ch := range c.Chans {
		id := -1
		for i, mc := range sys.Channels {
			if mc.From == ch.From && mc.To == ch.To {
				id = i
			}
		}
		if id < 0 {
			return nil, fmt.Errorf("the system has no channel from process %d to process %d", ch.From, ch.To)
		}
		for _, m := range ch.Messages {
			t := -1
			for i, mt := range sys.Messages {
				if mt.Name == m.Type.Name {
					t = i
				}
			}
			if t < 0 {
				return nil, fmt.Errorf("the system has no message type %s", m.Type.Name)
			}
			if !st.Push(model.ChanID(id), sys.Msg(model.MsgType(t), m.Fields...)) {
				return nil, fmt.Errorf("channel %d→%d of the system holds fewer messages than the configuration's", ch.From, ch.To)
			}
		}
	}
	return st, nil
}

// Execution replays configurations on sys, the explicit model compiled
// from the same spec with the same daemon: for each configuration and the
// next (and, for a lasso, from the last back to the first) it finds a
// step the explicit engine takes between them, and fails if there is
// none. The result is a counterexample like the explicit engine's.
func Execution(sys *model.System, configs []Configuration, lasso bool) (*invariants.Counterexample, error) {
	if len(configs) == 0 {
		return nil, fmt.Errorf("an execution of no configuration")
	}
	ce := &invariants.Counterexample{Kind: invariants.Path}
	if lasso {
		ce.Kind = invariants.Lasso
	}
	for _, c := range configs {
		st, err := State(sys, c)
		if err != nil {
			return nil, err
		}
		ce.States = append(ce.States, st)
	}
	exp := sys.NewExpander()
	pairs := len(ce.States) - 1
	if lasso {
		pairs++
	}
	for i := range pairs {
		from, to := ce.States[i], ce.States[(i+1)%len(ce.States)]
		var found *model.Step
		if _, err := exp.Expand(from, func(step *model.Step, next *model.State) bool {
			if next.Equal(to) {
				s := step.Clone()
				found = &s
				return false
			}
			return true
		}); err != nil {
			return nil, fmt.Errorf("configuration %d of the execution: %w", i, err)
		}
		if found == nil {
			return nil, fmt.Errorf("no step of the explicit model leads from configuration %d of the execution to the next", i)
		}
		ce.Steps = append(ce.Steps, *found)
	}
	if err := ce.Replay(sys); err != nil {
		return nil, err
	}
	return ce, nil
}
