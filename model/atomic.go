package model

import (
	"errors"
	"fmt"
)

// This file holds what atomic actions (Action.Atomic) and guards that
// depend on an action's choice (Action.Allows) add to the model.

// SetOf assigns variable v of process q, the executing process or one of
// its peers (a process linked to it in either direction), in the
// configuration after the step, in the effect of an atomic action. It
// returns the fault of the spec, for the caller to report with its place
// (Fail): a q that is none of them or does not declare v, or a variable
// this step has already assigned. A value outside v's domain is as for
// Set.
func (c *Ctx) SetOf(q int, v VarID, val int) error {
	name := c.sys.Vars[v].Name
	if !c.logging {
		return fmt.Errorf("process %d assigns %s of process %d outside an atomic action", c.P, name, q)
	}
	top := c.sys.Topology
	if q < 0 || q >= c.lay.n || (q != c.P && !top.Linked(c.P, q) && !top.Linked(q, c.P)) {
		return fmt.Errorf("process %d assigns %s of process %d, which is not linked to it", c.P, name, q)
	}
	i := c.lay.varIdx[q*len(c.sys.Vars)+int(v)]
	if i < 0 {
		return fmt.Errorf("process %d assigns %s of process %d, which has no such variable", c.P, name, q)
	}
	if c.assigned(i) {
		return fmt.Errorf("process %d assigns %s of process %d twice in one step", c.P, name, q)
	}
	c.written = append(c.written, i)
	if uint64(val-int(c.lay.varMin[i])) >= c.lay.varSize[i] {
		fault := fmt.Sprintf("process %d sets %s of process %d to %d, outside %s", c.P, name, q, val, c.sys.Vars[v].Domain)
		if q == c.P {
			fault = fmt.Sprintf("process %d sets %s to %d, outside %s", c.P, name, val, c.sys.Vars[v].Domain)
		}
		if !c.sys.RangeFaults {
			return errors.New(fault)
		}
		if c.rangeFault == "" {
			c.rangeFault = fault
		}
		return nil
	}
	c.next.Vars[i] = int32(val)
	return nil
}

// assigned reports whether the step has assigned the variable at flat
// index i.
func (c *Ctx) assigned(i int32) bool {
	for _, w := range c.written {
		if w == i {
			return true
		}
	}
	return false
}

// SetLogged is Set in the effect of an atomic action: it also records
// the assignment, so that a second one of the same variable in the step
// (through SetOf) is a fault of the spec. Set itself records nothing, to
// keep the common step free of the check.
func (c *Ctx) SetLogged(v VarID, val int) {
	if c.logging && !c.logWrite(c.P, v, c.t.vars[v]) {
		return
	}
	c.Set(v, val)
}

// logWrite records that the step assigns variable v of process q, at flat
// index i, and reports whether it had not yet: a second assignment is a
// fault of the spec.
func (c *Ctx) logWrite(q int, v VarID, i int32) bool {
	if c.assigned(i) {
		c.fail(fmt.Errorf("process %d assigns %s of process %d twice in one step", c.P, c.sys.Vars[v].Name, q))
		return false
	}
	c.written = append(c.written, i)
	return true
}

// allows reports whether alternative k of act is a step where its guard
// holds (Action.Allows).
func (c *Ctx) allows(act *Action, k int) bool {
	return act.Allows == nil || act.Allows(c, k)
}

// atomicAction names an atomic action of the system, or returns "".
func (s *System) atomicAction() string {
	for p := range s.Processes {
		for _, a := range s.Processes[p].Actions {
			if a.Atomic {
				return a.Name
			}
		}
	}
	return ""
}

// atomicDaemonError is the refusal of daemon d for a system whose action
// a is atomic.
func atomicDaemonError(a string, d Daemon) error {
	return fmt.Errorf("the %s daemon is not defined for atomic actions (%s assigns its peers' variables, which a process moving in the same step may assign too): the central daemon only", d, a)
}
