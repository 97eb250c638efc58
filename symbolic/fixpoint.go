package symbolic

import (
	"context"
	"errors"
	"math/big"

	"github.com/dalzilio/rudd"
)

// Result is what Analyse decided over every configuration.
type Result struct {
	// Configurations and Legitimate count the configurations and those in
	// L.
	Configurations, Legitimate *big.Int
	// Closure: no step leads from L out of L.
	Closure bool
	// Convergence: from every configuration every execution reaches L
	// (no fairness).
	Convergence bool
	// Layers[h] counts the configurations outside L whose longest
	// execution to L takes h+1 steps (those that converge); the worst
	// case in steps is len(Layers) when Convergence holds.
	Layers []*big.Int
	// Stuck counts the configurations from which some execution never
	// reaches L (a deadlock outside L, or a cycle outside L, or a path to
	// one): zero when Convergence holds.
	Stuck *big.Int
	// PeakNodes is the largest BDD node count met between iterations.
	PeakNodes int
}

// Analyse decides closure and convergence (under the central daemon, no
// fairness) over every configuration. Convergence is the least fixpoint
// W = L ∪ {c ∉ L with a step, every step of which leads into W}: its
// iterations add the configurations whose longest execution to L takes
// one step more each time, so their number is the worst case in steps.
// ctx stops it between iterations.
func (e *Encoding) Analyse(ctx context.Context) (*Result, error) {
	b := e.b
	res := &Result{Configurations: e.count(e.valid), Legitimate: e.count(e.legitimate)}
	outside := b.And(e.valid, b.Not(e.legitimate))
	// Closure: no configuration of L has a step out of L.
	res.Closure = b.Equal(b.And(e.legitimate, e.pre(outside)), b.False())
	enabled := e.pre(e.valid)
	won := e.legitimate
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// The configurations outside won with a step, none of whose steps
		// leaves won.
		escape := e.pre(b.And(e.valid, b.Not(won)))
		layer := b.And(b.And(outside, b.Not(won)), b.And(enabled, b.Not(escape)))
		if b.Equal(layer, b.False()) {
			break
		}
		res.Layers = append(res.Layers, e.count(layer))
		won = b.Or(won, layer)
		res.PeakNodes = max(res.PeakNodes, e.nodes(won, e.trans))
	}
	res.Stuck = e.count(b.And(e.valid, b.Not(won)))
	res.Convergence = res.Stuck.Sign() == 0
	if b.Errored() {
		return nil, errors.New(b.Error())
	}
	return res, nil
}

// pre is the configurations with a step into s (a set of current
// configurations).
func (e *Encoding) pre(s rudd.Node) rudd.Node {
	return e.b.AndExist(e.nextSet, e.trans, e.b.Replace(s, e.toNext))
}

// count is the number of configurations of s, a set over the current
// bits.
func (e *Encoding) count(s rudd.Node) *big.Int {
	n := e.b.Satcount(s)
	return n.Rsh(n, uint(len(e.next))) // the next bits are free in s
}

// nodes is the number of BDD nodes of the given roots.
func (e *Encoding) nodes(roots ...rudd.Node) int {
	count := 0
	_ = e.b.Allnodes(func(_, _, _, _ int) error { count++; return nil }, roots...)
	return count
}
