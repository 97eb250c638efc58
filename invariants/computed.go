package invariants

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/statespace"
)

// Computed is what an analysis of closure and convergence from every
// configuration of a system computed outside this package (on the
// workers of a cluster), by rank of the system's full space: the sweep's
// findings and counts, and the elimination of the configurations outside
// L that reach L in a bounded number of steps.
type Computed struct {
	// Transitions counts the steps from every configuration, Distinct
	// the distinct (configuration, successor) pairs among them.
	Transitions, Distinct int64
	// Legitimate counts L; Faulty the configurations outside L with a
	// faulty step.
	Legitimate, Faulty uint64
	// ClosureFound says a step from L (where closure applies) leaves L:
	// the least by the rank of its source, then of its target, goes from
	// ClosureFrom to ClosureTo.
	ClosureFound           bool
	ClosureFrom, ClosureTo uint32
	// DeadFound says a configuration outside L has no step: Dead is the
	// least-ranked.
	DeadFound bool
	Dead      uint32
	// Remaining counts the configurations outside L that the elimination
	// did not remove: those that reach a dead configuration or a cycle.
	Remaining uint64
	// Cycle, when no configuration is dead, EveryCycleFair holds and
	// RemainingSet is nil, is a
	// cycle of remaining configurations (ranks, each a successor of the
	// one before and the first a successor of the last).
	Cycle []uint32
	// RemainingSet marks the remaining configurations by rank when
	// EveryCycleFair does not hold: the components analysis of one
	// process runs over them, to find the fair cycles and count the
	// configurations that do not converge.
	RemainingSet statespace.Bits
	// DeadSet marks the dead configurations by rank, with RemainingSet.
	DeadSet statespace.Bits
	// WorstSteps is the last level of the elimination: the most steps an
	// execution takes outside L, when none remains; Witness the ranks of
	// an execution that takes them, ending in L.
	WorstSteps int
	Witness    []uint32
	// RoundsNote says why the worst case in rounds is not computed.
	RoundsNote string
	Elapsed    time.Duration
}

// EveryCycleFair reports whether every cycle of configurations outside L
// is a convergence violation under fairness f over sys: no fairness
// asked, and no finite action or timeout, which are weakly fair whatever
// is asked.
func EveryCycleFair(sys *model.System, f Fairness) bool {
	if f != "" && f != NoFairness {
		return false
	}
	for _, p := range sys.Processes {
		for _, a := range p.Actions {
			if a.Liveness == model.Finite || a.Kind == model.Timeout {
				return false
			}
		}
	}
	return true
}

// ComputedReport is the report of opts.Properties (closure and
// convergence from every configuration, under opts.Fairness) that Check
// gives on one process, assembled from what c says. The components
// analysis over c.RemainingSet, when set, runs here, bounded by ctx and
// opts.Search.Memory.
func ComputedReport(ctx context.Context, sys *model.System, opts Options, c *Computed) (*Report, error) {
	sp, err := statespace.NewSpace(sys)
	if err != nil {
		return nil, err
	}
	legitimate := c.Legitimate
	res := &stabilityResult{configurations: sp.Size(), transitions: c.Transitions, distinct: c.Distinct, legitimate: &legitimate,
		stab: &Stabilization{Configurations: sp.Size(), Legitimate: c.Legitimate}}
	for _, p := range opts.Properties {
		switch p {
		case Closure:
			if res.closure, err = closureOutcome(sp, c.ClosureFound, c.ClosureFrom, c.ClosureTo); err != nil {
				return nil, err
			}
		case Convergence:
			conv, err := c.convergence(ctx, sp, opts, res)
			if err != nil {
				if why, stopped := stopReason(err); stopped {
					res.swept, res.elapsed = sp.Size(), c.Elapsed
					return stoppedStability(opts, why, err, res), nil
				}
				return nil, err
			}
			res.convergence = &conv
		default:
			return nil, fmt.Errorf("property %s: not decided from every configuration's analysis", p)
		}
	}
	res.elapsed = c.Elapsed
	rep := &Report{Search: res.searchResult()}
	res.fill(rep)
	for _, p := range opts.Properties {
		if p == Closure {
			rep.Outcomes = append(rep.Outcomes, *res.closure)
		} else {
			rep.Outcomes = append(rep.Outcomes, *res.convergence)
		}
	}
	return rep, nil
}

// convergence decides convergence from c, as analyseStability does, and
// fills in res.stab when it holds (nil otherwise).
func (c *Computed) convergence(ctx context.Context, sp *statespace.Space, opts Options, res *stabilityResult) (Outcome, error) {
	faulty := strconv.FormatUint(c.Faulty, 10)
	var dead Outcome
	if c.DeadFound {
		res.stab = nil
		var err error
		if dead, err = deadOutcome(sp, c.Dead); err != nil {
			return Outcome{}, err
		}
	}
	unbounded := false
	switch {
	case c.Remaining == 0:
	case c.RemainingSet != nil:
		cycle, stuck, err := remainingComponents(ctx, sp, opts, c.RemainingSet, c.DeadSet)
		switch {
		case err != nil:
			return Outcome{}, err
		case c.DeadFound:
			return withStuck(dead, stuck, true, faulty), nil
		case cycle.Verdict == Violated:
			res.stab = nil
			return withStuck(cycle, stuck, false, faulty), nil
		}
		unbounded = true
	case c.DeadFound:
		return withStuck(dead, c.Remaining, true, faulty), nil
	case c.Cycle != nil:
		ce, err := lassoOf(sp, c.Cycle[:1], c.Cycle, make([]classSet, len(c.Cycle)), &fairnessRule{})
		if err != nil {
			return Outcome{}, err
		}
		res.stab = nil
		conv := Outcome{Property: Convergence, Verdict: Violated, Reason: FairCycle(NoFairness, false), Counterexample: ce}
		return withStuck(conv, c.Remaining, false, faulty), nil
	default:
		return Outcome{}, fmt.Errorf("%d configurations outside L remain, and neither a cycle among them nor their set was given", c.Remaining)
	}
	conv := Outcome{Property: Convergence, Verdict: Holds}
	if c.Faulty > 0 {
		res.stab = nil
		conv, _ = LeavingTheModel(conv, faulty)
		return conv, nil
	}
	st := res.stab
	st.WorstSteps, st.Unbounded = c.WorstSteps, unbounded
	if !unbounded && sp.System().Daemon == model.Central {
		st.WorstMoves, st.MovesComputed = st.WorstSteps, true
	}
	st.RoundsNote = c.RoundsNote
	if unbounded {
		st.RoundsNote = "unfair cycles outside L: rounds are not computed on a graph with cycles"
	}
	if len(c.Witness) > 0 {
		states, steps, err := sp.Trace(c.Witness, false)
		if err != nil {
			return Outcome{}, err
		}
		st.Witness = &Counterexample{Kind: Path, States: states, Steps: steps}
	}
	return conv, nil
}

// remainingComponents runs the components analysis of one process over
// the configurations remaining marks (every other one counts as in L:
// those outside L that are not marked reach L in a bounded number of
// steps), under opts.Fairness, with the dead ones (dead, nil: none)
// marked as not converging: a fair cycle (when no configuration is
// dead), and the count of the configurations that do not converge.
func remainingComponents(ctx context.Context, sp *statespace.Space, opts Options, remaining, dead statespace.Bits) (Outcome, uint64, error) {
	fairness := opts.Fairness
	if fairness == "" {
		fairness = NoFairness
	}
	rule, err := ruleFor(sp.System(), fairness)
	if err != nil {
		return Outcome{}, 0, err
	}
	n := sp.Size()
	if err := opts.Search.Memory.Grow(stabilityBytes(n, 1, true)); err != nil {
		describeRefusal(err, fmt.Sprintf("the components analysis of the configurations that remain takes %.1f bytes a configuration over the %d configurations",
			float64(stabilityBytes(n, 1, true))/float64(max(1, n)), n))
		return Outcome{}, 0, err
	}
	settled := statespace.NewBits(n)
	for i, w := range remaining {
		settled[i] = ^w
	}
	stuck := statespace.NewBits(n)
	anyDead := dead != nil && dead.Count() > 0
	if anyDead {
		copy(stuck, dead)
	}
	a := &componentAnalysis{ctx: ctx, sp: sp, g: sp, inL: settled, fairness: fairness, rule: rule, cur: sp.NewCursor(), h: make([]uint16, n),
		shortest: true, work: shortestCycleWork, stuck: stuck, anyStuck: anyDead, lasso: !anyDead}
	if err := statespace.Components(ctx, n, remaining.Has, a.successors, a.component, nil, opts.Search.Memory); err != nil {
		return Outcome{}, 0, err
	}
	if a.cycle == nil {
		return Outcome{Property: Convergence, Verdict: Holds}, stuck.Count(), nil
	}
	ce, err := lassoOf(sp, a.cycle[:1], a.cycle, a.wants, &a.rule)
	if err != nil {
		return Outcome{}, 0, err
	}
	return Outcome{Property: Convergence, Verdict: Violated, Reason: a.reason(), Counterexample: ce}, stuck.Count(), nil
}
