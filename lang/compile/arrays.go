package compile

import (
	"slices"

	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
	"github.com/ringcheck/ringcheck/model"
)

// This file compiles what arrays, peers and for loops add: a set's
// members are unrolled like a quantifier's processes, and an entry whose
// index is then a constant is read as the variable it is.

// peerMasks returns, per process, the set of its peers as a bit mask (the
// number of processes is at most 64).
func peerMasks(spec *ir.Spec) []uint64 {
	masks := make([]uint64, spec.N)
	for p, peers := range spec.Peers {
		for _, q := range peers {
			masks[p] |= 1 << q
		}
	}
	return masks
}

// procMask returns the processes of ps as a bit mask.
func procMask(ps []int) uint64 {
	var m uint64
	for _, p := range ps {
		m |= 1 << p
	}
	return m
}

// memberFn reports whether q is a member of a set for the acting process.
type memberFn func(c *model.Ctx, k, q int) bool

// over compiles the members of a set in an action: the values to unroll,
// and, when membership is known only as the step runs (the peers of the
// acting process), the test each must pass (nil: every value is a member).
func (cx *actionCtx) over(s *ir.Set, b bindings) ([]int, memberFn) {
	if s.Of == nil {
		return s.Members(0), nil
	}
	if p, ok := constProc(s.Of, b, -1, cx.n); ok {
		return s.Members(p), nil
	}
	all := make([]int, cx.n)
	for q := range all {
		all[q] = q
	}
	masks := cx.masks
	if _, self := s.Of.(*ir.Self); self {
		return all, func(c *model.Ctx, _, q int) bool { return masks[c.P]>>q&1 != 0 }
	}
	of := cx.proc(s.Of, b)
	return all, func(c *model.Ctx, k, q int) bool { return masks[of(c, k)]>>q&1 != 0 }
}

// quant compiles a quantifier over a set in an action.
func (cx *actionCtx) quant(e *ir.Quant, b bindings) actionFn {
	if op, ok := chainOp(e.Kind); ok && !cx.noFused {
		if f := cx.chain(e, op, b); f != nil {
			return f
		}
	}
	if e.Over == nil {
		parts := make([]actionFn, cx.n)
		for p := range parts {
			parts[p] = cx.expr(e.Body, b.with(e.Var, p))
		}
		return cx.total(e, parts)
	}
	values, member := cx.over(e.Over, b)
	neutral := 0
	if e.Kind == "forall" {
		neutral = 1
	}
	parts := make([]actionFn, len(values))
	for i, q := range values {
		body := cx.expr(e.Body, b.with(e.Var, q))
		if member == nil {
			parts[i] = body
			continue
		}
		parts[i] = func(c *model.Ctx, k int) int {
			if !member(c, k, q) {
				return neutral
			}
			return body(c, k)
		}
	}
	return cx.total(e, parts)
}

// forLoop compiles a for loop: its body once per member, in ascending
// order, or once for all of them when unrolling it would make it large
// (rolledLoop).
func (cx *actionCtx) forLoop(s *ir.For, b bindings) effect {
	values, member := cx.over(s.Over, b)
	if cx.rolls(s, values, b) {
		return cx.rolledLoop(s, values, member, b)
	}
	parts := make([]effect, len(values))
	for i, q := range values {
		body := cx.stmts(s.Body, b.with(s.Var, q))
		if member == nil {
			parts[i] = body
			continue
		}
		parts[i] = func(c *model.Ctx, k int) {
			if member(c, k, q) {
				body(c, k)
			}
		}
	}
	return func(c *model.Ctx, k int) {
		for _, p := range parts {
			p(c, k)
		}
	}
}

// elemRef compiles a read of an array's entry. When the index is a
// constant once the enclosing sets are unrolled, it is the entry's
// variable, read as any other.
func (cx *actionCtx) elemRef(e *ir.ElemRef, b bindings) actionFn {
	a := e.Array
	if i, ok := constValue(e.Index, b, -1, cx.n); ok {
		v := a.Elem(i)
		if v == nil {
			return cx.noEntry(a, e.Pos, func(*model.Ctx, int) int { return i })
		}
		read := cx.varRef(&ir.VarRef{Var: v, Proc: e.Proc}, b)
		if e.Proc == nil && isSubset(cx.action.Procs, v.Procs) {
			return read
		}
		has, proc := procMask(v.Procs), cx.procOf(e.Proc, b)
		missing := cx.noEntry(a, e.Pos, func(*model.Ctx, int) int { return i })
		return func(c *model.Ctx, k int) int {
			if has>>proc(c, k)&1 == 0 {
				return missing(c, k)
			}
			return read(c, k)
		}
	}
	index, proc := cx.expr(e.Index, b), cx.procOf(e.Proc, b)
	ids, has := cx.entries(a)
	missing := cx.noEntry(a, e.Pos, index)
	timeout := cx.timeout()
	return func(c *model.Ctx, k int) int {
		i, p := index(c, k)-a.Lo, proc(c, k)
		if i < 0 || i >= len(ids) || has[i]>>p&1 == 0 {
			return missing(c, k)
		}
		switch {
		case p == c.P:
			return c.Get(ids[i])
		case timeout:
			return c.Config().Get(p, ids[i])
		}
		return c.Read(p, ids[i])
	}
}

// entries returns the variables of a's entries by index (-1 where there
// is none) and the processes that have each, computed once per array
// and shared (read-only).
func (cx *actionCtx) entries(a *ir.Array) ([]model.VarID, []uint64) {
	if e, ok := cx.entryTab[a]; ok {
		return e.ids, e.has
	}
	ids := make([]model.VarID, len(a.Elems))
	has := make([]uint64, len(a.Elems))
	for i, v := range a.Elems {
		ids[i] = -1
		if v != nil {
			ids[i], has[i] = cx.vars[v.ID], procMask(v.Procs)
		}
	}
	if cx.entryTab == nil {
		cx.entryTab = map[*ir.Array]arrayEntries{}
	}
	cx.entryTab[a] = arrayEntries{ids, has}
	return ids, has
}

// arrayEntries are an array's entries (see entries).
type arrayEntries struct {
	ids []model.VarID
	has []uint64
}

// procOf compiles the process whose entry is accessed (nil: the acting
// process).
func (cx *actionCtx) procOf(e ir.Expr, b bindings) actionFn {
	if e == nil {
		return func(c *model.Ctx, _ int) int { return c.P }
	}
	return cx.proc(e, b)
}

// noEntry fails the step: the acting process accessed an entry of a that
// the process has not, at the index written at pos.
func (cx *actionCtx) noEntry(a *ir.Array, pos syntax.Pos, index actionFn) actionFn {
	fault := cx.faultAt(pos)
	return func(c *model.Ctx, k int) int {
		c.Fail(fault("%s", a.Missing(c.P, index(c, k))))
		return 0
	}
}

// assignElem compiles an assignment to an entry of the acting process's
// array.
func (cx *actionCtx) assignElem(s *ir.AssignElem, b bindings) effect {
	a, val := s.Array, cx.expr(s.Value, b)
	if i, ok := constValue(s.Index, b, -1, cx.n); ok {
		if v := a.Elem(i); v != nil {
			id := cx.vars[v.ID]
			if isSubset(cx.action.Procs, v.Procs) {
				if cx.action.Atomic {
					return func(c *model.Ctx, k int) { c.SetLogged(id, val(c, k)) }
				}
				return func(c *model.Ctx, k int) { c.Set(id, val(c, k)) }
			}
		}
	}
	index := cx.expr(s.Index, b)
	ids, has := cx.entries(a)
	missing := cx.noEntry(a, s.Pos, index)
	return func(c *model.Ctx, k int) {
		i := index(c, k) - a.Lo
		if i < 0 || i >= len(ids) || has[i]>>c.P&1 == 0 {
			missing(c, k)
			return
		}
		if cx.action.Atomic {
			c.SetLogged(ids[i], val(c, k))
			return
		}
		c.Set(ids[i], val(c, k))
	}
}

// isSubset reports whether every process of ps is in of (both ascending).
func isSubset(ps, of []int) bool {
	for _, p := range ps {
		if _, ok := slices.BinarySearch(of, p); !ok {
			return false
		}
	}
	return true
}

// stateMembers returns the members of a set in a state expression, or
// false when the process whose peers they are is not known at compile
// time.
func (c *compiler) stateMembers(s *ir.Set, b bindings, self int) ([]int, bool) {
	if s.Of == nil {
		return s.Members(0), true
	}
	p, ok := constProc(s.Of, b, self, c.n)
	if !ok {
		return nil, false
	}
	return s.Members(p), true
}

// stateQuant compiles a quantifier over a set in a state expression.
func (c *compiler) stateQuant(e *ir.Quant, b bindings, self int) stateFn {
	members, ok := c.stateMembers(e.Over, b, self)
	if !ok {
		// The peers of a process known only in the configuration: each
		// candidate, tested.
		of, masks := c.state(e.Over.Of, b, self), c.masks
		neutral := 0
		if e.Kind == "forall" {
			neutral = 1
		}
		var parts []stateFn
		for q := range c.n {
			body := c.state(e.Body, b.with(e.Var, q), self)
			parts = append(parts, func(s *stateEval) int {
				p := ((of(s) % c.n) + c.n) % c.n
				if masks[p]>>q&1 == 0 {
					return neutral
				}
				return body(s)
			})
		}
		return c.stateTotal(e, parts)
	}
	var parts []stateFn
	for _, q := range members {
		bq := b.with(e.Var, q)
		// A part that cannot change the result is left out, as for a
		// quantifier over the processes.
		if v, ok := constValue(e.Body, bq, self, c.n); ok && (v == 0) == (e.Kind != "forall") {
			continue
		}
		parts = append(parts, c.state(e.Body, bq, self))
	}
	return c.stateTotal(e, parts)
}

// stateElem compiles a read of an array's entry in a state expression; an
// entry the process has not reads as 0, as a variable it has not.
func (c *compiler) stateElem(e *ir.ElemRef, b bindings, self int) stateFn {
	a := e.Array
	if i, ok := constValue(e.Index, b, self, c.n); ok {
		v := a.Elem(i)
		if v == nil {
			return func(*stateEval) int { return 0 }
		}
		return c.state(&ir.VarRef{Var: v, Proc: e.Proc}, b, self)
	}
	index := c.state(e.Index, b, self)
	proc := func(*stateEval) int { return self }
	if e.Proc != nil {
		proc = c.state(e.Proc, b, self)
	}
	ids := make([]model.VarID, len(a.Elems))
	has := make([]uint64, len(a.Elems))
	for i, v := range a.Elems {
		if v != nil {
			ids[i], has[i] = c.vars[v.ID], procMask(v.Procs)
		}
	}
	n := c.n
	return func(s *stateEval) int {
		i, p := index(s)-a.Lo, ((proc(s)%n)+n)%n
		if i < 0 || i >= len(ids) || has[i]>>p&1 == 0 {
			return 0
		}
		return s.Get(p, ids[i])
	}
}
