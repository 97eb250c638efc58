package invariants

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/statespace"
)

// errEnumerationBound stops closureByEnumeration at the bound on states.
var errEnumerationBound = errors.New("the bound on states stopped the enumeration of L")

// enumeratedBatch is how many legitimate configurations the enumerating
// goroutine hands a worker at a time.
const enumeratedBatch = 4096

// batch is a run of enumerated configurations, the first of which was the
// first-th the enumerator yielded.
type batch struct {
	first  int64
	states []*model.State
}

// closureViolation is the first step out of L found, by the enumeration
// index of its source (the least wins, so the verdict and its witness do not
// depend on the workers).
type closureViolation struct {
	index    int64
	from, to *model.State
	step     model.Step
}

// closureByEnumeration decides closure from every legitimate configuration
// when the full space is too large to sweep but the spec enumerates its
// legitimate configurations: each must satisfy L (else the spec's
// enumerator is wrong, an error), and every step from each must lead into L.
// The workers expand the configurations in batches while the enumerator
// runs; the memory budget is asked for each batch before it is filled.
// With a bound on states, it stops after that many configurations; the
// budget's refusal, or ctx's cancellation, stops it too. A step out of L
// found among the configurations enumerated still violates closure, and
// the result records the stop; otherwise it returns the stop
// (errEnumerationBound, the *budget.Exceeded or ctx's error) with what it
// swept.
//
// A spec that gives no enumerator but a way to derive one
// (model.System.DeriveLegitimateConfigurations) has it derived first,
// under the same bounds: a bound that stops the derivation stops the
// check, and a derivation that fails is an error that says why and that
// the full space is too large to sweep.
func closureByEnumeration(ctx context.Context, sys *model.System, opts Options) (*stabilityResult, error) {
	start := time.Now()
	enumerate, by := sys.LegitimateConfigurations, "the spec enumerates"
	if enumerate == nil {
		var err error
		enumerate, err = sys.DeriveLegitimateConfigurations(ctx, sys, opts.Search.Memory)
		if _, stopped := stopReason(err); stopped {
			return &stabilityResult{elapsed: time.Since(start), phases: []Phase{{Name: derivationPhase, Total: 1}}}, err
		}
		if err != nil {
			return nil, fmt.Errorf("spec %s: closure from its legitimate configurations: %w; the full configuration space has about 10^%.0f configurations, too many to sweep", sys.Name, err, sys.ConfigurationsLog10())
		}
		by = "enumerated from the BDD of L"
	}
	legit, closes := sys.Legitimate.Holds, ClosureFrom(sys)
	workers := max(1, opts.Search.Workers)
	batches := make(chan batch, 2*workers)
	var (
		mu          sync.Mutex
		first       *closureViolation
		firstErr    error
		transitions int64
		distinct    int64 // distinct pairs of a configuration and a successor
		wg          sync.WaitGroup
	)
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
	}
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ex := sys.NewExpander()
			var n, d int64
			// succs holds copies of the successors of the configuration
			// expanded, to count the distinct ones.
			var succs []*model.State
			defer func() {
				mu.Lock()
				transitions += n
				distinct += d
				mu.Unlock()
			}()
			for b := range batches {
				for i, st := range b.states {
					index := b.first + int64(i)
					if !legit(st) {
						fail(fmt.Errorf("spec %s: its enumerator of legitimate configurations yielded configuration %d, which is not legitimate", sys.Name, index))
						continue
					}
					k := 0
					count, err := ex.Expand(st, func(step *model.Step, next *model.State) bool {
						if k == len(succs) {
							succs = append(succs, sys.NewState())
						}
						succs[k].CopyFrom(next)
						k++
						if legit(next) {
							return true
						}
						mu.Lock()
						if first == nil || index < first.index {
							first = &closureViolation{index: index, from: st.Clone(), to: next.Clone(), step: step.Clone()}
						}
						mu.Unlock()
						return true
					})
					n += int64(count)
					for i, s := range succs[:k] {
						if !slices.ContainsFunc(succs[:i], s.Equal) {
							d++
						}
					}
					if err != nil {
						fail(err)
					}
				}
			}
		}()
	}

	// A batch's configurations, their slices and pointers.
	probe := sys.NewState()
	batchBytes := uint64(enumeratedBatch) * (uint64(4*len(probe.Vars)+4*len(probe.Msgs)+4*len(probe.Lens)) + 80)
	var (
		enumerated int64
		cur        = batch{}
		stopped    bool  // by ctx
		bound      error // errEnumerationBound, or the budget's refusal
	)
	send := func() bool {
		select {
		case batches <- cur:
		case <-ctx.Done():
			return false
		}
		cur = batch{first: enumerated}
		return true
	}
	enumerate(sys, func(st *model.State) bool {
		if !closes(st) {
			// Closure is not decided from it (a spec's own enumerator
			// yields all of L; one derived from the BDD, L ∧ closure from).
			return true
		}
		if opts.Search.MaxStates > 0 && enumerated == opts.Search.MaxStates {
			bound = errEnumerationBound
			return false
		}
		if len(cur.states) == 0 {
			if err := opts.Search.Memory.Grow(batchBytes); err != nil {
				bound = err
				return false
			}
		}
		cur.states = append(cur.states, st.Clone())
		enumerated++
		if len(cur.states) == enumeratedBatch && !send() {
			stopped = true
			return false
		}
		return true
	})
	if !stopped && len(cur.states) > 0 && !send() {
		stopped = true
	}
	close(batches)
	wg.Wait()
	stop := bound
	switch {
	case stopped || ctx.Err() != nil:
		stop = ctx.Err()
	case firstErr != nil:
		return nil, firstErr
	}
	if stop != nil && first == nil {
		return &stabilityResult{swept: uint64(enumerated), transitions: transitions, distinct: distinct, elapsed: time.Since(start)}, stop
	}
	o := Outcome{Property: Closure, Verdict: Holds,
		Reason: fmt.Sprintf("every step from each of the %d legitimate configurations %s stays in L", enumerated, by)}
	if scope := ClosureScope(sys); scope != "" {
		o.Reason = fmt.Sprintf("every step from each of the %d legitimate configurations %s, %s, stays in L", enumerated, scope, by)
	}
	if first != nil {
		o.Verdict, o.Reason = Violated, "a step from a legitimate configuration leaves L"
		o.Counterexample = &Counterexample{Kind: Path, States: []*model.State{first.from, first.to}, Steps: []model.Step{first.step}}
	}
	res := &stabilityResult{closure: &o, configurations: uint64(enumerated), transitions: transitions, distinct: distinct, elapsed: time.Since(start)}
	if stop == nil && sys.ClosureFrom == nil {
		legitimate := uint64(enumerated)
		res.legitimate = &legitimate
	}
	if stop != nil {
		// Stopped after a violation: it stands, and the check is cut.
		why, _ := stopReason(stop)
		res.stop = analysisStop{why: why, err: stop}
	}
	return res, nil
}

// ClosureFrom returns the test of the legitimate configurations closure
// is decided from: the spec's closure from predicate, or every one.
func ClosureFrom(sys *model.System) func(*model.State) bool {
	if sys.ClosureFrom == nil {
		return func(*model.State) bool { return true }
	}
	return sys.ClosureFrom.Holds
}

// ClosureScope says, for a report, which legitimate configurations of
// sys closure is decided from: "" when from all of L, else the clause
// "where its closure from predicate holds" and the predicate's text.
func ClosureScope(sys *model.System) string {
	if sys.ClosureFrom == nil {
		return ""
	}
	scope := "where its closure from predicate holds"
	if sys.ClosureFrom.Doc != "" {
		scope += " (" + sys.ClosureFrom.Doc + ")"
	}
	return scope
}

// ClosureHoldsReason is the reason of a closure that holds over the
// configurations of L sys narrows it to ("" when sys decides it from all
// of L, which needs no reason).
func ClosureHoldsReason(sys *model.System) string {
	if scope := ClosureScope(sys); scope != "" {
		return "every step from each legitimate configuration " + scope + " stays in L"
	}
	return ""
}

// derivationPhase is the phase of a closure check that derives the
// enumerator of L from the legitimacy predicate.
const derivationPhase = "symbolic encoding of L, to enumerate the legitimate configurations"

// enumeratesClosure reports whether closure (alone) is to be decided from
// an enumeration of L: the full space is too large for the graph
// analyses, and the spec enumerates its legitimate configurations or
// derives an enumerator of them.
func enumeratesClosure(sys *model.System, wantClosure, wantConverg bool) bool {
	if !wantClosure || wantConverg || !sys.EnumeratesLegitimate() {
		return false
	}
	n, ok := sys.Configurations()
	return !ok || n > statespace.MaxSpace
}
