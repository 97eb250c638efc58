package invariants

import (
	"context"
	"fmt"
	"math/bits"
	"slices"

	"github.com/ringcheck/ringcheck/budget"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/statespace"
)

// quotientPhase is the first phase of an analysis with symmetry
// reduction: the sweep that finds the canonical configurations.
const quotientPhase = "sweep of every configuration for the representatives of the orbits (symmetry reduction)"

// quotientGraph is the stabilityGraph of the quotient of sp by the
// system's symmetry group (Options.Search.Symmetry), found on workers with
// mem asked for its index; partial records the sweep for the orbits as the
// analysis's first phase, and the number of orbits. One representative
// per orbit is stored and expanded, each step leading to the orbit of its
// successor. L, closure from, the steps and the central daemon commute
// with the group (the language's checker proves it), so closure holds on
// an orbit's representative iff on the orbit, a configuration outside L
// without a step is one iff its representative is, a cycle of orbits
// outside L lifts to a cycle of configurations, and the longest path
// outside L from an orbit is the longest from each of its configurations.
// A component of orbits with a cycle is analysed on its configurations,
// in the full space, for the fairness every spec grants finite actions
// and timeouts (per process), and the cycle it yields is concrete
// (componentAnalysis.overQuotient). The counts are the full space's: each
// orbit weighs its size (the group's order over the elements fixing it).
// The worst case's witness is the lift of a longest path of orbits from a
// representative; the worst case in rounds is computed on the full space.
func quotientGraph(ctx context.Context, sp *statespace.Space, workers int, mem *budget.Memory, partial *stabilityResult) (stabilityGraph, error) {
	partial.phases = append(partial.phases, Phase{Name: quotientPhase, Total: sp.Size()})
	q, err := statespace.NewQuotient(ctx, sp, workers, mem)
	if err != nil {
		describeRefusal(err, fmt.Sprintf("symmetry reduction indexes the %d configurations with %d bytes, and then takes 4 bytes an orbit, so nothing was analysed", sp.Size(), statespace.QuotientIndexBytes(sp.Size())))
		return stabilityGraph{}, err
	}
	partial.phases[len(partial.phases)-1].Done = sp.Size()
	partial.orbits = q.Size()
	return stabilityGraph{sp: sp, q: q, claims: 1,
		sweepPhase:       "sweep of every orbit (closure, deadlocks outside L)",
		searchPhase:      "search of the orbits outside L (convergence)",
		convergenceBytes: "deciding convergence over the %d orbits takes %.1f bytes an orbit (L's bit set, the heights, the search's index), %s"}, nil
}

// sweepQuotient is stabilityGraph.sweep over the orbits of q: each
// orbit's representative, weighing the orbit's size.
func sweepQuotient(ctx context.Context, q *statespace.Quotient, workers int, fn func(worker int, c *statespace.Cursor, v, r uint32, weight int64, st *model.State) error) error {
	return q.Parallel(ctx, workers, func(w int, qw *statespace.QuotientWalker, d uint32, st *model.State) error {
		return fn(w, qw.Cursor(), d, q.Rank(d), int64(qw.OrbitSize(st)), st)
	})
}

// overQuotient makes a, built over the full space, search the quotient q
// instead: its vertices are orbits, and a component with a cycle is lifted
// to the configurations of its orbits, analysed in the full space.
func (a *componentAnalysis) overQuotient(q *statespace.Quotient) {
	a.g, a.spCur, a.cur = q, a.cur, q.NewWalker()
	a.lift = func(members []uint32) ([]uint32, error) {
		var ranks []uint32
		for _, d := range members {
			var err error
			if ranks, err = q.Orbit(d, ranks); err != nil {
				return nil, err
			}
		}
		slices.Sort(ranks)
		return ranks, nil
	}
}

// legitimateRanks marks L in a bit set indexed by the full space's ranks,
// asking the budget for it first.
func legitimateRanks(ctx context.Context, sp *statespace.Space, workers int, opts Options) (statespace.Bits, error) {
	if err := opts.Search.Memory.Grow((sp.Size() + 63) / 64 * 8); err != nil {
		return nil, err
	}
	legit := sp.System().Legitimate.Holds
	inL := statespace.NewBits(sp.Size())
	err := sp.Parallel(ctx, workers, func(_ int, _ *statespace.Cursor, v uint32, st *model.State) error {
		if legit(st) {
			inL.Set(v)
		}
		return nil
	})
	return inL, err
}

// orbitConfigurations counts the configurations of the orbits of q set
// marks.
func orbitConfigurations(q *statespace.Quotient, set statespace.Bits) (uint64, error) {
	w := q.NewQuotientWalker()
	var n uint64
	for i, word := range set {
		for ; word != 0; word &= word - 1 {
			d := uint32(i*64) + uint32(bits.TrailingZeros64(word))
			st, err := w.Load(d)
			if err != nil {
				return 0, err
			}
			n += uint64(w.OrbitSize(st))
		}
	}
	return n, nil
}
