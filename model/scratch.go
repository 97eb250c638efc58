package model

import "errors"

// Scratch returns the context's scratch space, at least n ints long: an
// effect keeps there what it computes as it runs (the values of a
// sequential block of the ring language). What it holds stays from one
// call to the next, a longer space keeping what the shorter held; an
// effect must write a value before it reads it.
func (c *Ctx) Scratch(n int) []int {
	if len(c.scratch) < n {
		c.scratch = append(c.scratch, make([]int, n-len(c.scratch))...)
	}
	return c.scratch
}

// RangeFault reports a value an effect computed outside the domain it
// must lie in, fault describing it ("process 0 sets local t to 5,
// outside 0..3"), as Set reports one of a variable: in a system that
// reports range faults, the step violates safety; otherwise the
// expansion fails.
func (c *Ctx) RangeFault(fault string) {
	if !c.sys.RangeFaults {
		c.fail(errors.New(fault))
		return
	}
	if c.rangeFault == "" {
		c.rangeFault = fault
	}
}
