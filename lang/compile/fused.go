package compile

import (
	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
	"github.com/ringcheck/ringcheck/model"
)

// This file flattens the commonest shapes of unrolled quantifiers into one
// closure each, which loops over a slice of plain reads (operands) rather
// than calling a closure per part:
//
//   - a sum (a + b, sum p: ...) of constants, variables of processes
//     known at compile time and counts of messages in channels known at
//     compile time (msgs(T, p, succ(p)) over every p), read from the
//     evaluation's census;
//   - a chain of conjunctions or disjunctions, with the foralls (exists)
//     over processes in it unrolled into the chain, whose parts compare
//     two such operands (in a state expression) or two leaves (in an
//     action: a variable and a constant, or two variables).
//
// A part of another shape is kept as the closure it compiles to, in its
// place: the parts are evaluated in the same order, and a chain stops at
// the same part, as the closures of state.go and expr.go, so that a fault
// (a division by zero) is reported exactly as there.

// operand is a part of a flattened sum or comparison read without a
// closure: a constant, a variable of a process known at compile time, or
// the count of messages of one type (or of every type) in a channel
// between processes known at compile time.
type operand struct {
	kind uint8
	// v is the constant, the variable's slot in stateEval.flat, or the
	// channel's index in post.chans.
	v int
	// t is the message type counted (opCount).
	t int
}

// The kinds of operands.
const (
	opConst = iota
	opVar
	opCount // messages of type t in channel post.chans[v]
	opLen   // messages in channel post.chans[v]
)

// operand reads o in the evaluation's configuration.
func (s *stateEval) operand(o *operand, post *post) int {
	switch o.kind {
	case opConst:
		return o.v
	case opVar:
		return int(s.Vars[s.flat[o.v]])
	}
	ch := post.chans[o.v]
	switch {
	case ch < 0:
		return 0
	case o.kind == opLen:
		return s.Len(ch)
	}
	return int(s.count[s.census(ch)+o.t])
}

// asOperand returns e as an operand, if it is one: a constant, a
// variable of a process known at compile time, a count of a channel
// between processes known at compile time, or if v then 1 else 0 for
// such a variable v of values 0 and 1 (which is v).
func (c *compiler) asOperand(e ir.Expr, b bindings, self int) (operand, bool) {
	if v, ok := constValue(e, b, self, c.n); ok {
		return operand{kind: opConst, v: v}, true
	}
	switch e := e.(type) {
	case *ir.VarRef, *ir.ElemRef:
		if l, ok := c.asStateLeaf(e, b, self); ok {
			if l.kind == leafConst {
				return operand{kind: opConst, v: l.v}, true
			}
			return operand{kind: opVar, v: l.v}, true
		}
	case *ir.ChanLen:
		from, okf := constProc(e.From, b, self, c.n)
		to, okt := constProc(e.To, b, self, c.n)
		if okf && okt && e.Upto == nil {
			if e.Msg == nil {
				return operand{kind: opLen, v: from*c.n + to}, true
			}
			return operand{kind: opCount, v: from*c.n + to, t: int(c.types[e.Msg.ID])}, true
		}
	case *ir.Cond:
		one, ok1 := constValue(e.X, b, self, c.n)
		zero, ok0 := constValue(e.Y, b, self, c.n)
		if ok1 && ok0 && one == 1 && zero == 0 {
			if v := c.varOf(e.C, b, self); v != nil && v.Type.Lo == 0 && v.Type.Hi == 1 {
				if o, ok := c.asOperand(e.C, b, self); ok && o.kind == opVar {
					return o, true
				}
			}
		}
	}
	return operand{}, false
}

// varOf returns the variable a read of a variable or of an array's entry
// at an index known at compile time reads, or nil.
func (c *compiler) varOf(e ir.Expr, b bindings, self int) *ir.Var {
	switch e := e.(type) {
	case *ir.VarRef:
		return e.Var
	case *ir.ElemRef:
		if i, ok := constValue(e.Index, b, self, c.n); ok {
			return e.Array.Elem(i)
		}
	}
	return nil
}

// stateSum compiles a sum whose parts include counts of messages or
// variables into one closure, or returns nil when it has fewer than
// three parts that are not constants and no count, or when it may
// overflow.
func (c *compiler) stateSum(e ir.Expr, b bindings, self int) stateFn {
	if c.mayOverflow(e) || !c.expandable(e, b, self) {
		return nil
	}
	sum := &linearSum{}
	c.gatherSum(e, b, self, sum)
	counts := 0
	for _, o := range sum.ops {
		if o.kind == opCount || o.kind == opLen {
			counts++
		}
	}
	if counts == 0 && len(sum.guarded) == 0 && len(sum.ops)+len(sum.fns) < 3 {
		return nil
	}
	k, ops, guarded, fns, post := sum.k, sum.ops, sum.guarded, sum.fns, c.post
	return func(s *stateEval) int {
		v := k
		for i := range ops {
			v += s.operand(&ops[i], post)
		}
	terms:
		for i := range guarded {
			g := &guarded[i]
			for j := range g.conds {
				it := &g.conds[j]
				if it.m.of(s.operand(&it.x, post), s.operand(&it.y, post)) == 0 {
					continue terms
				}
			}
			v += s.operand(&g.x, post)
		}
		for _, f := range fns {
			v += f(s)
		}
		return v
	}
}

// linearSum is what gatherSum finds in a sum: a constant, operands,
// guarded operands and closures, added in that order (none may fail but
// the closures, which keep their order).
type linearSum struct {
	k       int
	ops     []operand
	guarded []guardedTerm
	fns     []stateFn
}

// guardedTerm is if c1 && c2 ... then x else 0, each ci a comparison of
// operands.
type guardedTerm struct {
	conds []condItem
	x     operand
}

// gatherSum adds the parts of e, a term of a sum, to sum.
func (c *compiler) gatherSum(e ir.Expr, b bindings, self int, sum *linearSum) {
	if o, ok := c.asOperand(e, b, self); ok {
		if o.kind == opConst {
			sum.k += o.v
		} else {
			sum.ops = append(sum.ops, o)
		}
		return
	}
	switch e := e.(type) {
	case *ir.Binary:
		if e.Op == syntax.Plus && !c.mayOverflow(e) {
			c.gatherSum(e.X, b, self, sum)
			c.gatherSum(e.Y, b, self, sum)
			return
		}
	case *ir.Quant:
		if e.Kind == "sum" && !c.mayOverflow(e) {
			if members, ok := c.quantMembers(e, b, self); ok {
				for _, q := range members {
					c.gatherSum(e.Body, b.with(e.Var, q), self, sum)
				}
				return
			}
		}
	case *ir.Cond:
		if v, ok := constValue(e.C, b, self, c.n); ok {
			if v != 0 {
				c.gatherSum(e.X, b, self, sum)
			} else {
				c.gatherSum(e.Y, b, self, sum)
			}
			return
		}
		if g, ok := c.guardedTerm(e, b, self); ok {
			sum.guarded = append(sum.guarded, g)
			return
		}
	}
	sum.fns = append(sum.fns, c.state(e, b, self))
}

// guardedTerm returns if c then x else 0 as a guarded term, when c is a
// conjunction of comparisons of operands and x an operand.
func (c *compiler) guardedTerm(e *ir.Cond, b bindings, self int) (guardedTerm, bool) {
	if v, ok := constValue(e.Y, b, self, c.n); !ok || v != 0 {
		return guardedTerm{}, false
	}
	x, ok := c.asOperand(e.X, b, self)
	if !ok || !c.operandChain(e.C, b, self) {
		return guardedTerm{}, false
	}
	var conds []condItem
	c.gatherChain(e.C, syntax.AndAnd, 0, b, self, &conds)
	for _, it := range conds {
		if it.f != nil {
			return guardedTerm{}, false
		}
	}
	return guardedTerm{conds: conds, x: x}, true
}

// operandChain reports whether e is a conjunction of comparisons of
// operands (gatherChain then compiles no closure for it).
func (c *compiler) operandChain(e ir.Expr, b bindings, self int) bool {
	switch x := e.(type) {
	case *ir.Binary:
		if x.Op == syntax.AndAnd {
			return c.operandChain(x.X, b, self) && c.operandChain(x.Y, b, self)
		}
		if _, ok := outcomesOf(x.Op); ok {
			_, okl := c.asOperand(x.X, b, self)
			_, okr := c.asOperand(x.Y, b, self)
			return okl && okr
		}
	case *ir.Unary:
		if inv, ok := ir.Negated(x); ok {
			return c.operandChain(inv, b, self)
		}
	}
	return false
}

// expandable reports whether a quantifier's values are known at compile
// time, so that stateSum or stateChain unroll it rather than compile it
// as a part of its own (true for any other expression).
func (c *compiler) expandable(e ir.Expr, b bindings, self int) bool {
	if q, ok := e.(*ir.Quant); ok {
		_, ok := c.quantMembers(q, b, self)
		return ok
	}
	return true
}

// quantMembers returns the values a quantifier of a state expression
// ranges over, or false when they are known only in the configuration.
func (c *compiler) quantMembers(e *ir.Quant, b bindings, self int) ([]int, bool) {
	if e.Over != nil {
		return c.stateMembers(e.Over, b, self)
	}
	all := make([]int, c.n)
	for p := range all {
		all[p] = p
	}
	return all, true
}

// condItem is a part of a flattened chain: a comparison of two operands
// (f nil), or a closure.
type condItem struct {
	x, y operand
	m    outcomeMask
	f    stateFn
}

// stateChain compiles a chain of && (op AndAnd) or || (OrOr), or a forall
// (exists) over processes, into one closure over its flattened parts, or
// returns nil when fewer than two parts are comparisons of operands.
func (c *compiler) stateChain(e ir.Expr, op syntax.Token, b bindings, self int) stateFn {
	stop := 0
	if op == syntax.OrOr {
		stop = 1
	}
	if !c.expandable(e, b, self) {
		return nil
	}
	// The parts are compiled once, here: the chain is their loop even
	// where few are comparisons of operands (compiling them again by
	// another way would, nested, double the nodes at each level).
	var items []condItem
	c.gatherChain(e, op, stop, b, self, &items)
	post := c.post
	return func(s *stateEval) int {
		for i := range items {
			it := &items[i]
			var v int
			if it.f == nil {
				v = it.m.of(s.operand(&it.x, post), s.operand(&it.y, post))
			} else {
				v = b2i(it.f(s) != 0)
			}
			if v == stop {
				return stop
			}
		}
		return 1 - stop
	}
}

// gatherChain adds the parts of e, a part of a chain of op that stop
// stops, to items. A constant part that does not stop the chain is left
// out.
func (c *compiler) gatherChain(e ir.Expr, op syntax.Token, stop int, b bindings, self int, items *[]condItem) {
	if v, ok := constValue(e, b, self, c.n); ok {
		if b2i(v != 0) != stop {
			return
		}
		*items = append(*items, condItem{f: func(*stateEval) int { return v }})
		return
	}
	kind := "forall"
	if op == syntax.OrOr {
		kind = "exists"
	}
	if sole, ok := soleOperand(e, b, self, c.n); ok {
		c.gatherChain(sole, op, stop, b, self, items)
		return
	}
	zero := operand{kind: opConst}
	switch x := e.(type) {
	case *ir.Binary:
		if x.Op == op {
			c.gatherChain(x.X, op, stop, b, self, items)
			c.gatherChain(x.Y, op, stop, b, self, items)
			return
		}
		if m, ok := outcomesOf(x.Op); ok {
			l, okl := c.asOperand(x.X, b, self)
			r, okr := c.asOperand(x.Y, b, self)
			if okl && okr {
				*items = append(*items, condItem{x: l, y: r, m: m})
				return
			}
		}
	case *ir.Unary:
		if inv, ok := ir.Negated(x); ok {
			c.gatherChain(inv, op, stop, b, self, items)
			return
		}
		if l, ok := c.asOperand(x.X, b, self); ok && x.Op == syntax.Not {
			// !v is v == 0.
			*items = append(*items, condItem{x: l, y: zero, m: 0b010})
			return
		}
	case *ir.Quant:
		if x.Kind == kind {
			if members, ok := c.quantMembers(x, b, self); ok {
				for _, q := range members {
					c.gatherChain(x.Body, op, stop, b.with(x.Var, q), self, items)
				}
				return
			}
		}
	case *ir.VarRef, *ir.ElemRef:
		if l, ok := c.asOperand(x, b, self); ok {
			// v is v != 0.
			*items = append(*items, condItem{x: l, y: zero, m: 0b101})
			return
		}
	}
	*items = append(*items, condItem{f: c.state(e, b, self)})
}

// actionItem is a part of a flattened chain of an action: a comparison of
// two leaves (f nil), or a closure.
type actionItem struct {
	x, y leaf
	m    outcomeMask
	f    actionFn
	// form is how the loop reads the comparison: the acting process's
	// variable against a constant or another of its variables inline, or
	// any two leaves.
	form uint8
	// xv, yv are the variables of the inline forms; k the constant.
	xv, yv model.VarID
	k      int
}

// The forms of an actionItem.
const (
	formCall     = iota // f
	formLeaves          // m.of(x.get, y.get)
	formOwnConst        // m.of(own xv, k)
	formOwnOwn          // m.of(own xv, own yv)
)

// leafItem returns the comparison of two leaves as an item of its form.
func leafItem(x, y leaf, m outcomeMask) actionItem {
	if x.kind != leafOwn && y.kind == leafOwn {
		// k op v is v op' k.
		x, y, m = y, x, m.swapped()
	}
	it := actionItem{x: x, y: y, m: m, form: formLeaves}
	switch {
	case x.kind == leafOwn && y.kind == leafConst:
		it.form, it.xv, it.k = formOwnConst, model.VarID(x.v), y.v
	case x.kind == leafOwn && y.kind == leafOwn:
		it.form, it.xv, it.yv = formOwnOwn, model.VarID(x.v), model.VarID(y.v)
	}
	return it
}

// chain compiles a chain of && (op AndAnd) or || (OrOr), or a forall
// (exists) over a set known at compile time, in an action into one
// closure over its flattened parts, or returns nil when fewer than two
// parts are comparisons of leaves.
func (cx *actionCtx) chain(e ir.Expr, op syntax.Token, b bindings) actionFn {
	stop := 0
	if op == syntax.OrOr {
		stop = 1
	}
	if q, ok := e.(*ir.Quant); ok {
		if _, ok := cx.quantValues(q, b); !ok {
			return nil
		}
	}
	// The parts are compiled once, here: the chain is their loop even
	// where few are comparisons of leaves (compiling them again by another
	// way would, nested, double the nodes at each level).
	var items []actionItem
	cx.gatherChain(e, op, stop, b, &items, true)
	return func(c *model.Ctx, k int) int {
		for i := range items {
			it := &items[i]
			var v int
			switch it.form {
			case formOwnConst:
				v = it.m.of(c.Get(it.xv), it.k)
			case formOwnOwn:
				v = it.m.of(c.Get(it.xv), c.Get(it.yv))
			case formLeaves:
				v = it.m.of(it.x.get(c), it.y.get(c))
			default:
				v = b2i(it.f(c, k) != 0)
			}
			if v == stop {
				return stop
			}
		}
		return 1 - stop
	}
}

// gatherChain adds the parts of e, a part of a chain of op that stop
// stops, to items. A quantifier in the chain is unrolled into it when top
// is set (the quantifier is the chain) or when its parts are all
// comparisons of leaves; otherwise it is one part, compiled with cx.expr
// (and so kept in the memo when the plan keeps it).
func (cx *actionCtx) gatherChain(e ir.Expr, op syntax.Token, stop int, b bindings, items *[]actionItem, top bool) {
	if v, ok := constValue(e, b, -1, cx.n); ok {
		if b2i(v != 0) != stop {
			return
		}
		*items = append(*items, actionItem{f: func(*model.Ctx, int) int { return v }})
		return
	}
	if sole, ok := soleOperand(e, b, -1, cx.n); ok {
		cx.gatherChain(sole, op, stop, b, items, false)
		return
	}
	kind := "forall"
	if op == syntax.OrOr {
		kind = "exists"
	}
	switch x := e.(type) {
	case *ir.Binary:
		if x.Op == op {
			cx.gatherChain(x.X, op, stop, b, items, false)
			cx.gatherChain(x.Y, op, stop, b, items, false)
			return
		}
		if m, ok := outcomesOf(x.Op); ok {
			l, okl := cx.asLeaf(x.X, b)
			r, okr := cx.asLeaf(x.Y, b)
			if okl && okr {
				*items = append(*items, leafItem(l, r, m))
				return
			}
		}
	case *ir.Unary:
		if inv, ok := ir.Negated(x); ok {
			cx.gatherChain(inv, op, stop, b, items, false)
			return
		}
		if l, ok := cx.asLeaf(x.X, b); ok && x.Op == syntax.Not {
			// !v is v == 0.
			*items = append(*items, leafItem(l, leaf{kind: leafConst}, 0b010))
			return
		}
	case *ir.VarRef, *ir.ElemRef:
		if l, ok := cx.asLeaf(x, b); ok {
			// v is v != 0.
			*items = append(*items, leafItem(l, leaf{kind: leafConst}, 0b101))
			return
		}
	case *ir.Quant:
		if values, ok := cx.quantValues(x, b); ok && x.Kind == kind && (top || cx.leafParts(x, op, b)) {
			for _, q := range values {
				cx.gatherChain(x.Body, op, stop, b.with(x.Var, q), items, false)
			}
			return
		}
	}
	*items = append(*items, actionItem{f: cx.expr(e, b)})
}

// quantValues returns the values a quantifier of an action ranges over,
// or false when membership is known only as the step runs.
func (cx *actionCtx) quantValues(e *ir.Quant, b bindings) ([]int, bool) {
	if e.Over == nil {
		values := make([]int, cx.n)
		for p := range values {
			values[p] = p
		}
		return values, true
	}
	values, member := cx.over(e.Over, b)
	return values, member == nil
}

// leafParts reports whether every part of e, in a chain of op, is a
// constant or a comparison of two leaves.
func (cx *actionCtx) leafParts(e ir.Expr, op syntax.Token, b bindings) bool {
	if _, ok := constValue(e, b, -1, cx.n); ok {
		return true
	}
	if sole, ok := soleOperand(e, b, -1, cx.n); ok {
		return cx.leafParts(sole, op, b)
	}
	kind := "forall"
	if op == syntax.OrOr {
		kind = "exists"
	}
	switch x := e.(type) {
	case *ir.Binary:
		if x.Op == op {
			return cx.leafParts(x.X, op, b) && cx.leafParts(x.Y, op, b)
		}
		_, okl := cx.asLeaf(x.X, b)
		_, okr := cx.asLeaf(x.Y, b)
		_, cmp := outcomesOf(x.Op)
		return cmp && okl && okr
	case *ir.Unary:
		if inv, ok := ir.Negated(x); ok {
			return cx.leafParts(inv, op, b)
		}
		_, ok := cx.asLeaf(x.X, b)
		return ok && x.Op == syntax.Not
	case *ir.VarRef, *ir.ElemRef:
		_, ok := cx.asLeaf(x, b)
		return ok
	case *ir.Quant:
		values, ok := cx.quantValues(x, b)
		if !ok || x.Kind != kind {
			return false
		}
		for _, q := range values {
			if !cx.leafParts(x.Body, op, b.with(x.Var, q)) {
				return false
			}
		}
		return true
	}
	return false
}

// chainOp returns the operator a forall (&&) or an exists (||) chains
// its parts with, or false for another quantifier.
func chainOp(kind string) (syntax.Token, bool) {
	switch kind {
	case "forall":
		return syntax.AndAnd, true
	case "exists":
		return syntax.OrOr, true
	}
	return 0, false
}

// chainGuard compiles an action's guard that is a chain of comparisons of
// leaves (a conjunction or disjunction of them, or a single one) into
// the action's Guard itself, one closure with every read inline; or
// returns nil.
func (cx *actionCtx) chainGuard(g ir.Expr) func(*model.Ctx) bool {
	if _, ok := constValue(g, nil, -1, cx.n); ok {
		return nil
	}
	op := syntax.AndAnd
	if x, ok := g.(*ir.Binary); ok && x.Op == syntax.OrOr {
		op = syntax.OrOr
	}
	if !cx.leafParts(g, op, nil) {
		return nil
	}
	stop := 0
	if op == syntax.OrOr {
		stop = 1
	}
	var items []actionItem
	cx.gatherChain(g, op, stop, nil, &items, true)
	for _, it := range items {
		if it.form == formCall {
			return nil
		}
	}
	if len(items) == 2 && stop == 0 {
		a, b := items[0], items[1]
		switch {
		case a.form == formOwnConst && b.form == formOwnConst:
			return func(c *model.Ctx) bool { return a.m.of(c.Get(a.xv), a.k) != 0 && b.m.of(c.Get(b.xv), b.k) != 0 }
		case a.form == formOwnConst && b.form == formOwnOwn:
			return func(c *model.Ctx) bool { return a.m.of(c.Get(a.xv), a.k) != 0 && b.m.of(c.Get(b.xv), c.Get(b.yv)) != 0 }
		case a.form == formOwnOwn && b.form == formOwnConst:
			return func(c *model.Ctx) bool { return a.m.of(c.Get(a.xv), c.Get(a.yv)) != 0 && b.m.of(c.Get(b.xv), b.k) != 0 }
		case a.form == formOwnOwn && b.form == formOwnOwn:
			return func(c *model.Ctx) bool {
				return a.m.of(c.Get(a.xv), c.Get(a.yv)) != 0 && b.m.of(c.Get(b.xv), c.Get(b.yv)) != 0
			}
		}
	}
	if len(items) == 1 {
		a := items[0]
		switch a.form {
		case formOwnConst:
			return func(c *model.Ctx) bool { return a.m.of(c.Get(a.xv), a.k) != 0 }
		case formOwnOwn:
			return func(c *model.Ctx) bool { return a.m.of(c.Get(a.xv), c.Get(a.yv)) != 0 }
		}
	}
	return func(c *model.Ctx) bool {
		for i := range items {
			it := &items[i]
			var v int
			switch it.form {
			case formOwnConst:
				v = it.m.of(c.Get(it.xv), it.k)
			case formOwnOwn:
				v = it.m.of(c.Get(it.xv), c.Get(it.yv))
			default:
				v = it.m.of(it.x.get(c), it.y.get(c))
			}
			if v == stop {
				return stop == 1
			}
		}
		return stop == 0
	}
}

// soleOperand returns the one operand of a chain of && or || (e) whose
// other operands are constants that do not decide it (true in a
// conjunction, false in a disjunction), which e is then as a condition;
// or false.
func soleOperand(e ir.Expr, b bindings, self, n int) (ir.Expr, bool) {
	x, ok := e.(*ir.Binary)
	if !ok || (x.Op != syntax.AndAnd && x.Op != syntax.OrOr) {
		return nil, false
	}
	neutral := x.Op == syntax.AndAnd
	var sole ir.Expr
	for _, part := range chain(x, x.Op) {
		if v, ok := constValue(part, b, self, n); ok && (v != 0) == neutral {
			continue
		}
		if sole != nil {
			return nil, false
		}
		sole = part
	}
	return sole, sole != nil
}
