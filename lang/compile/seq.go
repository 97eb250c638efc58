package compile

import (
	"fmt"

	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/model"
)

// This file compiles sequential blocks (ir.Seq): their temps live in the
// context's scratch space (model.Ctx.Scratch) while the block runs.

// seq compiles a sequential block: its shadows set from the acting
// process's variables, its effects in order, then the entries the block
// assigned written to the configuration after the step. In an action that
// is not atomic, where nothing else writes the acting process's
// variables during the step, a shadow's entry is not copied: until the
// block assigns it, a read of it reads the variable before the step
// (tempRef).
func (cx *actionCtx) seq(s *ir.Seq, b bindings) effect {
	type shadow struct {
		slot, dirty int
		ids         []model.VarID // by entry; -1 where there is none
		has         []uint64      // by entry, the processes that have it
	}
	var shadows []shadow
	for _, t := range s.Temps {
		switch {
		case t.Var != nil:
			shadows = append(shadows, shadow{t.Slot, t.Dirty, []model.VarID{cx.vars[t.Var.ID]}, []uint64{procMask(t.Var.Procs)}})
		case t.Array != nil:
			ids, has := cx.entries(t.Array)
			shadows = append(shadows, shadow{t.Slot, t.Dirty, ids, has})
		}
	}
	body, frame, atomic := cx.stmts(s.Body, b), s.Frame, cx.action.Atomic
	return func(c *model.Ctx, k int) {
		// The frame starts cleared: a local whose let is dropped (a
		// range fault) reads 0, not what an earlier step left there.
		f := c.Scratch(frame)
		clear(f[:frame])
		for _, sh := range shadows {
			if !atomic {
				continue
			}
			for i, id := range sh.ids {
				if sh.has[i]>>c.P&1 != 0 {
					f[sh.slot+i] = c.Get(id)
				}
			}
		}
		body(c, k)
		f = c.Scratch(frame)
		for _, sh := range shadows {
			for i, id := range sh.ids {
				if f[sh.dirty+i] == 0 {
					continue
				}
				if atomic {
					c.SetLogged(id, f[sh.slot+i])
				} else {
					c.Set(id, f[sh.slot+i])
				}
			}
		}
	}
}

// setTemp compiles the assignment of a local or of a shadow's entry. A
// value outside the domain is a range fault: a shadow's is reported by
// Set, as the variable's own assignment would be, and dropped.
func (cx *actionCtx) setTemp(s *ir.SetTemp, b bindings) effect {
	if s.Temp.LocalArray() {
		return cx.setLocalArray(s, b)
	}
	t, val := s.Temp, cx.expr(s.Value, b)
	slot, lo, hi := t.Slot, t.Type.Lo, t.Type.Hi
	switch {
	case t.Var != nil:
		id, dirty := cx.vars[t.Var.ID], t.Dirty
		return func(c *model.Ctx, k int) {
			v := val(c, k)
			if v < lo || v > hi {
				c.Set(id, v)
				return
			}
			f := c.Scratch(dirty + 1)
			f[slot], f[dirty] = v, 1
		}
	case t.Array != nil:
		a := t.Array
		index := cx.index(s.Index, b)
		ids, has := cx.entries(a)
		missing := cx.noEntry(a, s.Pos, index)
		dirty := t.Dirty
		return func(c *model.Ctx, k int) {
			i := index(c, k) - a.Lo
			if i < 0 || i >= len(ids) || has[i]>>c.P&1 == 0 {
				missing(c, k)
				return
			}
			v := val(c, k)
			if v < lo || v > hi {
				c.Set(ids[i], v)
				return
			}
			f := c.Scratch(dirty + len(ids))
			f[slot+i], f[dirty+i] = v, 1
		}
	}
	name, domain := t.Name, t.Type.Domain()
	return func(c *model.Ctx, k int) {
		v := val(c, k)
		if v < lo || v > hi {
			c.RangeFault(fmt.Sprintf("process %d sets local %s to %d, outside %s", c.P, name, v, domain))
			return
		}
		c.Scratch(slot + 1)[slot] = v
	}
}

// tempRef compiles the read of a local or of a shadow's entry: in an
// action that is not atomic, the variable before the step until the
// block assigns the entry (see seq).
func (cx *actionCtx) tempRef(e *ir.TempRef, b bindings) actionFn {
	if e.Temp.LocalArray() {
		return cx.localArrayRef(e, b)
	}
	t := e.Temp
	slot, lazy := t.Slot, !cx.action.Atomic
	if e.Index == nil {
		if t.Var != nil && lazy {
			id, dirty := cx.vars[t.Var.ID], t.Dirty
			top := max(slot, dirty) + 1
			return func(c *model.Ctx, _ int) int {
				if f := c.Scratch(top); f[dirty] != 0 {
					return f[slot]
				}
				return c.Get(id)
			}
		}
		return func(c *model.Ctx, _ int) int { return c.Scratch(slot + 1)[slot] }
	}
	a := t.Array
	ids, has := cx.entries(a)
	dirty := t.Dirty
	top := max(slot, dirty) + len(ids)
	if i, ok := constValue(e.Index, b, -1, cx.n); ok && i-a.Lo >= 0 && i-a.Lo < len(ids) && isSubset(cx.action.Procs, procsOf(has[i-a.Lo], cx.n)) {
		// An entry every acting process has, at an index known at
		// compile time.
		i -= a.Lo
		id := ids[i]
		if lazy {
			return func(c *model.Ctx, _ int) int {
				if f := c.Scratch(top); f[dirty+i] != 0 {
					return f[slot+i]
				}
				return c.Get(id)
			}
		}
		return func(c *model.Ctx, _ int) int { return c.Scratch(top)[slot+i] }
	}
	index := cx.index(e.Index, b)
	missing := cx.noEntry(a, e.Pos, index)
	return func(c *model.Ctx, k int) int {
		i := index(c, k) - a.Lo
		if i < 0 || i >= len(has) || has[i]>>c.P&1 == 0 {
			return missing(c, k)
		}
		f := c.Scratch(top)
		if !lazy || f[dirty+i] != 0 {
			return f[slot+i]
		}
		return c.Get(ids[i])
	}
}

// procsOf lists the processes of mask m, below n.
func procsOf(m uint64, n int) []int {
	var ps []int
	for p := range n {
		if m>>p&1 != 0 {
			ps = append(ps, p)
		}
	}
	return ps
}

// Temp returns entry i of t in the sequential block the init effects
// run (ir.TempReader).
func (e *stateEnv) Temp(t *ir.Temp, i int) int { return e.temps[t.Slot+i] }

// runSeq applies the init effects of a sequential block, reading env
// and writing next.
func (c *compiler) runSeq(s *ir.Seq, env *stateEnv, next *model.State) error {
	outer := env.temps
	defer func() { env.temps = outer }()
	env.temps = make([]int, s.Frame)
	for _, t := range s.Temps {
		if !t.Shadow() {
			continue
		}
		for i := range t.Len {
			if _, v := t.Entry(i+entryLo(t), env.self); v != nil {
				env.temps[t.Slot+i] = env.s.Get(env.self, c.vars[v.ID])
			}
		}
	}
	if err := c.runInit(s.Body, env, next); err != nil {
		return err
	}
	for _, t := range s.Temps {
		if !t.Shadow() {
			continue
		}
		for i := range t.Len {
			if _, v := t.Entry(i+entryLo(t), env.self); v != nil && env.temps[t.Dirty+i] != 0 {
				next.Set(env.self, c.vars[v.ID], env.temps[t.Slot+i])
			}
		}
	}
	return nil
}

// entryLo is the first index of the array t shadows (0 for another).
func entryLo(t *ir.Temp) int {
	if t.Array != nil {
		return t.Array.Lo
	}
	return 0
}

// runSetTemp applies the init effect of SetTemp s.
func (c *compiler) runSetTemp(s *ir.SetTemp, env *stateEnv) error {
	t := s.Temp
	if env.temps == nil {
		return fmt.Errorf("%s is assigned outside its block", t.Name)
	}
	if t.LocalArray() {
		return runSetLocalArray(s, env)
	}
	i := 0
	if s.Index != nil {
		var err error
		if i, err = ir.Eval(s.Index, env); err != nil {
			return err
		}
	}
	off, v := t.Entry(i, env.self)
	if t.Shadow() && v == nil {
		return fmt.Errorf("init: %s", t.Missing(env.self, i))
	}
	val, err := ir.Eval(s.Value, env)
	if err != nil {
		return err
	}
	if val < t.Type.Lo || val > t.Type.Hi {
		what := "local " + t.Name
		if v != nil {
			what = v.Name
		}
		return fmt.Errorf("init sets %s to %d, outside %s", what, val, t.Type.Domain())
	}
	env.temps[t.Slot+off] = val
	if t.Shadow() {
		env.temps[t.Dirty+off] = 1
	}
	return nil
}
