package invariants

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/model"
)

// From chooses the starting configurations of a check.
type From string

// The starting points.
const (
	// FromInit starts from the spec's initial configurations.
	FromInit From = "init"
	// FromAll starts from every configuration of the full configuration
	// space, channel contents included.
	FromAll From = "all"
	// FromGiven starts from the configurations in Options.Start (for
	// example one a trace ends in). Convergence from them is decided only
	// when violated: one fair execution that never reaches L violates
	// convergence from every configuration; if there is none, the verdict
	// on every configuration stays unknown.
	FromGiven From = "given"
	// FromRandom decides convergence from Options.Samples configurations
	// drawn uniformly from the full space (seeded by Options.Seed), each
	// on its own as FromGiven does: every schedule from each, so a
	// violation is decided, and otherwise the verdict stays unknown.
	FromRandom From = "random"
)

// ParseFrom parses "init", "all" or "random".
func ParseFrom(s string) (From, error) {
	switch From(s) {
	case FromInit, FromAll, FromRandom:
		return From(s), nil
	}
	return "", fmt.Errorf("--from %q is not one of init, all, random", s)
}

// Options is what to check and how to search.
type Options struct {
	Properties []Property
	From       From
	// Fairness applies to convergence (none or weak).
	Fairness Fairness
	// LeadsTo names the predicates of the leads-to property.
	LeadsTo LeadsTo
	// RoundsLimit bounds the memory of the worst-case rounds computation,
	// in product states (0: DefaultRoundsLimit).
	RoundsLimit int
	// Start holds the configurations of FromGiven.
	Start []*model.State
	// Samples and Seed are FromRandom's: how many configurations, and the
	// seed of sample i's PCG (Seed, i).
	Samples int
	Seed    uint64
	Search  explore.Options
}

// Report is the result of a check: the search's statistics and one outcome
// per property, in the order they were asked for.
type Report struct {
	Search   *explore.Result
	Outcomes []Outcome
	// Stabilization is set when convergence was checked and holds.
	Stabilization *Stabilization
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

// Unknown reports whether some property was left undecided.
func (r *Report) Unknown() bool {
	for _, o := range r.Outcomes {
		if o.Verdict == Unknown {
			return true
		}
	}
	return false
}

// Applicable reports the first property that sys cannot be checked for,
// because the spec does not declare what the property needs: invariants
// for safety, a legitimacy predicate for closure and convergence, the
// "requesting" and "inCS" predicates for starvation, the two predicates
// leadsTo names for leads-to.
func Applicable(sys *model.System, props []Property, leadsTo LeadsTo) error {
	for _, p := range props {
		if err := Implemented(p); err != nil {
			return err
		}
		switch p {
		case Safety:
			if len(sys.Invariants) == 0 {
				return fmt.Errorf("spec %s declares no state invariant to check for safety", sys.Name)
			}
		case Closure, Convergence:
			if sys.Legitimate == nil {
				return fmt.Errorf("spec %s declares no legitimacy predicate, so %s means nothing for it", sys.Name, p)
			}
		case Starvation:
			_, ok1 := sys.ProcessPredicateByName("requesting")
			_, ok2 := sys.ProcessPredicateByName("inCS")
			if !ok1 || !ok2 {
				return fmt.Errorf("spec %s declares no \"requesting\" and \"inCS\" predicates, which starvation needs", sys.Name)
			}
		case LeadsToProperty:
			if leadsTo.From == "" || leadsTo.To == "" {
				return errors.New("leads-to needs two per-process predicates, as --leads-to FROM,TO")
			}
			for _, name := range []string{leadsTo.From, leadsTo.To} {
				if _, ok := sys.ProcessPredicateByName(name); !ok {
					var known []string
					for _, pp := range sys.ProcessPredicates {
						known = append(known, pp.Name)
					}
					return fmt.Errorf("spec %s has no per-process predicate %q (it has %v)", sys.Name, name, known)
				}
			}
		}
	}
	return nil
}

// Check explores sys as opts says and judges every property in
// opts.Properties. A cancelled ctx stops the search; what was decided before
// is still reported, the rest is unknown.
func Check(ctx context.Context, sys *model.System, opts Options) (*Report, error) {
	if len(opts.Properties) == 0 {
		return nil, errors.New("no property to check")
	}
	if err := Applicable(sys, opts.Properties, opts.LeadsTo); err != nil {
		return nil, err
	}
	if opts.From == FromRandom {
		return convergenceFromRandom(ctx, sys, opts)
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
		if err := Implemented(p); err != nil {
			return nil, err
		}
		switch p {
		case Closure:
			wantClosure = true
		case Convergence:
			wantConverg = true
		case Starvation, LeadsToProperty:
			wantStarve = true
		case Safety:
			if len(sys.Invariants) == 0 {
				return nil, fmt.Errorf("spec %s declares no state invariant to check for safety", sys.Name)
			}
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

	if wantStarve && opts.From == FromAll {
		return nil, errors.New("starvation and leads-to are checked over the states reachable from the initial configurations: check them --from init")
	}
	given := opts.From == FromGiven
	if given {
		if len(opts.Start) == 0 {
			return nil, errors.New("no configuration given to start from")
		}
		if wantClosure {
			return nil, errors.New("closure is about every legitimate configuration: check it --from all")
		}
		if wantConverg && sys.Legitimate == nil {
			return nil, fmt.Errorf("spec %s declares no legitimacy predicate, so convergence means nothing for it", sys.Name)
		}
		opts.Search.Start = opts.Start
	}
	if wantStarve || given && wantConverg {
		// The graph must be complete: no monitor may stop the search early.
		mons = append(mons, neverDecided{})
	}
	var stability *stabilityResult
	if wantClosure || wantConverg && !given {
		if opts.From != FromAll {
			return nil, errors.New("closure and convergence are about every configuration: check them --from all")
		}
		var err error
		if enumeratesClosure(sys, wantClosure, wantConverg) {
			if len(mons) > 0 {
				return nil, fmt.Errorf("spec %s: the full configuration space is too large to sweep; closure alone is decided from its enumeration of the legitimate configurations, so check it on its own", sys.Name)
			}
			stability, err = closureByEnumeration(ctx, sys, opts)
		} else {
			if size, ok := sys.Configurations(); opts.Search.MaxStates > 0 && (!ok || size > uint64(opts.Search.MaxStates)) {
				return stoppedStability(opts, explore.StateBound), nil
			}
			stability, err = analyseStability(ctx, sys, opts, wantClosure, wantConverg)
		}
		if why, stopped := stopReason(err); stopped {
			return stoppedStability(opts, why), nil
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
	case opts.From != FromAll && opts.From != FromInit && opts.From != FromGiven && opts.From != "":
		return nil, fmt.Errorf("unknown starting point %q", opts.From)
	case len(mons) == 0:
		res = &explore.Result{States: int64(stability.configurations), Transitions: stability.transitions, Elapsed: stability.elapsed, Stop: explore.Exhausted}
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
	}

	rep := &Report{Search: res}
	if stability != nil && stability.convergence != nil && stability.convergence.Verdict == Holds {
		rep.Stabilization = stability.stab
	}
	for _, p := range opts.Properties {
		var o Outcome
		switch p {
		case Closure:
			o = *stability.closure
		case Convergence:
			if given {
				o, err = convergenceFromGiven(ctx, res, opts)
				break
			}
			o = *stability.convergence
		case Starvation, LeadsToProperty:
			o, err = livenessOutcome(ctx, res, p, opts)
		case Safety:
			o, err = safetyOutcome(sys, res, safety)
		case Deadlock:
			o, err = witnessOutcome(res, Deadlock, &deadlock.w, "a reachable state with no enabled step")
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		rep.Outcomes = append(rep.Outcomes, o)
	}
	return rep, nil
}

// livenessOutcome checks starvation or leads-to on the reachable graph of
// a complete search; an incomplete one leaves it unknown.
func livenessOutcome(ctx context.Context, res *explore.Result, p Property, opts Options) (Outcome, error) {
	if !res.Complete() {
		return Outcome{Property: p, Verdict: Unknown, Reason: res.Stop.String()}, nil
	}
	g, err := res.Graph()
	if err != nil {
		return Outcome{}, err
	}
	fairness := opts.Fairness
	if fairness == "" {
		fairness = NoFairness
	}
	progress := throttledProgress(opts.Search, time.Now(), res.Transitions)
	var o Outcome
	if p == Starvation {
		o, err = checkStarvation(ctx, g, fairness, progress)
	} else {
		o, err = checkLeadsTo(ctx, g, fairness, opts.LeadsTo, progress)
	}
	if why, stopped := stopReason(err); stopped {
		return Outcome{Property: p, Verdict: Unknown, Reason: why.String()}, nil
	}
	return o, err
}

// stopReason tells a search stopped by its deadline or by Ctrl-C from a
// failure.
func stopReason(err error) (explore.StopReason, bool) {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return explore.TimeBound, true
	case errors.Is(err, context.Canceled):
		return explore.Interrupted, true
	}
	return 0, false
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
// before it decided anything: every property unknown.
func stoppedStability(opts Options, why explore.StopReason) *Report {
	rep := &Report{Search: &explore.Result{Stop: why}}
	for _, p := range opts.Properties {
		rep.Outcomes = append(rep.Outcomes, Outcome{Property: p, Verdict: Unknown, Reason: why.String()})
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
		next := sys.NewState()
		if err := sys.NewExpander().Apply(states[len(states)-1], m.overflow.step, next); err != nil {
			return o, fmt.Errorf("replaying the overflowing step: %w", err)
		}
		overflowCE = &Counterexample{Kind: Path, States: append(states, next), Steps: append(steps, *m.overflow.step)}
	}
	o.Verdict = Violated
	if stateCE != nil && (overflowCE == nil || len(stateCE.Steps) <= len(overflowCE.Steps)) {
		o.Reason = "invariant " + m.invariants[m.state.detail].Name + " is false"
		o.Counterexample = stateCE
	} else {
		o.Reason = "a send overflows a channel whose policy is error"
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
