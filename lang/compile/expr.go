package compile

import (
	"fmt"

	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
	"github.com/ringcheck/ringcheck/model"
)

// proc compiles a process expression: its value modulo n.
func (cx *actionCtx) proc(e ir.Expr, b bindings) actionFn {
	n := cx.n
	switch e := e.(type) {
	case *ir.Self:
		return func(c *model.Ctx, _ int) int { return c.P }
	case *ir.Const:
		q := ((e.Value % n) + n) % n
		return func(*model.Ctx, int) int { return q }
	case *ir.Neighbor:
		if _, self := e.Of.(*ir.Self); self {
			if e.Offset == -1 {
				return func(c *model.Ctx, _ int) int { return c.Pred() }
			}
			if e.Offset == 1 {
				return func(c *model.Ctx, _ int) int { return c.Succ() }
			}
		}
		of, off := cx.proc(e.Of, b), e.Offset
		return func(c *model.Ctx, k int) int { return ((of(c, k)+off)%n + n) % n }
	case *ir.LocalRef:
		if v, ok := b[e.Local]; ok {
			q := ((v % n) + n) % n
			return func(*model.Ctx, int) int { return q }
		}
	}
	x := cx.expr(e, b)
	return func(c *model.Ctx, k int) int { return ((x(c, k) % n) + n) % n }
}

func (cx *actionCtx) expr(e ir.Expr, b bindings) actionFn {
	if cx.nodes++; cx.nodes > maxNodes {
		return func(*model.Ctx, int) int { return 0 }
	}
	if v, ok := constValue(e, b, -1, cx.n); ok {
		// A parameter's comparison, or one over the unrolled processes.
		return func(*model.Ctx, int) int { return v }
	}
	return cx.memoized(e, b, func() actionFn { return cx.compute(e, b) })
}

// compute compiles e into the closures that compute it.
func (cx *actionCtx) compute(e ir.Expr, b bindings) actionFn {
	switch e := e.(type) {
	case *ir.Const:
		v := e.Value
		return func(*model.Ctx, int) int { return v }
	case *ir.Self, *ir.Neighbor:
		return cx.proc(e, b)
	case *ir.LocalRef:
		if v, ok := b[e.Local]; ok {
			return func(*model.Ctx, int) int { return v }
		}
		if e.Local == cx.action.Choice {
			return func(_ *model.Ctx, k int) int { return frameChoice(k) }
		}
		if f := cx.loopLocal(e.Local); f != nil {
			return f
		}
		return cx.fault("an unbound local " + e.Local.Name)
	case *ir.VarRef:
		return cx.varRef(e, b)
	case *ir.FieldRef:
		i, nf := e.Index, len(e.Recv.Msg.Fields)
		t, post := cx.types[e.Recv.Msg.ID], cx.post
		return func(_ *model.Ctx, k int) int { return post.field(frameMsg(k), t, i, nf) }
	case *ir.Unary:
		if inv, ok := ir.Negated(e); ok {
			return cx.expr(inv, b)
		}
		x := cx.expr(e.X, b)
		if e.Op == syntax.Not {
			return func(c *model.Ctx, k int) int { return 1 - x(c, k) }
		}
		if cx.mayOverflow(e) {
			return cx.checkedNeg(e, x)
		}
		return func(c *model.Ctx, k int) int { return -x(c, k) }
	case *ir.Binary:
		return cx.binary(e, b)
	case *ir.Cond:
		cond, x, y := cx.expr(e.C, b), cx.expr(e.X, b), cx.expr(e.Y, b)
		return func(c *model.Ctx, k int) int {
			if cond(c, k) != 0 {
				return x(c, k)
			}
			return y(c, k)
		}
	case *ir.Quant:
		return cx.quant(e, b)
	case *ir.ElemRef:
		return cx.elemRef(e, b)
	case *ir.TempRef:
		return cx.tempRef(e, b)
	case *ir.RunField:
		return cx.runField(e)
	case *ir.RunIs:
		return cx.runIs(e)
	case *ir.ChanLen:
		p, okp := constProc(e.From, b, -1, cx.n)
		q, okq := constProc(e.To, b, -1, cx.n)
		if okp && okq && e.Upto == nil {
			// Between processes known at compile time (an unrolled
			// quantifier's): the channel from a table.
			post, idx, msg := cx.post, p*cx.n+q, e.Msg
			return func(c *model.Ctx, _ int) int { return cx.countIn(c.Config(), post.chans[idx], msg) }
		}
		from, to := cx.proc(e.From, b), cx.proc(e.To, b)
		msg := e.Msg
		if e.Upto != nil {
			upto := cx.expr(e.Upto, b)
			return func(c *model.Ctx, k int) int {
				return cx.chanCount(c.Config(), from(c, k), to(c, k), msg, max(0, upto(c, k)))
			}
		}
		return func(c *model.Ctx, k int) int {
			return cx.chanLen(c.Config(), from(c, k), to(c, k), msg, c)
		}
	case *ir.HeadField:
		from, to := cx.proc(e.From, b), cx.proc(e.To, b)
		return func(c *model.Ctx, k int) int {
			return cx.headField(c.Config(), from(c, k), to(c, k), e)
		}
	case *ir.ChanPos:
		from, to := cx.proc(e.From, b), cx.proc(e.To, b)
		return func(c *model.Ctx, k int) int {
			return cx.chanPos(c.Config(), from(c, k), to(c, k), e.Msg)
		}
	case *ir.MsgQuant:
		return cx.msgQuant(e, b)
	case *ir.MsgField:
		return cx.msgField(e, b)
	case *ir.FieldElem:
		return cx.fieldElem(e, b)
	}
	return cx.fault(fmt.Sprintf("an expression of type %T", e))
}

// fault compiles a node the compiler does not know, which check never
// produces: evaluating it fails the step.
func (cx *actionCtx) fault(what string) actionFn {
	err := fmt.Errorf("cannot evaluate %s", what)
	if cx.guard {
		err = fmt.Errorf("action %s: %w", cx.action.Name, err)
	}
	return func(c *model.Ctx, _ int) int {
		c.Fail(err)
		return 0
	}
}

func quantAction(kind string, parts []actionFn) actionFn {
	switch kind {
	case "count":
		return func(c *model.Ctx, k int) int {
			n := 0
			for _, p := range parts {
				if p(c, k) != 0 {
					n++
				}
			}
			return n
		}
	case "sum":
		return func(c *model.Ctx, k int) int {
			n := 0
			for _, p := range parts {
				n += p(c, k)
			}
			return n
		}
	case "forall":
		return func(c *model.Ctx, k int) int {
			for _, p := range parts {
				if p(c, k) == 0 {
					return 0
				}
			}
			return 1
		}
	}
	return func(c *model.Ctx, k int) int {
		for _, p := range parts {
			if p(c, k) != 0 {
				return 1
			}
		}
		return 0
	}
}

// varRef compiles a read of a variable, with the direct accessor for the
// acting process and its neighbours.
func (cx *actionCtx) varRef(e *ir.VarRef, b bindings) actionFn {
	id := cx.vars[e.Var.ID]
	if e.Proc == nil {
		return func(c *model.Ctx, _ int) int { return c.Get(id) }
	}
	if cx.timeout() {
		q := cx.proc(e.Proc, b)
		return func(c *model.Ctx, k int) int { return c.Config().Get(q(c, k), id) }
	}
	if nb, ok := e.Proc.(*ir.Neighbor); ok {
		if _, self := nb.Of.(*ir.Self); self && nb.Offset == -1 {
			return func(c *model.Ctx, _ int) int { return c.Read(c.Pred(), id) }
		}
		if _, self := nb.Of.(*ir.Self); self && nb.Offset == 1 {
			return func(c *model.Ctx, _ int) int { return c.Read(c.Succ(), id) }
		}
	}
	q := cx.proc(e.Proc, b)
	if k, ok := e.Proc.(*ir.Const); ok {
		p := ((k.Value % cx.n) + cx.n) % cx.n
		return func(c *model.Ctx, _ int) int { return c.Read(p, id) }
	}
	name := e.Var.Name
	return func(c *model.Ctx, k int) int {
		p := q(c, k)
		if p != c.P && !cx.post.sys.Topology.Linked(p, c.P) {
			c.Fail(fmt.Errorf("process %d reads %s of process %d, which is not linked to it", c.P, name, p))
			return 0
		}
		return c.Read(p, id)
	}
}

func (cx *actionCtx) binary(e *ir.Binary, b bindings) actionFn {
	if f := cx.checkedBinary(e, b); f != nil {
		return f
	}
	if f := cx.leafBinary(e, b); f != nil {
		return f
	}
	if !cx.noFused {
		if f := cx.constOperand(e, b); f != nil {
			return f
		}
	}
	if e.Op == syntax.AndAnd || e.Op == syntax.OrOr {
		if !cx.noFused {
			if f := cx.chain(e, e.Op, b); f != nil {
				return f
			}
		}
		// A chain of conjunctions (disjunctions) is one loop, not a nest
		// of calls.
		// Each part stops the chain when it is stop (0 for &&, 1 for ||);
		// a constant part that does not stop it is left out.
		stop := 0
		if e.Op == syntax.OrOr {
			stop = 1
		}
		var parts []actionFn
		for _, x := range chain(e, e.Op) {
			if v, ok := constValue(x, b, -1, cx.n); ok && b2i(v != 0) != stop {
				continue
			}
			parts = append(parts, cx.expr(x, b))
		}
		switch len(parts) {
		case 0:
			return func(*model.Ctx, int) int { return 1 - stop }
		case 1:
			p := parts[0]
			return func(c *model.Ctx, k int) int { return b2i(p(c, k) != 0) }
		case 2:
			p, q := parts[0], parts[1]
			if stop == 0 {
				return func(c *model.Ctx, k int) int { return b2i(p(c, k) != 0 && q(c, k) != 0) }
			}
			return func(c *model.Ctx, k int) int { return b2i(p(c, k) != 0 || q(c, k) != 0) }
		}
		return func(c *model.Ctx, k int) int {
			for _, p := range parts {
				if b2i(p(c, k) != 0) == stop {
					return stop
				}
			}
			return 1 - stop
		}
	}
	x, y := cx.expr(e.X, b), cx.expr(e.Y, b)
	switch e.Op {
	case syntax.AndAnd:
		return func(c *model.Ctx, k int) int {
			if x(c, k) == 0 {
				return 0
			}
			return y(c, k)
		}
	case syntax.OrOr:
		return func(c *model.Ctx, k int) int {
			if x(c, k) != 0 {
				return 1
			}
			return y(c, k)
		}
	case syntax.Plus:
		return func(c *model.Ctx, k int) int { return x(c, k) + y(c, k) }
	case syntax.Minus:
		return func(c *model.Ctx, k int) int { return x(c, k) - y(c, k) }
	case syntax.Star:
		return func(c *model.Ctx, k int) int { return x(c, k) * y(c, k) }
	case syntax.Eq:
		return func(c *model.Ctx, k int) int { return b2i(x(c, k) == y(c, k)) }
	case syntax.Neq:
		return func(c *model.Ctx, k int) int { return b2i(x(c, k) != y(c, k)) }
	case syntax.Lt:
		return func(c *model.Ctx, k int) int { return b2i(x(c, k) < y(c, k)) }
	case syntax.Le:
		return func(c *model.Ctx, k int) int { return b2i(x(c, k) <= y(c, k)) }
	case syntax.Gt:
		return func(c *model.Ctx, k int) int { return b2i(x(c, k) > y(c, k)) }
	case syntax.Ge:
		return func(c *model.Ctx, k int) int { return b2i(x(c, k) >= y(c, k)) }
	}
	op, divByZero := e.Op, cx.divisionByZero(e, "")
	if kc, ok := e.Y.(*ir.Const); ok && op == syntax.Percent && kc.Value > 0 {
		m := kc.Value
		return func(c *model.Ctx, k int) int {
			v := x(c, k) % m
			if v < 0 {
				v += m
			}
			return v
		}
	}
	return func(c *model.Ctx, k int) int {
		// Only a division by zero: an operation that may overflow is
		// checkedBinary's.
		v, f := ir.EvalBinary(op, x(c, k), y(c, k))
		if f != ir.NoFault {
			c.Fail(divByZero)
		}
		return v
	}
}

// conjuncts flattens a chain of && into its operands, left to right.
func conjuncts(e ir.Expr) []ir.Expr { return chain(e, syntax.AndAnd) }

// chain flattens a chain of op (&& or ||) into its operands, left to
// right.
func chain(e ir.Expr, op syntax.Token) []ir.Expr {
	if b, ok := e.(*ir.Binary); ok && b.Op == op {
		return append(chain(b.X, op), chain(b.Y, op)...)
	}
	return []ir.Expr{e}
}

// isPred reports whether a process expression is the acting process's
// predecessor.
func isPred(e ir.Expr) bool {
	nb, ok := e.(*ir.Neighbor)
	if !ok || nb.Offset != -1 {
		return false
	}
	_, self := nb.Of.(*ir.Self)
	return self
}

// forwards reports whether a send passes on the received message as it
// is: same type, and each argument the received field of its rank.
func forwards(s *ir.Send, r *ir.Receive) bool {
	if r == nil || s.Msg != r.Msg || len(s.Args) != len(r.Msg.Fields) {
		return false
	}
	for i, a := range s.Args {
		f, ok := a.(*ir.FieldRef)
		if !ok || f.Recv != r || f.Index != i {
			return false
		}
	}
	return true
}

// asLeaf returns e as a leaf, if it is one.
func (cx *actionCtx) asLeaf(e ir.Expr, b bindings) (leaf, bool) {
	if l, ok := constLeaf(e, b); ok {
		return l, true
	}
	switch e := e.(type) {
	case *ir.ElemRef:
		// An entry of the acting process's array at an index known at
		// compile time is the variable it is, as elemRef reads it.
		if i, ok := constValue(e.Index, b, -1, cx.n); ok && e.Proc == nil {
			if v := e.Array.Elem(i); v != nil && isSubset(cx.action.Procs, v.Procs) {
				return cx.asLeaf(&ir.VarRef{Var: v}, b)
			}
		}
	case *ir.VarRef:
		if cx.timeout() {
			return leaf{}, false
		}
		id := int(cx.vars[e.Var.ID])
		if e.Proc == nil {
			return leaf{kind: leafOwn, v: id}, true
		}
		if nb, ok := e.Proc.(*ir.Neighbor); ok {
			if _, self := nb.Of.(*ir.Self); self && nb.Offset == -1 {
				return leaf{kind: leafPred, v: id}, true
			}
			if _, self := nb.Of.(*ir.Self); self && nb.Offset == 1 {
				return leaf{kind: leafSucc, v: id}, true
			}
		}
	}
	return leaf{}, false
}

// leafBinary compiles a comparison or a sum of two leaves into one
// closure, or returns nil.
func (cx *actionCtx) leafBinary(e *ir.Binary, b bindings) actionFn {
	x, okx := cx.asLeaf(e.X, b)
	y, oky := cx.asLeaf(e.Y, b)
	if !okx || !oky {
		return nil
	}
	if f := ownComparison(e.Op, x, y); f != nil {
		return f
	}
	switch e.Op {
	case syntax.Eq:
		return func(c *model.Ctx, _ int) int { return b2i(x.get(c) == y.get(c)) }
	case syntax.Neq:
		return func(c *model.Ctx, _ int) int { return b2i(x.get(c) != y.get(c)) }
	case syntax.Lt:
		return func(c *model.Ctx, _ int) int { return b2i(x.get(c) < y.get(c)) }
	case syntax.Le:
		return func(c *model.Ctx, _ int) int { return b2i(x.get(c) <= y.get(c)) }
	case syntax.Gt:
		return func(c *model.Ctx, _ int) int { return b2i(x.get(c) > y.get(c)) }
	case syntax.Ge:
		return func(c *model.Ctx, _ int) int { return b2i(x.get(c) >= y.get(c)) }
	case syntax.Plus:
		return func(c *model.Ctx, _ int) int { return x.get(c) + y.get(c) }
	case syntax.Minus:
		return func(c *model.Ctx, _ int) int { return x.get(c) - y.get(c) }
	}
	return nil
}

// ownComparison compiles a comparison of the acting process's variable
// with a constant, another of its variables or its predecessor's, the
// commonest guards, with every read inline; or returns nil.
func ownComparison(op syntax.Token, x, y leaf) actionFn {
	m, ok := outcomesOf(op)
	if !ok || x.kind != leafOwn {
		return nil
	}
	xv, yv := model.VarID(x.v), model.VarID(y.v)
	switch y.kind {
	case leafConst:
		k := y.v
		return func(c *model.Ctx, _ int) int { return m.of(c.Get(xv), k) }
	case leafOwn:
		return func(c *model.Ctx, _ int) int { return m.of(c.Get(xv), c.Get(yv)) }
	case leafPred:
		return func(c *model.Ctx, _ int) int { return m.of(c.Get(xv), c.Read(c.Pred(), yv)) }
	}
	return nil
}

// outcomeMask is a comparison as the set of the outcomes of a against b
// it holds for: bit 0 a < b, bit 1 a = b, bit 2 a > b.
type outcomeMask uint

// of is 1 when the comparison holds for a and b, 0 otherwise, without a
// branch.
func (m outcomeMask) of(a, b int) int { return int(m>>(b2i(a >= b)+b2i(a > b))) & 1 }

// swapped is the comparison of b against a.
func (m outcomeMask) swapped() outcomeMask { return m&0b010 | (m&0b001)<<2 | (m&0b100)>>2 }

// outcomesOf returns comparison operator op as an outcome mask, or false
// for another operator.
func outcomesOf(op syntax.Token) (outcomeMask, bool) {
	switch op {
	case syntax.Lt:
		return 0b001, true
	case syntax.Eq:
		return 0b010, true
	case syntax.Le:
		return 0b011, true
	case syntax.Gt:
		return 0b100, true
	case syntax.Neq:
		return 0b101, true
	case syntax.Ge:
		return 0b110, true
	}
	return 0, false
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// constOperand compiles x op k, or k op x, for a constant k and a
// comparison or a sum or difference, in one closure that calls x's
// (rather than one that calls x's and k's), or returns nil.
func (cx *actionCtx) constOperand(e *ir.Binary, b bindings) actionFn {
	m, cmp := outcomesOf(e.Op)
	if !cmp && e.Op != syntax.Plus && e.Op != syntax.Minus {
		return nil
	}
	x, op := e.X, e.Op
	k, ok := constValue(e.Y, b, -1, cx.n)
	if !ok {
		if k, ok = constValue(e.X, b, -1, cx.n); !ok || op == syntax.Minus {
			return nil
		}
		// k op x is x op' k.
		x, m = e.Y, m.swapped()
	}
	f := cx.expr(x, b)
	switch {
	case cmp:
		return func(c *model.Ctx, i int) int { return m.of(f(c, i), k) }
	case op == syntax.Plus:
		return func(c *model.Ctx, i int) int { return f(c, i) + k }
	}
	return func(c *model.Ctx, i int) int { return f(c, i) - k }
}
