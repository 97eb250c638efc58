package symbolic

import (
	"fmt"

	"github.com/ringcheck/ringcheck/budget"
	"github.com/ringcheck/ringcheck/internal/rudd"
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
	// Memory is the budget on the heap (nil: no limit). A computation
	// (Encode, Analyse, WorstRounds) stops when the heap, plus what the
	// kernel's node table and caches allocate at their next growth, would
	// pass it: checked at every fixpoint iteration and, from the caller's
	// goroutine, every 100 ms during the encoding and inside long BDD
	// operations. It then ends with a *Stopped error that wraps the
	// budget's *budget.Exceeded.
	Memory *budget.Memory
	// Progress, if set, is called with where a computation stands: after
	// every iteration of a fixpoint, at every action of every process the
	// encoding builds, and, when none of these came for 2 s (one long BDD
	// operation), with the last position again. It is called from the
	// computation's goroutine or from the caller's, never from two at
	// once, and never after the computation has returned.
	Progress func(Progress)
	// Rounds gives each process a pending bit (and its next value),
	// beside the process's variables, which WorstRounds needs: the
	// central daemon only.
	Rounds bool
	// Start restricts Analyse to the configurations reachable from those
	// where the spec's start predicate holds (start.go): every count,
	// closure and convergence are then about them.
	Start bool
}

// Progress is where a computation stands.
type Progress struct {
	// Phase names what is computed ("encoding the transition relation,
	// process 1 of 3, action cancel", "convergence", "fair cycles outside
	// L", ...); Iteration counts a fixpoint's iterations so far (0 outside
	// one).
	Phase     string
	Iteration int
	// Nodes is the size of the BDD of the set a fixpoint computed so far
	// (0 outside one).
	Nodes int
	// Done and Total, while the spec is encoded, count the actions of
	// every process encoded so far and in all (0 otherwise).
	Done, Total int
	// Table is the number of nodes the BDD kernel's node table holds
	// room for, as last measured.
	Table int
}

// validate holds the rules on what Options may combine.
func (o Options) validate() error {
	if o.Daemon < model.Central || o.Daemon > model.Synchronous {
		return fmt.Errorf("daemon %v: %w", o.Daemon, ErrUnsupported)
	}
	if o.Rounds && o.Daemon != model.Central {
		return fmt.Errorf("rounds under the %s daemon: %w (the central daemon only)", o.Daemon, ErrUnsupported)
	}
	if o.Rounds && o.Start {
		return fmt.Errorf("rounds from the start configurations: %w (from every configuration only)", ErrUnsupported)
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
// a bound of its own (by doubling, maxNodeIncrease nodes at most at a
// time): rudd's bound (Maxnodesize) makes a node it cannot allocate an
// invalid one that later operations read, so the budget is checked on the
// heap and on the table's next growth instead (see kernel).
func newBDD(nvars int) (*rudd.BDD, error) {
	return rudd.New(nvars, rudd.Nodesize(1<<16), rudd.Cachesize(cacheEntries), rudd.Cacheratio(cacheRatio), rudd.Maxnodeincrease(maxNodeIncrease))
}

// cacheEntries is the size of each operation cache of the BDD.
const cacheEntries = 1 << 18

// cacheRatio is the number of entries of each operation cache per 100
// nodes of the table once the table grows past cacheEntries: caches of a
// fixed size make the relational products of million-node BDDs recompute
// what they had computed.
const cacheRatio = 25
