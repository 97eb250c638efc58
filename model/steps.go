package model

import "fmt"

// StepsThrough rebuilds the steps of an execution through states: the
// first step, in expansion order, between each consecutive pair, and with
// closed the step from the last state back to the first.
func (s *System) StepsThrough(states []*State, closed bool) ([]Step, error) {
	ex := s.NewExpander()
	steps := make([]Step, 0, len(states))
	for i := 0; i+1 < len(states); i++ {
		st, err := s.stepBetween(ex, states[i], states[i+1])
		if err != nil {
			return nil, err
		}
		steps = append(steps, st)
	}
	if closed {
		st, err := s.stepBetween(ex, states[len(states)-1], states[0])
		if err != nil {
			return nil, err
		}
		steps = append(steps, st)
	}
	return steps, nil
}

// stepBetween finds the first step, in expansion order, from a to b.
func (s *System) stepBetween(ex *Expander, a, b *State) (Step, error) {
	var found Step
	ok := false
	_, err := ex.Expand(a, func(st *Step, next *State) bool {
		if next.Equal(b) {
			found, ok = st.Clone(), true
			return false
		}
		return true
	})
	if err != nil {
		return found, err
	}
	if !ok {
		return found, fmt.Errorf("spec %s: no step between consecutive states of a path", s.Name)
	}
	return found, nil
}
