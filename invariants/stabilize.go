package invariants

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/runs"
	"github.com/ringcheck/ringcheck/statespace"
)

// Stabilization is what ringcheck measured of a spec that converges: over
// every configuration and every schedule (fair under the chosen fairness),
// the most steps taken before a legitimate configuration is reached, and a
// witness execution that takes them.
type Stabilization struct {
	Configurations uint64
	Legitimate     uint64
	// WorstSteps is the worst case in steps; Unbounded is set instead when
	// unfair cycles outside L let executions take arbitrarily many steps
	// (each fair execution still converges).
	WorstSteps int
	Unbounded  bool
	// Witness starts in a configuration that needs WorstSteps steps and
	// follows a schedule that takes them, ending in L.
	Witness *Counterexample
	// WorstRounds is the worst case in asynchronous rounds, when
	// RoundsComputed; RoundsNote says why not otherwise.
	WorstRounds    int
	RoundsComputed bool
	RoundsNote     string
}

// hInf marks configurations from which the steps to L are unbounded.
const hInf = 0xFFFF

// stabilityResult is what the analysis of the full space yields.
type stabilityResult struct {
	closure, convergence *Outcome
	stab                 *Stabilization
	configurations       uint64
	transitions          int64
	elapsed              time.Duration
	// swept and phases say how far an analysis that stopped got.
	swept  uint64
	phases []Phase
	// stop is the bound that stopped the analysis after it had decided
	// (a violation found among the configurations it reached, or closure
	// and convergence before the worst case in rounds); its why is
	// Exhausted when none did.
	stop analysisStop
}

// analyseStability decides closure and convergence from every
// configuration, and measures stabilization time when the spec converges.
//
// Phase one walks the whole space in parallel: it marks L in a bit set,
// checks every step from L (closure) and finds configurations outside L
// with no step (deadlocks outside L, which violate convergence). Phase two
// runs an iterative strongly-connected-components search over the
// configurations outside L, whose edges are regenerated from the model, not
// stored. Components come in reverse topological order, so the worst case
// h(v) = 1 + max h(w) over v's successors outside L is known for every
// successor when v completes; a component with a cycle violates
// convergence under no fairness, and under weak fairness when the cycle is
// fair (no process enabled in every one of its configurations without
// moving inside it). Phase one also counts the configurations outside L
// with a faulty step, which LeavingTheModel turns into its verdict.
func analyseStability(ctx context.Context, sys *model.System, opts Options, wantClosure, wantConvergence bool) (*stabilityResult, error) {
	if sys.Legitimate == nil {
		return nil, fmt.Errorf("spec %s declares no legitimacy predicate, so closure and convergence mean nothing for it", sys.Name)
	}
	start := time.Now()
	sp, err := statespace.NewSpace(sys)
	if err != nil {
		return nil, err
	}
	legit := sys.Legitimate.Holds
	workers := max(1, opts.Search.Workers)
	// A stopped analysis reports how far it got.
	partial := &stabilityResult{phases: []Phase{{Name: "sweep of every configuration (closure, deadlocks outside L)", Total: sp.Size()}}}
	stopped := func(err error) (*stabilityResult, error) {
		partial.elapsed = time.Since(start)
		return partial, err
	}
	if err := opts.Search.Memory.Grow(sp.Size() / 8); err != nil {
		return stopped(err)
	}
	inL := statespace.NewBits(sp.Size())
	// The least-ranked violations: closure's with the step's target as
	// detail, deadlock's alone.
	var closureW, deadW witness
	trans := make([]struct {
		n, swept, faulty int64
		_                [40]byte // keep workers' counters on separate cache lines
	}, workers)
	err = sp.Parallel(ctx, workers, func(w int, c *statespace.Cursor, v uint32, st *model.State) error {
		trans[w].swept++
		if legit(st) {
			inL.Set(v)
			n, err := c.Successors(st, func(_ *model.Step, to uint32, next *model.State) {
				if !legit(next) {
					closureW.offer(explore.StateID(v), int(to), nil)
				}
			})
			trans[w].n += int64(n)
			return err
		}
		n, faulty, err := c.Count(st)
		if n == 0 && err == nil {
			deadW.offer(explore.StateID(v), 0, nil)
		}
		if faulty {
			trans[w].faulty++
		}
		trans[w].n += int64(n)
		return err
	})
	var faulty uint64 // configurations outside L with a faulty step
	for _, t := range trans {
		partial.transitions += t.n
		partial.swept += uint64(t.swept)
		faulty += uint64(t.faulty)
	}
	faultyText := strconv.FormatUint(faulty, 10)
	partial.phases[0].Done = partial.swept
	if err != nil {
		return stopped(err)
	}
	res := &stabilityResult{configurations: sp.Size(), stab: &Stabilization{Configurations: sp.Size(), Legitimate: inL.Count()}, transitions: partial.transitions}
	if wantClosure {
		o := Outcome{Property: Closure, Verdict: Holds}
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
	if deadW.found.Load() {
		states, _, err := sp.Trace([]uint32{uint32(deadW.id)}, false)
		if err != nil {
			return nil, err
		}
		conv.Verdict, conv.Reason = Violated, "a configuration outside L has no enabled step"
		conv.Counterexample = &Counterexample{Kind: Path, States: states}
		res.stab = nil
		res.elapsed = time.Since(start)
		return res, nil
	}

	fairness := opts.Fairness
	if fairness == "" {
		fairness = NoFairness
	}
	// Heights (2 bytes a configuration), the heights search's claims and
	// the components search's index (4 each), its roots (a bit).
	if err := opts.Search.Memory.Grow(sp.Size()*10 + sp.Size()/8); err != nil {
		return stopped(err)
	}
	outsideL := sp.Size() - res.stab.Legitimate
	search := Phase{Name: "search of the configurations outside L (convergence)", Total: outsideL}
	partial.phases = append(partial.phases, search)
	rule, err := ruleFor(sys, fairness)
	if err != nil {
		return nil, err
	}
	a := &componentAnalysis{sp: sp, inL: inL, fairness: fairness, rule: rule, cur: sp.NewCursor(), h: make([]uint16, sp.Size()),
		shortest: true, work: shortestCycleWork}
	report := throttledProgress(opts.Search, start, res.transitions)
	var searched atomic.Uint64
	progress := func(done uint64) {
		searched.Store(done)
		if report != nil {
			report(done)
		}
	}
	stoppedSearch := func(err error) (*stabilityResult, error) {
		partial.phases[1].Done = searched.Load()
		return stopped(err)
	}
	outside := func(v uint32) bool { return !inL.Has(v) }
	acyclic := false
	if workers > 1 {
		// Most specs that converge have no cycle outside L: try the
		// parallel heights search first, and fall back to the exact
		// components search if it meets (or cannot rule out) a cycle.
		succ := func(c *statespace.Cursor, v uint32, dst []uint32) ([]uint32, error) {
			return successorsOutside(c, inL, v, dst)
		}
		err = sp.Heights(ctx, workers, outside, succ, a.h, progress)
		switch {
		case err == nil:
			acyclic = true
		case errors.Is(err, statespace.ErrCyclic):
			clear(a.h)
		default:
			return stoppedSearch(err)
		}
	}
	if !acyclic {
		err = sp.Components(ctx, outside, a.successors, a.component, progress, opts.Search.Memory)
		if err != nil && !errors.Is(err, statespace.ErrStop) {
			if a.cycle == nil {
				return stoppedSearch(err)
			}
			// Stopped after a violation: it stands, though a shorter
			// cycle may lie in the components not searched.
			a.shortest = false
		}
	}
	if a.cycle != nil {
		ce, err := lassoOf(sp, a.cycle[:1], a.cycle, a.wants, &a.rule)
		if err != nil {
			return nil, err
		}
		conv.Verdict, conv.Reason, conv.Counterexample = Violated, a.reason(), ce
		conv, _ = LeavingTheModel(conv, faultyText)
		res.stab = nil
		res.elapsed = time.Since(start)
		return res, nil
	}
	if faulty > 0 {
		// Executions through a faulty step leave the model: convergence is
		// unknown, and there is no worst case to measure.
		conv, _ = LeavingTheModel(conv, faultyText)
		res.stab = nil
		res.elapsed = time.Since(start)
		return res, nil
	}
	if err := a.worstCase(res.stab); err != nil {
		return nil, err
	}
	if res.stab.Unbounded {
		res.stab.RoundsNote = "unfair cycles outside L: rounds are not computed on a graph with cycles"
	} else {
		partial.phases[1].Done = outsideL
		partial.phases = append(partial.phases, Phase{Name: "worst case in rounds", Total: 1})
		rounds, _, note, err := runs.WorstRounds(ctx, sp, inL, workers, opts.RoundsLimit, opts.Search.Memory)
		if why, stopped := stopReason(err); stopped {
			// Closure and convergence are decided, and so is the worst
			// case in steps: they stand; the rounds are not computed,
			// and the check is cut.
			res.stab.RoundsNote = fmt.Sprintf("the explicit engine stopped (%s) in the worst case in rounds", why)
			res.stop = analysisStop{why: why, err: err}
			res.phases = partial.phases
			res.elapsed = time.Since(start)
			return res, nil
		}
		if err != nil {
			return nil, err
		}
		res.stab.WorstRounds, res.stab.RoundsComputed, res.stab.RoundsNote = rounds, note == "", note
	}
	res.elapsed = time.Since(start)
	return res, nil
}

// componentAnalysis is the per-component work of the convergence check.
type componentAnalysis struct {
	sp       *statespace.Space
	inL      statespace.Bits
	fairness Fairness
	rule     fairnessRule
	cur      *statespace.Cursor
	h        []uint16
	// cycle is the shortest cycle outside L found so far (configurations,
	// nil: none), wants the class each of its steps must take.
	cycle []uint32
	wants []classSet
	// shortest says cycle is a shortest one of every component searched:
	// each was free of fairness obligations, and searched within work
	// (steps the shortest-cycle searches may still follow).
	shortest bool
	work     int64
}

// shortestCycleWork bounds the steps the searches for a shortest cycle
// follow in one analysis (at about 10 ns a step, a second or two).
const shortestCycleWork = 1 << 27

// reason says what the cycle found is.
func (a *componentAnalysis) reason() string {
	return FairCycle(a.fairness, a.shortest)
}

// FairCycle names a cycle of configurations outside L that is fair under
// f (a shortest one when shortest is set), as a convergence violation's
// reason says it: "a weakly fair cycle of configurations outside L", "a
// cycle of configurations outside L, strongly fair per action".
func FairCycle(f Fairness, shortest bool) string {
	what := "a cycle"
	if shortest {
		what = "a shortest cycle"
	}
	switch f {
	case WeakFairness:
		what = strings.Replace(what, "cycle", "weakly fair cycle", 1)
	case StrongFairness:
		what = strings.Replace(what, "cycle", "strongly fair cycle", 1)
	}
	what += " of configurations outside L"
	switch f {
	case WeakActionFairness:
		what += ", weakly fair per action"
	case StrongActionFairness:
		what += ", strongly fair per action"
	}
	return what
}

// successors appends v's successors outside L.
func (a *componentAnalysis) successors(v uint32, dst []uint32) ([]uint32, error) {
	return successorsOutside(a.cur, a.inL, v, dst)
}

// successorsOutside appends v's successors outside L, expanded with c.
func successorsOutside(c *statespace.Cursor, inL statespace.Bits, v uint32, dst []uint32) ([]uint32, error) {
	st, err := c.Load(v)
	if err != nil {
		return dst, err
	}
	_, err = c.Successors(st, func(_ *model.Step, to uint32, _ *model.State) {
		if !inL.Has(to) {
			dst = append(dst, to)
		}
	})
	return dst, err
}

func (a *componentAnalysis) component(members []uint32, succs []uint32) error {
	if len(members) == 1 && !slices.Contains(succs, members[0]) {
		v := members[0]
		h := 0
		for _, w := range succs {
			h = max(h, int(a.h[w]))
		}
		switch {
		case h == hInf:
		case h+1 >= hInf:
			return fmt.Errorf("configuration %d needs more than %d steps to reach L, more than ringcheck records", v, hInf-1)
		default:
			h++
		}
		a.h[v] = uint16(h)
		return nil
	}
	// A cycle outside L: a violation if some cycle in the component is
	// fair (every cycle, under no fairness, unless finite actions such as
	// leaving a critical section are starved on it).
	lg, err := buildLocal(a.sp, a.cur, members, &a.rule)
	if err != nil {
		return err
	}
	for _, v := range members {
		a.h[v] = hInf
	}
	part := lg.fairPart(a.rule)
	if part == nil {
		return nil
	}
	// Every configuration is a starting point: the lasso is a cycle. Where
	// no obligation of fairness is enabled, every cycle of the part is
	// fair and the shortest is searched for; otherwise the cycle is one
	// built to meet the obligations, not necessarily a shortest one.
	bound := math.MaxInt
	if a.cycle != nil {
		bound = len(a.cycle)
	}
	var local []int32
	var wants []classSet
	if lg.obligations(part, a.rule).empty() {
		var complete bool
		local, complete = lg.shortestCycle(part, bound, &a.work)
		a.shortest = a.shortest && complete
		wants = make([]classSet, len(local))
	} else {
		a.shortest = false
		if local, wants = lg.fairCycle(part, slices.Min(part), a.rule); len(local) >= bound {
			local = nil
		}
	}
	if local != nil {
		a.cycle, a.wants = make([]uint32, len(local)), wants
		for i, v := range local {
			a.cycle[i] = lg.ids[v]
		}
	}
	if len(a.cycle) == 1 {
		// No cycle is shorter than a step to itself.
		a.shortest = true
		return statespace.ErrStop
	}
	return nil
}

// worstCase fills in the worst case and its witness: the least-ranked
// configuration with the greatest h, and a schedule that follows
// successors one step closer each time.
func (a *componentAnalysis) worstCase(stab *Stabilization) error {
	worst, at := 0, uint32(0)
	for v, h := range a.h {
		if a.inL.Has(uint32(v)) {
			continue
		}
		if h == hInf {
			stab.Unbounded = true
			continue
		}
		if int(h) > worst {
			worst, at = int(h), uint32(v)
		}
	}
	stab.WorstSteps = worst
	if worst == 0 {
		return nil
	}
	ranks := []uint32{at}
	for v := at; !a.inL.Has(v); {
		want := int(a.h[v]) - 1
		st, err := a.cur.Load(v)
		if err != nil {
			return err
		}
		next, found := uint32(0), false
		_, err = a.cur.Successors(st, func(_ *model.Step, to uint32, _ *model.State) {
			if found {
				return
			}
			hTo := 0
			if !a.inL.Has(to) {
				hTo = int(a.h[to])
			}
			if hTo == want {
				next, found = to, true
			}
		})
		if err != nil {
			return err
		}
		if !found {
			return fmt.Errorf("configuration %d: no successor one step closer to L", v)
		}
		ranks = append(ranks, next)
		v = next
	}
	states, steps, err := a.sp.Trace(ranks, false)
	if err != nil {
		return err
	}
	stab.Witness = &Counterexample{Kind: Path, States: states, Steps: steps}
	return nil
}
