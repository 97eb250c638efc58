package symbolic

import (
	"fmt"

	"github.com/dalzilio/rudd"

	"github.com/ringcheck/ringcheck/budget"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
)

// Options choose the semantics an encoding decides and the resources it
// may use. The zero value is the central daemon, no fairness, and a node
// table that grows without bound.
type Options struct {
	// Daemon chooses which enabled processes move in a step.
	Daemon model.Daemon
	// Fairness is NoFairness (or empty), WeakFairness,
	// WeakActionFairness, StrongFairness or StrongActionFairness: under
	// weak fairness an execution outside L that keeps a process's
	// scheduled actions enabled in every configuration of a cycle without
	// moving it is not a counterexample; under weak-action fairness, one
	// that keeps any one action so enabled without taking it; under strong
	// fairness (per process or per action), one whose cycle enables them
	// in some configuration without taking them. Finite actions are
	// weakly fair under every fairness but strong, where they are strongly
	// fair, and timeouts weakly fair under every fairness, as in the
	// explicit engine.
	Fairness invariants.Fairness
	// Memory is the budget on the heap (nil: no limit), checked between
	// the iterations of every fixpoint, those that draw a cycle's
	// witness included (not inside one BDD operation); an analysis over
	// it ends with the budget's *budget.Exceeded error.
	Memory *budget.Memory
	// Progress, if set, is called after every iteration of a fixpoint.
	Progress func(Progress)
	// Rounds gives each process a pending bit (and its next value),
	// beside the process's variables, which WorstRounds needs: the
	// central daemon only.
	Rounds bool
}

// Progress is where a fixpoint computation stands.
type Progress struct {
	// Phase names the fixpoint ("convergence", "fair cycles", ...);
	// Iteration counts its iterations so far.
	Phase     string
	Iteration int
	// Nodes is the size of the BDD of the set computed so far.
	Nodes int
}

// validate holds the rules on what Options may combine.
func (o Options) validate() error {
	if o.Daemon < model.Central || o.Daemon > model.Synchronous {
		return fmt.Errorf("daemon %v: %w", o.Daemon, ErrUnsupported)
	}
	if o.Rounds && o.Daemon != model.Central {
		return fmt.Errorf("rounds under the %s daemon: %w (the central daemon only)", o.Daemon, ErrUnsupported)
	}
	switch o.Fairness {
	case "", invariants.NoFairness:
	case invariants.WeakFairness, invariants.WeakActionFairness, invariants.StrongFairness, invariants.StrongActionFairness:
		if o.Daemon != model.Central {
			return fmt.Errorf("%s fairness under the %s daemon: %w (the central daemon only)", o.Fairness, o.Daemon, ErrUnsupported)
		}
	default:
		return fmt.Errorf("%s fairness: %w (none, weak, weak-action, strong or strong-action)", o.Fairness, ErrUnsupported)
	}
	return nil
}

// fair reports whether the options ask for a fairness on scheduled
// actions: weak or strong, per process or per action.
func (o Options) fair() bool {
	switch o.Fairness {
	case invariants.WeakFairness, invariants.WeakActionFairness, invariants.StrongFairness, invariants.StrongActionFairness:
		return true
	}
	return false
}

// strong reports whether the options ask for strong fairness, per process
// or per action.
func (o Options) strong() bool {
	return o.Fairness == invariants.StrongFairness || o.Fairness == invariants.StrongActionFairness
}

// perAction reports whether every action is an obligation of its own
// (weak-action or strong-action fairness) rather than each class of a
// process's actions.
func (o Options) perAction() bool {
	return o.Fairness == invariants.WeakActionFairness || o.Fairness == invariants.StrongActionFairness
}

// newBDD makes the BDD of nvars variables. The node table grows without
// a bound of its own: rudd's bound (Maxnodesize) makes a node it cannot
// allocate an invalid one that later operations read, so the budget is
// checked on the heap between iterations instead.
func newBDD(nvars int) (*rudd.BDD, error) {
	return rudd.New(nvars, rudd.Nodesize(1<<16), rudd.Cachesize(cacheEntries), rudd.Cacheratio(cacheRatio))
}

// cacheEntries is the size of each operation cache of the BDD.
const cacheEntries = 1 << 18

// cacheRatio is the number of entries of each operation cache per 100
// nodes of the table once the table grows past cacheEntries: caches of a
// fixed size make the relational products of million-node BDDs recompute
// what they had computed.
const cacheRatio = 25
