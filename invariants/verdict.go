package invariants

import (
	"fmt"

	"github.com/ringcheck/ringcheck/model"
)

// Verdict is the outcome of checking one property.
type Verdict string

// The three verdicts.
const (
	Holds    Verdict = "holds"
	Violated Verdict = "violated"
	Unknown  Verdict = "unknown"
)

// Property names a checkable property.
type Property string

// The properties; Implemented tells which this build can check.
const (
	Safety      Property = "safety"
	Deadlock    Property = "deadlock"
	Starvation  Property = "starvation"
	Closure     Property = "closure"
	Convergence Property = "convergence"
	// LeadsToProperty is From ~> To over two per-process predicates that
	// Options.LeadsTo names.
	LeadsToProperty Property = "leads-to"
)

// KnownProperties lists every property name of the CLI contract, in its
// order.
func KnownProperties() []Property {
	return []Property{Safety, Deadlock, Starvation, LeadsToProperty, Closure, Convergence}
}

// Implemented reports whether this build can check p; the error says why
// not, for a property the contract names but ringcheck does not check yet.
func Implemented(p Property) error {
	switch p {
	case Safety, Deadlock, Closure, Convergence, Starvation, LeadsToProperty:
		return nil
	}
	return fmt.Errorf("unknown property %q (known: safety, deadlock, starvation, leads-to, closure, convergence)", p)
}

// Kind is the shape of a counterexample.
type Kind string

// The shapes of counterexamples.
const (
	// Path: a finite execution from an initial state.
	Path Kind = "path"
	// Lasso: a path followed by a cycle back to States[LoopStart].
	Lasso Kind = "lasso"
)

// Counterexample is an execution that violates a property. Steps[i] leads
// from States[i] to States[i+1]; a lasso has one more step, from the last
// state back to States[LoopStart].
type Counterexample struct {
	Kind      Kind
	States    []*model.State
	Steps     []model.Step
	LoopStart int
	// Process is the process the violation is about (the one that
	// starves), or nil.
	Process *int
}

// Outcome is the verdict on one property and, when violated, its
// counterexample.
type Outcome struct {
	Property Property
	Verdict  Verdict
	// Reason explains the verdict in a few words: the invariant violated,
	// the bound that left it unknown.
	Reason string
	// Invariants lists the state invariants a safety check covered;
	// Invariant, when safety is violated in a state, names the invariant
	// false in the counterexample's last state.
	Invariants     []string
	Invariant      string
	Counterexample *Counterexample
	// Starving lists the processes that can starve (starvation only).
	Starving []int
	// Stuck, for convergence violated over every configuration, is the
	// number of configurations from which some execution (some fair one,
	// under fairness) never reaches L, in decimal; empty when it was not
	// counted.
	Stuck string
}

// DoNotConverge is what a convergence violation's reason says of the
// configurations that do not converge, stuck of them (a decimal count),
// with either engine: "12 configurations do not converge".
func DoNotConverge(stuck string) string {
	if stuck == "1" {
		return "1 configuration does not converge"
	}
	return stuck + " configurations do not converge"
}

// Replay checks that the counterexample is an execution of sys: every step
// is enabled in the state before it and leads to the state after it, and a
// lasso's last step leads back to States[LoopStart]. It does not check
// where the execution starts.
func (ce *Counterexample) Replay(sys *model.System) error {
	want := len(ce.States) - 1
	if ce.Kind == Lasso {
		want++
	}
	if len(ce.Steps) != want {
		return fmt.Errorf("a %s of %d states has %d steps", ce.Kind, len(ce.States), len(ce.Steps))
	}
	ex := sys.NewExpander()
	next := sys.NewState()
	for i := range ce.Steps {
		to := i + 1
		if to == len(ce.States) {
			to = ce.LoopStart
		}
		if err := ex.Apply(ce.States[i], &ce.Steps[i], next); err != nil {
			return fmt.Errorf("step %d: %w", i, err)
		}
		if !next.Equal(ce.States[to]) {
			return fmt.Errorf("step %d does not lead to state %d", i, to)
		}
	}
	return nil
}
