package symbolic

import (
	"fmt"
	"slices"

	"github.com/ringcheck/ringcheck/internal/rudd"
	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/model"
)

// This file encodes atomic actions (ir.Action.Atomic), which assign
// variables of the acting process's peers in the same step as its own:
// those variables are in the acting process's share of the relation
// (ownFields), and a step that leaves one alone keeps its value.

// peerWrite is a variable of process proc.
type peerWrite struct {
	proc int
	v    *ir.Var
}

// peerWrites lists the variables of p's peers that an atomic action of p
// may assign, by process then variable: each variable an AssignAt of
// the action names, of each peer of p that declares it.
func (e *Encoding) peerWrites(p int) []peerWrite {
	var out []peerWrite
	add := func(v *ir.Var) {
		for _, q := range e.spec.Peers[p] {
			w := peerWrite{q, v}
			if e.fields[q][v.ID] != nil && !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
	}
	var walk func([]ir.Stmt)
	walk = func(ss []ir.Stmt) {
		for _, s := range ss {
			switch s := s.(type) {
			case *ir.AssignAt:
				add(s.Var)
			case *ir.If:
				walk(s.Then)
				walk(s.Else)
			case *ir.For:
				walk(s.Body)
			case *ir.Repeat:
				walk(s.Body)
			}
		}
	}
	for _, a := range e.spec.Actions {
		if a.Atomic && declaresAction(a, p) {
			walk(a.Effects)
		}
	}
	slices.SortFunc(out, func(x, y peerWrite) int {
		if x.proc != y.proc {
			return x.proc - y.proc
		}
		return x.v.ID - y.v.ID
	})
	return out
}

// assignAt records x[Q] := E of process p where cond holds.
func (e *Encoding) assignAt(s *ir.AssignAt, p int, in env, cond rudd.Node, st *effectState) error {
	q, err := e.process(s.Proc, in)
	if err != nil {
		return err
	}
	val, err := e.eval(s.Value, in)
	if err != nil {
		return err
	}
	if q == p {
		if err := e.once(st, p, p, s.Var, cond); err != nil {
			return err
		}
		e.assign(s.Var, p, val, cond, st.written)
		return nil
	}
	if !slices.Contains(e.spec.Peers[p], q) || e.fields[q][s.Var.ID] == nil {
		return fmt.Errorf("process %d may assign %s of process %d, which is not a peer that declares it (a fault, for the explicit engine): %w", p, s.Var.Name, q, ErrUnsupported)
	}
	if err := e.once(st, p, q, s.Var, cond); err != nil {
		return err
	}
	if st.others[q] == nil {
		st.others[q] = map[int]cases{}
	}
	e.assign(s.Var, q, val, cond, st.others[q])
	return nil
}

// once records that process p assigns v of process q where cond holds,
// and refuses an assignment where an earlier one of the step happens
// too: the explicit engine reports that as a fault.
func (e *Encoding) once(st *effectState, p, q int, v *ir.Var, cond rudd.Node) error {
	b := e.b
	key := [2]int{q, v.ID}
	if prev, ok := st.at[key]; ok {
		if !b.Equal(b.And(prev, cond), b.False()) {
			return fmt.Errorf("process %d may assign %s of process %d twice in one step (a fault, for the explicit engine): %w", p, v.Name, q, ErrUnsupported)
		}
		cond = b.Or(prev, cond)
	}
	st.at[key] = cond
	return nil
}

// peersAssigned is the relation between a configuration where guard
// holds and the next values of the peers' variables in p's share: each
// one the step assigns takes its new value, every other keeps its own.
func (e *Encoding) peersAssigned(p int, guard rudd.Node, st *effectState) (rudd.Node, error) {
	b := e.b
	rel := b.True()
	for _, w := range e.peerWrites(p) {
		f := e.fields[w.proc][w.v.ID]
		next, ok := st.others[w.proc][w.v.ID]
		if !ok {
			rel = b.And(rel, e.unchanged(f))
			continue
		}
		v, bad, ok := e.newValue(f, next, guard)
		if !ok {
			return nil, fmt.Errorf("it may set %s of process %d to %d, outside %d..%d (a range fault, for the explicit engine): %w", w.v.Name, w.proc, bad, f.lo, f.hi, ErrUnsupported)
		}
		rel = b.And(rel, v)
	}
	return rel, nil
}

// atomicDaemon says why the engine cannot encode spec's atomic actions
// under daemon d, or returns nil: a step of several processes could
// assign one variable twice, which the model defines under the central
// daemon only.
func atomicDaemon(spec *ir.Spec, d model.Daemon) error {
	if d == model.Central {
		return nil
	}
	for _, a := range spec.Actions {
		if a.Atomic {
			return fmt.Errorf("spec %s: action %s is atomic (it assigns its peers' variables): the %s daemon: %w (the central daemon only)", spec.Name, a.Name, d, ErrUnsupported)
		}
	}
	return nil
}
