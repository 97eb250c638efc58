package cluster

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ringcheck/ringcheck/budget"
	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/statespace"
)

// RoundsNote is what a report of the workers says of the worst case in
// rounds.
const RoundsNote = "rounds are computed on one process"

// stabilityProperties reports whether props are closure and convergence
// (from every configuration), and fails when they mix them with others.
func stabilityProperties(props []invariants.Property) (bool, error) {
	stab, other := false, false
	for _, p := range props {
		if p == invariants.Closure || p == invariants.Convergence {
			stab = true
		} else {
			other = true
		}
	}
	if stab && other {
		return false, fmt.Errorf("properties %v: the workers check closure and convergence from every configuration apart from safety and deadlock from init", props)
	}
	return stab, nil
}

// checkStability runs the coordinator of an analysis of closure and
// convergence from every configuration of sys over tr: every worker
// sweeps the configurations of its range of ranks, and the configurations
// outside L are eliminated level by level (see stabilityWorker.remove);
// what remains does not converge. The report is the one invariants.Check
// gives on one process.
func (c *coordinator) checkStability(ctx context.Context) (*invariants.Report, error) {
	sys := c.sys
	sp, err := stabilitySpace(sys)
	if err != nil {
		return nil, err
	}
	wantConv := false
	for _, p := range c.opts.Properties {
		wantConv = wantConv || p == invariants.Convergence
	}
	a := &stabilityRun{coordinator: c, sp: sp, part: newRanges(sp.Size(), c.n)}
	comp, err := a.run(ctx, wantConv)
	var lost *LostError
	var refused *budget.Exceeded
	switch {
	case errors.As(err, &lost):
		if lost.Worker >= 0 && lost.Worker < len(c.opts.Names) {
			lost.Name = c.opts.Names[lost.Worker]
		}
		return c.partial(explore.Interrupted, lost.Error()), nil
	case errors.Is(err, errRefused):
		return c.partial(explore.MemoryBound, c.res.Exceeded.Error()), nil
	case errors.As(err, &refused):
		c.res.Exceeded = refused
		return c.partial(explore.MemoryBound, refused.Error()), nil
	case err != nil && ctx.Err() != nil:
		why := stopReason(ctx.Err())
		return c.partial(why, why.String()), nil
	case err != nil:
		return nil, err
	}
	comp.Elapsed = time.Since(c.start)
	opts := invariants.Options{Properties: c.opts.Properties, From: invariants.FromAll, Fairness: c.opts.Fairness, Search: explore.Options{Memory: c.opts.Search.Memory}}
	rep, err := invariants.ComputedReport(ctx, sys, opts, comp)
	if err != nil && ctx.Err() != nil {
		why := stopReason(ctx.Err())
		return c.partial(why, why.String()), nil
	}
	return rep, err
}

// errRefused is the error of a run a worker's memory budget stopped
// (c.res.Exceeded says what it refused).
var errRefused = errors.New("a worker's memory budget refused")

// stabilityRun is one analysis of every configuration, at the
// coordinator.
type stabilityRun struct {
	*coordinator
	sp   *statespace.Space
	part ranges
}

// run sweeps and eliminates, and gathers what the report needs: the
// witness of the worst case, or a cycle, or the configurations that
// remain.
func (a *stabilityRun) run(ctx context.Context, wantConv bool) (*invariants.Computed, error) {
	for k := range a.n {
		lo, hi := a.part.of(k)
		if err := a.tr.Send(ctx, k, &Message{Kind: KindSweep, From: Coordinator, Lo: int64(lo), Hi: int64(hi), Last: wantConv}); err != nil {
			return nil, a.stopErr(ctx, err)
		}
	}
	comp := &invariants.Computed{RoundsNote: RoundsNote}
	var outside, dead uint64
	var found invariants.Findings
	for range a.n {
		m, err := a.recv(ctx, KindSwept)
		if err != nil {
			return nil, a.stopErr(ctx, err)
		}
		if len(m.Words) != 4 {
			return nil, fmt.Errorf("worker %d: a sweep's report of %d counts, not 4", m.From, len(m.Words))
		}
		a.note(m)
		comp.Transitions += m.Counts.Transitions
		comp.Distinct += m.Counts.Distinct
		comp.Legitimate += m.Words[0]
		comp.Faulty += m.Words[1]
		outside += m.Words[2]
		dead += m.Words[3]
		found.Merge(m.Findings)
	}
	a.res.Transitions, a.res.DistinctTransitions, a.res.States = comp.Transitions, comp.Distinct, int64(a.sp.Size())
	if a.refused() {
		return nil, errRefused
	}
	comp.ClosureFound, comp.ClosureFrom, comp.ClosureTo = found.Invariant.Found, uint32(found.Invariant.ID), uint32(found.Invariant.Detail)
	comp.DeadFound, comp.Dead = found.Deadlock.Found, uint32(found.Deadlock.ID)
	a.progress(&a.res, 0, false)
	if !wantConv {
		return comp, nil
	}
	// The elimination, a level at a time.
	var removed uint64
	for k := 1; ; k++ {
		for w := range a.n {
			if err := a.tr.Send(ctx, w, &Message{Kind: KindLevel, From: Coordinator, Depth: k}); err != nil {
				return nil, a.stopErr(ctx, err)
			}
		}
		var count int64
		least := int64(-1)
		for range a.n {
			m, err := a.recv(ctx, KindLevelDone)
			if err != nil {
				return nil, a.stopErr(ctx, err)
			}
			if m.Depth != k {
				return nil, fmt.Errorf("worker %d: level %d done, level %d asked", m.From, m.Depth, k)
			}
			a.note(m)
			count += m.Count
			if m.Lo >= 0 && (least < 0 || m.Lo < least) {
				least = m.Lo
			}
		}
		if a.refused() {
			return nil, errRefused
		}
		if count == 0 {
			break
		}
		removed += uint64(count)
		comp.WorstSteps = k
		comp.Witness = []uint32{uint32(least)}
		a.progress(&explore.Result{States: int64(removed), Transitions: a.res.Transitions}, k, false)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	comp.Remaining = outside - removed
	a.progress(&explore.Result{States: int64(removed), Transitions: a.res.Transitions}, comp.WorstSteps, true)
	var err error
	switch {
	case comp.Remaining == 0 && comp.WorstSteps > 0:
		comp.Witness, err = a.witness(ctx, comp.Witness[0], comp.WorstSteps)
	case comp.Remaining == 0:
	case !invariants.EveryCycleFair(a.sys, a.opts.Fairness):
		comp.RemainingSet, comp.DeadSet, err = a.remainingSets(ctx)
	case dead == 0:
		comp.Cycle, err = a.cycle(ctx, comp.Remaining)
	}
	if err != nil {
		return nil, a.stopErr(ctx, err)
	}
	if comp.Remaining > 0 {
		comp.Witness, comp.WorstSteps = nil, 0
	}
	return comp, nil
}

// note records a worker's counts for its progress, and the first refusal
// of a worker's budget in c.res.Exceeded.
func (a *stabilityRun) note(m *Message) {
	if m.From < 0 || m.From >= a.n {
		return
	}
	w := &a.perWorker[m.From]
	w.Worker, w.States, w.Transitions, w.StoreBytes = m.From, m.Counts.States, m.Counts.Transitions, m.Counts.StoreBytes
	if b := m.Counts.Budget; b != (BudgetRefusal{}) && a.res.Exceeded == nil {
		a.res.Exceeded = &budget.Exceeded{Limit: uint64(b.Limit), Heap: uint64(b.Held), Need: uint64(b.Need),
			Detail: fmt.Sprintf("worker %d%s keeps the reverse edges of its configurations outside L", m.From, a.name(m.From))}
	}
}

// refused reports whether a worker's budget refused, and marks the
// result stopped by the memory bound then.
func (a *stabilityRun) refused() bool {
	if a.res.Exceeded == nil {
		return false
	}
	a.res.Stop = explore.MemoryBound
	return true
}

// height asks the owner of configuration r its level (see KindHeightIs).
func (a *stabilityRun) height(ctx context.Context, r uint32) (int64, error) {
	if err := a.tr.Send(ctx, a.part.owner(r), &Message{Kind: KindHeight, From: Coordinator, Lo: int64(r)}); err != nil {
		return 0, err
	}
	for {
		m, err := a.recv(ctx, KindHeightIs)
		if err != nil {
			return 0, err
		}
		if m.Lo == int64(r) {
			return m.Count, nil
		}
	}
}

// successors returns the ranks of the successors of configuration v, in
// the model's order, each with whether it is in L.
func (a *stabilityRun) successors(c *statespace.Cursor, v uint32) ([]uint32, []bool, error) {
	st, err := c.Load(v)
	if err != nil {
		return nil, nil, err
	}
	var to []uint32
	var inL []bool
	_, err = c.Successors(st, func(_ *model.Step, r uint32, next *model.State) {
		to, inL = append(to, r), append(inL, a.sys.Legitimate.Holds(next))
	})
	return to, inL, err
}

// witness is the execution of the worst case, as the single process
// builds it: from configuration at, of level worst, each step to the
// first successor one level closer to L (L's level is 0).
func (a *stabilityRun) witness(ctx context.Context, at uint32, worst int) ([]uint32, error) {
	c := a.sp.NewCursor()
	ranks := []uint32{at}
	for v, h := at, int64(worst); h > 0; h-- {
		to, inL, err := a.successors(c, v)
		if err != nil {
			return nil, err
		}
		found := false
		for i, r := range to {
			hr := int64(0)
			if !inL[i] {
				if hr, err = a.height(ctx, r); err != nil {
					return nil, err
				}
			}
			if hr == h-1 {
				v, found = r, true
				break
			}
		}
		if !found {
			return nil, fmt.Errorf("configuration %d: no successor one step closer to L", v)
		}
		ranks = append(ranks, v)
	}
	return ranks, nil
}

// cycle walks from the least-ranked remaining configuration along the
// first remaining successor of each until a configuration repeats, and
// returns the cycle from it: every remaining configuration has a
// remaining successor when none is dead.
func (a *stabilityRun) cycle(ctx context.Context, remaining uint64) ([]uint32, error) {
	start := int64(-1)
	for k := range a.n {
		if err := a.tr.Send(ctx, k, &Message{Kind: KindRemaining, From: Coordinator}); err != nil {
			return nil, err
		}
	}
	for range a.n {
		m, err := a.recv(ctx, KindRemainingIs)
		if err != nil {
			return nil, err
		}
		if m.Lo >= 0 && (start < 0 || m.Lo < start) {
			start = m.Lo
		}
	}
	if start < 0 {
		return nil, fmt.Errorf("%d configurations remain, and no worker has one", remaining)
	}
	c := a.sp.NewCursor()
	at := map[uint32]int{}
	var path []uint32
	for v := uint32(start); ; {
		if i, ok := at[v]; ok {
			return path[i:], nil
		}
		if uint64(len(path)) > remaining {
			return nil, fmt.Errorf("a walk of %d remaining configurations repeats none", len(path))
		}
		at[v] = len(path)
		path = append(path, v)
		to, inL, err := a.successors(c, v)
		if err != nil {
			return nil, err
		}
		found := false
		for i, r := range to {
			if inL[i] {
				continue
			}
			h, err := a.height(ctx, r)
			if err != nil {
				return nil, err
			}
			if h == -1 {
				v, found = r, true
				break
			}
		}
		if !found {
			return nil, fmt.Errorf("configuration %d remains with no remaining successor", v)
		}
	}
}

// remainingSets gathers the remaining configurations and the dead ones,
// as bit sets by rank.
func (a *stabilityRun) remainingSets(ctx context.Context) (remaining, dead statespace.Bits, err error) {
	n := a.sp.Size()
	if err := a.opts.Search.Memory.Grow(2 * (n + 63) / 64 * 8); err != nil {
		return nil, nil, err
	}
	remaining, dead = statespace.NewBits(n), statespace.NewBits(n)
	for k := range a.n {
		if err := a.tr.Send(ctx, k, &Message{Kind: KindRemaining, From: Coordinator, Last: true}); err != nil {
			return nil, nil, err
		}
	}
	for range a.n {
		m, err := a.recv(ctx, KindRemainingIs)
		if err != nil {
			return nil, nil, err
		}
		for _, r := range m.Parents {
			remaining.Set(r)
		}
		for _, r := range m.Steps {
			dead.Set(r)
		}
	}
	return remaining, dead, nil
}
