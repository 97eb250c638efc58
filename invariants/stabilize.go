package invariants

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/model"
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
}

// minWitness keeps the least-ranked violation of one kind, with the edge
// that shows it.
type minWitness struct {
	mu       sync.Mutex
	found    bool
	from, to uint32
}

func (w *minWitness) offer(from, to uint32) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.found || from < w.from || (from == w.from && to < w.to) {
		w.found, w.from, w.to = true, from, to
	}
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
// moving inside it).
func analyseStability(ctx context.Context, sys *model.System, opts Options, wantClosure, wantConvergence bool) (*stabilityResult, error) {
	if sys.Legitimate == nil {
		return nil, fmt.Errorf("spec %s declares no legitimacy predicate, so closure and convergence mean nothing for it", sys.Name)
	}
	switch opts.Fairness {
	case NoFairness, WeakFairness, "":
	default:
		return nil, fmt.Errorf("convergence under %s fairness is not implemented yet (none, weak)", opts.Fairness)
	}
	start := time.Now()
	sp, err := explore.NewSpace(sys)
	if err != nil {
		return nil, err
	}
	legit := sys.Legitimate.Holds
	workers := max(1, opts.Search.Workers)
	inL := explore.NewBits(sp.Size())
	var closureW, deadW minWitness
	trans := make([]struct {
		n int64
		_ [56]byte // keep workers' counters on separate cache lines
	}, workers)
	err = sp.Parallel(ctx, workers, func(w int, c *explore.Cursor, v uint32, st *model.State) error {
		if legit(st) {
			inL.Set(v)
			n, err := c.Successors(st, func(_ *model.Step, to uint32, next *model.State) {
				if !legit(next) {
					closureW.offer(v, to)
				}
			})
			trans[w].n += int64(n)
			return err
		}
		n, err := c.Count(st)
		if n == 0 && err == nil {
			deadW.offer(v, v)
		}
		trans[w].n += int64(n)
		return err
	})
	if err != nil {
		return nil, err
	}
	res := &stabilityResult{configurations: sp.Size(), stab: &Stabilization{Configurations: sp.Size(), Legitimate: inL.Count()}}
	for _, t := range trans {
		res.transitions += t.n
	}
	if wantClosure {
		o := Outcome{Property: Closure, Verdict: Holds}
		if closureW.found {
			states, steps, err := sp.Trace([]uint32{closureW.from, closureW.to}, false)
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
	if deadW.found {
		states, _, err := sp.Trace([]uint32{deadW.from}, false)
		if err != nil {
			return nil, err
		}
		conv.Verdict, conv.Reason = Violated, "a configuration outside L has no enabled step"
		conv.Counterexample = &Counterexample{Kind: Path, States: states}
		res.stab = nil
		res.elapsed = time.Since(start)
		return res, nil
	}

	a := &componentAnalysis{sp: sp, inL: inL, fairness: opts.Fairness, cur: sp.NewCursor(), h: make([]uint16, sp.Size())}
	var progress func(uint64)
	if opts.Search.Progress != nil {
		every := opts.Search.ProgressEvery
		if every <= 0 {
			every = 2 * time.Second
		}
		var mu sync.Mutex
		last := time.Now()
		progress = func(done uint64) {
			mu.Lock()
			defer mu.Unlock()
			if now := time.Now(); now.Sub(last) >= every {
				last = now
				opts.Search.Progress(explore.Progress{States: int64(done), Transitions: res.transitions, Elapsed: now.Sub(start)})
			}
		}
	}
	outside := func(v uint32) bool { return !inL.Has(v) }
	acyclic := false
	if workers > 1 {
		// Most specs that converge have no cycle outside L: try the
		// parallel heights search first, and fall back to the exact
		// components search if it meets (or cannot rule out) a cycle.
		succ := func(c *explore.Cursor, v uint32, dst []uint32) ([]uint32, error) {
			return successorsOutside(c, inL, v, dst)
		}
		err = sp.Heights(ctx, workers, outside, succ, a.h, progress)
		switch {
		case err == nil:
			acyclic = true
		case errors.Is(err, explore.ErrCyclic):
			clear(a.h)
		default:
			return nil, err
		}
	}
	if !acyclic {
		err = sp.Components(ctx, outside, a.successors, a.component, progress)
		if err != nil {
			return nil, err
		}
	}
	if a.violation != nil {
		conv.Verdict, conv.Reason, conv.Counterexample = Violated, a.reason, a.violation
		res.stab = nil
		res.elapsed = time.Since(start)
		return res, nil
	}
	if err := a.worstCase(res.stab); err != nil {
		return nil, err
	}
	if res.stab.Unbounded {
		res.stab.RoundsNote = "unfair cycles outside L make the rounds of fair executions unbounded as well"
	} else {
		rounds, _, note, err := worstRounds(ctx, sp, inL, workers, opts.RoundsLimit)
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
	sp        *explore.Space
	inL       explore.Bits
	fairness  Fairness
	cur       *explore.Cursor
	h         []uint16
	violation *Counterexample
	reason    string
	err       error
}

// successors appends v's successors outside L.
func (a *componentAnalysis) successors(v uint32, dst []uint32) ([]uint32, error) {
	return successorsOutside(a.cur, a.inL, v, dst)
}

// successorsOutside appends v's successors outside L, expanded with c.
func successorsOutside(c *explore.Cursor, inL explore.Bits, v uint32, dst []uint32) ([]uint32, error) {
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
	// A cycle outside L.
	sorted := slices.Clone(members)
	slices.Sort(sorted)
	in := func(w uint32) bool { _, ok := slices.BinarySearch(sorted, w); return ok }
	if a.fairness != WeakFairness {
		cycle, err := a.shortestCycle(members[0], in)
		if err != nil {
			return err
		}
		a.violation, a.reason = cycle, "a cycle of configurations outside L"
		return explore.ErrStop
	}
	fair, always, moved, err := a.weaklyFair(sorted, in)
	if err != nil {
		return err
	}
	if fair {
		cycle, err := a.fairCycle(sorted, in, always, moved)
		if err != nil {
			return err
		}
		a.violation, a.reason = cycle, "a weakly fair cycle of configurations outside L"
		return explore.ErrStop
	}
	for _, v := range members {
		a.h[v] = hInf
	}
	return nil
}

// edge is a step inside a component, as ranks and the processes moving.
type edge struct {
	to     uint32
	movers uint64
}

func movers(step *model.Step) uint64 {
	var m uint64
	for _, mv := range step.Moves {
		m |= 1 << mv.Proc
	}
	return m
}

// inside returns v's enabled processes and its steps that stay in the
// component.
func (a *componentAnalysis) inside(v uint32, in func(uint32) bool) (enabled uint64, out []edge, err error) {
	st, err := a.cur.Load(v)
	if err != nil {
		return 0, nil, err
	}
	_, err = a.cur.Successors(st, func(step *model.Step, to uint32, _ *model.State) {
		m := movers(step)
		enabled |= m
		if in(to) {
			out = append(out, edge{to: to, movers: m})
		}
	})
	return enabled, out, err
}

// weaklyFair decides whether the component holds a weakly fair cycle: one
// exists if and only if no process is enabled in every configuration of
// the component without moving on one of its internal steps (a walk
// through every configuration and internal step of the component is then
// fair). It returns the processes enabled everywhere and those moving
// inside.
func (a *componentAnalysis) weaklyFair(members []uint32, in func(uint32) bool) (fair bool, always, moved uint64, err error) {
	always = ^uint64(0)
	for _, v := range members {
		enabled, out, err := a.inside(v, in)
		if err != nil {
			return false, 0, 0, err
		}
		always &= enabled
		for _, e := range out {
			moved |= e.movers
		}
	}
	return always&^moved == 0, always, moved, nil
}

// walk finds, by breadth-first search inside the component, a shortest
// path from s whose last step satisfies goal, and returns its
// configurations after s.
func (a *componentAnalysis) walk(s uint32, in func(uint32) bool, goal func(v uint32, e edge) bool) ([]uint32, error) {
	parent := map[uint32]uint32{s: s}
	queue := []uint32{s}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		_, out, err := a.inside(v, in)
		if err != nil {
			return nil, err
		}
		for _, e := range out {
			if goal(v, e) {
				// e.to, v, ..., the first configuration after s; reversed.
				path := []uint32{e.to}
				for u := v; u != s; u = parent[u] {
					path = append(path, u)
				}
				slices.Reverse(path)
				return path, nil
			}
			if _, seen := parent[e.to]; !seen {
				parent[e.to] = v
				queue = append(queue, e.to)
			}
		}
	}
	return nil, errors.New("no path inside a strongly connected component: the component is not strongly connected")
}

// shortestCycle returns a shortest cycle through s inside the component, as
// a lasso that starts on it (every configuration is a starting point).
func (a *componentAnalysis) shortestCycle(s uint32, in func(uint32) bool) (*Counterexample, error) {
	path, err := a.walk(s, in, func(_ uint32, e edge) bool { return e.to == s })
	if err != nil {
		return nil, err
	}
	// path ends with s: the cycle is s, path[:len-1]..., back to s.
	ranks := append([]uint32{s}, path[:len(path)-1]...)
	return a.lasso(ranks)
}

// fairCycle builds a weakly fair cycle through the component: from its
// first configuration it takes, for every process that moves inside, one
// internal step of that process, and visits, for every other process, a
// configuration where it is disabled, then returns to the start.
func (a *componentAnalysis) fairCycle(members []uint32, in func(uint32) bool, always, moved uint64) (*Counterexample, error) {
	s := members[0]
	ranks := []uint32{s}
	cur := s
	n := a.sp.System().N()
	for p := 0; p < n; p++ {
		bit := uint64(1) << p
		var goal func(v uint32, e edge) bool
		switch {
		case moved&bit != 0:
			goal = func(_ uint32, e edge) bool { return e.movers&bit != 0 }
		case always&bit == 0:
			// p is disabled somewhere: reach such a configuration.
			goal = func(_ uint32, e edge) bool {
				enabled, _, err := a.inside(e.to, in)
				if err != nil {
					a.err = err
					return false
				}
				return enabled&bit == 0
			}
			if enabled, _, err := a.inside(cur, in); err != nil {
				return nil, err
			} else if enabled&bit == 0 {
				continue
			}
		default:
			continue
		}
		path, err := a.walk(cur, in, goal)
		if err != nil {
			return nil, err
		}
		if a.err != nil {
			return nil, a.err
		}
		ranks = append(ranks, path...)
		cur = path[len(path)-1]
	}
	if cur != s || len(ranks) == 1 {
		path, err := a.walk(cur, in, func(_ uint32, e edge) bool { return e.to == s })
		if err != nil {
			return nil, err
		}
		ranks = append(ranks, path...)
	}
	// ranks ends with s again: drop it, the lasso closes on its own.
	return a.lasso(ranks[:len(ranks)-1])
}

func (a *componentAnalysis) lasso(ranks []uint32) (*Counterexample, error) {
	states, steps, err := a.sp.Trace(ranks, true)
	if err != nil {
		return nil, err
	}
	return &Counterexample{Kind: Lasso, States: states, Steps: steps, LoopStart: 0}, nil
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
