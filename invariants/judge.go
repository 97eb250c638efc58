package invariants

import (
	"fmt"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/model"
)

// Judge evaluates safety and deadlock on the states a search visits, with
// the monitors Check runs on a breadth-first search: a search that runs
// elsewhere (partitioned over several processes) feeds each part's
// visits to a Judge of its own, merges their Findings and builds the
// report with JudgedReport.
type Judge struct {
	mons     monitors
	safety   *safetyMonitor
	deadlock *deadlockMonitor
}

// NewJudge returns a Judge of props on sys: safety and deadlock only.
func NewJudge(sys *model.System, props []Property) (*Judge, error) {
	j := &Judge{}
	for _, p := range props {
		switch p {
		case Safety:
			if j.safety == nil {
				j.safety = &safetyMonitor{invariants: sys.Invariants}
				j.mons = append(j.mons, j.safety)
			}
		case Deadlock:
			if j.deadlock == nil {
				j.deadlock = &deadlockMonitor{validEnd: sys.ValidEnd}
				j.mons = append(j.mons, j.deadlock)
			}
		default:
			return nil, fmt.Errorf("property %s: a judge of visits decides safety and deadlock only", p)
		}
	}
	return j, nil
}

// Observe judges one visited state; it is safe for concurrent use.
func (j *Judge) Observe(v *explore.Visit) { j.mons.Observe(v) }

// Finding is the least state id (and, for that id, the least detail: the
// index of the invariant violated) at which a monitor saw a violation.
type Finding struct {
	Found  bool
	ID     explore.StateID
	Detail int
}

// merge keeps the lesser of f and g.
func (f *Finding) merge(g Finding) {
	if g.Found && (!f.Found || g.ID < f.ID || g.ID == f.ID && g.Detail < f.Detail) {
		*f = g
	}
}

// Findings are what a Judge saw: an invariant false in a state, a faulty
// step (an overflow, or a value out of its domain) from a state, and a
// deadlock.
type Findings struct {
	Invariant, Overflow, Deadlock Finding
}

// Findings returns what j has seen so far.
func (j *Judge) Findings() Findings {
	var f Findings
	if m := j.safety; m != nil {
		f.Invariant = finding(&m.state)
		f.Overflow = finding(&m.overflow)
	}
	if m := j.deadlock; m != nil {
		f.Deadlock = finding(&m.w)
	}
	return f
}

func finding(w *witness) Finding {
	w.mu.Lock()
	defer w.mu.Unlock()
	return Finding{Found: w.found.Load(), ID: w.id, Detail: w.detail}
}

// Merge keeps, for each kind of violation, the least of f's and g's: the
// findings of the parts of one search merged are those of the whole.
func (f *Findings) Merge(g Findings) {
	f.Invariant.merge(g.Invariant)
	f.Overflow.merge(g.Overflow)
	f.Deadlock.merge(g.Deadlock)
}

// Decided reports whether f decides every property of props (safety and
// deadlock), so that the search may stop, as Check's monitors do.
func (f Findings) Decided(props []Property) bool {
	for _, p := range props {
		switch p {
		case Safety:
			if !f.Invariant.Found && !f.Overflow.Found {
				return false
			}
		case Deadlock:
			if !f.Deadlock.Found {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// JudgedReport is the report of a search of sys whose visits Judges of
// props saw: res is the search (its Path rebuilds the counterexamples)
// and f their merged findings. The faulty step of a safety violation is
// the first faulty step of the state f names, as the search saw it.
func JudgedReport(sys *model.System, props []Property, res *explore.Result, f Findings) (*Report, error) {
	rep := &Report{Search: res}
	for _, p := range props {
		var (
			o   Outcome
			err error
		)
		switch p {
		case Safety:
			m := &safetyMonitor{invariants: sys.Invariants}
			restore(&m.state, f.Invariant)
			restore(&m.overflow, f.Overflow)
			if f.Overflow.Found {
				if m.overflow.step, err = firstFaultyStep(sys, res, f.Overflow.ID); err != nil {
					return nil, fmt.Errorf("%s: %w", p, err)
				}
			}
			o, err = safetyOutcome(sys, res, m)
		case Deadlock:
			var w witness
			restore(&w, f.Deadlock)
			o, err = witnessOutcome(res, Deadlock, &w, "a reachable state with no enabled step")
			o = notThroughFaults(o)
		default:
			return nil, fmt.Errorf("property %s: a judge of visits decides safety and deadlock only", p)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		rep.Outcomes = append(rep.Outcomes, o)
	}
	if sys.PredicateFault != nil {
		if err := sys.PredicateFault(); err != nil {
			return nil, fmt.Errorf("spec %s: %w", sys.Name, err)
		}
	}
	return rep, nil
}

func restore(w *witness, f Finding) {
	if f.Found {
		w.id, w.detail = f.ID, f.Detail
		w.found.Store(true)
	}
}

// firstFaultyStep is the first faulty step the expander yields from state
// id of res.
func firstFaultyStep(sys *model.System, res *explore.Result, id explore.StateID) (*model.Step, error) {
	states, _, err := res.Path(id)
	if err != nil {
		return nil, err
	}
	var found *model.Step
	if _, err := sys.NewExpander().Expand(states[len(states)-1], func(st *model.Step, _ *model.State) bool {
		if st.Faulty() {
			s := st.Clone()
			found = &s
			return false
		}
		return true
	}); err != nil {
		return nil, err
	}
	if found == nil {
		return nil, fmt.Errorf("state %d has no faulty step", id)
	}
	return found, nil
}
