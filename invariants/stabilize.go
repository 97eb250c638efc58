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

	"github.com/ringcheck/ringcheck/budget"
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
	// WorstMoves, when MovesComputed, is the worst case in moves (a move
	// is one process executing one action): the most moves an execution
	// makes before it reaches L, each step counting the processes that
	// act in it. Under the central daemon it is WorstSteps; under the
	// distributed and synchronous daemons a step may make several.
	WorstMoves    int
	MovesComputed bool
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
	// orbits counts the orbits the analysis stored, with symmetry
	// reduction (0 without).
	orbits      uint64
	transitions int64
	// distinct counts the distinct pairs of a configuration and a
	// successor among the transitions.
	distinct int64
	// legitimate counts L's configurations once the sweep has seen them
	// all (nil before).
	legitimate *uint64
	elapsed    time.Duration
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
//
// When convergence fails, the components search runs to its end to count
// the configurations that do not converge (Outcome.Stuck): those outside
// L from which some path outside L reaches a configuration with no step
// or a component with a fair cycle. In reverse topological order, a
// component is stuck when it has a fair cycle, is dead, or has a step to
// a stuck component; this is the symbolic engine's count.
//
// With Options.Search.Symmetry both phases run over the quotient of the
// space by the system's symmetry group instead, after a sweep that finds
// the orbits' representatives (stabilityGraph says what differs).
func analyseStability(ctx context.Context, sys *model.System, opts Options, wantClosure, wantConvergence bool) (*stabilityResult, error) {
	if sys.Legitimate == nil {
		return nil, fmt.Errorf("spec %s declares no legitimacy predicate, so closure and convergence mean nothing for it", sys.Name)
	}
	start := time.Now()
	sp, err := statespace.NewSpace(sys)
	if err != nil {
		return nil, err
	}
	legit, closesFrom := sys.Legitimate.Holds, ClosureFrom(sys)
	workers := max(1, opts.Search.Workers)
	mem := opts.Search.Memory
	// A stopped analysis reports how far it got.
	partial := &stabilityResult{}
	stopped := func(err error) (*stabilityResult, error) {
		partial.elapsed = time.Since(start)
		return partial, err
	}
	g := fullSpaceGraph(sp, workers)
	if opts.Search.Symmetry {
		if g, err = quotientGraph(ctx, sp, workers, mem, partial); err != nil {
			return stopped(err)
		}
	}
	n := g.size()
	sweepAt, searchAt := len(partial.phases), len(partial.phases)+1
	partial.phases = append(partial.phases, Phase{Name: g.sweepPhase, Total: n})
	// Every phase's arrays are sized by the vertices, known before the
	// sweep: an instance whose convergence analysis cannot fit stops now,
	// not after sweeping them all.
	var convergenceRefused error
	if wantConvergence {
		if err := mem.Grow(stabilityBytes(n, g.claims, true)); err != nil {
			undone := "so nothing was swept"
			if wantClosure {
				// Closure needs the sweep alone: it is still decided.
				undone = "so convergence was not analysed"
			}
			describeRefusal(err, fmt.Sprintf(g.convergenceBytes, n, float64(stabilityBytes(n, g.claims, true))/float64(max(1, n)), undone))
			if !wantClosure {
				return stopped(err)
			}
			convergenceRefused = err
		}
	}
	if err := mem.Grow(stabilityBytes(n, g.claims, false)); err != nil {
		return stopped(err)
	}
	inL := statespace.NewBits(n)
	// stuck marks the vertices that do not converge: the dead ones
	// outside L now, the rest in the components search.
	var stuck statespace.Bits
	if wantConvergence && convergenceRefused == nil {
		stuck = statespace.NewBits(n)
	}
	// The least-ranked violations: closure's with the rank of the step's
	// target as detail, deadlock's alone.
	var closureW, deadW witness
	// Each worker counts the vertices swept, and, each weighing the
	// configurations it stands for, the steps, the distinct successors of
	// each configuration among them by rank, and the configurations.
	trans := make([]struct {
		n, swept, faulty, distinct, legit, vertices int64
		ranks                                       []uint32
		_                                           [8]byte // keep workers' counters on separate cache lines
	}, workers)
	err = g.sweep(ctx, workers, func(w int, c *statespace.Cursor, v, r uint32, weight int64, st *model.State) error {
		t := &trans[w]
		t.vertices++
		t.swept += weight
		t.ranks = t.ranks[:0]
		if legit(st) {
			inL.Set(v)
			t.legit += weight
			closes := closesFrom(st)
			n, err := c.SuccessorsOf(st, r, func(_ *model.Step, to uint32, next *model.State) {
				t.ranks = append(t.ranks, to)
				if closes && !legit(next) {
					closureW.offer(explore.StateID(r), int(to), nil)
				}
			})
			t.n += weight * int64(n)
			t.distinct += weight * int64(explore.CountDistinct(t.ranks))
			return err
		}
		faulty := false
		n, err := c.SuccessorsOf(st, r, func(step *model.Step, to uint32, _ *model.State) {
			t.ranks = append(t.ranks, to)
			faulty = faulty || step.Faulty()
		})
		t.distinct += weight * int64(explore.CountDistinct(t.ranks))
		if n == 0 && err == nil {
			deadW.offer(explore.StateID(r), 0, nil)
			if stuck != nil {
				stuck.Set(v)
			}
		}
		if faulty {
			t.faulty += weight
		}
		t.n += weight * int64(n)
		return err
	})
	var faulty, legitimate uint64 // configurations outside L with a faulty step, in L
	for _, t := range trans {
		partial.transitions += t.n
		partial.distinct += t.distinct
		partial.swept += uint64(t.swept)
		partial.phases[sweepAt].Done += uint64(t.vertices)
		faulty += uint64(t.faulty)
		legitimate += uint64(t.legit)
	}
	faultyText := strconv.FormatUint(faulty, 10)
	if err != nil {
		return stopped(err)
	}
	res := &stabilityResult{configurations: sp.Size(), orbits: partial.orbits, stab: &Stabilization{Configurations: sp.Size(), Legitimate: legitimate},
		transitions: partial.transitions, distinct: partial.distinct, legitimate: &legitimate}
	if wantClosure {
		if res.closure, err = closureOutcome(sp, closureW.found.Load(), uint32(closureW.id), uint32(closureW.detail)); err != nil {
			return nil, err
		}
	}
	if !wantConvergence {
		res.elapsed = time.Since(start)
		return res, nil
	}
	conv := Outcome{Property: Convergence, Verdict: Holds}
	res.convergence = &conv
	dead := deadW.found.Load()
	if dead {
		if conv, err = deadOutcome(sp, uint32(deadW.id)); err != nil {
			return nil, err
		}
		res.stab = nil
		if stuck == nil {
			res.elapsed = time.Since(start)
			return res, nil
		}
	}
	// uncounted ends the analysis of a violation whose count a bound cut.
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
	outsideL := n - inL.Count()
	search := Phase{Name: g.searchPhase, Total: outsideL}
	if convergenceRefused != nil {
		// The sweep found no deadlock outside L; the search for cycles
		// did not fit.
		conv = Outcome{Property: Convergence, Verdict: Unknown, Reason: stopText(explore.MemoryBound, convergenceRefused)}
		res.stab = nil
		res.stop = analysisStop{why: explore.MemoryBound, err: convergenceRefused}
		res.phases = append(partial.phases, search)
		res.elapsed = time.Since(start)
		return res, nil
	}
	// Heights, the heights search's claims, the components search's
	// index and roots: asked again, now that L's bit set and the stuck
	// set are in the heap.
	partial.phases = append(partial.phases, search)
	if err := mem.Grow(stabilityBytes(n, g.claims, true) - 2*stabilityBytes(n, g.claims, false)); err != nil {
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
	a := &componentAnalysis{ctx: ctx, sp: sp, g: sp, inL: inL, fairness: fairness, rule: rule, cur: sp.NewCursor(), h: make([]uint16, n),
		shortest: true, work: shortestCycleWork, stuck: stuck, anyStuck: dead, lasso: !dead}
	if g.q != nil {
		a.overQuotient(g.q)
	}
	report := throttledProgress(opts.Search, start, res.transitions)
	var searched atomic.Uint64
	progress := func(done uint64) {
		searched.Store(done)
		if report != nil {
			report(done)
		}
	}
	stoppedSearch := func(err error) (*stabilityResult, error) {
		partial.phases[searchAt].Done = searched.Load()
		return stopped(err)
	}
	outside := func(v uint32) bool { return !inL.Has(v) }
	acyclic := false
	if g.q == nil && workers > 1 && !dead {
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
	var cut error // a bound that stopped the count of a violation
	if !acyclic {
		err = statespace.Components(ctx, n, outside, a.successors, a.component, progress, mem)
		if err != nil {
			if a.cycle == nil && !dead {
				return stoppedSearch(err)
			}
			// Stopped after a violation: it stands, though a shorter
			// cycle may lie in the components not searched, and the
			// configurations that do not converge are not all counted.
			a.shortest, cut = false, err
			partial.phases[searchAt].Done = searched.Load()
		}
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
		count, err := g.configurationsOf(stuck)
		if err != nil {
			return nil, err
		}
		conv = withStuck(conv, count, dead, faultyText)
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
	partial.phases[searchAt].Done = outsideL
	if err := a.worstCase(ctx, res.stab, mem); err != nil {
		if why, stopped := stopReason(err); stopped {
			// Closure and convergence are decided and stand; the worst
			// case is not, and the check is cut.
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
	// Closure and convergence are decided, and so is the worst case in
	// steps: they stand; when a bound stops the rounds, they are not
	// computed, and the check is cut.
	roundsStopped := func(why explore.StopReason, err error) (*stabilityResult, error) {
		res.stab.RoundsNote = fmt.Sprintf("the explicit engine stopped (%s) in the worst case in rounds", why)
		res.stop = analysisStop{why: why, err: err}
		res.phases = partial.phases
		res.elapsed = time.Since(start)
		return res, nil
	}
	// Rounds follow every process of a configuration: they are computed
	// on the full space, with L marked by rank.
	full, err := g.legitimateRanks(ctx, workers, opts, inL)
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

// closureOutcome is closure's outcome over sp: violated, when found, by
// the step from configuration from to configuration to (ranks), and
// holds otherwise.
func closureOutcome(sp *statespace.Space, found bool, from, to uint32) (*Outcome, error) {
	sys := sp.System()
	o := Outcome{Property: Closure, Verdict: Holds, Reason: ClosureHoldsReason(sys)}
	if found {
		states, steps, err := sp.Trace([]uint32{from, to}, false)
		if err != nil {
			return nil, err
		}
		o.Verdict, o.Reason = Violated, "a step from a legitimate configuration leaves L"
		o.Counterexample = &Counterexample{Kind: Path, States: states, Steps: steps}
	}
	return &o, nil
}

// deadOutcome is convergence violated by configuration dead (a rank of
// sp), outside L with no step.
func deadOutcome(sp *statespace.Space, dead uint32) (Outcome, error) {
	states, _, err := sp.Trace([]uint32{dead}, false)
	if err != nil {
		return Outcome{}, err
	}
	return Outcome{Property: Convergence, Verdict: Violated, Reason: "a configuration outside L has no enabled step",
		Counterexample: &Counterexample{Kind: Path, States: states}}, nil
}

// withStuck is conv, a violation, with the count of the configurations
// that do not converge; unless a dead configuration is its
// counterexample, a faulty step from faulty configurations outside L
// (a count, as text) leaves it unknown as LeavingTheModel says.
func withStuck(conv Outcome, count uint64, dead bool, faulty string) Outcome {
	conv.Stuck = strconv.FormatUint(count, 10)
	conv.Reason += "; " + DoNotConverge(conv.Stuck)
	if !dead {
		conv, _ = LeavingTheModel(conv, faulty)
	}
	return conv
}

// stabilityGraph is the graph analyseStability searches: the full space
// sp, whose vertices are the configurations' ranks, or, with q set, its
// quotient by the symmetry group, whose vertices are the orbits.
type stabilityGraph struct {
	sp *statespace.Space
	q  *statespace.Quotient
	// claims is the workers whose claims the heights search holds (1: no
	// parallel heights search, as on the quotient).
	claims int
	// sweepPhase and searchPhase name the two phases; convergenceBytes is
	// the format of the budget's refusal of convergence (the vertices, the
	// bytes a vertex, what was not done).
	sweepPhase, searchPhase, convergenceBytes string
}

// fullSpaceGraph is the stabilityGraph of sp itself, searched on workers.
func fullSpaceGraph(sp *statespace.Space, workers int) stabilityGraph {
	return stabilityGraph{sp: sp, claims: workers,
		sweepPhase:       "sweep of every configuration (closure, deadlocks outside L)",
		searchPhase:      "search of the configurations outside L (convergence)",
		convergenceBytes: "deciding convergence over the %d configurations takes %.1f bytes a configuration (L's bit set, the heights, the searches' claims and index), %s"}
}

// size is the number of vertices.
func (g stabilityGraph) size() uint64 {
	if g.q != nil {
		return g.q.Size()
	}
	return g.sp.Size()
}

// sweep calls fn for every vertex v on workers goroutines, with the
// worker's cursor over the full space, the rank r of v's configuration
// (its representative's), the configurations v stands for and that
// configuration, valid only during the call. The first error stops the
// sweep and is returned; so does ctx's cancellation.
func (g stabilityGraph) sweep(ctx context.Context, workers int, fn func(worker int, c *statespace.Cursor, v, r uint32, weight int64, st *model.State) error) error {
	if g.q != nil {
		return sweepQuotient(ctx, g.q, workers, fn)
	}
	return g.sp.Parallel(ctx, workers, func(w int, c *statespace.Cursor, v uint32, st *model.State) error {
		return fn(w, c, v, v, 1, st)
	})
}

// configurationsOf counts the configurations of the vertices set marks.
func (g stabilityGraph) configurationsOf(set statespace.Bits) (uint64, error) {
	if g.q != nil {
		return orbitConfigurations(g.q, set)
	}
	return set.Count(), nil
}

// legitimateRanks returns L as a bit set indexed by the full space's
// ranks, given inL indexed by the vertices: inL itself on the full space,
// and on the quotient a new set, marked on workers, asked of the budget.
func (g stabilityGraph) legitimateRanks(ctx context.Context, workers int, opts Options, inL statespace.Bits) (statespace.Bits, error) {
	if g.q != nil {
		return legitimateRanks(ctx, g.sp, workers, opts)
	}
	return inL, nil
}

// stabilityBytes is what the analysis of a space of n configurations
// holds: L's bit set and, for convergence, the set of configurations that
// do not converge (a bit), the heights (2 bytes a configuration), the
// components search's index (4) and roots (a bit), and with several
// workers the heights search's claims (4).
func stabilityBytes(n uint64, workers int, convergence bool) uint64 {
	bits := (n + 63) / 64 * 8
	if !convergence {
		return bits
	}
	need := 3*bits + 6*n
	if workers > 1 {
		need += 4 * n
	}
	return need
}

// describeRefusal makes the budget's refusal err say what needed the
// bytes and what was not done.
func describeRefusal(err error, detail string) {
	var ex *budget.Exceeded
	if errors.As(err, &ex) {
		ex.Detail = detail
	}
}

// componentAnalysis is the per-component work of the convergence check.
type componentAnalysis struct {
	// ctx stops the expansion of a large component.
	ctx context.Context
	// sp is the full space; g is the graph searched, sp itself or its
	// quotient by the symmetry group, whose vertices inL, h and stuck
	// index, and cur walks g.
	sp       *statespace.Space
	g        statespace.Graph
	inL      statespace.Bits
	fairness Fairness
	rule     fairnessRule
	cur      statespace.Walker
	h        []uint16
	// lift, on the quotient, returns the ranks of the configurations of
	// the orbits members, sorted: a component with a cycle is analysed
	// on them, in the full space (walked by spCur), so that the fairness
	// of each process's moves and the cycle found are concrete. cycle
	// then holds ranks of the full space.
	lift  func(members []uint32) ([]uint32, error)
	spCur statespace.Walker
	// cycle is the shortest cycle outside L found so far (configurations,
	// nil: none), wants the class each of its steps must take.
	cycle []uint32
	wants []classSet
	// shortest says cycle is a shortest one of every component searched:
	// each was free of fairness obligations, and searched within work
	// (steps the shortest-cycle searches may still follow).
	shortest bool
	work     int64
	// stuck marks the configurations that do not converge (nil: not
	// counted); anyStuck says one is marked. lasso says a cycle is
	// wanted as the counterexample (not when a dead configuration is).
	stuck    statespace.Bits
	anyStuck bool
	lasso    bool
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
func successorsOutside(c statespace.Walker, inL statespace.Bits, v uint32, dst []uint32) ([]uint32, error) {
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
		if a.anyStuck && !a.stuck.Has(v) && slices.ContainsFunc(succs, a.stuck.Has) {
			a.stuck.Set(v)
		}
		return nil
	}
	// A cycle outside L: a violation if some cycle in the component is
	// fair (every cycle, under no fairness, unless finite actions such as
	// leaving a critical section are starved on it).
	ids, g, w := members, a.g, a.cur
	if a.lift != nil {
		var err error
		if ids, err = a.lift(members); err != nil {
			return err
		}
		g, w = a.sp, a.spCur
	}
	lg, err := buildLocal(a.ctx, g, w, ids, &a.rule)
	if err != nil {
		return err
	}
	for _, v := range members {
		a.h[v] = hInf
	}
	part := lg.fairPart(a.rule)
	if part == nil {
		return a.inherit(members)
	}
	if a.stuck != nil {
		for _, v := range members {
			a.stuck.Set(v)
		}
		a.anyStuck = true
	}
	if !a.lasso || len(a.cycle) == 1 {
		// The counterexample is a dead configuration, or a cycle than
		// which none is shorter: only the count goes on.
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
		if a.stuck == nil {
			return statespace.ErrStop
		}
	}
	return nil
}

// worstMoves fills in the worst case in moves of a space whose
// configurations outside L all reach L: the worst case in steps under the
// central daemon, where a step is one move, and otherwise a search of the
// longest path outside L weighted by moves, over an array of 4 bytes a
// configuration asked of mem.
func (a *componentAnalysis) worstMoves(ctx context.Context, stab *Stabilization, mem *budget.Memory) error {
	if a.sp.System().Daemon == model.Central {
		stab.WorstMoves, stab.MovesComputed = stab.WorstSteps, true
		return nil
	}
	if err := mem.Grow(4 * a.sp.Size()); err != nil {
		describeRefusal(err, fmt.Sprintf("the worst case in moves takes 4 bytes a configuration over the %d configurations", a.sp.Size()))
		return err
	}
	moves, err := a.sp.WorstMoves(ctx, func(v uint32) bool { return !a.inL.Has(v) }, make([]uint32, a.sp.Size()))
	if err != nil {
		return err
	}
	if moves > math.MaxInt32 {
		return fmt.Errorf("an execution of more than %d moves", math.MaxInt32)
	}
	stab.WorstMoves, stab.MovesComputed = int(moves), true
	return nil
}

// inherit marks the members of a component without a fair cycle as not
// converging when one of them has a step to a configuration that does
// not (its component was reported before: the order is reverse
// topological). Until some configuration is marked, none can be.
func (a *componentAnalysis) inherit(members []uint32) error {
	if !a.anyStuck {
		return nil
	}
	found := false
	for _, v := range members {
		st, err := a.cur.Load(v)
		if err != nil {
			return err
		}
		if _, err = a.cur.Successors(st, func(_ *model.Step, to uint32, _ *model.State) {
			found = found || a.stuck.Has(to)
		}); err != nil {
			return err
		}
		if found {
			for _, w := range members {
				a.stuck.Set(w)
			}
			return nil
		}
	}
	return nil
}

// worstCase fills in the worst case and its witness: the least-ranked
// configuration with the greatest h, and a schedule that follows
// successors one step closer each time; and the worst case in moves, a
// longest path outside L where each step weighs its moves (under the
// central daemon, the worst case in steps). A cancelled ctx, or mem's
// refusal of the moves' array, stops it (its error is returned).
func (a *componentAnalysis) worstCase(ctx context.Context, stab *Stabilization, mem *budget.Memory) error {
	worst, at := 0, uint32(0)
	for v, h := range a.h {
		if v&(1<<20-1) == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
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
	if !stab.Unbounded {
		if err := a.worstMoves(ctx, stab, mem); err != nil {
			return err
		}
	}
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
	states, steps, err := a.g.Trace(ranks, false)
	if err != nil {
		return err
	}
	stab.Witness = &Counterexample{Kind: Path, States: states, Steps: steps}
	return nil
}
