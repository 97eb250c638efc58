package invariants

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/model"
)

// convergenceFromGiven looks, in the graph reachable from the given
// configurations, for an execution fair under opts.Fairness that never
// reaches L: a state outside L with no step (a valid end state or not, as
// from every configuration), or a fair cycle outside L. One violates
// convergence from every configuration; finding none leaves that property
// unknown, as the given configurations are not all of them.
//
// The analysis asks the memory budget first, as livenessOutcome does; a
// bound (the budget, the time limit, Ctrl-C) that stops it leaves the
// verdict unknown, with a reason that says so, and is recorded in cut so
// that the report says the check was cut.
//
// A step that is faulty (it overflows a channel whose policy is error, or
// leaves a variable's domain) leaves the model: the executions past it are
// not the model's. When faults is set, a violation stands only if its
// counterexample takes no faulty step, and finding none decides nothing.
func convergenceFromGiven(ctx context.Context, res *explore.Result, opts Options, faults *faultMonitor, cut *analysisStop) (Outcome, error) {
	o := Outcome{Property: Convergence, Verdict: Unknown}
	if !res.Complete() {
		o.Reason = res.Stop.String()
		return o, nil
	}
	g, err := res.Graph()
	if err != nil {
		return o, err
	}
	// The components search and the predicates' caches: about 9 bytes a
	// state.
	if err := opts.Search.Memory.Grow(9 * g.Size()); err != nil {
		o.Reason = analysisStopped(cut.record(explore.MemoryBound, err), g.Size())
		return o, nil
	}
	fairness := opts.Fairness
	if fairness == "" {
		fairness = NoFairness
	}
	sys := g.System()
	w := g.NewWalker()
	outside := cachedPredicate(g.Size(), func(v uint32) bool {
		st, err := w.Load(v)
		return err == nil && !sys.Legitimate.Holds(st)
	})
	progress := throttledProgress(opts.Search, time.Now(), res.Transitions)
	rule, err := ruleFor(sys, fairness)
	if err != nil {
		return o, err
	}
	// No valid end state excuses a dead end outside L.
	viol, err := findWaiting(ctx, g, rule, outside, nil, opts.Search.Memory, progress)
	if why, stopped := stopReason(err); stopped {
		o.Reason = analysisStopped(cut.record(why, err), g.Size())
		return o, nil
	}
	if err != nil {
		return o, err
	}
	if viol == nil {
		if faults.seen() {
			o.Reason = leftModelReason
			return o, nil
		}
		if opts.From == FromStart {
			return startHolds(opts, fairness, g.Size()), nil
		}
		o.Reason = fmt.Sprintf("every execution from the %d given configuration%s reaches L (fairness %s, %d states); convergence is about every configuration",
			len(opts.Start), plural(len(opts.Start)), fairness, g.Size())
		return o, nil
	}
	ce, err := viol.counterexample(g)
	if err != nil {
		return o, err
	}
	if faults.seen() && ce.takesFaultyStep() {
		o.Reason = leftModelReason + takesFaultyStep
		return o, nil
	}
	o.Verdict, o.Counterexample = Violated, ce
	o.Reason = fmt.Sprintf("from a %s configuration, an execution never reaches L (fairness %s)", startWord(opts), fairness)
	if viol.deadlock {
		o.Reason = fmt.Sprintf("from a %s configuration, an execution reaches a configuration outside L with no step", startWord(opts))
	}
	return o, nil
}

// analysisStopped is the reason of convergence from given configurations
// when stop (what stopped it) cut the analysis of the states their search
// reached.
func analysisStopped(stop string, states uint64) string {
	return fmt.Sprintf("%s; it stopped the analysis of the executions from the %d states reachable from the configurations, after their search", stop, states)
}

// faultyStep says what a faulty step does, in the reasons of verdicts
// that one leaves unknown.
const faultyStep = "overflows a channel whose policy is error (or leaves a variable's domain)"

// leftModelReason is why convergence from a configuration is unknown when
// a faulty step is reachable from it.
const leftModelReason = "a step reachable from the configuration " + faultyStep + ", so some executions leave the model"

// takesFaultyStep is what a reason adds when the execution found that
// never reaches L takes a faulty step.
const takesFaultyStep = "; the execution found that never reaches L takes such a step"

// LeavingTheModel applies to o, an outcome of convergence from every
// configuration, the rule convergence from given configurations follows:
// a faulty step (one that overflows a channel whose policy is error, or
// leaves a variable's domain) leaves the model. faulty counts, in decimal,
// the configurations outside L with a faulty step; unless it is "0", a
// violation stands only if its counterexample takes no faulty step, and
// holds becomes unknown. It returns o with its verdict and reason, and
// whether o was kept.
func LeavingTheModel(o Outcome, faulty string) (Outcome, bool) {
	if faulty == "0" || o.Property != Convergence {
		return o, true
	}
	if o.Verdict == Violated && !o.Counterexample.takesFaultyStep() {
		return o, true
	}
	reason := fmt.Sprintf("from %s configuration%s outside L a step %s, so some executions leave the model", faulty, pluralText(faulty), faultyStep)
	if o.Verdict == Violated {
		reason += takesFaultyStep
	}
	return Outcome{Property: Convergence, Verdict: Unknown, Reason: reason}, false
}

// takesFaultyStep reports whether the counterexample takes a faulty step:
// one that overflows a channel whose policy is error, or leaves a
// variable's domain (false for nil).
func (ce *Counterexample) takesFaultyStep() bool {
	return ce != nil && slices.ContainsFunc(ce.Steps, func(st model.Step) bool { return st.Faulty() })
}

// pluralText is plural for a count in decimal.
func pluralText(n string) string {
	if n == "1" {
		return ""
	}
	return "s"
}

// faultMonitor records whether a search met a faulty step: one that
// overflows a channel whose policy is error, or leaves a variable's
// domain. It never stops the search.
type faultMonitor struct {
	found atomic.Bool
}

func (m *faultMonitor) Observe(v *explore.Visit) {
	if v.Overflow != nil {
		m.found.Store(true)
	}
}

func (m *faultMonitor) Decided() bool { return false }

// seen reports whether the search met a faulty step (false for nil).
func (m *faultMonitor) seen() bool { return m != nil && m.found.Load() }

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// convergenceFromRandom decides convergence from opts.Samples uniformly
// random configurations, one at a time (each search and its graph are
// dropped before the next): the first violation found is the verdict;
// otherwise it is unknown. A sample from which more configurations are
// reachable than opts.Search.MaxStates, or from which a faulty step is
// reachable (see convergenceFromGiven), decides nothing and is counted;
// the next samples still run. The report's search figures add up the
// samples' (FoldSamples). With opts.Shard, only the shard's samples run,
// and the report also holds each one's Sample. Check has validated opts.
func convergenceFromRandom(ctx context.Context, sys *model.System, opts Options) (*Report, error) {
	if opts.Search.TimeLimit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Search.TimeLimit)
		defer cancel()
		opts.Search.TimeLimit = 0
	}
	set := SampleSetOf(opts)
	var run []Sample
	pcg := rand.NewPCG(0, 0)
	rng := rand.New(pcg)
	for i := range opts.Samples {
		if !opts.Shard.Owns(i) {
			continue
		}
		pcg.Seed(opts.Seed, uint64(i))
		st := sys.NewState()
		if opts.Fill > 0 {
			sys.RandomConfigurationUpTo(rng, st, opts.Fill)
		} else {
			sys.RandomConfiguration(rng, st)
		}
		one := opts
		one.From, one.Start, one.Fill, one.Shard = FromGiven, []*model.State{st}, 0, Shard{}
		rep, err := Check(ctx, sys, one)
		if err != nil {
			return nil, err
		}
		s := newSample(i, rep)
		run = append(run, s)
		if s.Kind == SampleViolated {
			rep.Outcomes[0].Reason = set.violationReason(s)
			if opts.Shard.Count > 0 {
				rep.Samples = run
			}
			return rep, nil
		}
		if s.ends() {
			break
		}
	}
	out, _ := FoldSamples(set, run)
	if opts.Shard.Count > 0 {
		out.Samples = run
	}
	return out, nil
}

// convergenceFromEmptyChannels decides convergence from every
// configuration whose channels are empty, searched together from all of
// them as convergenceFromGiven does: a violation is decided, and otherwise
// the verdict stays unknown, with the number of those configurations. The
// memory budget is asked for the configurations before they are built.
// Check has validated opts.
func convergenceFromEmptyChannels(ctx context.Context, sys *model.System, opts Options) (*Report, error) {
	count, ok := sys.EmptyChannelConfigurations()
	st := sys.NewState()
	// A configuration's slices, and its pointer in the list.
	size := uint64(4*len(st.Vars)+4*len(st.Msgs)+4*len(st.Lens)) + 80
	if ok && count > 0 {
		ok = count <= (1<<62)/size
	}
	if !ok {
		return nil, fmt.Errorf("spec %s: the configurations with empty channels are too many to count", sys.Name)
	}
	if err := opts.Search.Memory.Grow(count * size); err != nil {
		o := Outcome{Property: Convergence, Verdict: Unknown, Reason: stopText(explore.MemoryBound, err)}
		return &Report{Search: &explore.Result{Stop: explore.MemoryBound}, Outcomes: []Outcome{o}}, nil
	}
	starts := make([]*model.State, count)
	for r := range count {
		if err := sys.UnrankEmptyChannels(r, st); err != nil {
			return nil, err
		}
		starts[r] = st.Clone()
	}
	one := opts
	one.From, one.Start = FromGiven, starts
	rep, err := Check(ctx, sys, one)
	if err != nil {
		return nil, err
	}
	o := &rep.Outcomes[0]
	// A bound that stopped the search, or the analysis after it, left
	// the search incomplete: the reason says what stopped it.
	switch {
	case o.Verdict == Violated:
		o.Reason = "from a configuration with empty channels, " + strings.TrimPrefix(o.Reason, "from a given configuration, ")
	case rep.Search.Complete() && !rep.leftModel:
		fairness := cmp.Or(opts.Fairness, NoFairness)
		o.Reason = fmt.Sprintf("every execution from each of the %d configurations with empty channels reaches L (fairness %s, %d states); convergence is about every configuration",
			count, fairness, rep.Search.States)
	}
	return rep, nil
}
