package model

import (
	"errors"
	"fmt"
)

// VarIn declares a variable in exactly the listed processes, none when
// procs is empty (where Var declares it in every process), and returns its
// VarID.
func (b *Builder) VarIn(name string, d Domain, procs []int) VarID {
	if len(procs) > 0 {
		return b.Var(name, d, procs...)
	}
	if err := d.validate(); err != nil {
		b.errs = append(b.errs, fmt.Errorf("variable %s: %w", name, err))
	}
	b.sys.Vars = append(b.sys.Vars, Var{Name: name, Domain: d})
	return VarID(len(b.sys.Vars) - 1)
}

// Start sets the start predicate: a check from start starts from every
// configuration in which it holds (System.Start).
func (b *Builder) Start(p Predicate) { b.sys.Start = &p }

// ClosureFrom narrows closure to the legitimate configurations in which p
// holds (System.ClosureFrom): a step out of L from a legitimate
// configuration where p does not hold violates nothing.
func (b *Builder) ClosureFrom(p Predicate) { b.sys.ClosureFrom = &p }

// ErrNoneSatisfies is the error of Satisfying when no configuration
// satisfies the predicate.
var ErrNoneSatisfies = errors.New("no configuration satisfies it")

// Satisfying returns every configuration of the full configuration space
// (channel contents included) in which holds is true, in the order of
// Unrank. A space of more than limit configurations is an error that
// names both, as is a predicate that holds nowhere (ErrNoneSatisfies).
func (s *System) Satisfying(holds func(*State) bool, limit uint64) ([]*State, error) {
	count, ok := s.Configurations()
	if !ok || count > limit {
		return nil, fmt.Errorf("the full configuration space has about 10^%.0f configurations, more than the %d a predicate is enumerated over", s.ConfigurationsLog10(), limit)
	}
	var out []*State
	st := s.NewState()
	for {
		if holds(st) {
			out = append(out, st.Clone())
		}
		if !s.NextRank(st) {
			break
		}
	}
	if len(out) == 0 {
		return nil, ErrNoneSatisfies
	}
	return out, nil
}

// WithInitial returns a copy of s whose initial configurations are
// states (copied), or the first way one of them is not a configuration
// of s.
func (s *System) WithInitial(states []*State) (*System, error) {
	if len(states) == 0 {
		return nil, fmt.Errorf("system %s: no initial configuration", s.Name)
	}
	c := *s
	c.initial = make([]*State, len(states))
	for i, st := range states {
		if err := s.Validate(st); err != nil {
			return nil, fmt.Errorf("system %s: initial configuration %d: %w", s.Name, i, err)
		}
		c.initial[i] = st.Clone()
	}
	return &c, nil
}
