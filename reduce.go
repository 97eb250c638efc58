package ringcheck

import (
	"fmt"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/fields"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
)

// Reduce chooses the state-space reductions a check runs.
type Reduce string

// The reductions.
const (
	// ReduceDefault runs the reductions that are on by default
	// (DefaultReduce).
	ReduceDefault Reduce = ""
	// ReduceNone runs none.
	ReduceNone Reduce = "none"
	// ReducePOR runs partial-order reduction, and is an error where it
	// cannot run.
	ReducePOR Reduce = "por"
	// ReduceSymmetry runs symmetry reduction.
	ReduceSymmetry Reduce = "symmetry"
	// ReduceAll runs every reduction that applies and is sound, and says
	// why one does not run.
	ReduceAll Reduce = "all"
)

// DefaultReduce is what ReduceDefault stands for: every reduction that
// applies and is sound for the check.
const DefaultReduce = ReduceAll

// ParseReduce parses none, por, symmetry or all.
func ParseReduce(s string) (Reduce, error) {
	switch r := Reduce(s); r {
	case ReduceNone, ReducePOR, ReduceSymmetry, ReduceAll:
		return r, nil
	}
	return "", fmt.Errorf("%q is not one of none, por, symmetry, all", s)
}

// Reduction says which reduction a check ran: Ran is "partial-order",
// "symmetry" or empty, and Note, when none ran although one was asked
// for (or would run by default), says why.
type Reduction struct {
	Ran  string
	Note string
}

// resolveReduce sets opts.Search.PartialOrder or opts.Search.Symmetry as
// r.Reduce asks, once opts are otherwise valid for sys, and returns what
// runs. With all, symmetry reduction runs where it applies (the two are
// not combined), and partial-order reduction otherwise.
func (r *Request) resolveReduce(sys *model.System, opts *invariants.Options) (Reduction, error) {
	red := r.Reduce
	if red == ReduceDefault {
		red = DefaultReduce
	}
	switch red {
	case ReduceNone:
		return Reduction{}, nil
	case ReducePOR, ReduceSymmetry, ReduceAll:
	default:
		return Reduction{}, fields.Errorf("{Reduce} %q is not one of none, por, symmetry, all", r.Reduce)
	}
	if red == ReduceSymmetry || red == ReduceAll {
		why := invariants.SymmetryApplies(sys, opts)
		switch {
		case why == nil:
			opts.Search.Symmetry = true
			return Reduction{Ran: "symmetry"}, nil
		case red == ReduceSymmetry:
			return Reduction{}, fields.Errorf("{Reduce} symmetry: symmetry reduction cannot run: %v", why)
		}
	}
	po := &explore.PartialOrder{Invariants: hasProperty(opts.Properties, invariants.Safety)}
	why := invariants.PartialOrderApplies(sys, opts, po)
	if why != nil {
		if red == ReducePOR {
			return Reduction{}, fields.Errorf("{Reduce} por: partial-order reduction cannot run: %v", why)
		}
		return Reduction{Note: fmt.Sprintf("no partial-order reduction: %v", why)}, nil
	}
	opts.Search.PartialOrder = po
	return Reduction{Ran: "partial-order"}, nil
}

func hasProperty(ps []invariants.Property, p invariants.Property) bool {
	for _, x := range ps {
		if x == p {
			return true
		}
	}
	return false
}

// symbolicReduce undoes symmetry reduction in a check the symbolic engine
// runs, which has none: with {Reduce} symmetry it is an error, otherwise
// the check runs unreduced and res.Reduction says why.
func (r *Request) symbolicReduce(res *Result) error {
	if res.Reduction.Ran != "symmetry" {
		return nil
	}
	const why = "the symbolic engine decides over BDDs of every configuration, without it"
	if r.Reduce == ReduceSymmetry {
		return fields.Errorf("{Reduce} symmetry: symmetry reduction cannot run: %s", why)
	}
	res.Options.Search.Symmetry = false
	res.Reduction = Reduction{Note: "no symmetry reduction: " + why}
	return nil
}
