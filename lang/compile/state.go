package compile

import (
	"fmt"
	"slices"

	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
	"github.com/ringcheck/ringcheck/model"
)

// compiledPredicate is a state predicate compiled, with what its faults
// name it (as "invariant safe").
type compiledPredicate struct {
	what string
	fn   stateFn
}

// predicate compiles a state predicate; what names it in the message of
// a fault.
func (c *compiler) predicate(p *ir.Predicate, what string) (model.Predicate, compiledPredicate) {
	c.within = what
	f := c.state(p.Body, nil, -1)
	c.within = ""
	holds := func(s *model.State) bool {
		v, err := c.evaluate(f, s)
		if err != nil {
			c.faults.record(err)
			return true
		}
		return v != 0
	}
	return model.Predicate{Name: p.Name, Doc: p.Doc, Holds: holds}, compiledPredicate{what, f}
}

// processPredicate compiles a predicate of a process once per process.
func (c *compiler) processPredicate(pp *ir.ProcessPredicate) (model.ProcessPredicate, []compiledPredicate) {
	perProc := make([]stateFn, c.n)
	compiled := make([]compiledPredicate, c.n)
	for p := range perProc {
		c.within = fmt.Sprintf("predicate %s(%d)", pp.Name, p)
		perProc[p] = c.state(pp.Body, bindings{pp.Param: p}, -1)
		compiled[p] = compiledPredicate{c.within, perProc[p]}
	}
	c.within = ""
	holds := func(s *model.State, p int) bool {
		v, err := c.evaluate(perProc[p], s)
		if err != nil {
			c.faults.record(err)
			return true
		}
		return v != 0
	}
	return model.ProcessPredicate{Name: pp.Name, Doc: pp.Doc, Holds: holds}, compiled
}

// state compiles an expression over a configuration; self is the acting
// process when there is one (-1: none).
func (c *compiler) state(e ir.Expr, b bindings, self int) stateFn {
	if c.nodes++; c.nodes > maxNodes {
		return func(*stateEval) int { return 0 }
	}
	if v, ok := constValue(e, b, self, c.n); ok {
		return func(*stateEval) int { return v }
	}
	n := c.n
	switch e := e.(type) {
	case *ir.Const:
		v := e.Value
		return func(*stateEval) int { return v }
	case *ir.Self:
		return func(*stateEval) int { return self }
	case *ir.Neighbor:
		of, off := c.state(e.Of, b, self), e.Offset
		return func(s *stateEval) int { return ir.Offset(of(s), off, n) }
	case *ir.LocalRef:
		v := b[e.Local]
		return func(*stateEval) int { return v }
	case *ir.VarRef:
		id, v := c.vars[e.Var.ID], e.Var
		if e.Proc == nil {
			return func(s *stateEval) int { return s.Get(self, id) }
		}
		if q, ok := constProc(e.Proc, b, self, n); ok && slices.Contains(v.Procs, q) {
			l := leaf{kind: leafAt, q: q, v: q*len(c.vars) + int(id)}
			return func(s *stateEval) int { return s.read(l) }
		}
		q := c.state(e.Proc, b, self)
		declared := make([]bool, n)
		for _, p := range v.Procs {
			declared[p] = true
		}
		return func(s *stateEval) int {
			p := ((q(s) % n) + n) % n
			if !declared[p] {
				return 0
			}
			return s.Get(p, id)
		}
	case *ir.Unary:
		if inv, ok := ir.Negated(e); ok {
			return c.state(inv, b, self)
		}
		x := c.state(e.X, b, self)
		if e.Op == syntax.Not {
			return func(s *stateEval) int { return 1 - x(s) }
		}
		if c.mayOverflow(e) {
			return c.checkedStateNeg(e, x)
		}
		return func(s *stateEval) int { return -x(s) }
	case *ir.Binary:
		if !c.noFused {
			if e.Op == syntax.Plus {
				if f := c.stateSum(e, b, self); f != nil {
					return f
				}
			}
			if e.Op == syntax.AndAnd || e.Op == syntax.OrOr {
				if f := c.stateChain(e, e.Op, b, self); f != nil {
					return f
				}
			}
		}
		return c.stateBinary(e, b, self)
	case *ir.Cond:
		if v, ok := constValue(e.C, b, self, n); ok {
			// Unrolled quantifiers make many conditions constant: only the
			// branch taken is compiled.
			if v != 0 {
				return c.state(e.X, b, self)
			}
			return c.state(e.Y, b, self)
		}
		cond, x, y := c.state(e.C, b, self), c.state(e.X, b, self), c.state(e.Y, b, self)
		return func(s *stateEval) int {
			if cond(s) != 0 {
				return x(s)
			}
			return y(s)
		}
	case *ir.ElemRef:
		return c.stateElem(e, b, self)
	case *ir.Quant:
		if !c.noFused {
			if op, ok := chainOp(e.Kind); ok {
				if f := c.stateChain(e, op, b, self); f != nil {
					return f
				}
			}
			if e.Kind == "sum" {
				if f := c.stateSum(e, b, self); f != nil {
					return f
				}
			}
		}
		if e.Over != nil {
			return c.stateQuant(e, b, self)
		}
		var parts []stateFn
		for p := range n {
			bp := b.with(e.Var, p)
			// A part that cannot change the result is left out: a 0 in a
			// sum, a false in a count or an exists, a true in a forall.
			if v, ok := constValue(e.Body, bp, self, n); ok && (v == 0) == (e.Kind != "forall") {
				continue
			}
			parts = append(parts, c.state(e.Body, bp, self))
		}
		return c.stateTotal(e, parts)
	case *ir.ChanLen:
		if f := c.constChanLen(e, b, self); f != nil {
			return f
		}
		from, to := c.state(e.From, b, self), c.state(e.To, b, self)
		msg := e.Msg
		if e.Upto != nil {
			upto := c.state(e.Upto, b, self)
			return func(s *stateEval) int {
				return c.chanCount(s.State, ((from(s)%n)+n)%n, ((to(s)%n)+n)%n, msg, max(0, upto(s)))
			}
		}
		return func(s *stateEval) int {
			return c.chanLen(s.State, ((from(s)%n)+n)%n, ((to(s)%n)+n)%n, msg, nil)
		}
	case *ir.ChanPos:
		if f := c.constChanPos(e, b, self); f != nil {
			return f
		}
		from, to := c.state(e.From, b, self), c.state(e.To, b, self)
		return func(s *stateEval) int {
			return c.chanPos(s.State, ((from(s)%n)+n)%n, ((to(s)%n)+n)%n, e.Msg)
		}
	case *ir.MsgQuant:
		return c.stateMsgQuant(e, b, self)
	case *ir.MsgField:
		return c.stateMsgField(e, b, self)
	case *ir.FieldElem:
		return c.stateFieldElem(e, b, self)
	case *ir.HeadField:
		if f := c.constFirstField(e, b, self); f != nil {
			return f
		}
		from, to := c.state(e.From, b, self), c.state(e.To, b, self)
		return func(s *stateEval) int {
			return c.headField(s.State, ((from(s)%n)+n)%n, ((to(s)%n)+n)%n, e)
		}
	}
	return func(*stateEval) int { return 0 }
}

// constValue evaluates an expression that depends on no configuration:
// constants, the bound processes of unrolled quantifiers, the acting
// process when it is known (self ≥ 0), the acting process's variable
// that every process declares and a field of a received message whose
// types have one value (as a parameter's 0..0 makes them), and operators
// over them.
func constValue(e ir.Expr, b bindings, self, n int) (int, bool) {
	switch e := e.(type) {
	case *ir.Const:
		return e.Value, true
	case *ir.FieldRef:
		if r := e.Recv; r != nil && r.Msg != nil && !r.Any && e.Index >= 0 && e.Index < len(r.Msg.Fields) {
			return oneValue(r.Msg.Fields[e.Index].Type)
		}
		return 0, false
	case *ir.VarRef:
		// The acting process's own variable only: a read of another's
		// may be a fault (a process not linked to it).
		if e.Proc == nil && e.Var != nil && len(e.Var.Procs) == n {
			return oneValue(e.Var.Type)
		}
		return 0, false
	case *ir.LocalRef:
		v, ok := b[e.Local]
		return v, ok
	case *ir.Self:
		return self, self >= 0
	case *ir.Neighbor:
		q, ok := constValue(e.Of, b, self, n)
		return ir.Offset(q, e.Offset, n), ok
	case *ir.Unary:
		x, ok := constValue(e.X, b, self, n)
		if !ok {
			return 0, false
		}
		if e.Op == syntax.Not {
			return 1 - x, true
		}
		// A negation that overflows is left to the evaluation, which
		// reports it.
		return ir.Neg(x)
	case *ir.Binary:
		x, okx := constValue(e.X, b, self, n)
		y, oky := constValue(e.Y, b, self, n)
		return ir.FoldBinary(e.Op, x, okx, y, oky)
	case *ir.Cond:
		c, ok := constValue(e.C, b, self, n)
		if !ok {
			return 0, false
		}
		if c != 0 {
			return constValue(e.X, b, self, n)
		}
		return constValue(e.Y, b, self, n)
	}
	return 0, false
}

// oneValue returns the value of a type of one value (a variable or field
// of that type never holds another: a value outside it is a range fault
// where it is assigned or sent), or false.
func oneValue(t *ir.Type) (int, bool) {
	if t == nil || t.Lo != t.Hi {
		return 0, false
	}
	return t.Lo, true
}

// constProc evaluates a process expression that depends on no
// configuration: its value, modulo n.
func constProc(e ir.Expr, b bindings, self, n int) (int, bool) {
	v, ok := constValue(e, b, self, n)
	if !ok {
		return 0, false
	}
	return ir.Mod(v, n), true
}

// constChanLen compiles the count of messages of a channel between two
// processes known at compile time (as a quantifier's unrolled process and
// its successor), or returns nil.
func (c *compiler) constChanLen(e *ir.ChanLen, b bindings, self int) stateFn {
	from, okf := constProc(e.From, b, self, c.n)
	to, okt := constProc(e.To, b, self, c.n)
	if !okf || !okt || e.Upto != nil {
		return nil
	}
	post, idx := c.post, from*c.n+to
	if e.Msg == nil {
		return func(s *stateEval) int {
			if ch := post.chans[idx]; ch >= 0 {
				return s.Len(ch)
			}
			return 0
		}
	}
	t := int(c.types[e.Msg.ID])
	return func(s *stateEval) int {
		ch := post.chans[idx]
		if ch < 0 {
			return 0
		}
		return int(s.count[s.census(ch)+t])
	}
}

// constChanPos compiles the position of the first message of a type in a
// channel between two processes known at compile time, or returns nil.
func (c *compiler) constChanPos(e *ir.ChanPos, b bindings, self int) stateFn {
	from, okf := constProc(e.From, b, self, c.n)
	to, okt := constProc(e.To, b, self, c.n)
	if !okf || !okt {
		return nil
	}
	post, idx, t := c.post, from*c.n+to, int(c.types[e.Msg.ID])
	return func(s *stateEval) int {
		ch := post.chans[idx]
		if ch < 0 {
			return 0
		}
		if i := s.first[s.census(ch)+t]; i >= 0 {
			return int(i)
		}
		return s.Len(ch)
	}
}

// constFirstField compiles a field of the first message of a type in a
// channel between two processes known at compile time, or returns nil.
func (c *compiler) constFirstField(e *ir.HeadField, b bindings, self int) stateFn {
	from, okf := constProc(e.From, b, self, c.n)
	to, okt := constProc(e.To, b, self, c.n)
	if !okf || !okt || e.First == nil {
		return nil
	}
	mt := e.First.ID
	field := e.Index[mt]
	if field < 0 {
		return func(*stateEval) int { return 0 }
	}
	post, idx, t, nf := c.post, from*c.n+to, c.types[mt], len(e.First.Fields)
	return func(s *stateEval) int {
		ch := post.chans[idx]
		if ch < 0 {
			return 0
		}
		i := s.first[s.census(ch)+int(t)]
		if i < 0 {
			return 0
		}
		return post.field(s.At(ch, int(i)), t, field, nf)
	}
}

// asStateLeaf returns e as a leaf of a state expression, if it is one.
func (c *compiler) asStateLeaf(e ir.Expr, b bindings, self int) (leaf, bool) {
	if l, ok := constLeaf(e, b); ok {
		return l, true
	}
	switch e := e.(type) {
	case *ir.ElemRef:
		// An entry at an index known at compile time is the variable it
		// is, as stateElem reads it.
		if i, ok := constValue(e.Index, b, self, c.n); ok {
			if v := e.Array.Elem(i); v != nil {
				return c.asStateLeaf(&ir.VarRef{Var: v, Proc: e.Proc}, b, self)
			}
		}
	case *ir.VarRef:
		q, ok := self, self >= 0
		if e.Proc != nil {
			q, ok = constProc(e.Proc, b, self, c.n)
		}
		if ok && slices.Contains(e.Var.Procs, q) {
			return leaf{kind: leafAt, q: q, v: q*len(c.vars) + int(c.vars[e.Var.ID])}, true
		}
	}
	return leaf{}, false
}

func (c *compiler) stateBinary(e *ir.Binary, b bindings, self int) stateFn {
	if f := c.checkedState(e, b, self); f != nil {
		return f
	}
	if x, ok := c.asStateLeaf(e.X, b, self); ok {
		if y, ok := c.asStateLeaf(e.Y, b, self); ok {
			switch e.Op {
			case syntax.Eq:
				return func(s *stateEval) int { return b2i(s.read(x) == s.read(y)) }
			case syntax.Neq:
				return func(s *stateEval) int { return b2i(s.read(x) != s.read(y)) }
			case syntax.Lt:
				return func(s *stateEval) int { return b2i(s.read(x) < s.read(y)) }
			case syntax.Le:
				return func(s *stateEval) int { return b2i(s.read(x) <= s.read(y)) }
			case syntax.Gt:
				return func(s *stateEval) int { return b2i(s.read(x) > s.read(y)) }
			case syntax.Ge:
				return func(s *stateEval) int { return b2i(s.read(x) >= s.read(y)) }
			case syntax.Plus:
				return func(s *stateEval) int { return s.read(x) + s.read(y) }
			}
		}
	}
	if f := c.stateConstOperand(e, b, self); f != nil {
		return f
	}
	if e.Op == syntax.AndAnd {
		var parts []stateFn
		for _, x := range conjuncts(e) {
			if v, ok := constValue(x, b, self, c.n); ok && v != 0 {
				continue
			}
			parts = append(parts, c.state(x, b, self))
		}
		return func(s *stateEval) int {
			for _, p := range parts {
				if p(s) == 0 {
					return 0
				}
			}
			return 1
		}
	}
	x, y := c.state(e.X, b, self), c.state(e.Y, b, self)
	switch e.Op {
	case syntax.AndAnd:
		return func(s *stateEval) int {
			if x(s) == 0 {
				return 0
			}
			return y(s)
		}
	case syntax.OrOr:
		return func(s *stateEval) int {
			if x(s) != 0 {
				return 1
			}
			return y(s)
		}
	case syntax.Plus:
		return func(s *stateEval) int { return x(s) + y(s) }
	case syntax.Minus:
		return func(s *stateEval) int { return x(s) - y(s) }
	case syntax.Eq:
		return func(s *stateEval) int { return b2i(x(s) == y(s)) }
	case syntax.Neq:
		return func(s *stateEval) int { return b2i(x(s) != y(s)) }
	case syntax.Lt:
		return func(s *stateEval) int { return b2i(x(s) < y(s)) }
	case syntax.Le:
		return func(s *stateEval) int { return b2i(x(s) <= y(s)) }
	case syntax.Gt:
		return func(s *stateEval) int { return b2i(x(s) > y(s)) }
	case syntax.Ge:
		return func(s *stateEval) int { return b2i(x(s) >= y(s)) }
	}
	op := e.Op
	if k, ok := constValue(e.Y, b, self, c.n); (op != syntax.Slash && op != syntax.Percent) || (ok && k != 0) {
		return func(s *stateEval) int {
			v, _ := ir.EvalBinary(op, x(s), y(s))
			return v
		}
	}
	// A division whose divisor may be 0 in the configuration (the
	// checker refuses a constant 0, but not one that is 0 for a process
	// of an unrolled quantifier): the evaluation fails, and the predicate
	// reports it (see faultLatch).
	err := c.divisionByZero(e, c.within)
	if c.faults == nil {
		c.faults = &faultLatch{}
	}
	return func(s *stateEval) int {
		// Only a division by zero: an operation that may overflow is
		// checkedState's.
		v, f := ir.EvalBinary(op, x(s), y(s))
		if f != ir.NoFault {
			s.fail(err)
		}
		return v
	}
}

func quantState(kind string, parts []stateFn) stateFn {
	switch kind {
	case "count":
		return func(s *stateEval) int {
			n := 0
			for _, p := range parts {
				if p(s) != 0 {
					n++
				}
			}
			return n
		}
	case "sum":
		return func(s *stateEval) int {
			n := 0
			for _, p := range parts {
				n += p(s)
			}
			return n
		}
	case "forall":
		return func(s *stateEval) int {
			for _, p := range parts {
				if p(s) == 0 {
					return 0
				}
			}
			return 1
		}
	}
	return func(s *stateEval) int {
		for _, p := range parts {
			if p(s) != 0 {
				return 1
			}
		}
		return 0
	}
}

// initial computes the initial configuration: every variable at its
// initial value, then the init effects of each block, process by process
// in ascending order, each reading the configuration the previous left.
func (c *compiler) initial(sys *model.System) (*model.State, error) {
	s := sys.NewState()
	for _, v := range c.spec.Vars {
		for _, p := range v.Procs {
			s.Set(p, c.vars[v.ID], v.Init)
		}
	}
	for _, in := range c.spec.Inits {
		for _, p := range in.Procs {
			env := &stateEnv{c: c, s: s, self: p}
			next := s.Clone()
			if err := c.runInit(in.Effects, env, next); err != nil {
				return nil, &syntax.Error{File: c.spec.File, Pos: in.Pos, Msg: fmt.Sprintf("the initial configuration: process %d: %v", p, err)}
			}
			s = next
		}
	}
	if err := sys.Validate(s); err != nil {
		return nil, err
	}
	return s, nil
}

// stateEnv evaluates IR expressions over a configuration (ir.Eval).
type stateEnv struct {
	c    *compiler
	s    *model.State
	self int
	// locals binds the names of the enclosing for loops.
	locals bindings
	// temps are the values of the sequential block the effects run in
	// (ir.Seq), or nil.
	temps []int
}

func (e *stateEnv) N() int                     { return e.c.n }
func (e *stateEnv) Self() int                  { return e.self }
func (e *stateEnv) Var(v *ir.Var, p int) int   { return e.s.Get(p, e.c.vars[v.ID]) }
func (e *stateEnv) Local(l *ir.Local) int      { return e.locals[l] }
func (e *stateEnv) Field(*ir.Receive, int) int { return 0 }
func (e *stateEnv) ChanLen(from, to int, m *ir.Message) int {
	return e.c.chanLen(e.s, from, to, m, nil)
}
func (e *stateEnv) Head(from, to int) (*ir.Message, []int, bool) {
	return e.At(from, to, 0)
}
func (e *stateEnv) At(from, to, i int) (*ir.Message, []int, bool) {
	return e.c.at(e.s, from, to, i)
}

// runInit applies init effects, reading env and writing next.
func (c *compiler) runInit(ss []ir.Stmt, env *stateEnv, next *model.State) error {
	sys := c.post.sys
	for _, st := range ss {
		switch st := st.(type) {
		case *ir.Assign:
			v, err := ir.Eval(st.Value, env)
			if err != nil {
				return err
			}
			if v < st.Var.Type.Lo || v > st.Var.Type.Hi {
				return fmt.Errorf("init sets %s to %d, outside %s", st.Var.Name, v, st.Var.Type.Domain())
			}
			next.Set(env.self, c.vars[st.Var.ID], v)
		case *ir.Send:
			to, err := ir.Eval(st.To, env)
			if err != nil {
				return err
			}
			to = ((to % c.n) + c.n) % c.n
			ch := sys.ChanBetween(env.self, to)
			if ch < 0 {
				return fmt.Errorf("init sends %s to process %d, and there is no channel %d→%d", st.Msg.Name, to, env.self, to)
			}
			vals := make([]int, len(st.Args))
			for i, a := range st.Args {
				if vals[i], err = ir.Eval(a, env); err != nil {
					return err
				}
				if f := st.Msg.Fields[i]; vals[i] < f.Type.Lo || vals[i] > f.Type.Hi {
					return fmt.Errorf("init sends %s with %s = %d, outside %s", st.Msg.Name, f.Name, vals[i], f.Type.Domain())
				}
			}
			if !next.Push(ch, sys.Msg(c.types[st.Msg.ID], vals...)) {
				return fmt.Errorf("init sends %s to process %d, and the channel %d→%d is full", st.Msg.Name, to, env.self, to)
			}
		case *ir.If:
			cond, err := ir.Eval(st.Cond, env)
			if err != nil {
				return err
			}
			body := st.Else
			if cond != 0 {
				body = st.Then
			}
			if err := c.runInit(body, env, next); err != nil {
				return err
			}
		case *ir.AssignElem:
			i, err := ir.Eval(st.Index, env)
			if err != nil {
				return err
			}
			v := st.Array.Elem(i)
			if v == nil || !slices.Contains(v.Procs, env.self) {
				return fmt.Errorf("init: %s", st.Array.Missing(env.self, i))
			}
			if err := c.runInit([]ir.Stmt{&ir.Assign{Var: v, Value: st.Value}}, env, next); err != nil {
				return err
			}
		case *ir.For:
			var members []int
			if st.Over.Of != nil {
				p, err := ir.Eval(st.Over.Of, env)
				if err != nil {
					return err
				}
				members = st.Over.Members(((p % c.n) + c.n) % c.n)
			} else {
				members = st.Over.Members(0)
			}
			outer := env.locals
			for _, q := range members {
				env.locals = outer.with(st.Var, q)
				if err := c.runInit(st.Body, env, next); err != nil {
					env.locals = outer
					return err
				}
			}
			env.locals = outer
		case *ir.Seq:
			if err := c.runSeq(st, env, next); err != nil {
				return err
			}
		case *ir.SetTemp:
			if err := c.runSetTemp(st, env); err != nil {
				return err
			}
		case *ir.Repeat:
			count, err := ir.Eval(st.Count, env)
			if err != nil {
				return err
			}
			if err := repeatCount(count, func(format string, args ...any) error { return fmt.Errorf(format, args...) }); err != nil {
				return err
			}
			for range count {
				if err := c.runInit(st.Body, env, next); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// stateConstOperand compiles x op k, or k op x, for a constant k and a
// comparison or a sum or difference, in one closure that calls x's
// (rather than one that calls x's and k's), or returns nil.
func (c *compiler) stateConstOperand(e *ir.Binary, b bindings, self int) stateFn {
	var x ir.Expr
	op := e.Op
	k, ok := constValue(e.Y, b, self, c.n)
	if ok {
		x = e.X
	} else if k, ok = constValue(e.X, b, self, c.n); ok {
		x = e.Y
		// k op x is x op' k.
		flipped := map[syntax.Token]syntax.Token{
			syntax.Eq: syntax.Eq, syntax.Neq: syntax.Neq, syntax.Lt: syntax.Gt,
			syntax.Gt: syntax.Lt, syntax.Le: syntax.Ge, syntax.Ge: syntax.Le, syntax.Plus: syntax.Plus,
		}
		if op, ok = flipped[op]; !ok {
			return nil
		}
	} else {
		return nil
	}
	switch op {
	case syntax.Eq, syntax.Neq, syntax.Lt, syntax.Le, syntax.Gt, syntax.Ge, syntax.Plus, syntax.Minus:
	default:
		return nil
	}
	f := c.state(x, b, self)
	switch op {
	case syntax.Eq:
		return func(s *stateEval) int { return b2i(f(s) == k) }
	case syntax.Neq:
		return func(s *stateEval) int { return b2i(f(s) != k) }
	case syntax.Lt:
		return func(s *stateEval) int { return b2i(f(s) < k) }
	case syntax.Le:
		return func(s *stateEval) int { return b2i(f(s) <= k) }
	case syntax.Gt:
		return func(s *stateEval) int { return b2i(f(s) > k) }
	case syntax.Ge:
		return func(s *stateEval) int { return b2i(f(s) >= k) }
	case syntax.Plus:
		return func(s *stateEval) int { return f(s) + k }
	}
	return func(s *stateEval) int { return f(s) - k }
}
