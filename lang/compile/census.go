package compile

import (
	"github.com/ringcheck/ringcheck/model"
)

// stateEval is the configuration a compiled state expression reads, with
// what one evaluation learns of its channels: each channel read by a
// count, a position or a field of a first message is scanned once, and
// its census serves every other such read of the evaluation.
type stateEval struct {
	*model.State
	// flat[p*nvars+v] is the index of process p's variable v in Vars.
	flat   []int32
	ntypes int
	// done[ch] reports whether channel ch's census is taken.
	done []bool
	// count[ch*ntypes+t] is the number of messages of type t in channel
	// ch; first[ch*ntypes+t] the index of the first one, or -1.
	count, first []int32
	// fault is the first fault of this evaluation (a division by zero),
	// or nil.
	fault error
}

// newStateEval returns an evaluation context for the built system.
func newStateEval(sys *model.System) *stateEval {
	nch, nt, nv := len(sys.Channels), len(sys.Messages), len(sys.Vars)
	flat := make([]int32, sys.N()*nv)
	for p := range sys.N() {
		for v := range nv {
			flat[p*nv+v] = int32(sys.VarIndex(p, model.VarID(v)))
		}
	}
	return &stateEval{
		flat:   flat,
		ntypes: nt,
		done:   make([]bool, nch),
		count:  make([]int32, nch*nt),
		first:  make([]int32, nch*nt),
	}
}

// reset points e at s, forgetting what it knew of another configuration.
func (e *stateEval) reset(s *model.State) {
	e.State = s
	e.fault = nil
	clear(e.done)
}

// fail records a fault of the evaluation; the first one is kept.
func (e *stateEval) fail(err error) {
	if e.fault == nil {
		e.fault = err
	}
}

// census returns the offset of channel ch's counts in e.count and e.first,
// scanning the channel if this evaluation has not yet.
func (e *stateEval) census(ch model.ChanID) int {
	base := int(ch) * e.ntypes
	if !e.done[ch] {
		e.take(ch, base)
	}
	return base
}

// take scans channel ch into the counts at base.
func (e *stateEval) take(ch model.ChanID, base int) {
	e.done[ch] = true
	count, first := e.count[base:base+e.ntypes], e.first[base:base+e.ntypes]
	for t := range count {
		count[t], first[t] = 0, -1
	}
	for i := range e.Len(ch) {
		t := e.TypeOf(e.At(ch, i))
		if count[t] == 0 {
			first[t] = int32(i)
		}
		count[t]++
	}
}

// evaluate computes f over s, or returns the fault that stopped it (a
// division by zero).
func (c *compiler) evaluate(f stateFn, s *model.State) (int, error) {
	e, _ := c.evals.Get().(*stateEval)
	if e == nil {
		e = newStateEval(c.post.sys)
	}
	e.reset(s)
	v := f(e)
	err := e.fault
	e.State, e.fault = nil, nil
	c.evals.Put(e)
	return v, err
}

// read is the value of a leaf of a state expression: a constant, or a
// process's variable (leafAt, whose v is then its index in flat).
func (e *stateEval) read(l leaf) int {
	if l.kind == leafConst {
		return l.v
	}
	return int(e.Vars[e.flat[l.v]])
}
