package symbolic

import (
	"github.com/ringcheck/ringcheck/internal/rudd"
	"github.com/ringcheck/ringcheck/model"
)

// pre is the configurations with a step into s (a set of current
// configurations). Under the central daemon it is the union of every
// process's pre-image, each quantifying that process's next bits only.
func (e *Encoding) pre(s rudd.Node) rudd.Node {
	b := e.b
	if e.opts.Daemon != model.Central {
		return b.AndExist(e.nextSet, e.trans, b.Replace(s, e.toNext))
	}
	parts := make([]rudd.Node, len(e.procs))
	for p, l := range e.procs {
		parts[p] = e.preOf(l.rel, p, s)
	}
	return e.union(parts)
}

// union is the disjunction of parts, taken pairwise in rounds (parts[0] ∨
// parts[1], parts[2] ∨ parts[3], ..., then the same on the results) so
// that each operand of an Or is the union of at most as many parts as the
// other: accumulated one part at a time, the union so far, the largest
// operand, would be traversed once per part. It overwrites parts.
func (e *Encoding) union(parts []rudd.Node) rudd.Node {
	if len(parts) == 0 {
		return e.b.False()
	}
	for len(parts) > 1 {
		half := 0
		for i := 0; i < len(parts); i += 2 {
			if i+1 < len(parts) {
				parts[half] = e.b.Or(parts[i], parts[i+1])
			} else {
				parts[half] = parts[i]
			}
			half++
		}
		parts = parts[:half]
	}
	return parts[0]
}

// preOf is the configurations with a step of rel, a relation of process
// p, into s.
func (e *Encoding) preOf(rel rudd.Node, p int, s rudd.Node) rudd.Node {
	l := e.procs[p]
	return e.b.AndExist(l.nextSet, rel, e.b.Replace(s, l.toNext))
}

// post is the configurations a step leads to from s.
func (e *Encoding) post(s rudd.Node) rudd.Node {
	b := e.b
	if e.opts.Daemon != model.Central {
		return b.Replace(b.AndExist(e.curSet, e.trans, s), e.toCurrent)
	}
	parts := make([]rudd.Node, len(e.procs))
	for p, l := range e.procs {
		parts[p] = e.postOf(l.rel, p, s)
	}
	return e.union(parts)
}

// postOf is the configurations a step of rel, a relation of process p,
// leads to from s.
func (e *Encoding) postOf(rel rudd.Node, p int, s rudd.Node) rudd.Node {
	l := e.procs[p]
	return e.b.Replace(e.b.AndExist(l.curSet, rel, s), l.toCurrent)
}

// reach is the configurations of within that s reaches (forward) or that
// reach s (backward) by paths through within, s included. Its iterations
// are polled under phase.
func (a *analysis) reach(phase string, s, within rudd.Node, forward bool) (rudd.Node, error) {
	b, e := a.b, a.e
	y := b.And(s, within)
	for i := 1; ; i++ {
		if err := a.poll(phase, i, y); err != nil {
			return nil, err
		}
		var step rudd.Node
		if forward {
			step = e.post(y)
		} else {
			step = e.pre(y)
		}
		next := b.Or(y, b.And(within, step))
		if b.Equal(next, y) {
			return y, nil
		}
		y = next
	}
}
