package invariants

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/model"
)

// LeadsTo names the two per-process predicates of a leads-to property
// From ~> To: for every process p, whenever From(p) holds, To(p) holds then
// or later, on every execution fair under the chosen fairness.
type LeadsTo struct {
	From, To string
}

// String renders the property as "requesting ~> inCS".
func (l LeadsTo) String() string { return l.From + " ~> " + l.To }

// noParent marks a vertex with no breadth-first parent.
const noParent = ^uint32(0)

// checkLeadsTo decides From(p) ~> To(p) for every process p over the
// reachable graph. A violation is a reachable state where From(p) holds and
// To(p) does not, followed by a fair execution that avoids To(p) forever: it
// reaches a state with no step, or a fair cycle, through states where To(p)
// is false. The states from which such an execution may start are found by
// a breadth-first search inside ¬To(p) from every From(p) ∧ ¬To(p) state;
// the rest is findWaiting's.
func checkLeadsTo(ctx context.Context, g *explore.ReachGraph, fairness Fairness, lt LeadsTo, progress func(uint64)) (Outcome, error) {
	o := Outcome{Property: LeadsToProperty, Verdict: Holds}
	sys := g.System()
	from, ok1 := sys.ProcessPredicateByName(lt.From)
	to, ok2 := sys.ProcessPredicateByName(lt.To)
	if !ok1 || !ok2 {
		return o, fmt.Errorf("spec %s has no per-process predicates %q and %q", sys.Name, lt.From, lt.To)
	}
	rule := ruleFor(fairness, sys.N())
	n := g.Size()
	for p := 0; p < sys.N(); p++ {
		w := g.NewWalker()
		avoid := cachedPredicate(n, func(v uint32) bool {
			st, err := w.Load(v)
			return err == nil && !to.Holds(st, p)
		})
		// The states an execution avoiding To(p) since a From(p) state
		// can be in, with a breadth-first parent toward such a start.
		marked := explore.NewBits(n)
		// parent[v] is v's breadth-first parent, or noParent for a start
		// state and the states not marked.
		parent := make([]uint32, n)
		for i := range parent {
			parent[i] = noParent
		}
		var queue []uint32
		for v := uint32(0); uint64(v) < n; v++ {
			if !avoid(v) {
				continue
			}
			st, err := w.Load(v)
			if err != nil {
				return o, err
			}
			if from.Holds(st, p) {
				marked.Set(v)
				queue = append(queue, v)
			}
		}
		for len(queue) > 0 {
			v := queue[0]
			queue = queue[1:]
			st, err := w.Load(v)
			if err != nil {
				return o, err
			}
			var next []uint32
			if _, err := w.Successors(st, func(_ *model.Step, id uint32, _ *model.State) {
				next = append(next, id)
			}); err != nil {
				return o, err
			}
			for _, u := range next {
				if !marked.Has(u) && avoid(u) {
					marked.Set(u)
					parent[u] = v
					queue = append(queue, u)
				}
			}
		}
		viol, err := findWaiting(ctx, g, rule, marked.Has, sys.ValidEnd, progress)
		if err != nil {
			return o, err
		}
		if viol == nil {
			continue
		}
		// Re-route the prefix through the From(p) state the avoiding
		// stretch starts from.
		entry := viol.prefix[len(viol.prefix)-1]
		inside := []uint32{entry}
		for u := parent[entry]; u != noParent; u = parent[u] {
			inside = append(inside, u)
		}
		slices.Reverse(inside)
		viol.prefix = append(g.PathTo(inside[0]), inside[1:]...)
		ce, err := viol.counterexample(g)
		if err != nil {
			return o, err
		}
		ce.Process = &p
		o.Verdict, o.Counterexample = Violated, ce
		o.Reason = fmt.Sprintf("process %d: %s holds, and %s never does after it (fairness %s)", p, lt.From, lt.To, fairness)
		return o, nil
	}
	return o, nil
}

// convergenceFromGiven looks, in the graph reachable from the given
// configurations, for an execution fair under opts.Fairness that never
// reaches L: a state outside L with no step (not a valid end state), or a
// fair cycle outside L. One violates convergence from every configuration;
// finding none leaves that property unknown, as the given configurations
// are not all of them.
func convergenceFromGiven(ctx context.Context, res *explore.Result, opts Options) (Outcome, error) {
	o := Outcome{Property: Convergence, Verdict: Unknown}
	if !res.Complete() {
		o.Reason = res.Stop.String()
		return o, nil
	}
	g, err := res.Graph()
	if err != nil {
		return o, err
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
	viol, err := findWaiting(ctx, g, ruleFor(fairness, sys.N()), outside, sys.ValidEnd, progress)
	if why, stopped := stopReason(err); stopped {
		o.Reason = why.String()
		return o, nil
	}
	if err != nil {
		return o, err
	}
	if viol == nil {
		o.Reason = fmt.Sprintf("every execution from the %d given configuration%s reaches L (fairness %s, %d states); convergence is about every configuration",
			len(opts.Start), plural(len(opts.Start)), fairness, g.Size())
		return o, nil
	}
	ce, err := viol.counterexample(g)
	if err != nil {
		return o, err
	}
	o.Verdict, o.Counterexample = Violated, ce
	o.Reason = fmt.Sprintf("from a given configuration, an execution never reaches L (fairness %s)", fairness)
	if viol.deadlock {
		o.Reason = "from a given configuration, an execution reaches a configuration outside L with no step"
	}
	return o, nil
}

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
// reachable than opts.Search.MaxStates decides nothing and is counted; the
// next samples still run. The report's search figures add up the
// samples'.
func convergenceFromRandom(ctx context.Context, sys *model.System, opts Options) (*Report, error) {
	if len(opts.Properties) != 1 || opts.Properties[0] != Convergence {
		return nil, errors.New("from random configurations only convergence is checked: every other property is about the initial configurations or every configuration")
	}
	if opts.Samples < 1 {
		return nil, errors.New("no random configuration to start from: the number of samples must be at least 1")
	}
	if opts.Search.TimeLimit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Search.TimeLimit)
		defer cancel()
		opts.Search.TimeLimit = 0
	}
	total := &explore.Result{Stop: explore.Exhausted}
	largest, tooLarge := int64(0), 0
	pcg := rand.NewPCG(0, 0)
	rng := rand.New(pcg)
	for i := range opts.Samples {
		pcg.Seed(opts.Seed, uint64(i))
		st := sys.NewState()
		sys.RandomConfiguration(rng, st)
		one := opts
		one.From, one.Start = FromGiven, []*model.State{st}
		rep, err := Check(ctx, sys, one)
		if err != nil {
			return nil, err
		}
		res := rep.Search
		total.States += res.States
		total.Transitions += res.Transitions
		total.Elapsed += res.Elapsed
		total.MaxDepth = max(total.MaxDepth, res.MaxDepth)
		total.StoreBytes = max(total.StoreBytes, res.StoreBytes)
		o := rep.Outcomes[0]
		switch {
		case o.Verdict == Violated:
			o.Reason = fmt.Sprintf("from random configuration %d (seed %d), %s", i, opts.Seed, strings.TrimPrefix(o.Reason, "from a given configuration, "))
			rep.Outcomes[0] = o
			return rep, nil
		case res.Stop == explore.StateBound:
			// Too large for the bound: the sample decides nothing, the
			// next ones still may.
			tooLarge++
		case !res.Complete():
			total.Stop = res.Stop
			o.Reason = fmt.Sprintf("%s, at random configuration %d of %d (seed %d)", res.Stop, i, opts.Samples, opts.Seed)
			return &Report{Search: total, Outcomes: []Outcome{o}}, nil
		default:
			largest = max(largest, res.States)
		}
	}
	fairness := opts.Fairness
	if fairness == "" {
		fairness = NoFairness
	}
	decided := opts.Samples - tooLarge
	o := Outcome{Property: Convergence, Verdict: Unknown,
		Reason: fmt.Sprintf("every execution from each of %d random configurations (seed %d) reaches L (fairness %s, %d states from the largest); convergence is about every configuration",
			decided, opts.Seed, fairness, largest)}
	if tooLarge > 0 {
		o.Reason += fmt.Sprintf("; from %d more, more states are reachable than --max-states allows", tooLarge)
		total.Stop = explore.StateBound
	}
	return &Report{Search: total, Outcomes: []Outcome{o}}, nil
}
