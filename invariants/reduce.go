package invariants

import (
	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/fields"
	"github.com/ringcheck/ringcheck/model"
)

// PartialOrderApplies reports why partial-order reduction po cannot run
// in a check of sys with opts (nil: it can): it keeps deadlocks, and
// with po.Invariants invariant violations and faulty steps, in a search
// from the initial configurations; starvation, leads-to, closure and
// convergence need every step of the graph, which it does not keep; and
// where every action is visible to the invariants it reduces nothing.
func PartialOrderApplies(sys *model.System, opts *Options, po *explore.PartialOrder) error {
	from := opts.From
	if from == "" {
		from = FromInit
	}
	hasSafety := false
	for _, p := range opts.Properties {
		switch p {
		case Safety:
			hasSafety = true
		case Deadlock:
		default:
			return fields.Errorf("it keeps invariant violations and deadlocks only, and %s needs every step of the state graph", p)
		}
	}
	switch {
	case from != FromInit:
		return fields.Errorf("it runs in a search from the initial configurations ({From} init), not from %s", from)
	case hasSafety && !po.Invariants:
		return fields.Errorf("safety is checked, so the reduction must keep invariant violations ({Search.PartialOrder}.Invariants)")
	}
	if err := explore.PartialOrderApplies(sys, &opts.Search); err != nil {
		return err
	}
	return explore.PartialOrderReduces(sys, po)
}
