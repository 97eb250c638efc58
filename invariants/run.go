package invariants

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/ringcheck/ringcheck/budget"
	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/statespace"
)

// Report is the result of a check: the search's statistics and one outcome
// per property, in the order they were asked for.
type Report struct {
	Search   *explore.Result
	Outcomes []Outcome
	// Stabilization is set when convergence was checked and holds.
	Stabilization *Stabilization
	// Legitimate counts the configurations of L when an analysis of every
	// configuration (closure or convergence from all) swept them all; nil
	// otherwise.
	Legitimate *uint64
	// Orbits counts the orbits an analysis of every configuration with
	// symmetry reduction stored, one representative each (0 without).
	Orbits uint64
	// Phases, for a stabilization analysis that stopped before it
	// decided, or that decided and then stopped in the worst case in
	// rounds, say how far each of its phases got.
	Phases []Phase
	// Samples, for a check from random configurations run as a shard
	// (Options.Shard), is what each of the shard's samples found, in
	// order, for FoldSamples.
	Samples []Sample
	// leftModel is set when convergence from given configurations was
	// left unknown because a faulty step is reachable from them.
	leftModel bool
}

// Phase is how far one phase of an analysis got: Done of Total items
// (configurations swept, or configurations outside L searched).
type Phase struct {
	Name        string
	Done, Total uint64
}

// Violated reports whether some property is violated.
func (r *Report) Violated() bool {
	for _, o := range r.Outcomes {
		if o.Verdict == Violated {
			return true
		}
	}
	return false
}

// Unknown reports whether some property was left undecided, or a bound
// (states, depth, time, memory, Ctrl-C) cut the check short: then
// something it was to compute was not, such as the worst case in rounds
// after closure and convergence were decided.
func (r *Report) Unknown() bool {
	if r.Search != nil && r.Search.Stop != explore.Exhausted && r.Search.Stop != explore.Decided {
		return true
	}
	for _, o := range r.Outcomes {
		if o.Verdict == Unknown {
			return true
		}
	}
	return false
}

// Check explores sys as opts says and judges every property in
// opts.Properties. An empty opts.From is FromInit; options that break a rule
// of Options.Validate are an error (a *fields.Error) and nothing runs. A
// cancelled ctx stops the search; what was decided before is still
// reported, the rest is unknown.
func Check(ctx context.Context, sys *model.System, opts Options) (*Report, error) {
	if opts.From == "" {
		opts.From = FromInit
	}
	if err := opts.Validate(sys); err != nil {
		return nil, err
	}
	if opts.From == FromStart && len(opts.Start) == 0 {
		starts, stopped, err := startConfigurations(ctx, sys, opts)
		if stopped != nil || err != nil {
			return stopped, err
		}
		opts.Start = starts
	}
	switch opts.From {
	case FromRandom:
		return convergenceFromRandom(ctx, sys, opts)
	case FromEmptyChannels:
		return convergenceFromEmptyChannels(ctx, sys, opts)
	}
	if opts.Search.TimeLimit > 0 {
		// The engines and the analyses after them share the deadline.
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Search.TimeLimit)
		defer cancel()
	}
	var (
		mons                     monitors
		safety                   *safetyMonitor
		deadlock                 *deadlockMonitor
		wantClosure, wantConverg bool
		wantStarve               bool
	)
	for _, p := range opts.Properties {
		switch p {
		case Closure:
			wantClosure = true
		case Convergence:
			wantConverg = true
		case Starvation, LeadsToProperty:
			wantStarve = true
		case Safety:
			if safety == nil {
				safety = &safetyMonitor{invariants: sys.Invariants}
				mons = append(mons, safety)
			}
		case Deadlock:
			if deadlock == nil {
				deadlock = &deadlockMonitor{validEnd: sys.ValidEnd}
				mons = append(mons, deadlock)
			}
		}
	}

	given := opts.From == FromGiven || opts.From == FromStart
	if given {
		opts.Search.Start = opts.Start
	}
	if wantStarve || given && wantConverg {
		// The graph must be complete: no monitor may stop the search early.
		mons = append(mons, neverDecided{})
	}
	var faults *faultMonitor
	if given && wantConverg || wantStarve {
		faults = &faultMonitor{}
		mons = append(mons, faults)
	}
	var stability *stabilityResult
	if wantClosure || wantConverg && !given {
		var err error
		if enumeratesClosure(sys, wantClosure, wantConverg) {
			if len(mons) > 0 {
				return nil, fmt.Errorf("spec %s: the full configuration space is too large to sweep; closure alone is decided from its enumeration of the legitimate configurations, so check it on its own", sys.Name)
			}
			stability, err = closureByEnumeration(ctx, sys, opts)
		} else {
			if size, ok := sys.Configurations(); opts.Search.MaxStates > 0 && (!ok || size > uint64(opts.Search.MaxStates)) {
				return stoppedStability(opts, explore.StateBound, nil, nil), nil
			}
			stability, err = analyseStability(ctx, sys, opts, wantClosure, wantConverg)
		}
		if why, stopped := stopReason(err); stopped {
			return stoppedStability(opts, why, err, stability), nil
		}
		if err != nil {
			return nil, err
		}
	}

	var (
		res *explore.Result
		err error
	)
	switch {
	case len(mons) == 0:
		res = stability.searchResult()
	case opts.From == FromAll:
		res, err = explore.Sweep(ctx, sys, mons, opts.Search)
	default:
		res, err = explore.BFS(ctx, sys, mons, opts.Search)
	}
	if err != nil {
		return nil, err
	}
	if stability != nil && len(mons) > 0 {
		res.Elapsed += stability.elapsed
		if res.Complete() {
			res.Stop, res.Exceeded = stability.stop.why, stability.stop.exceeded()
		}
	}

	rep := &Report{Search: res}
	stability.fill(rep)
	// A bound that stops an analysis of the complete search's graph
	// leaves its property unknown, and marks the search as cut once every
	// outcome is in: those decided by the search alone stay decided.
	var cut analysisStop
	for _, p := range opts.Properties {
		var o Outcome
		switch p {
		case Closure:
			o = *stability.closure
		case Convergence:
			if given {
				o, err = convergenceFromGiven(ctx, res, opts, faults, &cut)
				rep.leftModel = o.Verdict == Unknown && faults.seen()
				break
			}
			o = *stability.convergence
		case Starvation, LeadsToProperty:
			o, err = livenessOutcome(ctx, res, p, opts, &cut)
			o = notThroughFaults(o)
			if o.Verdict == Holds && faults.seen() {
				o = Outcome{Property: p, Verdict: Unknown, Reason: fmt.Sprintf("a reachable step %s, so some executions leave the model and %s is not decided (safety shows a path)", faultyStep, p)}
			}
		case Safety:
			o, err = safetyOutcome(sys, res, safety)
		case Deadlock:
			o, err = witnessOutcome(res, Deadlock, &deadlock.w, "a reachable state with no enabled step")
			o = notThroughFaults(o)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		rep.Outcomes = append(rep.Outcomes, o)
	}
	cut.mark(res)
	if sys.PredicateFault != nil {
		// A predicate that failed held where it was evaluated: no
		// verdict stands.
		if err := sys.PredicateFault(); err != nil {
			return nil, fmt.Errorf("spec %s: %w", sys.Name, err)
		}
	}
	return rep, nil
}

// searchResult is the search's result of an analysis of every
// configuration run alone: its counts, time and stop.
func (s *stabilityResult) searchResult() *explore.Result {
	return &explore.Result{States: int64(s.configurations), Transitions: s.transitions, DistinctTransitions: s.distinct, Elapsed: s.elapsed,
		Stop: s.stop.why, Exceeded: s.stop.exceeded()}
}

// fill sets what the analysis s (nil: none ran) tells rep: L's count,
// the orbits, the stabilization when convergence holds, and the phases
// when a bound stopped it.
func (s *stabilityResult) fill(rep *Report) {
	if s == nil {
		return
	}
	rep.Legitimate, rep.Orbits = s.legitimate, s.orbits
	if s.convergence != nil && s.convergence.Verdict == Holds {
		rep.Stabilization = s.stab
	}
	if s.stop.why != explore.Exhausted {
		rep.Phases = s.phases
	}
}

// analysisStop is the first bound that stopped an analysis after what it
// had decided: one run over the graph of a complete search, or the
// stabilization analysis after closure and convergence (its why is
// Exhausted while none has).
type analysisStop struct {
	why explore.StopReason
	err error
}

// record keeps the first stop (cut may be nil) and returns what the
// outcome's reason says of it: the budget's figures when it was the
// memory.
func (cut *analysisStop) record(why explore.StopReason, err error) string {
	if cut != nil && cut.why == explore.Exhausted {
		cut.why, cut.err = why, err
	}
	return stopText(why, err)
}

// exceeded is the budget's refusal, when the memory stopped the analysis.
func (cut *analysisStop) exceeded() *budget.Exceeded {
	var ex *budget.Exceeded
	if errors.As(cut.err, &ex) {
		return ex
	}
	return nil
}

// mark makes res, a complete search, say it was stopped by the bound
// recorded, if any.
func (cut *analysisStop) mark(res *explore.Result) {
	if cut.why != explore.Exhausted && res.Complete() {
		res.Stop, res.Exceeded = cut.why, cut.exceeded()
	}
}

// notThroughFaults leaves o unknown when it is a violation whose
// counterexample takes a faulty step (one that overflows a channel whose
// policy is error, or leaves a variable's domain): the execution leaves
// the model there, which safety reports, and what follows is not the
// model's. A violation that takes no faulty step stands.
func notThroughFaults(o Outcome) Outcome {
	if o.Verdict != Violated || !o.Counterexample.takesFaultyStep() {
		return o
	}
	return Outcome{Property: o.Property, Verdict: Unknown,
		Reason: o.Reason + ", but the execution found takes a step that " + faultyStep + ", which leaves the model (safety reports it)"}
}

// livenessOutcome checks starvation or leads-to on the reachable graph of
// a complete search; an incomplete one leaves it unknown. A bound that
// stops the analysis leaves it unknown too, and is recorded in cut.
func livenessOutcome(ctx context.Context, res *explore.Result, p Property, opts Options, cut *analysisStop) (Outcome, error) {
	if !res.Complete() {
		return Outcome{Property: p, Verdict: Unknown, Reason: res.Stop.String()}, nil
	}
	g, err := res.Graph()
	if err != nil {
		return Outcome{}, err
	}
	// The components search and the predicates' caches: about 9 bytes a
	// state.
	if err := opts.Search.Memory.Grow(9 * g.Size()); err != nil {
		return Outcome{Property: p, Verdict: Unknown, Reason: cut.record(explore.MemoryBound, err)}, nil
	}
	if broken, err := brokenAbstraction(ctx, g); err != nil || broken != "" {
		if why, stopped := stopReason(err); stopped {
			return Outcome{Property: p, Verdict: Unknown, Reason: cut.record(why, err)}, nil
		}
		return Outcome{Property: p, Verdict: Unknown, Reason: fmt.Sprintf("invariant %s, on which the model's abstraction of the algorithm rests, fails in a reachable state (safety shows a path), so the model does not stand for the algorithm there and %s is not decided", broken, p)}, err
	}
	fairness := opts.Fairness
	if fairness == "" {
		fairness = NoFairness
	}
	progress := throttledProgress(opts.Search, time.Now(), res.Transitions)
	var o Outcome
	if p == Starvation {
		o, err = checkStarvation(ctx, g, fairness, opts.Search.Memory, progress)
	} else {
		o, err = checkLeadsTo(ctx, g, fairness, opts.LeadsTo, opts.Search.Memory, progress)
	}
	if err == nil && o.Verdict == Holds {
		// Over a graph without a cycle the property says only that no
		// execution ends waiting: the verdict says so.
		var finite bool
		if finite, err = everyExecutionFinite(ctx, g, opts.Search.Memory); err == nil && finite {
			o.Reason = FiniteExecutions
		}
	}
	if why, stopped := stopReason(err); stopped {
		return Outcome{Property: p, Verdict: Unknown, Reason: cut.record(why, err)}, nil
	}
	return o, err
}

// brokenAbstraction returns the name of the first of the system's
// abstraction invariants (model.Predicate.Abstraction) that fails in some
// state of g, or "".
func brokenAbstraction(ctx context.Context, g *explore.ReachGraph) (string, error) {
	var guards []model.Predicate
	for _, inv := range g.System().Invariants {
		if inv.Abstraction {
			guards = append(guards, inv)
		}
	}
	if len(guards) == 0 {
		return "", nil
	}
	w := g.NewWalker()
	for v := range uint32(g.Size()) {
		if v%(1<<16) == 0 {
			if err := ctx.Err(); err != nil {
				return "", err
			}
		}
		st, err := w.Load(v)
		if err != nil {
			return "", err
		}
		for _, inv := range guards {
			if !inv.Holds(st) {
				return inv.Name, nil
			}
		}
	}
	return "", nil
}

// FiniteExecutions is the reason of a liveness verdict that holds over
// reachable states without a cycle, where every execution is finite (as
// when a parameter bounds the requests of each process): the property
// then says only that no execution ends with a process waiting, which
// deadlock freedom with the spec's valid end states already implies.
const FiniteExecutions = "every execution is finite (the reachable states hold no cycle): it says only that none ends waiting"

// everyExecutionFinite reports whether the reachable graph g has no cycle;
// the components search asks mem as its stacks grow.
func everyExecutionFinite(ctx context.Context, g *explore.ReachGraph, mem *budget.Memory) (bool, error) {
	w := g.NewWalker()
	succ := func(v uint32, dst []uint32) ([]uint32, error) {
		st, err := w.Load(v)
		if err != nil {
			return dst, err
		}
		_, err = w.Successors(st, func(_ *model.Step, to uint32, _ *model.State) { dst = append(dst, to) })
		return dst, err
	}
	cyclic := false
	component := func(members []uint32, succs []uint32) error {
		if len(members) > 1 || slices.Contains(succs, members[0]) {
			cyclic = true
			return statespace.ErrStop
		}
		return nil
	}
	err := statespace.Components(ctx, g.Size(), func(uint32) bool { return true }, succ, component, nil, mem)
	return !cyclic, err
}

// stopReason tells a search stopped by its deadline or by Ctrl-C from a
// failure.
func stopReason(err error) (explore.StopReason, bool) {
	var ex *budget.Exceeded
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return explore.TimeBound, true
	case errors.Is(err, context.Canceled):
		return explore.Interrupted, true
	case errors.As(err, &ex):
		return explore.MemoryBound, true
	case errors.Is(err, errEnumerationBound):
		return explore.StateBound, true
	}
	return 0, false
}

// stopText says why an analysis stopped: the budget's figures when it
// was the memory.
func stopText(why explore.StopReason, err error) string {
	var ex *budget.Exceeded
	if errors.As(err, &ex) {
		return ex.Error()
	}
	return why.String()
}

// throttledProgress turns the search options' progress callback into one
// that analyses may call often with the number of states they have
// visited; it reports at most every ProgressEvery (2 s by default), and is
// nil when there is no callback.
func throttledProgress(opts explore.Options, start time.Time, transitions int64) func(uint64) {
	if opts.Progress == nil {
		return nil
	}
	every := opts.ProgressEvery
	if every <= 0 {
		every = 2 * time.Second
	}
	var mu sync.Mutex
	last := start
	return func(done uint64) {
		mu.Lock()
		defer mu.Unlock()
		if now := time.Now(); now.Sub(last) >= every {
			last = now
			opts.Progress(explore.Progress{States: int64(done), Transitions: transitions, Elapsed: now.Sub(start)})
		}
	}
}

// neverDecided keeps a search going to the end, for analyses that need
// the whole reachable graph.
type neverDecided struct{}

func (neverDecided) Observe(*explore.Visit) {}
func (neverDecided) Decided() bool          { return false }

// stoppedStability is the report of a stabilization analysis stopped
// before it decided anything: every property unknown, with what the
// analysis had done (partial, when not nil).
func stoppedStability(opts Options, why explore.StopReason, err error, partial *stabilityResult) *Report {
	res := &explore.Result{Stop: why}
	var ex *budget.Exceeded
	if errors.As(err, &ex) {
		res.Exceeded = ex
	}
	rep := &Report{Search: res}
	if partial != nil {
		res.States, res.Transitions, res.DistinctTransitions, res.Elapsed = int64(partial.swept), partial.transitions, partial.distinct, partial.elapsed
		rep.Phases, rep.Orbits = partial.phases, partial.orbits
	}
	for _, p := range opts.Properties {
		rep.Outcomes = append(rep.Outcomes, Outcome{Property: p, Verdict: Unknown, Reason: stopText(why, err)})
	}
	return rep
}

func safetyOutcome(sys *model.System, res *explore.Result, m *safetyMonitor) (Outcome, error) {
	o := Outcome{Property: Safety}
	for _, inv := range m.invariants {
		o.Invariants = append(o.Invariants, inv.Name)
	}
	stateFound, overflowFound := m.state.found.Load(), m.overflow.found.Load()
	if !stateFound && !overflowFound {
		return undecided(o, res), nil
	}
	var stateCE, overflowCE *Counterexample
	if stateFound {
		states, steps, err := res.Path(m.state.id)
		if err != nil {
			return o, err
		}
		stateCE = &Counterexample{Kind: Path, States: states, Steps: steps}
	}
	if overflowFound {
		states, steps, err := res.Path(m.overflow.id)
		if err != nil {
			return o, err
		}
		step, err := overflowStep(sys, res, states[len(states)-1], m.overflow.step)
		if err != nil {
			return o, fmt.Errorf("replaying the overflowing step: %w", err)
		}
		next := sys.NewState()
		if err := sys.NewExpander().Apply(states[len(states)-1], &step, next); err != nil {
			return o, fmt.Errorf("replaying the overflowing step: %w", err)
		}
		overflowCE = &Counterexample{Kind: Path, States: append(states, next), Steps: append(steps, step)}
	}
	o.Verdict = Violated
	if stateCE != nil && (overflowCE == nil || len(stateCE.Steps) <= len(overflowCE.Steps)) {
		o.Invariant = m.invariants[m.state.detail].Name
		o.Reason = "invariant " + o.Invariant + " is false"
		o.Counterexample = stateCE
	} else {
		o.Reason = "a send overflows a channel whose policy is error"
		if f := overflowCE.Steps[len(overflowCE.Steps)-1].RangeFault; f != "" {
			o.Reason = f
		}
		o.Counterexample = overflowCE
	}
	return o, nil
}

func witnessOutcome(res *explore.Result, p Property, w *witness, reason string) (Outcome, error) {
	o := Outcome{Property: p}
	if !w.found.Load() {
		return undecided(o, res), nil
	}
	states, steps, err := res.Path(w.id)
	if err != nil {
		return o, err
	}
	o.Verdict, o.Reason = Violated, reason
	o.Counterexample = &Counterexample{Kind: Path, States: states, Steps: steps}
	return o, nil
}

// undecided is the verdict when no violation was found: holds only if the
// search was complete.
func undecided(o Outcome, res *explore.Result) Outcome {
	if res.Complete() {
		o.Verdict = Holds
		return o
	}
	o.Verdict, o.Reason = Unknown, res.Stop.String()
	return o
}
