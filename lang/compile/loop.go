package compile

import (
	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/model"
)

// This file compiles the for loops that unrolling would make large: a
// loop whose body, unrolled once per member, would take more than
// maxUnrolled closures is compiled once, as a loop over its members with
// the loop's local held in a slot of the step's scratch space
// (model.Ctx.Scratch), above the slots of the action's sequential block.

// maxUnrolled bounds the closures a for loop unrolled once per member
// may take (its body's for the first member, times the members); a
// larger one is compiled as a loop.
const maxUnrolled = 1024

// loopSlots is what an action's compilation knows of the loops it
// compiles as loops: the first scratch slot they may use, and the slot of
// the local of each loop being compiled.
type loopSlots struct {
	base  int
	slots map[*ir.Local]int
}

// newLoopSlots returns the loop slots of an action whose effects are
// effects: above every sequential block's frame.
func newLoopSlots(effects []ir.Stmt) *loopSlots {
	return &loopSlots{base: maxFrame(effects), slots: map[*ir.Local]int{}}
}

// maxFrame returns the largest frame of the sequential blocks of ss.
func maxFrame(ss []ir.Stmt) int {
	m := 0
	for _, s := range ss {
		switch s := s.(type) {
		case *ir.Seq:
			m = max(m, s.Frame, maxFrame(s.Body))
		case *ir.If:
			m = max(m, maxFrame(s.Then), maxFrame(s.Else))
		case *ir.For:
			m = max(m, maxFrame(s.Body))
		case *ir.ForRun:
			m = max(m, maxFrame(s.Body))
		case *ir.Repeat:
			m = max(m, maxFrame(s.Body))
		}
	}
	return m
}

// rolls reports whether the loop s over values members is compiled as a
// loop rather than unrolled: whether its body, compiled for the first
// member, times the members, takes more than maxUnrolled closures. The
// answer is kept for the loop's later compilations (in other
// alternatives of its action, or in the memo plan's second pass).
func (cx *actionCtx) rolls(s *ir.For, values []int, b bindings) bool {
	if cx.noRoll || len(values) < 2 {
		return false
	}
	if roll, ok := cx.rolled[s]; ok {
		return roll
	}
	// The body compiled once to be measured, without counting its
	// expressions in the memo plan, and discarded.
	nodes, plan := cx.nodes, cx.plan
	cx.plan = nil
	cx.stmts(s.Body, b.with(s.Var, values[0]))
	roll := (cx.nodes-nodes)*len(values) > maxUnrolled
	cx.nodes, cx.plan = nodes, plan
	if cx.rolled == nil {
		cx.rolled = map[*ir.For]bool{}
	}
	cx.rolled[s] = roll
	return roll
}

// rolledLoop compiles the loop s as a loop over values (each tested by
// member, when not nil), its body compiled once with the loop's local
// read from its slot.
func (cx *actionCtx) rolledLoop(s *ir.For, values []int, member memberFn, b bindings) effect {
	if cx.loops == nil {
		cx.loops = newLoopSlots(cx.action.Effects)
	}
	slot := cx.loops.base + len(cx.loops.slots)
	cx.loops.slots[s.Var] = slot
	body := cx.stmts(s.Body, b)
	delete(cx.loops.slots, s.Var)
	return func(c *model.Ctx, k int) {
		for _, q := range values {
			if member != nil && !member(c, k, q) {
				continue
			}
			c.Scratch(slot + 1)[slot] = q
			body(c, k)
		}
	}
}

// loopLocal compiles the read of l when it is the local of a loop being
// compiled as a loop, or returns nil.
func (cx *actionCtx) loopLocal(l *ir.Local) actionFn {
	if cx.loops == nil {
		return nil
	}
	slot, ok := cx.loops.slots[l]
	if !ok {
		return nil
	}
	return func(c *model.Ctx, _ int) int { return c.Scratch(slot + 1)[slot] }
}
