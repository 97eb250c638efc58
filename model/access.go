package model

import "fmt"

// Slot names one piece of a configuration for partial-order reduction:
// a process's variable (its index in State.Vars, System.VarIndex) or a
// channel (System.ChanSlot), whose contents count as one slot.
type Slot int

// Access is what each action of each process may read and write, and the
// slots the invariants read: what partial-order reduction needs to tell
// independent steps apart. A system built in Go has none (System.Access
// nil), and is never reduced.
type Access struct {
	// Actions[p][a] describes action a of process p.
	Actions [][]ActionAccess
	// Visible lists the slots some invariant reads.
	Visible []Slot
}

// ActionAccess is what one action of one process may read and write, over
// every alternative and every path through its effect.
type ActionAccess struct {
	// Any marks an action whose accesses are unknown: it depends on every
	// other action.
	Any bool
	// Reads are the slots its enabledness or its effect may read (a
	// receive's channel and a send's channels aside); Writes those its
	// effect may write (sends and receives aside).
	Reads, Writes []Slot
	// Sends are the channels it may append to; Receives those whose head
	// it may take and read (and nothing else of them).
	Sends, Receives []ChanID
	// Conjuncts are conditions that all hold where the action is enabled
	// (the top-level conjuncts of its guard, and its receive's head): a
	// disabled action stays disabled until some action writes a slot of
	// one of its false conjuncts.
	Conjuncts []Conjunct
}

// Conjunct is one condition of an action's enabledness: the slots it
// reads, and a test of it in a configuration for the acting process
// (nil: none, as for a guard conjunct that reads a sequential block's
// value).
type Conjunct struct {
	Reads []Slot
	// Holds tests the condition for the acting process of c (known
	// false: it cannot tell); call it through Expander.Holds.
	Holds func(c *Ctx) (holds, known bool)
	// Head marks the condition on the head of a receive's one channel
	// (Reads holds its slot): only a send can make it true where the
	// channel is empty, and only a receive where it is not.
	Head bool
	// Received lists the channels whose head the condition reads besides
	// Reads (the received message's fields): where Holds tells, the head
	// is there, and only a receive from the channel changes it.
	Received []ChanID
}

// Slots is the number of slots of a configuration: its variables, then
// its channels.
func (s *System) Slots() int { return s.layout.nvars + len(s.Channels) }

// ChanSlot returns the slot of channel c.
func (s *System) ChanSlot(c ChanID) Slot { return Slot(s.layout.nvars + int(c)) }

// WithAccess returns a copy of s whose access sets are a, after checking
// that a describes s's processes, actions, variables and channels.
func (s *System) WithAccess(a *Access) (*System, error) {
	if err := a.check(s); err != nil {
		return nil, fmt.Errorf("system %s: %w", s.Name, err)
	}
	c := *s
	c.Access = a
	return &c, nil
}

// check reports the first way a does not describe s.
func (a *Access) check(s *System) error {
	if len(a.Actions) != len(s.Processes) {
		return fmt.Errorf("access sets: %d processes, the system has %d", len(a.Actions), len(s.Processes))
	}
	slots := Slot(s.Slots())
	ok := func(xs []Slot) bool {
		for _, x := range xs {
			if x < 0 || x >= slots {
				return false
			}
		}
		return true
	}
	if !ok(a.Visible) {
		return fmt.Errorf("access sets: a visible slot is outside 0..%d", slots-1)
	}
	for p, acts := range a.Actions {
		if len(acts) != len(s.Processes[p].Actions) {
			return fmt.Errorf("access sets: process %d has %d actions, the system %d", p, len(acts), len(s.Processes[p].Actions))
		}
		for i := range acts {
			x := &acts[i]
			good := ok(x.Reads) && ok(x.Writes)
			for _, c := range x.Conjuncts {
				good = good && ok(c.Reads)
			}
			for _, c := range append(append([]ChanID(nil), x.Sends...), x.Receives...) {
				good = good && c >= 0 && int(c) < len(s.Channels)
			}
			if !good {
				return fmt.Errorf("access sets: action %s of process %d names a slot or a channel the system does not have", s.Processes[p].Actions[i].Name, p)
			}
		}
	}
	return nil
}

// Holds runs the test f of a condition of process p's enabledness in st
// (Conjunct.Holds). A fault while it runs (a read the topology does not
// allow, a division by zero) makes it unknown: the guard reports it when
// the state is expanded.
func (e *Expander) Holds(st *State, p int, f func(c *Ctx) (bool, bool)) (holds, known bool) {
	defer func() {
		if recover() != nil {
			holds, known = false, false
		}
	}()
	c := &e.ctx
	c.cur, c.next, c.err = st, e.next, nil
	c.at(p)
	holds, known = f(c)
	if c.err != nil {
		c.err = nil
		return false, false
	}
	return holds, known
}
