package symbolic

import (
	"fmt"

	"github.com/dalzilio/rudd"

	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/model"
)

// relation builds the transition relation of the central daemon: the
// disjunction, over every process and every alternative of its actions,
// of the guard, the written variables' next values and every other
// variable unchanged.
func (e *Encoding) relation() (rudd.Node, error) {
	b := e.b
	t := b.False()
	first := map[int]bool{}
	for _, p := range e.spec.FirstEnabled {
		first[p] = true
	}
	for p := range e.spec.N {
		// earlier is the disjunction of the guards of p's protocol and
		// timeout actions so far, for a process that runs only its first
		// enabled one.
		earlier := b.False()
		for _, a := range e.spec.Actions {
			if !declaresAction(a, p) {
				continue
			}
			if a.Recv != nil {
				return nil, fmt.Errorf("action %s receives a message: %w", a.Name, ErrUnsupported)
			}
			alternatives := []int{0}
			if a.Choice != nil {
				alternatives = alternatives[:0]
				for k := a.Choice.Lo; k <= a.Choice.Hi; k++ {
					alternatives = append(alternatives, k)
				}
			}
			guardAll := b.False()
			for _, k := range alternatives {
				in := env{self: p}
				if a.Choice != nil {
					in = in.with(a.Choice, k)
				}
				guard, err := e.boolean(a.Guard, in)
				if err != nil {
					return nil, fmt.Errorf("action %s of process %d: the guard: %w", a.Name, p, err)
				}
				guard = b.And(guard, e.valid)
				if first[p] && a.Kind != model.Environment {
					guard = b.And(guard, b.Not(earlier))
				}
				step, err := e.step(a, p, in)
				if err != nil {
					return nil, fmt.Errorf("action %s of process %d: %w", a.Name, p, err)
				}
				t = b.Or(t, b.And(guard, step))
				guardAll = b.Or(guardAll, guard)
			}
			if first[p] && a.Kind != model.Environment {
				earlier = b.Or(earlier, guardAll)
			}
		}
	}
	return b.And(t, e.validNext), nil
}

// declaresAction reports whether process p has action a.
func declaresAction(a *ir.Action, p int) bool {
	for _, q := range a.Procs {
		if q == p {
			return true
		}
	}
	return false
}

// step is the relation between a configuration and the next that action
// a's effects make for process p: each variable p writes takes its new
// value, read in the configuration before the step, and every other
// variable of every process keeps its own.
func (e *Encoding) step(a *ir.Action, p int, in env) (rudd.Node, error) {
	b := e.b
	written := map[int]cases{}
	if err := e.effects(a.Effects, p, in, b.True(), written); err != nil {
		return nil, err
	}
	rel := b.True()
	for q := range e.spec.N {
		for id, f := range e.fields[q] {
			if f == nil {
				continue
			}
			next, ok := written[id]
			if q != p || !ok {
				rel = b.And(rel, e.unchanged(f))
				continue
			}
			// The new value, by cases; a value outside the domain is a
			// range fault the explicit engine reports, not a step here.
			v := b.False()
			for x, m := range next {
				if x < f.lo || x > f.hi {
					return nil, fmt.Errorf("it may set %s to %d, outside %d..%d (a range fault, for the explicit engine): %w", e.spec.Vars[id].Name, x, f.lo, f.hi, ErrUnsupported)
				}
				v = b.Or(v, b.And(m, e.value(f, x, 1)))
			}
			rel = b.And(rel, v)
		}
	}
	return rel, nil
}

// effects records in written, for each variable of p the statements
// assign, its next value by cases, where cond holds (the branches taken
// so far); a variable a branch leaves alone keeps its value there.
func (e *Encoding) effects(stmts []ir.Stmt, p int, in env, cond rudd.Node, written map[int]cases) error {
	b := e.b
	for _, s := range stmts {
		switch s := s.(type) {
		case *ir.Assign:
			val, err := e.eval(s.Value, in)
			if err != nil {
				return err
			}
			e.assign(s.Var, p, val, cond, written)
		case *ir.AssignElem:
			idx, err := e.eval(s.Index, in)
			if err != nil {
				return err
			}
			val, err := e.eval(s.Value, in)
			if err != nil {
				return err
			}
			for i, m := range idx {
				v := s.Array.Elem(i)
				if v == nil || e.fields[p][v.ID] == nil {
					return fmt.Errorf("it may set entry %d of %s, which process %d lacks: %w", i, s.Array.Name, p, ErrUnsupported)
				}
				e.assign(v, p, val, b.And(cond, m), written)
			}
		case *ir.If:
			c, err := e.boolean(s.Cond, in)
			if err != nil {
				return err
			}
			if err := e.effects(s.Then, p, in, b.And(cond, c), written); err != nil {
				return err
			}
			if err := e.effects(s.Else, p, in, b.And(cond, b.Not(c)), written); err != nil {
				return err
			}
		case *ir.For:
			of := 0
			if s.Over.Of != nil {
				var err error
				if of, err = e.process(s.Over.Of, in); err != nil {
					return err
				}
			}
			for _, q := range s.Over.Members(of) {
				if err := e.effects(s.Body, p, in.with(s.Var, q), cond, written); err != nil {
					return err
				}
			}
		default:
			return fmt.Errorf("an effect of type %T: %w", s, ErrUnsupported)
		}
	}
	return nil
}

// assign makes v's next value val where cond holds, over what earlier
// statements gave it (its current value if none did).
func (e *Encoding) assign(v *ir.Var, p int, val cases, cond rudd.Node, written map[int]cases) {
	b := e.b
	old, ok := written[v.ID]
	if !ok {
		var err error
		if old, err = e.eval(&ir.VarRef{Var: v, Proc: &ir.Const{Value: p}}, env{self: p}); err != nil {
			old = e.constant(0)
		}
	}
	out := cases{}
	for x, m := range old {
		e.add(out, x, b.And(m, b.Not(cond)))
	}
	for x, m := range val {
		e.add(out, x, b.And(m, cond))
	}
	written[v.ID] = out
}
