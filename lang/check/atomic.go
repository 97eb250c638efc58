package check

import (
	"slices"

	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
	"github.com/ringcheck/ringcheck/model"
)

// This file checks what atomic actions add: an assignment x[Q] := E of
// the variable x of process Q, a peer of the acting process, in the same
// step as the acting process's own assignments; and the liveness role
// that depends on the parameters.

// target is the key, in assignments, of an assignment that process actor
// makes to variable v of process proc (-1: a process known only as the
// step runs).
type target struct {
	v           *ir.Var
	actor, proc int
}

// recordOwn records an assignment at pos of the acting processes' own
// variable v, reporting one that may assign what an earlier one did.
func (c *checker) recordOwn(assigned assignments, v *ir.Var, sc *scope, pos syntax.Pos) {
	c.record(assigned, v, v.Name, pos)
	for _, p := range sc.procs {
		if at, twice := assigned[target{v, p, p}]; twice {
			c.errorf(pos, "process %d assigns %s of process %d twice in one step (first at %s): assignments are simultaneous", p, v.Name, p, at)
			return
		}
	}
}

// assignAt checks x[Q] := E in an atomic action: Q is the acting process
// or one of its peers, and no process's variable is assigned twice in
// one step where the processes are known.
func (c *checker) assignAt(s *syntax.AssignStmt, v *ir.Var, sc *scope, assigned assignments) ir.Stmt {
	if len(sc.loops) > 0 {
		c.errorf(s.Pos, "for assigns %s once per member: in a for loop only an array's entry indexed by the loop's name may be assigned", v.Name)
	}
	proc := c.procExpr(s.Index, sc)
	if k, ok := proc.(*ir.Const); ok {
		proc = &ir.Const{Value: ir.Mod(k.Value, c.spec.N), T: ir.IntType()}
	}
	if _, self := proc.(*ir.Self); self {
		c.recordOwn(assigned, v, sc, s.Pos)
		return c.assign(v, s.Value, sc)
	}
	top := model.Topology{Kind: c.spec.Topology, N: c.spec.N}
	for _, p := range sc.procs {
		t, static := staticProc(proc, p, c.spec.N)
		if !static {
			// Known as the step runs: a target not linked, or assigned
			// twice, is a fault of the step.
			continue
		}
		if t != p && !top.Linked(p, t) && !top.Linked(t, p) {
			c.errorf(s.Index.ExprPos(), "process %d cannot assign %s of process %d: an atomic action assigns the variables of its own process and of its peers (the processes linked to it)", p, v.Name, t)
			break
		}
		if !slices.Contains(v.Procs, t) {
			c.errorf(s.Index.ExprPos(), "process %d has no variable %s", t, v.Name)
			break
		}
		key := target{v, p, t}
		at, twice := assigned[key]
		if !twice && t == p {
			at, twice = assigned[v]
		}
		if twice {
			c.errorf(s.Pos, "process %d assigns %s of process %d twice in one step (first at %s): assignments are simultaneous", p, v.Name, t, at)
			break
		}
		assigned[key] = s.Pos
	}
	x := c.expr(s.Value, sc)
	if invalid(x) || invalid(proc) || v.Type == invalidType {
		return &ir.AssignAt{Var: v, Proc: proc, Value: x, Pos: s.Pos}
	}
	if !assignable(v.Type, x.Type()) {
		c.errorf(s.Value.ExprPos(), "cannot assign %s to %s of type %s", typeName(x.Type()), v.Name, typeName(v.Type))
	}
	if k, ok := x.(*ir.Const); ok && !sc.dead && (k.Value < v.Type.Lo || k.Value > v.Type.Hi) {
		c.errorf(s.Value.ExprPos(), "%d is outside %s's domain %s", k.Value, v.Name, v.Type.Domain())
	}
	if sc.writes != nil {
		sc.writes.Vars = append(sc.writes.Vars, ir.VarAccess{Var: v, Proc: proc})
		if !relative(proc) {
			sc.writes.Global = true
		}
	}
	return &ir.AssignAt{Var: v, Proc: proc, Value: x, Pos: s.Pos}
}

// role is the liveness role of action d: its role, or, with `ROLE if
// COND else ROLE`, the one the parameters' values select.
func (c *checker) role(d *syntax.ActionDecl) model.Liveness {
	named := func(id *syntax.Ident) model.Liveness {
		switch id.Name {
		case "finite":
			return model.Finite
		case "optional":
			return model.Optional
		}
		return model.Scheduled
	}
	if d.Role == nil {
		return model.Scheduled
	}
	if d.RoleIf == nil {
		return named(d.Role)
	}
	x := c.expr(d.RoleIf, &scope{global: true})
	k, ok := x.(*ir.Const)
	switch {
	case invalid(x):
	case !ok || k.T.Kind != ir.Bool:
		c.errorf(d.RoleIf.ExprPos(), "a role's condition is a boolean constant over the parameters (finite if staycs == 0 else optional)")
	case k.Value == 0:
		return named(d.RoleElse)
	}
	return named(d.Role)
}
