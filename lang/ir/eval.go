package ir

import (
	"fmt"
	"slices"

	"github.com/ringcheck/ringcheck/lang/syntax"
)

// EvalBinary applies a binary operator to two values (booleans are 0 and
// 1). Division truncates toward zero; % and mod give a result with the
// divisor's sign, as modular arithmetic on a ring needs ((0-1) mod n is
// n-1). ok is false for a division by zero.
func EvalBinary(op syntax.Token, x, y int) (v int, ok bool) {
	switch op {
	case syntax.Plus:
		return x + y, true
	case syntax.Minus:
		return x - y, true
	case syntax.Star:
		return x * y, true
	case syntax.Slash:
		if y == 0 {
			return 0, false
		}
		return x / y, true
	case syntax.Percent:
		if y == 0 {
			return 0, false
		}
		m := x % y
		if m != 0 && (m < 0) != (y < 0) {
			m += y
		}
		return m, true
	case syntax.Eq:
		return b2i(x == y), true
	case syntax.Neq:
		return b2i(x != y), true
	case syntax.Lt:
		return b2i(x < y), true
	case syntax.Le:
		return b2i(x <= y), true
	case syntax.Gt:
		return b2i(x > y), true
	case syntax.Ge:
		return b2i(x >= y), true
	case syntax.AndAnd:
		return b2i(x != 0 && y != 0), true
	case syntax.OrOr:
		return b2i(x != 0 || y != 0), true
	}
	return 0, false
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Env is what Eval reads: the configuration and the bindings of an
// expression's context.
type Env interface {
	// N is the number of processes.
	N() int
	// Self is the acting process.
	Self() int
	// Var is process p's variable v.
	Var(v *Var, p int) int
	// Local is a local's value.
	Local(l *Local) int
	// Field is field i of the message r receives.
	Field(r *Receive, i int) int
	// ChanLen is the number of messages (of type m, if not nil) in the
	// channel from one process to another.
	ChanLen(from, to int, m *Message) int
	// Head is the message at the head of the channel from one process to
	// another: its type and field values (ok false: the channel is empty).
	Head(from, to int) (m *Message, fields []int, ok bool)
	// At is message i of the channel from one process to another (0 is
	// the head; ok false: the channel holds no more than i messages).
	At(from, to, i int) (m *Message, fields []int, ok bool)
}

// Eval evaluates e in env, by walking the tree: the reference semantics
// of expressions, which compiled forms must agree with. A division by zero
// is an error.
func Eval(e Expr, env Env) (v int, err error) {
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(evalFault)
			if !ok {
				panic(r)
			}
			v, err = 0, f
		}
	}()
	return eval(e, env), nil
}

// evalFault carries an evaluation error out of the recursion; Eval
// recovers it.
type evalFault string

func (f evalFault) Error() string { return string(f) }

func eval(e Expr, env Env) int {
	switch e := e.(type) {
	case *Const:
		return e.Value
	case *Self:
		return env.Self()
	case *Neighbor:
		n := env.N()
		return ((eval(e.Of, env)+e.Offset)%n + n) % n
	case *VarRef:
		p := env.Self()
		if e.Proc != nil {
			n := env.N()
			p = ((eval(e.Proc, env) % n) + n) % n
		}
		return env.Var(e.Var, p)
	case *ElemRef:
		p := env.Self()
		if e.Proc != nil {
			n := env.N()
			p = ((eval(e.Proc, env) % n) + n) % n
		}
		i := eval(e.Index, env)
		v := e.Array.Elem(i)
		if v == nil || !slices.Contains(v.Procs, p) {
			panic(evalFault(fmt.Sprintf("process %d has no entry %d of %s", p, i, e.Array.Name)))
		}
		return env.Var(v, p)
	case *LocalRef:
		return env.Local(e.Local)
	case *FieldRef:
		return env.Field(e.Recv, e.Index)
	case *Unary:
		x := eval(e.X, env)
		if e.Op == syntax.Not {
			return 1 - x
		}
		return -x
	case *Binary:
		x := eval(e.X, env)
		switch e.Op {
		case syntax.AndAnd:
			if x == 0 {
				return 0
			}
			return b2i(eval(e.Y, env) != 0)
		case syntax.OrOr:
			if x != 0 {
				return 1
			}
			return b2i(eval(e.Y, env) != 0)
		}
		v, ok := EvalBinary(e.Op, x, eval(e.Y, env))
		if !ok {
			panic(evalFault("division by zero"))
		}
		return v
	case *Cond:
		if eval(e.C, env) != 0 {
			return eval(e.X, env)
		}
		return eval(e.Y, env)
	case *Quant:
		acc := 0
		if e.Kind == "forall" {
			acc = 1
		}
		qe := &quantEnv{Env: env, local: e.Var}
		for _, p := range members(e.Over, env) {
			qe.value = p
			v := eval(e.Body, qe)
			switch e.Kind {
			case "count":
				acc += b2i(v != 0)
			case "sum":
				acc += v
			case "forall":
				if v == 0 {
					return 0
				}
			case "exists":
				if v != 0 {
					return 1
				}
			}
		}
		return acc
	case *ChanLen:
		n := env.N()
		from := ((eval(e.From, env) % n) + n) % n
		to := ((eval(e.To, env) % n) + n) % n
		if e.Upto == nil {
			return env.ChanLen(from, to, e.Msg)
		}
		count, upto := 0, eval(e.Upto, env)
		for i := 0; i < upto; i++ {
			m, _, ok := env.At(from, to, i)
			if !ok {
				break
			}
			if e.Msg == nil || m == e.Msg {
				count++
			}
		}
		return count
	case *ChanPos:
		n := env.N()
		from := ((eval(e.From, env) % n) + n) % n
		to := ((eval(e.To, env) % n) + n) % n
		for i := 0; ; i++ {
			m, _, ok := env.At(from, to, i)
			if !ok || m == e.Msg {
				return i
			}
		}
	case *HeadField:
		n := env.N()
		from := ((eval(e.From, env) % n) + n) % n
		to := ((eval(e.To, env) % n) + n) % n
		for i := 0; ; i++ {
			m, fields, ok := env.At(from, to, i)
			if !ok {
				return 0
			}
			if e.First != nil && m != e.First {
				continue
			}
			if e.Index[m.ID] < 0 {
				return 0
			}
			return fields[e.Index[m.ID]]
		}
	}
	panic(evalFault(fmt.Sprintf("unknown expression node %T", e)))
}

// members lists what a quantifier ranges over: the processes when over
// is nil.
func members(over *Set, env Env) []int {
	if over == nil {
		ps := make([]int, env.N())
		for p := range ps {
			ps[p] = p
		}
		return ps
	}
	if over.Of != nil {
		n := env.N()
		return over.Members(((eval(over.Of, env) % n) + n) % n)
	}
	return over.Members(0)
}

// quantEnv binds a quantified process.
type quantEnv struct {
	Env
	local *Local
	value int
}

func (q *quantEnv) Local(l *Local) int {
	if l == q.local {
		return q.value
	}
	return q.Env.Local(l)
}
