// Package replay checks a trace against the model it says it is a trace
// of, independently of the engine that found it: every state is a
// configuration of the system (each value in its domain, each channel
// within its capacity), the first is an initial configuration unless the
// trace says it starts elsewhere, every step is an enabled step of the
// processes it names, with the action it names, leading to the next state,
// and a lasso closes on the state it names. Every trace ringcheck reads
// back goes through it, and so do the engines' counterexamples in the
// tests.
package replay

import (
	"fmt"
	"slices"

	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/reports"
	"github.com/ringcheck/ringcheck/runs"
)

// Failure is where a trace stops being an execution of the system: State
// is the index of the state at fault (-1 for the trace as a whole), Step
// that of the step (-1 when the fault is a state's).
type Failure struct {
	State, Step int
	Reason      string
}

// Error says where and why.
func (f *Failure) Error() string {
	switch {
	case f.Step >= 0:
		return fmt.Sprintf("step %d (from state %d): %s", f.Step+1, f.Step, f.Reason)
	case f.State >= 0:
		return fmt.Sprintf("state %d: %s", f.State, f.Reason)
	}
	return f.Reason
}

// Check replays t on sys and returns a *Failure at the first state or
// step that is not the system's, or nil.
func Check(sys *model.System, t *reports.Trace) error {
	if err := t.Validate(); err != nil {
		return &Failure{State: -1, Step: -1, Reason: err.Error()}
	}
	if t.Spec != sys.Name {
		return &Failure{State: -1, Step: -1, Reason: fmt.Sprintf("a trace of %s, not of %s", t.Spec, sys.Name)}
	}
	if n := len(t.States[0].Processes); n != sys.N() {
		return &Failure{State: -1, Step: -1, Reason: fmt.Sprintf("the trace has %d processes, %s with its parameters has %d", n, sys.Name, sys.N())}
	}
	states := make([]*model.State, len(t.States))
	for i := range t.States {
		st, err := t.Configuration(sys, i)
		if err != nil {
			return &Failure{State: i, Step: -1, Reason: unwrapState(err, i)}
		}
		states[i] = st
	}
	if t.Start == "" && !slices.ContainsFunc(sys.Initial(), states[0].Equal) {
		return &Failure{State: 0, Step: -1, Reason: "not an initial configuration of " + sys.Name + " (the trace does not say it starts elsewhere)"}
	}
	if t.Start == "empty-channels" {
		for _, ch := range t.States[0].Channels {
			if len(ch.Messages) > 0 {
				return &Failure{State: 0, Step: -1, Reason: fmt.Sprintf("the trace starts from a configuration whose channels are empty, but channel %d→%d holds %d messages", ch.From, ch.To, len(ch.Messages))}
			}
		}
	}
	ex := sys.NewExpander()
	steps := make([]model.Step, len(t.Steps))
	for i, ts := range t.Steps {
		from, to := i, i+1
		if to == len(states) {
			to = *t.LoopStart // the lasso's closing step
		}
		step, reason := stepOf(sys, ex, states[from], states[to], ts)
		if reason != "" {
			return &Failure{State: from, Step: i, Reason: reason}
		}
		steps[i] = step
	}
	if len(t.RoundEnds) > 0 {
		return checkRounds(sys, t, states, steps)
	}
	return nil
}

// checkRounds checks that the rounds a trace claims are rounds of the
// round model (runs.VerifyRounds): with the order the trace names, or
// with the rules that hold in any order when it names none.
func checkRounds(sys *model.System, t *reports.Trace, states []*model.State, steps []model.Step) error {
	order := runs.Shuffled
	if t.Order != "" {
		o, err := runs.ParseSweepOrder(t.Order)
		if err != nil {
			return &Failure{State: -1, Step: -1, Reason: fmt.Sprintf(`the trace's "order": %v`, err)}
		}
		order = o
	}
	legit := func(*model.State) bool { return false }
	if sys.Legitimate != nil {
		legit = sys.Legitimate.Holds
	}
	w := &runs.RoundWitness{Order: order, States: states, Steps: steps, RoundEnds: t.RoundEnds}
	if _, err := runs.VerifyRounds(sys, w, legit); err != nil {
		return &Failure{State: -1, Step: -1, Reason: fmt.Sprintf("not an execution in rounds: %v", err)}
	}
	return nil
}

// stepOf returns the step of sys from the configuration from that ts
// names and that leads to to, or why there is none.
func stepOf(sys *model.System, ex *model.Expander, from, to *model.State, ts reports.TraceStep) (model.Step, string) {
	var (
		named     bool // a step of those processes with that action exists
		elsewhere bool
		matched   *model.Step
	)
	_, err := ex.Expand(from, func(s *model.Step, next *model.State) bool {
		if !slices.Equal(s.Procs(), ts.Processes) || sys.Label(s) != ts.Action {
			return true
		}
		named = true
		if !next.Equal(to) || s.Overflow != ts.Overflow || s.RangeFault != ts.RangeFault {
			elsewhere = true
			return true
		}
		c := s.Clone()
		matched = &c
		return false
	})
	switch {
	case err != nil:
		return model.Step{}, fmt.Sprintf("expanding the state: %v", err)
	case matched != nil:
		return *matched, ""
	case named && elsewhere:
		return model.Step{}, fmt.Sprintf("%s by process %s does not lead to the next state", ts.Action, procList(ts.Processes))
	}
	return model.Step{}, fmt.Sprintf("%s by process %s is not an enabled step (no such action, or its guard is false)", ts.Action, procList(ts.Processes))
}

// procList renders processes as "2" or "0, 3".
func procList(ps []int) string {
	s := ""
	for i, p := range ps {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprint(p)
	}
	return s
}

// unwrapState drops the "state i: " prefix Trace.Configuration adds, which
// the Failure says again.
func unwrapState(err error, i int) string {
	msg := err.Error()
	prefix := fmt.Sprintf("state %d: ", i)
	if len(msg) > len(prefix) && msg[:len(prefix)] == prefix {
		return msg[len(prefix):]
	}
	return msg
}
