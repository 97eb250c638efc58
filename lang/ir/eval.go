package ir

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ringcheck/ringcheck/lang/syntax"
)

// Fault is why an operation of an expression has no value.
type Fault uint8

// The faults of an operation.
const (
	// NoFault: the operation has a value.
	NoFault Fault = iota
	// DivisionByZero: a division (/, % or mod) by 0.
	DivisionByZero
	// Overflow: the exact result is outside int64, the integers of the
	// language.
	Overflow
)

// String names the fault as its messages do.
func (f Fault) String() string {
	switch f {
	case DivisionByZero:
		return "division by zero"
	case Overflow:
		return "integer overflow"
	}
	return "no fault"
}

// ArithError is an operation of an expression that has no value: a
// division by zero, or an integer overflow.
type ArithError struct {
	Fault Fault
	// Pos is the operation's place in the file (the zero Pos for an
	// operation the checker derived).
	Pos syntax.Pos
	// Op is the operation with its operands' values, as
	// "4611686018427387904 * 2".
	Op string
}

// Error is "division by zero", or "integer overflow: OP is outside
// int64".
func (e *ArithError) Error() string {
	if e.Fault == Overflow {
		return OverflowMessage(e.Op)
	}
	return e.Fault.String()
}

// OverflowMessage is the message of an overflow of op, the operation with
// its operands' values.
func OverflowMessage(op string) string {
	return "integer overflow: " + op + " is outside int64"
}

// BinaryText writes x op y with the operands' values, for a message.
func BinaryText(op syntax.Token, x, y int) string {
	return strconv.Itoa(x) + " " + strings.Trim(op.String(), "'") + " " + strconv.Itoa(y)
}

// Add is x + y; ok is false when it overflows.
func Add(x, y int) (v int, ok bool) {
	v = x + y
	return v, (x^v)&(y^v) >= 0
}

// Sub is x - y; ok is false when it overflows.
func Sub(x, y int) (v int, ok bool) {
	v = x - y
	return v, (x^y)&(x^v) >= 0
}

// Mul is x * y; ok is false when it overflows.
func Mul(x, y int) (v int, ok bool) {
	v = x * y
	// Operands within 32 bits cannot overflow 64: one branch.
	if uint64((x+1<<31)|(y+1<<31)) < 1<<32 && strconv.IntSize == 64 {
		return v, true
	}
	if x == 0 || y == 0 {
		return 0, true
	}
	if (x == -1 && y == math.MinInt) || (y == -1 && x == math.MinInt) {
		return v, false
	}
	return v, v/x == y
}

// Neg is -x; ok is false when it overflows (x is the least int).
func Neg(x int) (v int, ok bool) { return -x, x != math.MinInt }

// Mod is x modulo n (n > 0), in 0..n-1: the process x denotes.
func Mod(x, n int) int { return (x%n + n) % n }

// Offset is the process off places after x (before, for off < 0) on a
// ring of n processes, x taken modulo n: exact for every x, with no
// overflow.
func Offset(x, off, n int) int { return Mod(Mod(x, n)+off, n) }

// EvalBinary applies a binary operator to two values (booleans are 0 and
// 1). Division truncates toward zero; % and mod give a result with the
// divisor's sign, as modular arithmetic on a ring needs ((0-1) mod n is
// n-1). The fault is DivisionByZero for a division by zero and Overflow
// for a result outside int64 (v is then meaningless); NoFault otherwise.
func EvalBinary(op syntax.Token, x, y int) (v int, f Fault) {
	var ok bool
	switch op {
	case syntax.Plus:
		v, ok = Add(x, y)
	case syntax.Minus:
		v, ok = Sub(x, y)
	case syntax.Star:
		v, ok = Mul(x, y)
	case syntax.Slash:
		if y == 0 {
			return 0, DivisionByZero
		}
		if x == math.MinInt && y == -1 {
			return 0, Overflow
		}
		return x / y, NoFault
	case syntax.Percent:
		if y == 0 {
			return 0, DivisionByZero
		}
		m := x % y
		if m != 0 && (m < 0) != (y < 0) {
			m += y
		}
		return m, NoFault
	case syntax.Eq:
		return b2i(x == y), NoFault
	case syntax.Neq:
		return b2i(x != y), NoFault
	case syntax.Lt:
		return b2i(x < y), NoFault
	case syntax.Le:
		return b2i(x <= y), NoFault
	case syntax.Gt:
		return b2i(x > y), NoFault
	case syntax.Ge:
		return b2i(x >= y), NoFault
	case syntax.AndAnd:
		return b2i(x != 0 && y != 0), NoFault
	case syntax.OrOr:
		return b2i(x != 0 || y != 0), NoFault
	default:
		// No operator the checker produces: no value.
		return 0, DivisionByZero
	}
	if !ok {
		return v, Overflow
	}
	return v, NoFault
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
// or an integer overflow is an error, an *ArithError.
func Eval(e Expr, env Env) (v int, err error) {
	defer func() {
		if r := recover(); r != nil {
			switch f := r.(type) {
			case evalFault:
				v, err = 0, f
			case *ArithError:
				v, err = 0, f
			default:
				panic(r)
			}
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
		return Offset(eval(e.Of, env), e.Offset, env.N())
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
			panic(evalFault(e.Array.Missing(p, i)))
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
		v, ok := Neg(x)
		if !ok {
			panic(&ArithError{Fault: Overflow, Pos: e.Pos, Op: "-(" + strconv.Itoa(x) + ")"})
		}
		return v
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
		y := eval(e.Y, env)
		v, f := EvalBinary(e.Op, x, y)
		if f != NoFault {
			panic(&ArithError{Fault: f, Pos: e.Pos, Op: BinaryText(e.Op, x, y)})
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
			var done bool
			if acc, done = accumulate(e.Kind, acc, eval(e.Body, qe), e.Pos); done {
				return acc
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
	case *MsgQuant:
		return evalMsgQuant(e, env)
	case *TempRef:
		return evalTemp(e, env)
	case *FieldElem:
		i := eval(e.Index, env)
		x := e.Elem(i)
		if x == nil {
			panic(evalFault(e.Missing(i)))
		}
		return eval(x, env)
	case *MsgField:
		from, to := chanEnds(e.Quant, env)
		m, fields, ok := env.At(from, to, env.Local(e.Quant.Var))
		if !ok || e.Index[m.ID] < 0 {
			return 0
		}
		return fields[e.Index[m.ID]]
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

// accumulate adds v, the value of a quantifier's body for one member, to
// acc, the quantifier's value so far, by kind (count, sum, forall,
// exists); done is set when forall or exists is decided, acc then being
// its value. A sum that overflows panics with an *ArithError at pos.
func accumulate(kind string, acc, v int, pos syntax.Pos) (int, bool) {
	switch kind {
	case "count":
		return acc + b2i(v != 0), false
	case "sum":
		s, ok := Add(acc, v)
		if !ok {
			panic(&ArithError{Fault: Overflow, Pos: pos, Op: "sum " + BinaryText(syntax.Plus, acc, v)})
		}
		return s, false
	case "forall":
		if v == 0 {
			return 0, true
		}
	case "exists":
		if v != 0 {
			return 1, true
		}
	}
	return acc, false
}

// FoldBinary is the value of the binary operation op of operands x and y
// where okx and oky say which are known at compile time: a conjunction
// with a known false operand is false, a disjunction with a known true
// one true, and an operation of two known operands is evaluated, unless
// it faults (the evaluation then reports the fault); false otherwise.
func FoldBinary(op syntax.Token, x int, okx bool, y int, oky bool) (int, bool) {
	switch {
	case op == syntax.AndAnd && ((okx && x == 0) || (oky && y == 0)):
		return 0, true
	case op == syntax.OrOr && ((okx && x != 0) || (oky && y != 0)):
		return 1, true
	case !okx || !oky:
		return 0, false
	}
	v, f := EvalBinary(op, x, y)
	return v, f == NoFault
}
