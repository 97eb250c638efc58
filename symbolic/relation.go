package symbolic

import (
	"fmt"

	"github.com/dalzilio/rudd"

	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/model"
)

// local is one process's share of the transition relation. Its relations
// range over the current configuration and the next values of the
// process's own variables only: a step of p leaves every other process's
// variables as they are, so the relation needs no frame for them.
type local struct {
	// rel is every step of the process; sched the steps of its scheduled
	// actions, the ones weak fairness is about.
	rel, sched rudd.Node
	// enabled and enabledSched are the configurations where rel and
	// sched have a step.
	enabled, enabledSched rudd.Node
	// curSet and nextSet are the process's current and next bits;
	// toNext renames the first into the second, toCurrent back.
	curSet, nextSet   rudd.Node
	toNext, toCurrent rudd.Replacer
	// same is the steps that leave the process's variables unchanged.
	same rudd.Node
}

// locals builds every process's share of the relation: for each of its
// actions and each value of the action's choice parameter, the guard and
// the next values of the variables the effect writes; the process's other
// variables keep their values.
func (e *Encoding) locals() error {
	b := e.b
	first := map[int]bool{}
	for _, p := range e.spec.FirstEnabled {
		first[p] = true
	}
	e.procs = make([]*local, e.spec.N)
	for p := range e.spec.N {
		l := &local{rel: b.False(), sched: b.False(), same: b.True()}
		var cur, next []int
		for _, f := range e.fields[p] {
			if f == nil {
				continue
			}
			l.same = b.And(l.same, e.unchanged(f))
			for _, v := range f.bits {
				cur, next = append(cur, v), append(next, v+1)
			}
		}
		l.curSet, l.nextSet = b.Makeset(cur), b.Makeset(next)
		var err error
		if l.toNext, err = b.NewReplacer(cur, next); err != nil {
			return err
		}
		if l.toCurrent, err = b.NewReplacer(next, cur); err != nil {
			return err
		}
		// earlier is the disjunction of the guards of p's protocol and
		// timeout actions so far, for a process that runs only its first
		// enabled one.
		earlier := b.False()
		for _, a := range e.spec.Actions {
			if !declaresAction(a, p) {
				continue
			}
			if a.Recv != nil {
				return fmt.Errorf("action %s receives a message: %w", a.Name, ErrUnsupported)
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
					return fmt.Errorf("action %s of process %d: the guard: %w", a.Name, p, err)
				}
				guard = b.And(guard, e.valid)
				if first[p] && a.Kind != model.Environment {
					guard = b.And(guard, b.Not(earlier))
				}
				step, err := e.step(a, p, in)
				if err != nil {
					return fmt.Errorf("action %s of process %d: %w", a.Name, p, err)
				}
				l.rel = b.Or(l.rel, b.And(guard, step))
				if a.Liveness == model.Scheduled {
					l.sched = b.Or(l.sched, b.And(guard, step))
				}
				guardAll = b.Or(guardAll, guard)
			}
			if first[p] && a.Kind != model.Environment {
				earlier = b.Or(earlier, guardAll)
			}
		}
		l.enabled = b.Exist(l.rel, l.nextSet)
		l.enabledSched = b.Exist(l.sched, l.nextSet)
		e.procs[p] = l
	}
	return nil
}

// concurrent builds the relation of the distributed daemon (any
// non-empty set of enabled processes moves, each by one of its steps,
// all reading the configuration before the step) or of the synchronous
// one (every enabled process moves), over every bit.
func (e *Encoding) concurrent(daemon model.Daemon) rudd.Node {
	b := e.b
	t, some := b.True(), b.False()
	for _, l := range e.procs {
		if daemon == model.Synchronous {
			t = b.And(t, b.Or(l.rel, b.And(b.Not(l.enabled), l.same)))
		} else {
			t = b.And(t, b.Or(l.rel, l.same))
		}
		some = b.Or(some, l.rel)
	}
	return b.And(t, some)
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

// step is the relation between a configuration and the next values of
// process p's variables that action a's effects make: each variable p
// writes takes its new value, read in the configuration before the step,
// and p's other variables keep theirs.
func (e *Encoding) step(a *ir.Action, p int, in env) (rudd.Node, error) {
	b := e.b
	written := map[int]cases{}
	if err := e.effects(a.Effects, p, in, b.True(), written); err != nil {
		return nil, err
	}
	rel := b.True()
	for id, f := range e.fields[p] {
		if f == nil {
			continue
		}
		next, ok := written[id]
		if !ok {
			rel = b.And(rel, e.unchanged(f))
			continue
		}
		// The new value, by cases; a value outside the domain is a range
		// fault the explicit engine reports, not a step here.
		v := b.False()
		for x, m := range next {
			if x < f.lo || x > f.hi {
				return nil, fmt.Errorf("it may set %s to %d, outside %d..%d (a range fault, for the explicit engine): %w", e.spec.Vars[id].Name, x, f.lo, f.hi, ErrUnsupported)
			}
			v = b.Or(v, b.And(m, e.value(f, x, 1)))
		}
		rel = b.And(rel, v)
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
