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
	out := b.False()
	for p, l := range e.procs {
		out = b.Or(out, e.preOf(l.rel, p, s))
	}
	return out
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
	out := b.False()
	for p, l := range e.procs {
		out = b.Or(out, e.postOf(l.rel, p, s))
	}
	return out
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
