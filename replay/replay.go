// Package replay checks a trace against the model it says it is a trace
// of, independently of the engine that found it: every state is a
// configuration of the system (each value in its domain, each channel
// within its capacity), the first is an initial configuration unless the
// trace says it starts elsewhere, every step is an enabled step of the
// processes it names, with the action it names, leading to the next state,
// and a lasso closes on the state it names; then that the execution shows
// what the trace claims: a violation of its property (an invariant false
// at its end, a deadlock, a fair loop...), or for a witness of
// stabilization, a path to L. Every trace ringcheck reads back goes
// through it, and so do the engines' counterexamples in the tests.
package replay

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ringcheck/ringcheck/invariants"
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
// step that is not the system's; then, for an execution of the system, a
// *FalseClaim if it does not show what it claims (see checkClaim); or
// nil.
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
	if t.Start == "start" && (sys.Start == nil || !sys.Start.Holds(states[0])) {
		return &Failure{State: 0, Step: -1, Reason: "the trace starts from a configuration where the start predicate holds, but " + sys.Name + " has no start predicate or it does not hold there"}
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
		if err := checkRounds(sys, t, states, steps); err != nil {
			return err
		}
	}
	return checkClaim(sys, ex, t, states, steps)
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

// FalseClaim is a trace that is an execution of the system but does not
// show what it claims: Claim says what it claims, Reason what is wrong.
type FalseClaim struct {
	Claim, Reason string
}

// Error says what the trace claims and what is wrong.
func (c *FalseClaim) Error() string {
	return "the trace claims " + c.Claim + ", but " + c.Reason
}

// checkClaim checks that the execution of t (its states and steps, which
// replay on sys) shows what t claims, by its property:
//   - safety: the invariant the trace names is false in its last state;
//     naming none, some invariant is, or its last step is faulty (it
//     overflows a channel whose policy is error, or leaves a variable's
//     domain);
//   - deadlock: no step is enabled in its last state, which is not a
//     valid end state;
//   - starvation, leads-to, convergence: a path ends in a state with no
//     enabled step (for starvation and leads-to, not a valid end state);
//     a lasso's loop is fair under the trace's fairness
//     (invariants.LoopFairness). Starvation's process requests and is not
//     in its critical section in that last state, or in every state of
//     the loop; no state of a trace of convergence is legitimate;
//   - closure: the last step leads from a legitimate state out of L;
//   - stabilization: a witness of stabilization (the worst case of
//     convergence, or another execution that reaches L) ends in its first
//     legitimate state; a run in rounds, checked by checkRounds, need not
//     reach L.
func checkClaim(sys *model.System, ex *model.Expander, t *reports.Trace, states []*model.State, steps []model.Step) error {
	claim := claimOf(t)
	wrong := func(format string, args ...any) error {
		return &FalseClaim{Claim: claim, Reason: fmt.Sprintf(format, args...)}
	}
	lastIndex := len(states) - 1
	last := states[lastIndex]
	lasso := t.Kind == string(invariants.Lasso)
	switch invariants.Property(t.Property) {
	case invariants.Safety, invariants.Deadlock, invariants.Closure, witness:
		if lasso {
			return wrong("it is a lasso: %s is shown by a path", claim)
		}
	}
	legit := func(i int) (bool, error) {
		if sys.Legitimate == nil {
			return false, wrong("%s declares no legitimacy predicate", sys.Name)
		}
		return sys.Legitimate.Holds(states[i]), nil
	}
	switch invariants.Property(t.Property) {
	case invariants.Safety:
		if t.Invariant != "" {
			i := slices.IndexFunc(sys.Invariants, func(p model.Predicate) bool { return p.Name == t.Invariant })
			if i < 0 {
				return wrong("%s has no invariant %s (it has %s)", sys.Name, t.Invariant, invariantNames(sys))
			}
			if sys.Invariants[i].Holds(last) {
				return wrong("%s holds in its last state (state %d)", t.Invariant, lastIndex)
			}
			return nil
		}
		for i := range sys.Invariants {
			if !sys.Invariants[i].Holds(last) {
				return nil
			}
		}
		if len(steps) > 0 && steps[len(steps)-1].Faulty() {
			return nil
		}
		return wrong("every invariant holds in its last state (state %d), and no last step overflows a channel whose policy is error or leaves a variable's domain", lastIndex)
	case invariants.Deadlock:
		return deadEnd(sys, ex, last, lastIndex, true, wrong)
	case invariants.Starvation, invariants.LeadsToProperty, invariants.Convergence:
		conv := t.Property == string(invariants.Convergence)
		if conv {
			for i := range states {
				in, err := legit(i)
				if err != nil {
					return err
				}
				if in {
					return wrong("state %d is legitimate: the execution reaches L", i)
				}
			}
		}
		if t.Property == string(invariants.Starvation) {
			if err := waits(sys, t, states, wrong); err != nil {
				return err
			}
		}
		if !lasso {
			return deadEnd(sys, ex, last, lastIndex, !conv, wrong)
		}
		f := invariants.Fairness(t.Fairness)
		if f == "" {
			f = invariants.NoFairness
		}
		from := *t.LoopStart
		if err := invariants.LoopFairness(sys, states[from:], steps[from:], f, from); err != nil {
			return wrong("its loop is not fair: %v", err)
		}
	case invariants.Closure:
		if len(steps) == 0 {
			return wrong("it has no step to leave L")
		}
		in, err := legit(lastIndex - 1)
		if err != nil {
			return err
		}
		out, _ := legit(lastIndex)
		switch {
		case !in:
			return wrong("state %d, where its last step starts, is not legitimate", lastIndex-1)
		case sys.ClosureFrom != nil && !sys.ClosureFrom.Holds(states[lastIndex-1]):
			return wrong("state %d, where its last step starts, is not one closure is decided from (the closure from predicate does not hold)", lastIndex-1)
		case out:
			return wrong("its last state (state %d) is legitimate", lastIndex)
		}
	case witness:
		if len(t.RoundEnds) > 0 {
			return nil
		}
		for i := range states {
			in, err := legit(i)
			if err != nil {
				return err
			}
			switch {
			case in && i < lastIndex:
				return wrong("state %d, before its last, is legitimate already", i)
			case !in && i == lastIndex:
				return wrong("its last state (state %d) is not legitimate", i)
			}
		}
	default:
		return wrong("ringcheck knows no such property")
	}
	return nil
}

// witness is the property of a trace that shows how a configuration
// converges, and violates nothing.
const witness = "stabilization"

// claimOf says what trace t claims, for a FalseClaim.
func claimOf(t *reports.Trace) string {
	under := ""
	if t.Kind == string(invariants.Lasso) || t.Fairness != "" {
		f := t.Fairness
		if f == "" {
			f = string(invariants.NoFairness)
		}
		under = " under fairness " + f
	}
	switch invariants.Property(t.Property) {
	case invariants.Safety:
		if t.Invariant != "" {
			return "a violation of safety: invariant " + t.Invariant + " false"
		}
		return "a violation of safety"
	case invariants.Deadlock:
		return "a deadlock"
	case invariants.Starvation:
		if t.Process != nil {
			return fmt.Sprintf("the starvation of process %d%s", *t.Process, under)
		}
		return "a starvation" + under
	case invariants.LeadsToProperty:
		return "a violation of leads-to" + under
	case invariants.Closure:
		return "a violation of closure: a step from L out of it"
	case invariants.Convergence:
		return "a violation of convergence: an execution that never reaches L" + under
	case witness:
		if len(t.RoundEnds) > 0 {
			return "a run in rounds"
		}
		return "a witness of stabilization: a path to L"
	}
	return fmt.Sprintf("a violation of %q", t.Property)
}

// deadEnd checks that no step is enabled in the trace's last state, the
// state of index at, and, if validEnd, that it is not a valid end state.
func deadEnd(sys *model.System, ex *model.Expander, last *model.State, at int, validEnd bool, wrong func(string, ...any) error) error {
	var enabled []string
	n, err := ex.Expand(last, func(s *model.Step, _ *model.State) bool {
		if len(enabled) < 3 {
			enabled = append(enabled, stepName(sys, s))
		}
		return true
	})
	if err != nil {
		return wrong("expanding its last state (state %d): %v", at, err)
	}
	if n > 0 {
		more := ""
		if n > len(enabled) {
			more = ", ..."
		}
		return wrong("its last state (state %d) has %d enabled step%s: %s%s", at, n, plural(n), strings.Join(enabled, ", "), more)
	}
	if validEnd && sys.ValidEnd != nil && sys.ValidEnd.Holds(last) {
		return wrong("its last state (state %d) is a valid end state (%s), where having no step is not a deadlock", at, sys.ValidEnd.Name)
	}
	return nil
}

// waits checks that the process a trace of starvation names requests and
// is not in its critical section in its last state, or in every state of
// its loop.
func waits(sys *model.System, t *reports.Trace, states []*model.State, wrong func(string, ...any) error) error {
	if t.Process == nil {
		return wrong(`it names no "process"`)
	}
	p := *t.Process
	req, ok1 := sys.ProcessPredicateByName("requesting")
	cs, ok2 := sys.ProcessPredicateByName("inCS")
	if !ok1 || !ok2 {
		return wrong(`%s declares no "requesting" and "inCS" predicates`, sys.Name)
	}
	from := len(states) - 1
	if t.LoopStart != nil {
		from = *t.LoopStart
	}
	for i := from; i < len(states); i++ {
		switch {
		case !req.Holds(states[i], p):
			return wrong("process %d is not requesting in state %d", p, i)
		case cs.Holds(states[i], p):
			return wrong("process %d is in its critical section in state %d", p, i)
		}
	}
	return nil
}

// invariantNames lists the invariants of sys, for a message.
func invariantNames(sys *model.System) string {
	if len(sys.Invariants) == 0 {
		return "none"
	}
	names := make([]string, len(sys.Invariants))
	for i, p := range sys.Invariants {
		names[i] = p.Name
	}
	return strings.Join(names, ", ")
}

// stepName renders a step as the text rendering does: "p0 request(k=2)".
func stepName(sys *model.System, s *model.Step) string {
	procs := make([]string, len(s.Moves))
	for i, p := range s.Procs() {
		procs[i] = fmt.Sprintf("p%d", p)
	}
	return strings.Join(procs, ",") + " " + sys.Label(s)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
