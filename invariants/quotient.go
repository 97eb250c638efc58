package invariants

import (
	"context"
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/runs"
	"github.com/ringcheck/ringcheck/statespace"
)

// quotientPhase is the first phase of an analysis with symmetry
// reduction: the sweep that finds the canonical configurations.
const quotientPhase = "sweep of every configuration for the representatives of the orbits (symmetry reduction)"

// analyseQuotient is analyseStability over the quotient of the full space
// by the system's symmetry group (Options.Search.Symmetry): one
// representative per orbit is stored and expanded, each step leading to
// the orbit of its successor. L, closure from, the steps and the central
// daemon commute with the group (the language's checker proves it), so
// closure holds on an orbit's representative iff on the orbit, a
// configuration outside L without a step is one iff its representative
// is, a cycle of orbits outside L lifts to a cycle of configurations, and
// the longest path outside L from an orbit is the longest from each of
// its configurations. A component of orbits with a cycle is analysed on
// its configurations, in the full space, for the fairness every spec
// grants finite actions and timeouts (per process), and the cycle it
// yields is concrete. The counts are the full space's: each orbit weighs
// its size (the group's order over the elements fixing it). The worst
// case's witness is the lift of a longest path of orbits from a
// representative; the worst case in rounds is computed on the full space.
func analyseQuotient(ctx context.Context, sys *model.System, opts Options, wantClosure, wantConvergence bool) (*stabilityResult, error) {
	start := time.Now()
	sp, err := statespace.NewSpace(sys)
	if err != nil {
		return nil, err
	}
	legit, closesFrom := sys.Legitimate.Holds, closureFrom(sys)
	workers := max(1, opts.Search.Workers)
	mem := opts.Search.Memory
	partial := &stabilityResult{phases: []Phase{{Name: quotientPhase, Total: sp.Size()}}}
	stopped := func(err error) (*stabilityResult, error) {
		partial.elapsed = time.Since(start)
		return partial, err
	}
	q, err := statespace.NewQuotient(ctx, sp, workers, mem)
	if err != nil {
		describeRefusal(err, fmt.Sprintf("symmetry reduction indexes the %d configurations with %d bytes, and then takes 4 bytes an orbit, so nothing was analysed", sp.Size(), statespace.QuotientIndexBytes(sp.Size())))
		return stopped(err)
	}
	orbits := q.Size()
	partial.phases[0].Done = sp.Size()
	partial.orbits = orbits
	sweep := Phase{Name: "sweep of every orbit (closure, deadlocks outside L)", Total: orbits}
	partial.phases = append(partial.phases, sweep)
	var convergenceRefused error
	if wantConvergence {
		if err := mem.Grow(stabilityBytes(orbits, 1, true)); err != nil {
			undone := "so nothing was swept"
			if wantClosure {
				undone = "so convergence was not analysed"
			}
			describeRefusal(err, fmt.Sprintf("deciding convergence over the %d orbits takes %.1f bytes an orbit (L's bit set, the heights, the search's index), %s",
				orbits, float64(stabilityBytes(orbits, 1, true))/float64(max(1, orbits)), undone))
			if !wantClosure {
				return stopped(err)
			}
			convergenceRefused = err
		}
	}
	if err := mem.Grow(stabilityBytes(orbits, 1, false)); err != nil {
		return stopped(err)
	}
	inL := statespace.NewBits(orbits)
	var stuck statespace.Bits
	if wantConvergence && convergenceRefused == nil {
		stuck = statespace.NewBits(orbits)
	}
	// The least-ranked representatives with a violation: closure's with
	// the rank of the step's target as detail, deadlock's alone.
	var closureW, deadW witness
	trans := make([]struct {
		n, swept, faulty, distinct, legit, orbits int64
		ranks                                     []uint32
		_                                         [8]byte
	}, workers)
	err = q.Parallel(ctx, workers, func(w int, qw *statespace.QuotientWalker, d uint32, st *model.State) error {
		t := &trans[w]
		size := int64(qw.OrbitSize(st))
		r := q.Rank(d)
		t.orbits++
		t.swept += size
		t.ranks = t.ranks[:0]
		if legit(st) {
			inL.Set(d)
			t.legit += size
			closes := closesFrom(st)
			n, err := qw.Cursor().SuccessorsOf(st, r, func(_ *model.Step, to uint32, next *model.State) {
				t.ranks = append(t.ranks, to)
				if closes && !legit(next) {
					closureW.offer(explore.StateID(r), int(to), nil)
				}
			})
			t.n += size * int64(n)
			t.distinct += size * int64(explore.CountDistinct(t.ranks))
			return err
		}
		faulty := false
		n, err := qw.Cursor().SuccessorsOf(st, r, func(step *model.Step, to uint32, _ *model.State) {
			t.ranks = append(t.ranks, to)
			faulty = faulty || step.Faulty()
		})
		t.distinct += size * int64(explore.CountDistinct(t.ranks))
		if n == 0 && err == nil {
			deadW.offer(explore.StateID(r), 0, nil)
			if stuck != nil {
				stuck.Set(d)
			}
		}
		if faulty {
			t.faulty += size
		}
		t.n += size * int64(n)
		return err
	})
	var faulty, legitimate uint64
	for _, t := range trans {
		partial.transitions += t.n
		partial.distinct += t.distinct
		partial.swept += uint64(t.swept)
		partial.phases[1].Done += uint64(t.orbits)
		faulty += uint64(t.faulty)
		legitimate += uint64(t.legit)
	}
	if err != nil {
		return stopped(err)
	}
	faultyText := strconv.FormatUint(faulty, 10)
	res := &stabilityResult{configurations: sp.Size(), orbits: orbits, stab: &Stabilization{Configurations: sp.Size(), Legitimate: legitimate},
		transitions: partial.transitions, distinct: partial.distinct, legitimate: &legitimate}
	if wantClosure {
		o := Outcome{Property: Closure, Verdict: Holds, Reason: ClosureHoldsReason(sys)}
		if closureW.found.Load() {
			states, steps, err := sp.Trace([]uint32{uint32(closureW.id), uint32(closureW.detail)}, false)
			if err != nil {
				return nil, err
			}
			o.Verdict, o.Reason = Violated, "a step from a legitimate configuration leaves L"
			o.Counterexample = &Counterexample{Kind: Path, States: states, Steps: steps}
		}
		res.closure = &o
	}
	if !wantConvergence {
		res.elapsed = time.Since(start)
		return res, nil
	}
	conv := Outcome{Property: Convergence, Verdict: Holds}
	res.convergence = &conv
	dead := deadW.found.Load()
	if dead {
		states, _, err := sp.Trace([]uint32{uint32(deadW.id)}, false)
		if err != nil {
			return nil, err
		}
		conv.Verdict, conv.Reason = Violated, "a configuration outside L has no enabled step"
		conv.Counterexample = &Counterexample{Kind: Path, States: states}
		res.stab = nil
		if stuck == nil {
			res.elapsed = time.Since(start)
			return res, nil
		}
	}
	uncounted := func(err error) (*stabilityResult, error) {
		why, stopped := stopReason(err)
		if !stopped {
			return nil, err
		}
		conv.Reason += "; the configurations that do not converge were not counted: " + stopText(why, err)
		res.stop = analysisStop{why: why, err: err}
		res.phases = partial.phases
		res.elapsed = time.Since(start)
		return res, nil
	}
	outsideL := orbits - inL.Count()
	search := Phase{Name: "search of the orbits outside L (convergence)", Total: outsideL}
	if convergenceRefused != nil {
		conv = Outcome{Property: Convergence, Verdict: Unknown, Reason: stopText(explore.MemoryBound, convergenceRefused)}
		res.stab = nil
		res.stop = analysisStop{why: explore.MemoryBound, err: convergenceRefused}
		res.phases = append(partial.phases, search)
		res.elapsed = time.Since(start)
		return res, nil
	}
	partial.phases = append(partial.phases, search)
	if err := mem.Grow(stabilityBytes(orbits, 1, true) - 2*stabilityBytes(orbits, 1, false)); err != nil {
		if dead {
			return uncounted(err)
		}
		return stopped(err)
	}
	fairness := opts.Fairness
	if fairness == "" {
		fairness = NoFairness
	}
	rule, err := ruleFor(sys, fairness)
	if err != nil {
		return nil, err
	}
	lift := func(members []uint32) ([]uint32, error) {
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
	a := &componentAnalysis{ctx: ctx, sp: sp, g: q, inL: inL, fairness: fairness, rule: rule, cur: q.NewWalker(), h: make([]uint16, orbits),
		shortest: true, work: shortestCycleWork, stuck: stuck, anyStuck: dead, lasso: !dead, lift: lift, spCur: sp.NewCursor()}
	report := throttledProgress(opts.Search, start, res.transitions)
	var searched atomic.Uint64
	progress := func(done uint64) {
		searched.Store(done)
		if report != nil {
			report(done)
		}
	}
	outside := func(v uint32) bool { return !inL.Has(v) }
	var cut error
	if err := statespace.Components(ctx, orbits, outside, a.successors, a.component, progress, mem); err != nil {
		if a.cycle == nil && !dead {
			partial.phases[2].Done = searched.Load()
			return stopped(err)
		}
		a.shortest, cut = false, err
		partial.phases[2].Done = searched.Load()
	}
	if a.cycle != nil || dead {
		if a.cycle != nil {
			ce, err := lassoOf(sp, a.cycle[:1], a.cycle, a.wants, &a.rule)
			if err != nil {
				return nil, err
			}
			conv.Verdict, conv.Reason, conv.Counterexample = Violated, a.reason(), ce
		}
		res.stab = nil
		if cut != nil {
			res, err := uncounted(cut)
			if !dead {
				conv, _ = LeavingTheModel(conv, faultyText)
			}
			return res, err
		}
		count, err := configurationsOf(q, stuck)
		if err != nil {
			return nil, err
		}
		conv.Stuck = strconv.FormatUint(count, 10)
		conv.Reason += "; " + DoNotConverge(conv.Stuck)
		if !dead {
			conv, _ = LeavingTheModel(conv, faultyText)
		}
		res.elapsed = time.Since(start)
		return res, nil
	}
	if faulty > 0 {
		conv, _ = LeavingTheModel(conv, faultyText)
		res.stab = nil
		res.elapsed = time.Since(start)
		return res, nil
	}
	partial.phases[2].Done = outsideL
	if err := a.worstCase(ctx, res.stab, mem); err != nil {
		if why, stopped := stopReason(err); stopped {
			res.stab = nil
			res.stop = analysisStop{why: why, err: err}
			res.phases = partial.phases
			res.elapsed = time.Since(start)
			return res, nil
		}
		return nil, err
	}
	if res.stab.Unbounded {
		res.stab.RoundsNote = "unfair cycles outside L: rounds are not computed on a graph with cycles"
		res.elapsed = time.Since(start)
		return res, nil
	}
	partial.phases = append(partial.phases, Phase{Name: "worst case in rounds", Total: 1})
	roundsStopped := func(why explore.StopReason, err error) (*stabilityResult, error) {
		res.stab.RoundsNote = fmt.Sprintf("the explicit engine stopped (%s) in the worst case in rounds", why)
		res.stop = analysisStop{why: why, err: err}
		res.phases = partial.phases
		res.elapsed = time.Since(start)
		return res, nil
	}
	// Rounds follow every process of a configuration: they are computed
	// on the full space, with L marked by rank.
	full, err := legitimateRanks(ctx, sp, workers, opts)
	if why, stopped := stopReason(err); stopped {
		return roundsStopped(why, err)
	}
	if err != nil {
		return nil, err
	}
	rounds, _, note, err := runs.WorstRounds(ctx, sp, full, workers, opts.RoundsLimit, mem)
	if why, stopped := stopReason(err); stopped {
		return roundsStopped(why, err)
	}
	if err != nil {
		return nil, err
	}
	res.stab.WorstRounds, res.stab.RoundsComputed, res.stab.RoundsNote = rounds, note == "", note
	res.elapsed = time.Since(start)
	return res, nil
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

// configurationsOf counts the configurations of the orbits set marks.
func configurationsOf(q *statespace.Quotient, set statespace.Bits) (uint64, error) {
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
