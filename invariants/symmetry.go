package invariants

import (
	"errors"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/fields"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/statespace"
)

// SymmetryApplies reports why symmetry reduction cannot run in a check
// of sys with opts (nil: it can): the spec declares a symmetry, and the
// check is of safety and deadlock in a search from the initial
// configurations, where the predicates, being symmetric, have one value
// on an orbit; or of closure and convergence from every configuration,
// under the central daemon and no fairness, over a full space the graph
// analyses index, where L and the steps commute with the group.
// Starvation and leads-to follow one process along an execution, which
// a search over orbits does not; the other daemons and fairness
// assumptions are not implemented over orbits.
func SymmetryApplies(sys *model.System, opts *Options) error {
	if sys.Symmetry == nil {
		return fields.Errorf("spec %s declares no symmetry (symmetry rotation in a .ring file)", sys.Name)
	}
	from := opts.From
	if from == "" {
		from = FromInit
	}
	stabilizing, searching := false, false
	for _, p := range opts.Properties {
		switch p {
		case Safety, Deadlock:
			searching = true
		case Closure, Convergence:
			stabilizing = true
		case Starvation, LeadsToProperty:
			return fields.Errorf("%s follows one process along an execution, and a search over orbits of processes does not: check it without symmetry reduction", p)
		default:
			return fields.Errorf("%s over orbits of configurations is not implemented: check it without symmetry reduction", p)
		}
	}
	if opts.Search.PartialOrder != nil {
		return fields.Errorf("it is not combined with partial-order reduction")
	}
	if !stabilizing {
		if from != FromInit {
			return fields.Errorf("safety and deadlock run over orbits in a search from the initial configurations ({From} init), not from %s", from)
		}
		return nil
	}
	switch {
	case searching:
		return fields.Errorf("closure and convergence run over orbits alone: check safety and deadlock apart")
	case from != FromAll:
		return fields.Errorf("closure and convergence run over orbits from every configuration ({From} all), not from %s", from)
	case sys.Daemon != model.Central:
		return fields.Errorf("closure and convergence run over orbits under the central daemon, not the %s one", sys.Daemon)
	case opts.Fairness != "" && opts.Fairness != NoFairness:
		return fields.Errorf("convergence runs over orbits under no fairness ({Fairness} none), not %s: a fair cycle follows each process", opts.Fairness)
	}
	if n, ok := sys.Configurations(); !ok || n > statespace.MaxSpace {
		return fields.Errorf("closure and convergence run over orbits of a full configuration space the graph analyses index, of at most %d configurations", uint64(statespace.MaxSpace))
	}
	return nil
}

// concreteStep returns the step from last, the concrete end of a path a
// search with symmetry reduction returned, that is the image of step,
// a step from the orbit's representative the search expanded.
func concreteStep(sys *model.System, last *model.State, step *model.Step) (model.Step, error) {
	cz, err := sys.NewCanonizer()
	if err != nil {
		return model.Step{}, err
	}
	h := cz.Canonical(last.Clone()) // h maps last to the representative
	want := sys.PermuteStep(sys.Inverse(h), step)
	var found *model.Step
	_, err = sys.NewExpander().Expand(last, func(s *model.Step, _ *model.State) bool {
		if len(s.Moves) != len(want.Moves) {
			return true
		}
		for i := range s.Moves {
			if s.Moves[i] != want.Moves[i] {
				return true
			}
		}
		c := s.Clone()
		found = &c
		return false
	})
	if err != nil {
		return model.Step{}, err
	}
	if found == nil {
		return model.Step{}, errors.New("the image of the representative's step is not enabled at the end of the path")
	}
	return *found, nil
}

// overflowStep returns the faulty step the safety monitor recorded, as a
// step from the last state of the path res gives to it.
func overflowStep(sys *model.System, res *explore.Result, last *model.State, step *model.Step) (model.Step, error) {
	if !res.Symmetry {
		return *step, nil
	}
	return concreteStep(sys, last, step)
}
