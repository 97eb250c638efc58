package symbolic

import (
	"context"
	"errors"
	"fmt"

	"github.com/ringcheck/ringcheck/internal/rudd"
)

// Rounds is what WorstRounds computed.
type Rounds struct {
	// Worst is the worst case in asynchronous rounds.
	Worst int
	// Iterations counts the iterations of its fixpoints; PeakNodes is the
	// largest BDD met between them.
	Iterations, PeakNodes int
}

// errRoundsDiverge is WorstRounds' error when the rounds grow for ever,
// which an encoding where convergence holds with a bound does not allow.
var errRoundsDiverge = errors.New("the rounds to L do not reach a bound: convergence does not hold with a worst case in steps")

// WorstRounds computes the worst case, over every configuration outside L
// and every schedule, of the number of asynchronous rounds before L is
// reached, as the explicit engine defines them: a round is the shortest
// stretch of an execution in which every process enabled at its start
// either moves or is disabled at some configuration of it, the next round
// starts where it ends, and the round during which L is first reached
// counts. It needs Options.Rounds, and an encoding in which Analyse found
// convergence with a worst case in steps (no cycle outside L).
//
// It works on pairs (v, P) of a configuration outside L and its pending
// processes (those of the current round that have neither moved nor been
// disabled, a non-empty subset of v's enabled ones), with R(v, P) the
// most rounds an execution from v takes when P is still pending:
//
//	R(v, P) = max over steps v→w by process p of
//	          1                  if w ∈ L
//	          1 + R(w, En(w))    if P' = P ∖ {p} ∖ {q disabled in w} is empty
//	          R(w, P')           otherwise
//
// G_k = {(v, P) : R(v, P) ≤ k} is the least fixpoint of "every step
// satisfies the case above with bound k", given G_{k-1}; the worst case is
// the least k for which every configuration v outside L has (v, En(v)) in
// G_k. ctx and the memory budget bound it as they bound Analyse: it then
// ends within about a second with a *Stopped error.
func (e *Encoding) WorstRounds(ctx context.Context) (*Rounds, error) {
	if len(e.pending) == 0 {
		return nil, fmt.Errorf("spec %s: the encoding has no pending bits: %w (Options.Rounds)", e.spec.Name, ErrUnsupported)
	}
	var r *Rounds
	a, err := e.watched(ctx, &Result{}, func(a *analysis) (err error) {
		r, err = a.worstRounds()
		return err
	})
	if err != nil {
		return nil, err
	}
	r.Iterations, r.PeakNodes = a.res.Iterations, a.res.PeakNodes
	return r, nil
}

// roundStep is one process's steps on the pairs (configuration, pending
// set): the process's relation, and the next pending set.
type roundStep struct {
	rel rudd.Node
	// quantified is the process's next bits and every next pending bit;
	// toNext renames the process's bits and every pending bit to their
	// next values.
	quantified rudd.Node
	toNext     rudd.Replacer
}

func (a *analysis) worstRounds() (*Rounds, error) {
	e, b := a.e, a.b
	n := len(e.pending)
	pendingCur, pendingNext := make([]int, n), make([]int, n)
	for q, v := range e.pending {
		pendingCur[q], pendingNext[q] = v, v+1
	}
	steps := make([]roundStep, n)
	for p, l := range e.procs {
		cur, next := b.Scanset(l.curSet), b.Scanset(l.nextSet)
		toNext, err := b.NewReplacer(append(cur, pendingCur...), append(next, pendingNext...))
		if err != nil {
			return nil, err
		}
		// P'_q ⇔ q ≠ p ∧ P_q ∧ q enabled in w, where w has p's bits at
		// their next values and every other bit as it was.
		update := b.True()
		for q := range n {
			stays := b.False()
			if q != p {
				stays = b.And(b.Ithvar(e.pending[q]), b.Replace(e.procs[q].enabled, l.toNext))
			}
			update = b.And(update, b.Equiv(b.Ithvar(e.pending[q]+1), stays))
		}
		steps[p] = roundStep{
			rel:        b.And(l.rel, update),
			quantified: b.And(l.nextSet, b.Makeset(pendingNext)),
			toNext:     toNext,
		}
	}
	// pre is the pairs with a step into s, a set of pairs.
	pre := func(s rudd.Node) rudd.Node {
		out := b.False()
		for _, st := range steps {
			out = b.Or(out, b.AndExist(st.quantified, st.rel, b.Replace(s, st.toNext)))
		}
		return out
	}
	outside := b.And(e.valid, b.Not(e.legitimate))
	if b.Equal(outside, b.False()) {
		return &Rounds{}, nil
	}
	none, someEnabled, atStart := b.True(), b.True(), b.True()
	for q := range n {
		pq, en := b.Ithvar(e.pending[q]), e.procs[q].enabled
		none = b.And(none, b.Not(pq))
		someEnabled = b.And(someEnabled, b.Imp(pq, en))
		atStart = b.And(atStart, b.Equiv(pq, en))
	}
	// The pairs: a configuration outside L and a non-empty set of its
	// enabled processes.
	pairs := b.And(outside, b.Not(none), someEnabled)
	pendingSet := b.Makeset(pendingCur)
	within := b.False() // the configurations v with (v, En(v)) in G_{k-1}
	g := b.False()      // G_{k-1}
	for k := 1; ; k++ {
		grew := false
		for {
			if err := a.tick(fmt.Sprintf("rounds, round %d", k), g); err != nil {
				return nil, err
			}
			// A step is within bound k when it reaches L, ends the round
			// in a configuration within k-1 rounds, or leads into G_k.
			ok := b.Or(e.legitimate, b.And(none, within), g)
			next := b.And(pairs, b.Not(pre(b.And(e.valid, b.Not(ok)))))
			if b.Equal(next, g) {
				break
			}
			g, grew = next, true
		}
		reached := b.Exist(b.And(g, atStart), pendingSet)
		if b.Equal(b.And(outside, b.Not(reached)), b.False()) {
			return &Rounds{Worst: k}, nil
		}
		if !grew && b.Equal(reached, within) {
			return nil, errRoundsDiverge
		}
		within = reached
	}
}
