package compile

import (
	"fmt"

	"github.com/ringcheck/ringcheck/model"
)

// maxInitialSet bounds the configurations an init predicate is evaluated
// over when a model is built: its full configuration space.
const maxInitialSet = 1 << 24

// setPredicates compiles the start and closure from predicates into the
// model's, and returns the init predicate compiled (nil when the spec has
// none). All join preds, the predicates checked on the initial
// configurations.
func (c *compiler) setPredicates(preds *[]compiledPredicate) *compiledPredicate {
	spec := c.spec
	if spec.Start != nil {
		mp, cp := c.predicate(spec.Start, "the start predicate")
		if c.code != nil {
			mp = c.predicateCode(mp, c.code.Start)
		}
		c.b.Start(mp)
		*preds = append(*preds, cp)
	}
	if spec.ClosureFrom != nil {
		mp, cp := c.predicate(spec.ClosureFrom, "the closure from predicate")
		if c.code != nil {
			mp = c.predicateCode(mp, c.code.ClosureFrom)
		}
		c.b.ClosureFrom(mp)
		*preds = append(*preds, cp)
	}
	if spec.InitSet == nil {
		return nil
	}
	_, cp := c.predicate(spec.InitSet, "the init predicate")
	*preds = append(*preds, cp)
	return &cp
}

// initialSet returns sys with every configuration where the init
// predicate p holds as its initial configurations, in the order of
// model.System.Unrank. A space too large to enumerate, a predicate that
// holds nowhere, and one whose evaluation fails are errors.
func (c *compiler) initialSet(sys *model.System, p *compiledPredicate) (*model.System, error) {
	var fault error
	holds := func(st *model.State) bool {
		v, err := c.evaluate(p.fn, st)
		if err != nil {
			fault = err
			return false
		}
		return v != 0
	}
	if c.code != nil && c.code.InitSet != nil {
		// The generated predicate, its first fault kept.
		gen := c.code.InitSet(func(err error) {
			if fault == nil {
				fault = err
			}
		})
		holds = func(st *model.State) bool { return gen(st) && fault == nil }
	}
	states, err := sys.Satisfying(func(st *model.State) bool {
		if fault != nil {
			return false
		}
		return holds(st)
	}, maxInitialSet)
	if fault != nil {
		return nil, fault
	}
	if err != nil {
		return nil, fmt.Errorf("spec %s: the init predicate: %w", c.spec.Name, err)
	}
	return sys.WithInitial(states)
}
