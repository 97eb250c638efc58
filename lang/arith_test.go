package lang_test

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/lang"
	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
	"github.com/ringcheck/ringcheck/symbolic"
)

// This file is FuzzArithmetic's: it draws an integer expression from the
// fuzzer's bytes, evaluates it exactly with math/big, and asks every
// evaluator of the ring language for it: ir.Eval, the compiled state
// predicate, the compiled guard of an action and of a timeout action, and
// the symbolic engine. Each must give the exact value, or report a fault
// that the exact evaluation shows may happen (a value outside int64, a
// division by zero); none may give another value.

// The names the drawn expressions read: two variables, and the constants
// of arithHeader.
var (
	arithVars   = []string{"a", "b"}
	arithConsts = []string{"H", "MAX", "MIN", "G"}
	// arithConstValues are arithConsts' values: 2^62, the greatest and
	// the least int64, 2^32.
	arithConstValues = []*big.Int{
		new(big.Int).Lsh(big.NewInt(1), 62),
		new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 63), big.NewInt(1)),
		new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), 63)),
		new(big.Int).Lsh(big.NewInt(1), 32),
	}
	// arithLiterals are the literals drawn.
	arithLiterals = []int64{0, 1, 2, 3, 5, 7, 10, 255, 46341, 65536, 1 << 30, 1<<31 - 1, 3037000499 >> 2, 1, 2, 0}
	// arithCenters are the values around which a variable's values are
	// drawn (each process's within 4 of it, in 32 bits).
	arithCenters = []int64{0, 1, -1, 7, 65536, -65536, 46341, 1<<31 - 1, -1 << 31, 1 << 30, -46341, 3}
)

// arithHeader declares the constants; topology biring(3) links process 1
// to both others, so that its actions read every process.
const arithHeader = "spec fz \"fuzz\"\ntopology biring(3)\n" +
	"const H = 1073741824 * 1073741824 * 4\nconst MAX = H - 1 + H\nconst MIN = -H - H\nconst G = 65536 * 65536\n"

// The kinds of nodes of a drawn expression.
const (
	nLit   = iota // v
	nConst        // arithConsts[i]
	nVar          // name[kids[0]], the process modulo 3
	nLocal        // a quantified process, name
	nNext         // succ(kids[0]) (op "succ") or pred
	nNeg          // -kids[0]
	nBin          // kids[0] op kids[1]
	nCond         // if kids[0] then kids[1] else kids[2]
	nCall         // op(kids...): min, max, abs
	nQuant        // op name: kids[0], op sum, count, forall or exists
	nCmp          // kids[0] op kids[1], a comparison
	nLogic        // kids[0] op kids[1], && or ||
	nNot          // !kids[0]
	nBool         // true (i 1) or false
)

// anode is a node of a drawn expression.
type anode struct {
	kind int
	op   string
	name string
	i    int
	v    *big.Int
	kids []*anode
}

// arithReader draws from the fuzzer's bytes (0 once they run out).
type arithReader struct {
	data []byte
	// locals are the quantified processes in scope.
	locals []string
}

func (r *arithReader) next() int {
	if len(r.data) == 0 {
		return 0
	}
	b := r.data[0]
	r.data = r.data[1:]
	return int(b)
}

// maxArithDepth bounds a drawn expression's depth.
const maxArithDepth = 5

// intExpr draws an integer expression.
func (r *arithReader) intExpr(depth int) *anode {
	op := r.next()
	if depth >= maxArithDepth || len(r.data) == 0 {
		op %= 3
	}
	switch op % 12 {
	case 0:
		return &anode{kind: nLit, v: big.NewInt(arithLiterals[r.next()%len(arithLiterals)])}
	case 1:
		i := r.next() % len(arithConsts)
		return &anode{kind: nConst, name: arithConsts[i], v: arithConstValues[i]}
	case 2:
		b := r.next()
		return &anode{kind: nVar, name: arithVars[b%2], kids: []*anode{r.proc(b>>1, depth)}}
	case 3:
		return &anode{kind: nNeg, kids: []*anode{r.intExpr(depth + 1)}}
	case 4:
		ops := []string{"+", "-", "*", "/", "%", "mod"}
		o := ops[r.next()%len(ops)]
		return &anode{kind: nBin, op: o, kids: []*anode{r.intExpr(depth + 1), r.intExpr(depth + 1)}}
	case 5:
		return &anode{kind: nCond, kids: []*anode{r.boolExpr(depth + 1), r.intExpr(depth + 1), r.intExpr(depth + 1)}}
	case 6, 7:
		return &anode{kind: nCall, op: map[int]string{6: "min", 7: "max"}[op%12], kids: []*anode{r.intExpr(depth + 1), r.intExpr(depth + 1)}}
	case 8:
		return &anode{kind: nCall, op: "abs", kids: []*anode{r.intExpr(depth + 1)}}
	case 9, 10:
		if len(r.locals) == 2 {
			return r.local()
		}
		name := []string{"p", "q"}[len(r.locals)]
		r.locals = append(r.locals, name)
		defer func() { r.locals = r.locals[:len(r.locals)-1] }()
		if op%12 == 9 {
			return &anode{kind: nQuant, op: "sum", name: name, kids: []*anode{r.intExpr(depth + 1)}}
		}
		return &anode{kind: nQuant, op: "count", name: name, kids: []*anode{r.boolExpr(depth + 1)}}
	}
	return r.local()
}

// local is a quantified process in scope, or a literal.
func (r *arithReader) local() *anode {
	if len(r.locals) == 0 {
		return &anode{kind: nLit, v: big.NewInt(int64(r.next() % 4))}
	}
	return &anode{kind: nLocal, name: r.locals[r.next()%len(r.locals)]}
}

// proc draws the process a variable is read at.
func (r *arithReader) proc(b, depth int) *anode {
	switch b % 6 {
	case 3:
		return r.local()
	case 4:
		return &anode{kind: nNext, op: []string{"succ", "pred"}[b/6%2], kids: []*anode{r.local()}}
	case 5:
		if depth < maxArithDepth {
			return r.intExpr(depth + 1)
		}
	}
	return &anode{kind: nLit, v: big.NewInt(int64(b % 3))}
}

// boolExpr draws a boolean expression.
func (r *arithReader) boolExpr(depth int) *anode {
	op := r.next()
	if depth >= maxArithDepth || len(r.data) == 0 {
		op = 0
	}
	switch op % 7 {
	case 1, 2:
		return &anode{kind: nLogic, op: map[int]string{1: "&&", 2: "||"}[op%7], kids: []*anode{r.boolExpr(depth + 1), r.boolExpr(depth + 1)}}
	case 3:
		return &anode{kind: nNot, kids: []*anode{r.boolExpr(depth + 1)}}
	case 4, 5:
		if len(r.locals) == 2 {
			break
		}
		name := []string{"p", "q"}[len(r.locals)]
		r.locals = append(r.locals, name)
		defer func() { r.locals = r.locals[:len(r.locals)-1] }()
		return &anode{kind: nQuant, op: map[int]string{4: "forall", 5: "exists"}[op%7], name: name, kids: []*anode{r.boolExpr(depth + 1)}}
	case 6:
		return &anode{kind: nBool, i: r.next() % 2}
	}
	ops := []string{"==", "!=", "<", "<=", ">", ">="}
	return &anode{kind: nCmp, op: ops[r.next()%len(ops)], kids: []*anode{r.intExpr(depth + 1), r.intExpr(depth + 1)}}
}

// text writes the node in the ring language.
func (n *anode) text() string {
	k := n.kids
	switch n.kind {
	case nLit:
		return n.v.String()
	case nConst, nLocal:
		return n.name
	case nVar:
		return n.name + "[" + k[0].text() + "]"
	case nNext:
		return n.op + "(" + k[0].text() + ")"
	case nNeg:
		return "-(" + k[0].text() + ")"
	case nBin, nCmp, nLogic:
		return "(" + k[0].text() + " " + n.op + " " + k[1].text() + ")"
	case nCond:
		return "(if " + k[0].text() + " then " + k[1].text() + " else " + k[2].text() + ")"
	case nCall:
		args := make([]string, len(k))
		for i, a := range k {
			args[i] = a.text()
		}
		return n.op + "(" + strings.Join(args, ", ") + ")"
	case nQuant:
		return "(" + n.op + " " + n.name + ": " + k[0].text() + ")"
	case nNot:
		return "!(" + k[0].text() + ")"
	}
	return []string{"false", "true"}[n.i]
}

// arithEnv is what an expression is evaluated in exactly: each process's
// variables and the quantified processes.
type arithEnv struct {
	vals   map[string][3]int64
	locals map[string]int
}

func (e arithEnv) with(name string, p int) arithEnv {
	locals := map[string]int{name: p}
	for k, v := range e.locals {
		if k != name {
			locals[k] = v
		}
	}
	return arithEnv{vals: e.vals, locals: locals}
}

var (
	three  = big.NewInt(3)
	minI64 = big.NewInt(-1 << 63)
	maxI64 = big.NewInt(1<<63 - 1)
)

func b2big(b bool) *big.Int {
	if b {
		return big.NewInt(1)
	}
	return big.NewInt(0)
}

// exact evaluates n exactly; nil when it has no value (a division by
// zero on the way). A conjunction, a disjunction or a quantifier over
// booleans has a value when one of its operands decides it, whichever
// order an evaluator takes them in.
func (n *anode) exact(env arithEnv) *big.Int {
	k := n.kids
	switch n.kind {
	case nLit, nConst:
		return n.v
	case nLocal:
		return big.NewInt(int64(env.locals[n.name]))
	case nVar:
		p := k[0].exact(env)
		if p == nil {
			return nil
		}
		return big.NewInt(env.vals[n.name][new(big.Int).Mod(p, three).Int64()])
	case nNext:
		p := k[0].exact(env)
		if p == nil {
			return nil
		}
		off := big.NewInt(1)
		if n.op == "pred" {
			off.SetInt64(-1)
		}
		return new(big.Int).Mod(new(big.Int).Add(p, off), three)
	case nNeg:
		x := k[0].exact(env)
		if x == nil {
			return nil
		}
		return new(big.Int).Neg(x)
	case nBin:
		x, y := k[0].exact(env), k[1].exact(env)
		if x == nil || y == nil {
			return nil
		}
		switch n.op {
		case "+":
			return new(big.Int).Add(x, y)
		case "-":
			return new(big.Int).Sub(x, y)
		case "*":
			return new(big.Int).Mul(x, y)
		}
		if y.Sign() == 0 {
			return nil
		}
		if n.op == "/" {
			return new(big.Int).Quo(x, y)
		}
		m := new(big.Int).Rem(x, y)
		if m.Sign() != 0 && m.Sign() != y.Sign() {
			m.Add(m, y)
		}
		return m
	case nCond:
		c := k[0].exact(env)
		if c == nil {
			return nil
		}
		if c.Sign() != 0 {
			return k[1].exact(env)
		}
		return k[2].exact(env)
	case nCall:
		x := k[0].exact(env)
		if n.op == "abs" {
			if x == nil {
				return nil
			}
			return new(big.Int).Abs(x)
		}
		y := k[1].exact(env)
		if x == nil || y == nil {
			return nil
		}
		if (x.Cmp(y) < 0) == (n.op == "min") {
			return x
		}
		return y
	case nQuant:
		switch n.op {
		case "sum", "count":
			acc := new(big.Int)
			for p := range 3 {
				v := k[0].exact(env.with(n.name, p))
				if v == nil {
					return nil
				}
				if n.op == "count" {
					v = b2big(v.Sign() != 0)
				}
				acc.Add(acc, v)
			}
			return acc
		}
		return decided(n.op == "forall", func(yield func(*big.Int) bool) {
			for p := range 3 {
				if !yield(k[0].exact(env.with(n.name, p))) {
					return
				}
			}
		})
	case nCmp:
		x, y := k[0].exact(env), k[1].exact(env)
		if x == nil || y == nil {
			return nil
		}
		c := x.Cmp(y)
		return b2big(map[string]bool{"==": c == 0, "!=": c != 0, "<": c < 0, "<=": c <= 0, ">": c > 0, ">=": c >= 0}[n.op])
	case nLogic:
		return decided(n.op == "&&", func(yield func(*big.Int) bool) {
			_ = yield(k[0].exact(env)) && yield(k[1].exact(env))
		})
	case nNot:
		x := k[0].exact(env)
		if x == nil {
			return nil
		}
		return b2big(x.Sign() == 0)
	}
	return big.NewInt(int64(n.i))
}

// decided is a conjunction (all) or a disjunction of the values parts
// yields: decided by any one false (true) among them, undefined (nil)
// when none decides it and one has no value.
func decided(all bool, parts func(yield func(*big.Int) bool)) *big.Int {
	undefined := false
	decisive := false
	parts(func(v *big.Int) bool {
		switch {
		case v == nil:
			undefined = true
		case (v.Sign() != 0) != all:
			decisive = true
			return false
		}
		return true
	})
	switch {
	case decisive:
		return b2big(!all)
	case undefined:
		return nil
	}
	return b2big(all)
}

// may reports whether some operation of n, in some binding of its
// quantified processes and whichever branch is taken, yields a value
// outside int64 (overflow) or divides by zero (!overflow).
func (n *anode) may(env arithEnv, overflow bool) bool {
	if n.kind == nQuant {
		for p := range 3 {
			if n.kids[0].may(env.with(n.name, p), overflow) {
				return true
			}
		}
		if overflow && n.op == "sum" {
			// The running total.
			acc := new(big.Int)
			for p := range 3 {
				v := n.kids[0].exact(env.with(n.name, p))
				if v == nil {
					break
				}
				if acc.Add(acc, v); !fits(acc) {
					return true
				}
			}
		}
	} else {
		for _, k := range n.kids {
			if k.may(env, overflow) {
				return true
			}
		}
	}
	if !overflow {
		if n.kind == nBin && (n.op == "/" || n.op == "%" || n.op == "mod") {
			y := n.kids[1].exact(env)
			return y != nil && y.Sign() == 0
		}
		return false
	}
	v := n.exact(env)
	return v != nil && !fits(v)
}

func fits(v *big.Int) bool { return v.Cmp(minI64) >= 0 && v.Cmp(maxI64) <= 0 }

// lit writes v as a constant expression whose every step is within
// int64: literals are at most 2^31-1.
func lit(v int64) string {
	if v >= -(1<<31-1) && v <= 1<<31-1 {
		return fmt.Sprintf("(%d)", v)
	}
	// Digits in base 2^30, of v's sign.
	var digits []int64
	for x := v; x != 0; x /= 1 << 30 {
		digits = append([]int64{x % (1 << 30)}, digits...)
	}
	s := fmt.Sprintf("(%d)", digits[0])
	for _, d := range digits[1:] {
		s = fmt.Sprintf("(%s * 1073741824 + (%d))", s, d)
	}
	return s
}

// arithCase is a drawn expression, the variables' values, and what its
// observers see.
type arithCase struct {
	expr *anode
	vals map[string][3]int64
	// lo and hi are each variable's domain.
	lo, hi map[string]int64
}

// drawArith draws a case from data.
func drawArith(data []byte) *arithCase {
	r := &arithReader{data: data}
	c := &arithCase{vals: map[string][3]int64{}, lo: map[string]int64{}, hi: map[string]int64{}}
	for _, name := range arithVars {
		center := arithCenters[r.next()%len(arithCenters)]
		width := int64([]int{0, 1, 4, 100}[r.next()%4])
		var vals [3]int64
		lo, hi := int64(1<<31-1), int64(-1<<31)
		for p := range vals {
			v := center + int64(r.next()%9) - 4
			v = max(min(v, 1<<31-1), -1<<31)
			vals[p] = v
			lo, hi = min(lo, v), max(hi, v)
		}
		c.vals[name] = vals
		c.lo[name] = max(lo-width, -1<<31)
		c.hi[name] = min(hi+width, 1<<31-1)
	}
	c.expr = r.intExpr(0)
	return c
}

// source writes a spec of the case: its variables with their domains and
// each process's value (their one value, for singleton), then rest.
func (c *arithCase) source(singleton bool, rest string) string {
	var b strings.Builder
	b.WriteString(arithHeader)
	for _, name := range arithVars {
		if singleton {
			v := c.vals[name][0]
			fmt.Fprintf(&b, "var %s: %s..%s\n", name, lit(v), lit(v))
			continue
		}
		fmt.Fprintf(&b, "var %s: %s..%s\n", name, lit(c.lo[name]), lit(c.hi[name]))
	}
	if !singleton {
		for p := range 3 {
			fmt.Fprintf(&b, "process %d { init: a := %s, b := %s }\n", p, lit(c.vals["a"][p]), lit(c.vals["b"][p]))
		}
	}
	b.WriteString(rest)
	return b.String()
}

// arithOutcome is what an evaluator gave: a value, or whether it equals
// the exact value (for the observers that only compare), or a fault.
type arithOutcome struct {
	value   *big.Int
	equal   *bool
	fault   string // "overflow", "division by zero"
	message string
}

// classify turns an error of an evaluator into its fault, or fails.
func classify(t *testing.T, who string, err error) arithOutcome {
	t.Helper()
	msg := err.Error()
	switch {
	case strings.Contains(msg, "integer overflow"):
		return arithOutcome{fault: "overflow", message: msg}
	case strings.Contains(msg, "division by zero"):
		return arithOutcome{fault: "division by zero", message: msg}
	}
	t.Fatalf("%s: an error that is no fault of the expression: %v", who, err)
	return arithOutcome{}
}

// judge checks what an evaluator gave against the exact evaluation.
func judge(t *testing.T, who, expr string, exact *big.Int, mayOverflow, mayDivide bool, o arithOutcome) {
	t.Helper()
	switch {
	case o.fault == "overflow":
		if !mayOverflow {
			t.Fatalf("%s: %s: an overflow where none may happen (exact %v): %s", who, expr, exact, o.message)
		}
	case o.fault != "":
		if !mayDivide {
			t.Fatalf("%s: %s: a division by zero where none may happen (exact %v): %s", who, expr, exact, o.message)
		}
	case exact == nil || !fits(exact):
		t.Fatalf("%s: %s: a value (%v, equal %v) where the exact one is %v: no fault reported", who, expr, o.value, o.equal, exact)
	case o.value != nil && o.value.Cmp(exact) != 0:
		t.Fatalf("%s: %s is %v, not %v", who, expr, o.value, exact)
	case o.equal != nil && !*o.equal:
		t.Fatalf("%s: %s is not %v", who, expr, exact)
	}
}

// arithEvalEnv is ir.Eval's environment: the case's configuration.
type arithEvalEnv struct{ vals map[string][3]int64 }

func (e arithEvalEnv) N() int                            { return 3 }
func (e arithEvalEnv) Self() int                         { return 1 }
func (e arithEvalEnv) Var(v *ir.Var, p int) int          { return int(e.vals[v.Name][p]) }
func (e arithEvalEnv) Local(*ir.Local) int               { return 0 }
func (e arithEvalEnv) Field(*ir.Receive, int) int        { return 0 }
func (e arithEvalEnv) ChanLen(int, int, *ir.Message) int { return 0 }
func (e arithEvalEnv) Head(int, int) (*ir.Message, []int, bool) {
	return nil, nil, false
}
func (e arithEvalEnv) At(int, int, int) (*ir.Message, []int, bool) {
	return nil, nil, false
}

// checkArith asks every evaluator for the case's expression and judges
// what each gives.
func checkArith(t *testing.T, data []byte, withSymbolic bool) {
	c := drawArith(data)
	expr := c.expr.text()
	env := arithEnv{vals: c.vals}
	exact := c.expr.exact(env)
	mayOverflow, mayDivide := c.expr.may(env, true), c.expr.may(env, false)
	r := "0"
	if exact != nil && fits(exact) {
		r = lit(exact.Int64())
	}
	cond := "(" + expr + ") == " + r

	// The reference evaluator, and the compiled state predicate.
	f, err := lang.Parse("fz.ring", []byte(c.source(false, "invariant v: "+cond+"\n")))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	inst, err := f.Instance(nil)
	if err != nil {
		// A constant's fault, which vet reports: no instance to evaluate.
		judge(t, "vet", expr, exact, mayOverflow, mayDivide, classify(t, "vet", err))
		return
	}
	var o arithOutcome
	body := inst.Invariants[0].Body
	if eq, ok := body.(*ir.Binary); ok && eq.Op == syntax.Eq {
		body = eq.X
	}
	if v, err := ir.Eval(body, arithEvalEnv{c.vals}); err != nil {
		o = classify(t, "ir.Eval", err)
	} else if body == inst.Invariants[0].Body {
		o.equal = new(bool)
		*o.equal = v != 0
	} else {
		o.value = big.NewInt(int64(v))
	}
	judge(t, "ir.Eval", expr, exact, mayOverflow, mayDivide, o)
	judge(t, "state predicate", expr, exact, mayOverflow, mayDivide, statePredicate(t, f))

	// The compiled guards, of an action and of a timeout action.
	for _, kind := range []string{"", "timeout "} {
		f, err := lang.Parse("fz.ring", []byte(c.source(false, "process 1 { "+kind+"action chk: "+cond+" -> skip }\n")))
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		judge(t, kind+"action guard", expr, exact, mayOverflow, mayDivide, guard(t, f))
	}

	if !withSymbolic {
		return
	}
	// The symbolic engine, where every variable has one value.
	for name, v := range c.vals {
		c.vals[name] = [3]int64{v[0], v[0], v[0]}
	}
	exact = c.expr.exact(env)
	mayOverflow, mayDivide = c.expr.may(env, true), c.expr.may(env, false)
	r = "0"
	if exact != nil && fits(exact) {
		r = lit(exact.Int64())
	}
	f, err = lang.Parse("fz.ring", []byte(c.source(true, "legitimate: ("+expr+") == "+r+"\n")))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	judge(t, "symbolic", expr, exact, mayOverflow, mayDivide, symbolicOutcome(t, f))
}

// statePredicate is what the compiled invariant of f says.
func statePredicate(t *testing.T, f *lang.File) arithOutcome {
	sys, err := f.Build(nil)
	if err != nil {
		// Found on the initial configuration as the model is built.
		return classify(t, "state predicate", err)
	}
	holds := sys.Invariants[0].Holds(sys.Initial()[0])
	if sys.PredicateFault != nil {
		if err := sys.PredicateFault(); err != nil {
			return classify(t, "state predicate", err)
		}
	}
	return arithOutcome{equal: &holds}
}

// guard is what the compiled guard of f's action says.
func guard(t *testing.T, f *lang.File) arithOutcome {
	sys, err := f.Build(nil)
	if err != nil {
		t.Fatal(err)
	}
	mask, err := sys.NewExpander().Enabled(sys.Initial()[0])
	if err != nil {
		return classify(t, "action guard", err)
	}
	enabled := mask == 1<<1
	return arithOutcome{equal: &enabled}
}

// symbolicOutcome is what the symbolic engine says of f's legitimacy
// predicate, over its one configuration.
func symbolicOutcome(t *testing.T, f *lang.File) arithOutcome {
	inst, err := f.Instance(nil)
	if err != nil {
		return classify(t, "symbolic", err)
	}
	enc, err := symbolic.Encode(context.Background(), inst, symbolic.Options{})
	if err != nil {
		return classify(t, "symbolic", err)
	}
	res, err := enc.Analyse(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	legitimate := res.Legitimate.Sign() != 0
	return arithOutcome{equal: &legitimate}
}

// arithSeeds are FuzzArithmetic's seeds: the overflows of issue 26 and
// their neighbours. Each is a (a = 1 at every process) and b (2^31-1,
// 2^31-2 and 2^31-5), then an expression's opcodes (see intExpr).
func arithSeeds() [][]byte {
	head := []byte{1, 0, 4, 4, 4, 7, 1, 4, 3, 0}
	zero := []byte{0, 0, 4, 4, 4, 7, 1, 4, 3, 0} // a = 0
	seed := func(h []byte, ops ...byte) []byte { return append(append([]byte(nil), h...), ops...) }
	return [][]byte{
		// a[0] * G * G: 2^64 wraps to 0.
		seed(head, 4, 2, 4, 2, 2, 0, 1, 3, 1, 3),
		// (a[0] + 1) * H * 2: 2^64 again.
		seed(head, 4, 2, 4, 2, 4, 0, 2, 0, 0, 1, 1, 0, 0, 2),
		// sum p: a[p] * H: the running total passes 2^63.
		seed(head, 9, 4, 2, 2, 6, 0, 1, 0),
		// -(MIN): a constant's overflow, which vet reports.
		seed(head, 3, 1, 2),
		// -(MIN + a[0]) where a[0] is 0.
		seed(zero, 3, 4, 0, 1, 2, 2, 0),
		// MIN / (a[0] - 1) where a[0] is 0: MIN / -1.
		seed(zero, 4, 3, 1, 2, 4, 1, 2, 0, 0, 1),
		// abs(MIN + a[0]) where a[0] is 0.
		seed(zero, 8, 4, 0, 1, 2, 2, 0),
		// b[0] * b[1] * b[2]: past 2^63, and b[0] * b[1] is not.
		seed(head, 4, 2, 4, 2, 2, 1, 2, 3, 2, 5),
		// a[MAX]: the process MAX modulo 3, where a is 1, 2 and 3.
		seed([]byte{1, 0, 4, 5, 6, 7, 1, 4, 3, 0}, 2, 10, 1, 1),
		// min(H * 3, a[0]).
		seed(head, 6, 4, 2, 1, 0, 0, 3, 2, 0),
		// a[0] + b[1] * 2: no overflow.
		seed(head, 4, 0, 2, 0, 4, 2, 2, 3, 0, 2),
		// (count p: b[p] * b[p] > MAX - b[p]) - MAX: no overflow.
		seed(head, 4, 1, 10, 0, 4, 4, 2, 2, 7, 0, 2, 7, 0, 4, 1, 1, 1, 2, 7, 0, 1, 1),
	}
}
