package invariants

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/fields"
	"github.com/ringcheck/ringcheck/model"
)

// From chooses the starting configurations of a check.
type From string

// The starting points.
const (
	// FromInit starts from the spec's initial configurations.
	FromInit From = "init"
	// FromAll starts from every configuration of the full configuration
	// space, channel contents included.
	FromAll From = "all"
	// FromGiven starts from the configurations in Options.Start (for
	// example one a trace ends in). Convergence from them is decided only
	// when violated: one fair execution that never reaches L violates
	// convergence from every configuration; if there is none, the verdict
	// on every configuration stays unknown.
	FromGiven From = "given"
	// FromRandom decides convergence from Options.Samples configurations
	// drawn uniformly from the full space (seeded by Options.Seed), each
	// on its own as FromGiven does: every schedule from each, so a
	// violation is decided, and otherwise the verdict stays unknown.
	FromRandom From = "random"
	// FromEmptyChannels decides convergence from every configuration
	// whose channels are all empty (every assignment of the processes'
	// variables), searched together as FromGiven does: a violation is
	// decided, and otherwise the verdict on every configuration stays
	// unknown.
	FromEmptyChannels From = "empty-channels"
	// FromStart starts from every configuration where the spec's start
	// predicate (model.System.Start) holds, searched together as
	// FromGiven does (Check enumerates them into Options.Start when it is
	// empty); unlike FromGiven, convergence is decided both ways: every
	// execution from every configuration reachable from them reaches L,
	// or not.
	FromStart From = "start"
)

// ParseFrom parses "init", "all", "random", "empty-channels" or "start"
// (FromGiven is chosen by giving configurations, not by name).
func ParseFrom(s string) (From, error) {
	switch From(s) {
	case FromInit, FromAll, FromRandom, FromEmptyChannels, FromStart:
		return From(s), nil
	}
	return "", fmt.Errorf("starting point %q is not one of init, all, random, empty-channels, start", s)
}

// Options is what to check and how to search.
type Options struct {
	Properties []Property
	// From is where the search starts (Check reads empty as FromInit).
	From From
	// Fairness applies to starvation, leads-to and convergence, and the
	// other properties ignore it; empty is none.
	Fairness Fairness
	// LeadsTo names the predicates of the leads-to property.
	LeadsTo LeadsTo
	// RoundsLimit bounds the memory of the worst-case rounds computation,
	// in product states (0: the default limit).
	RoundsLimit int
	// Start holds the configurations of FromGiven, and those of
	// FromStart (filled by Check when empty).
	Start []*model.State
	// Samples and Seed are FromRandom's: how many configurations, and the
	// seed of sample i's PCG (Seed, i).
	Samples int
	Seed    uint64
	// Fill, if positive, bounds the messages in each channel of a random
	// configuration (FromRandom only); its contents are then uniform
	// among those of at most Fill messages.
	Fill int
	// Shard, for FromRandom, selects the samples this check runs (the
	// zero value: every one).
	Shard  Shard
	Search explore.Options
}

// Validate reports the first rule opts breaks for sys, as a *fields.Error
// naming the fields of Options at fault. It holds every rule on what a
// check may combine: which starting point goes with which property, which
// properties take a fairness, the bounds, and what each property needs the
// spec to declare (see Applicable).
func (o Options) Validate(sys *model.System) error {
	props := o.Properties
	if len(props) == 0 {
		return fields.Errorf("{Properties}: no property to check")
	}
	for i, p := range props {
		if err := Implemented(p); err != nil {
			return fields.Errorf("{Properties}: %v", err)
		}
		if slices.Contains(props[:i], p) {
			return fields.Errorf("{Properties}: %s is named twice", p)
		}
	}
	if err := Applicable(sys, props, o.LeadsTo); err != nil {
		var fe *fields.Error
		if errors.As(err, &fe) {
			// It names its fields.
			return fe
		}
		return fields.Errorf("{Properties}: %v", err)
	}
	has := func(p Property) bool { return slices.Contains(props, p) }
	stabilizing := has(Closure) || has(Convergence)
	live := has(Starvation) || has(LeadsToProperty)
	switch o.From {
	case FromInit, FromAll, FromGiven, FromRandom, FromEmptyChannels, FromStart:
	default:
		return fields.Errorf("{From} %q is not one of init, all, random, empty-channels, start, given", o.From)
	}
	if o.Fairness != "" {
		if _, err := ParseFairness(string(o.Fairness)); err != nil {
			return fields.Errorf("{Fairness}: %v", err)
		}
	}
	switch {
	case o.From == FromGiven && len(o.Start) == 0:
		return fields.Errorf("{Start}: no configuration given to start from")
	case o.From == FromGiven && has(Closure):
		return fields.Errorf("closure is about every legitimate configuration: check it {From} all, not from {Start}")
	case o.From == FromStart && sys.Start == nil:
		return fields.Errorf("{From} start: spec %s declares no start predicate (start: EXPR in a .ring file)", sys.Name)
	case o.From == FromStart && has(Closure):
		return fields.Errorf("closure is about every legitimate configuration: check it {From} all, not {From} start")
	case stabilizing && o.From != FromAll && o.From != FromRandom && o.From != FromGiven && o.From != FromEmptyChannels && o.From != FromStart:
		return fields.Errorf("closure and convergence are about every configuration: they need {From} all")
	case o.From == FromEmptyChannels && (len(props) != 1 || props[0] != Convergence):
		return fields.Errorf("{From} empty-channels decides convergence alone ({Properties} convergence): the other properties are about the initial configurations or every configuration")
	case o.From == FromEmptyChannels && len(sys.Channels) == 0:
		return fields.Errorf("{From} empty-channels: spec %s has no channels, so every configuration has them empty: check {From} all", sys.Name)
	case o.From == FromRandom && (len(props) != 1 || props[0] != Convergence):
		return fields.Errorf("{From} random decides convergence alone ({Properties} convergence): the other properties are about the initial configurations or every configuration")
	case o.From == FromRandom && o.Samples < 1:
		return fields.Errorf("{Samples} must be at least 1")
	case o.Shard != (Shard{}) && o.From != FromRandom:
		return fields.Errorf("{Shard} splits the samples of {From} random, not a check {From} %s", o.From)
	case o.Shard.validate() != nil:
		return o.Shard.validate()
	case o.Fill < 0:
		return fields.Errorf("{Fill} must not be negative")
	case o.Fill > 0 && o.From != FromRandom:
		return fields.Errorf("{Fill} bounds the channels of random configurations: it needs {From} random")
	case o.From == FromAll && o.Search.MaxDepth > 0:
		return fields.Errorf("{Search.MaxDepth} bounds a search from the initial configurations; from all, every configuration is a starting point at depth 0 (use {Search.MaxStates} or {Search.TimeLimit})")
	case stabilizing && live && o.From != FromGiven && o.From != FromStart:
		return fields.Errorf("starvation and leads-to are checked from the initial configurations and closure and convergence from all of them: check them in separate runs")
	case live && o.From == FromAll:
		return fields.Errorf("starvation and leads-to are checked over the states reachable from the initial configurations: check them {From} init")
	case o.Search.MaxDepth < 0 || o.Search.MaxStates < 0 || o.Search.TimeLimit < 0:
		return fields.Errorf("{Search.MaxDepth}, {Search.MaxStates} and {Search.TimeLimit} must not be negative")
	case o.Search.Workers < 0:
		return fields.Errorf("{Search.Workers} must not be negative")
	case o.Search.Workers > explore.MaxWorkers:
		return fields.Errorf("{Search.Workers} is %d, more than %d, the most goroutines a search runs", o.Search.Workers, explore.MaxWorkers)
	case o.From != FromGiven && o.From != FromStart && len(o.Start) > 0:
		return fields.Errorf("{Start} holds configurations, but the check starts from {From} %s", o.From)
	case o.Search.Fingerprints && (live || stabilizing || o.From != FromInit):
		return fields.Errorf("{Search.Fingerprints} keeps a fingerprint of each state a search from init reaches, which decides safety and deadlock; starvation, leads-to, closure and convergence need the states themselves")
	}
	if o.Search.Symmetry {
		if err := SymmetryApplies(sys, &o); err != nil {
			return fields.Errorf("{Search.Symmetry}: symmetry reduction cannot run: %v", err)
		}
	}
	if po := o.Search.PartialOrder; po != nil {
		if err := PartialOrderApplies(sys, &o, po); err != nil {
			return fields.Errorf("{Search.PartialOrder}: partial-order reduction cannot run: %v", err)
		}
	}
	return nil
}

// Applicable reports the first property that sys cannot be checked for,
// because the spec does not declare what the property needs: invariants
// for safety (unless the system reports range faults), a legitimacy
// predicate for closure and convergence, the "requesting" and "inCS"
// predicates for starvation, the two predicates leadsTo names for
// leads-to.
func Applicable(sys *model.System, props []Property, leadsTo LeadsTo) error {
	for _, p := range props {
		if err := Implemented(p); err != nil {
			return err
		}
		switch p {
		case Safety:
			// A spec that reports range faults has something to check
			// even with no invariant: every assignment stays in its domain.
			if len(sys.Invariants) == 0 && !sys.RangeFaults {
				return fmt.Errorf("spec %s declares no state invariant to check for safety", sys.Name)
			}
		case Closure, Convergence:
			if sys.Legitimate == nil {
				return fmt.Errorf("spec %s declares no legitimacy predicate, so %s means nothing for it", sys.Name, p)
			}
		case Starvation:
			_, ok1 := sys.ProcessPredicateByName("requesting")
			_, ok2 := sys.ProcessPredicateByName("inCS")
			if !ok1 || !ok2 {
				return fmt.Errorf("spec %s declares no \"requesting\" and \"inCS\" predicates, which starvation needs", sys.Name)
			}
		case LeadsToProperty:
			if leadsTo.From == "" || leadsTo.To == "" {
				return fields.Errorf("leads-to needs two per-process predicates, as {LeadsTo} FROM,TO")
			}
			for _, name := range []string{leadsTo.From, leadsTo.To} {
				if _, ok := sys.ProcessPredicateByName(name); !ok {
					var known []string
					for _, pp := range sys.ProcessPredicates {
						known = append(known, pp.Name)
					}
					return fields.Errorf("{LeadsTo}: spec %s has no per-process predicate %q (it has %s)", sys.Name, name, strings.Join(known, ", "))
				}
			}
		}
	}
	return nil
}
