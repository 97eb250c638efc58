package check

import (
	"fmt"
	"slices"
	"sort"

	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
	"github.com/ringcheck/ringcheck/model"
)

// constInt evaluates an integer constant expression.
func (c *checker) constInt(e syntax.Expr, what string) int {
	v, _ := c.constIntOK(e, what)
	return v
}

// constIntOK evaluates an integer constant expression, and reports
// whether it is one without a problem (a problem is reported once: a
// value that depends on it is not checked besides).
func (c *checker) constIntOK(e syntax.Expr, what string) (int, bool) {
	before := len(c.errs)
	x := c.expr(e, &scope{global: true})
	k, ok := x.(*ir.Const)
	switch {
	case invalid(x):
		return 0, false
	case !ok:
		c.errorf(e.ExprPos(), "%s must be a constant", what)
		return 0, false
	case k.T.Kind != ir.Int:
		c.errorf(e.ExprPos(), "%s must be an integer, not %s", what, typeName(k.T))
		return k.Value, false
	}
	return k.Value, len(c.errs) == before
}

// invalidType is the type of an expression with a problem already
// reported: no rule is checked against it, so that one mistake is
// reported once, where it is (as go/types does with an invalid operand).
// It never reaches an instance: Check returns none when it reports a
// problem.
var invalidType = &ir.Type{Kind: ir.Kind(-1), Name: "invalid"}

// poison stands for an expression with a problem already reported.
type poison struct{}

// Type is invalidType.
func (poison) Type() *ir.Type { return invalidType }

// invalid reports whether x has a problem already reported.
func invalid(x ir.Expr) bool { return x.Type() == invalidType }

// typeIf returns t when ok, invalidType otherwise.
func typeIf(ok bool, t *ir.Type) *ir.Type {
	if ok {
		return t
	}
	return invalidType
}

func (c *checker) boolExpr(e syntax.Expr, sc *scope, what string) ir.Expr {
	x := c.expr(e, sc)
	if !invalid(x) && x.Type().Kind != ir.Bool {
		c.errorf(e.ExprPos(), "%s must be a boolean, not %s", what, typeName(x.Type()))
	}
	return x
}

func (c *checker) intExpr(e syntax.Expr, sc *scope, what string) ir.Expr {
	x := c.expr(e, sc)
	if !invalid(x) && x.Type().Kind != ir.Int {
		c.errorf(e.ExprPos(), "%s must be an integer, not %s", what, typeName(x.Type()))
	}
	return x
}

// procExpr checks a process expression (an integer, taken modulo N).
func (c *checker) procExpr(e syntax.Expr, sc *scope) ir.Expr {
	return c.intExpr(e, sc, "a process")
}

func typeName(t *ir.Type) string {
	switch t.Kind {
	case ir.Bool:
		return "bool"
	case ir.Enum:
		return t.Name
	}
	return "int"
}

// assignable reports whether a value of type v may be stored in a
// variable of type t.
func assignable(t, v *ir.Type) bool {
	if t.Kind == ir.Enum {
		return v.Kind == ir.Enum && v.Name == t.Name
	}
	return t.Kind == v.Kind
}

func (c *checker) expr(e syntax.Expr, sc *scope) ir.Expr {
	c.count(1, e.ExprPos())
	if c.spec.N == 0 && needsProcesses(e) {
		c.errorf(e.ExprPos(), "a parameter, constant or bound cannot depend on the processes, which the topology declares")
		return poison{}
	}
	switch e := e.(type) {
	case *syntax.IntLit:
		return &ir.Const{Value: e.Value, T: ir.IntType()}
	case *syntax.BoolLit:
		return &ir.Const{Value: b2i(e.Value), T: ir.BoolType()}
	case *syntax.ParenExpr:
		return c.expr(e.X, sc)
	case *syntax.Ident:
		return c.ident(e, sc)
	case *syntax.IndexExpr:
		return c.index(e, sc)
	case *syntax.CallExpr:
		return c.call(e, sc)
	case *syntax.SelectorExpr:
		return c.selector(e, sc)
	case *syntax.IsExpr:
		return c.isExpr(e, sc)
	case *syntax.UnaryExpr:
		x := c.expr(e.X, sc)
		if invalid(x) {
			return x
		}
		if e.Op == syntax.Not {
			if x.Type().Kind != ir.Bool {
				c.errorf(e.Pos, "! needs a boolean, not %s", typeName(x.Type()))
			}
			if k, ok := x.(*ir.Const); ok {
				return &ir.Const{Value: 1 - k.Value, T: ir.BoolType()}
			}
		} else {
			if x.Type().Kind != ir.Int {
				c.errorf(e.Pos, "- needs an integer, not %s", typeName(x.Type()))
			}
			if k, ok := x.(*ir.Const); ok {
				v, ok := ir.Neg(k.Value)
				if !ok {
					c.errorf(e.Pos, "%s", constantOverflow(fmt.Sprintf("-(%d)", k.Value)))
					return poison{}
				}
				return &ir.Const{Value: v, T: ir.IntType()}
			}
		}
		return &ir.Unary{Op: e.Op, X: x, Pos: e.Pos}
	case *syntax.BinaryExpr:
		return c.binary(e, sc)
	case *syntax.CondExpr:
		cond := c.boolExpr(e.Cond, sc, "a condition")
		x, y := c.expr(e.X, sc), c.expr(e.Y, sc)
		if invalid(x) || invalid(y) {
			return poison{}
		}
		if !sameType(x.Type(), y.Type()) {
			c.errorf(e.Pos, "the branches of if have types %s and %s", typeName(x.Type()), typeName(y.Type()))
		}
		if k, ok := cond.(*ir.Const); ok {
			if k.Value != 0 {
				return x
			}
			return y
		}
		return &ir.Cond{C: cond, X: x, Y: y}
	case *syntax.QuantExpr:
		if e.Over != nil && e.Over.Chan {
			return c.msgQuant(e, sc)
		}
		var over *ir.Set
		l := &ir.Local{Name: e.Var.Name, Type: &ir.Type{Kind: ir.Int, Lo: 0, Hi: c.spec.N - 1}, Lo: 0, Hi: c.spec.N - 1}
		if e.Over != nil {
			s := c.set(e.Over, sc)
			over, l = s.Set, s.local(e.Var.Name)
		}
		inner := sc.with(e.Var.Name, &ir.LocalRef{Local: l})
		var body ir.Expr
		kind := e.Kind
		if e.Kind == "sum" {
			body, kind = c.sumBody(e.Body, inner)
		} else {
			body = c.boolExpr(e.Body, inner, "the body of "+e.Kind)
		}
		return &ir.Quant{Kind: kind, Var: l, Over: over, Body: body, Pos: e.Pos}
	}
	c.errorf(e.ExprPos(), "unexpected expression")
	return poison{}
}

// needsProcesses reports whether e, at its top, is about processes: a
// quantifier, a variable, a neighbour, a channel.
func needsProcesses(e syntax.Expr) bool {
	switch e := e.(type) {
	case *syntax.QuantExpr, *syntax.IndexExpr, *syntax.SelectorExpr:
		return true
	case *syntax.Ident:
		return e.Name == "self" || e.Name == "pred" || e.Name == "succ"
	case *syntax.CallExpr:
		switch e.Fun.Name {
		case "pred", "succ", "len", "msgs", "head", "first", "pos":
			return true
		}
	}
	return false
}

// specsValues renders parameter values sorted by name, as "K=3 n=5".
func specsValues(v map[string]int) string {
	names := make([]string, 0, len(v))
	for k := range v {
		names = append(names, k)
	}
	sort.Strings(names)
	out := ""
	for i, k := range names {
		if i > 0 {
			out += " "
		}
		out += fmt.Sprintf("%s=%d", k, v[k])
	}
	return out
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func sameType(a, b *ir.Type) bool {
	if a.Kind != b.Kind {
		return false
	}
	return a.Kind != ir.Enum || a.Name == b.Name
}

func (c *checker) ident(e *syntax.Ident, sc *scope) ir.Expr {
	if x, size, ok := sc.lookup(e.Name); ok {
		if _, msg := x.(msgBinding); msg {
			c.errorf(e.Pos, "%s is a message of a channel: read its fields (%s.f)", e.Name, e.Name)
			return poison{}
		}
		if la, ok := x.(localArray); ok {
			c.errorf(e.Pos, "%s is a local array: index it (%s)", e.Name, entryForm(la.t))
			return poison{}
		}
		if _, run := x.(runBinding); run {
			c.errorf(e.Pos, "%s is a message of the run: read its fields (%s.f) or test its type (%s is M)", e.Name, e.Name, e.Name)
			return poison{}
		}
		// The name's expression is copied here: as many nodes more.
		c.count(size-1, e.Pos)
		return x
	}
	switch e.Name {
	case "self":
		if !sc.acting {
			c.errorf(e.Pos, "self is the acting process: only actions and init have one")
		}
		return &ir.Self{}
	case "pred", "succ":
		if !sc.acting {
			c.errorf(e.Pos, "%s is a neighbour of the acting process: only actions and init have one (write %s(p))", e.Name, e.Name)
		}
		off := map[string]int{"pred": -1, "succ": 1}[e.Name]
		if sc.acting && !c.neighborOnLine(&ir.Self{}, off, e.Pos, e.Name, sc) {
			return poison{}
		}
		return &ir.Neighbor{Of: &ir.Self{}, Offset: off}
	}
	if k, ok := c.consts[e.Name]; ok {
		if k.typ == invalidType {
			return poison{}
		}
		return &ir.Const{Value: k.value, T: k.typ}
	}
	if a, ok := c.arrays[e.Name]; ok {
		c.errorf(e.Pos, "%s is an array: index it (%s[i], or %s[p][i] for process p's)", a.Name, a.Name, a.Name)
		return &ir.Const{Value: a.Type.Lo, T: a.Type}
	}
	if g, ok := c.groups[e.Name]; ok {
		return c.groupIdent(g, e, sc)
	}
	if v, ok := c.vars[e.Name]; ok {
		if !sc.acting {
			c.errorf(e.Pos, "%s is a process variable: say whose (%s[p])", e.Name, e.Name)
			return &ir.Const{Value: v.Type.Lo, T: v.Type}
		}
		for _, p := range sc.procs {
			if !slices.Contains(v.Procs, p) {
				c.errorf(e.Pos, "process %d has no variable %s", p, e.Name)
				break
			}
		}
		sc.recordVar(v, nil)
		return &ir.VarRef{Var: v}
	}
	if d, ok := c.defs[e.Name]; ok {
		if len(d.Params) > 0 {
			c.errorf(e.Pos, "%s takes %d arguments: write %s(...)", e.Name, len(d.Params), e.Name)
			return c.placeholder(d, sc)
		}
		return c.expand(d, nil, nil, e.Pos, sc)
	}
	if _, ok := c.messages[e.Name]; ok {
		c.errorf(e.Pos, "%s is a message type, not a value", e.Name)
	} else {
		c.errorf(e.Pos, "undefined: %s", e.Name)
	}
	return poison{}
}

// placeholder stands for a use of def d whose arguments are wrong, once
// that is reported: a constant of the type of d's body (checked silently
// with every parameter 0), so that the use is not reported besides.
func (c *checker) placeholder(d *syntax.DefDecl, sc *scope) ir.Expr {
	args := make([]ir.Expr, len(d.Params))
	for i := range args {
		args[i] = &ir.Const{T: ir.IntType()}
	}
	quiet := *sc
	quiet.access, quiet.writes = nil, nil
	c.silent++
	t := c.expand(d, args, nil, d.Pos, &quiet).Type()
	c.silent--
	if t == invalidType {
		return poison{}
	}
	return &ir.Const{Value: t.Lo, T: t}
}

// expand checks def d's body, used at pos, with its parameters bound to
// args, of sizes nodes each (nil: 1).
func (c *checker) expand(d *syntax.DefDecl, args []ir.Expr, sizes []int, pos syntax.Pos, sc *scope) ir.Expr {
	if slices.Contains(c.expanding, d.Name.Name) {
		c.errorf(pos, "%s is defined in terms of itself", d.Name.Name)
		return poison{}
	}
	params := make(map[string]int, len(d.Params))
	for i, p := range d.Params {
		params[p.Name] = 1
		if sizes != nil {
			params[p.Name] = sizes[i]
		}
	}
	defer c.enter(d.Name.Name, pos, d.Body, params)()
	inner := *sc
	inner.parent = sc
	inner.names = map[string]ir.Expr{}
	inner.sizes = params
	for i, p := range d.Params {
		inner.names[p.Name] = args[i]
	}
	return c.expr(d.Body, &inner)
}

// enter records the expansion of the def or predicate name, whose body
// is used at pos with parameters of the sizes given, and returns what
// ends it. At the outermost use, the size of the expansion is estimated
// first (inlined), so that one too large is refused at once.
func (c *checker) enter(name string, pos syntax.Pos, body syntax.Expr, params map[string]int) func() {
	c.expanding = append(c.expanding, name)
	outer := c.use == nil
	if outer {
		c.use = &defUse{name: name, pos: pos}
		if est := c.inlined(body, params, map[string]bool{name: true}); addSat(c.nodes, est) > ir.MaxNodes {
			c.count(est, pos)
		}
	}
	return func() {
		c.expanding = c.expanding[:len(c.expanding)-1]
		if outer {
			c.use = nil
		}
	}
}

func (c *checker) index(e *syntax.IndexExpr, sc *scope) ir.Expr {
	if t, ok := localArrayOf(e.Var.Name, sc); ok {
		return c.localElem(e, t, sc)
	}
	if a, ok := c.arrays[e.Var.Name]; ok {
		return c.elem(e, a, sc)
	}
	if g, ok := c.groups[e.Var.Name]; ok {
		return c.groupIndex(g, e, sc)
	}
	v, ok := c.vars[e.Var.Name]
	if !ok {
		c.errorf(e.Var.Pos, "%s is not a process variable", e.Var.Name)
		return poison{}
	}
	if e.Elem != nil {
		c.errorf(e.Elem.ExprPos(), "%s is not an array: %s[p] is process p's", v.Name, v.Name)
	}
	proc := c.readProc(e.Index, v.Name, e.Var.Pos, sc)
	if k, ok := proc.(*ir.Const); ok && !slices.Contains(v.Procs, k.Value) {
		c.errorf(e.Index.ExprPos(), "process %d has no variable %s", k.Value, v.Name)
	}
	sc.recordVar(v, proc)
	return &ir.VarRef{Var: v, Proc: proc}
}

// readProc checks the process whose variable name an expression reads:
// a constant is taken modulo n, the acting process is nil, and a process
// the acting ones may not read is reported where it is known.
func (c *checker) readProc(e syntax.Expr, name string, pos syntax.Pos, sc *scope) ir.Expr {
	proc := c.procExpr(e, sc)
	if k, ok := proc.(*ir.Const); ok {
		proc = &ir.Const{Value: ((k.Value % c.spec.N) + c.spec.N) % c.spec.N, T: ir.IntType()}
	}
	if sc.acting && !sc.timeout && !sc.init {
		top := model.Topology{Kind: c.spec.Topology, N: c.spec.N}
		for _, p := range sc.procs {
			if q, ok := staticProc(proc, p, c.spec.N); ok && q != p && !top.Linked(q, p) {
				c.errorf(pos, "process %d cannot read %s of process %d: in a %s a process reads only the processes linked to it (a timeout's guard reads any)", p, name, q, top.Kind)
				break
			}
		}
	}
	if _, self := proc.(*ir.Self); self {
		return nil
	}
	return proc
}

func (c *checker) binary(e *syntax.BinaryExpr, sc *scope) ir.Expr {
	x, y := c.expr(e.X, sc), c.expr(e.Y, sc)
	if invalid(x) || invalid(y) {
		return poison{}
	}
	tx, ty := x.Type(), y.Type()
	var t *ir.Type
	switch e.Op {
	case syntax.Plus, syntax.Minus, syntax.Star, syntax.Slash, syntax.Percent:
		if tx.Kind != ir.Int || ty.Kind != ir.Int {
			c.errorf(e.OpPos, "arithmetic needs integers, not %s and %s", typeName(tx), typeName(ty))
		}
		t = ir.IntType()
	case syntax.Lt, syntax.Le, syntax.Gt, syntax.Ge:
		if tx.Kind != ir.Int || ty.Kind != ir.Int {
			c.errorf(e.OpPos, "ordering needs integers, not %s and %s", typeName(tx), typeName(ty))
		}
		t = ir.BoolType()
	case syntax.Eq, syntax.Neq:
		if !sameType(tx, ty) {
			c.errorf(e.OpPos, "cannot compare %s with %s", typeName(tx), typeName(ty))
		}
		t = ir.BoolType()
	case syntax.AndAnd, syntax.OrOr:
		if tx.Kind != ir.Bool || ty.Kind != ir.Bool {
			c.errorf(e.OpPos, "%s needs booleans, not %s and %s", e.Op, typeName(tx), typeName(ty))
		}
		t = ir.BoolType()
	}
	if k, ok := y.(*ir.Const); ok && k.Value == 0 && (e.Op == syntax.Slash || e.Op == syntax.Percent) {
		c.errorf(e.OpPos, "division by zero")
		return &ir.Const{T: t}
	}
	if kx, ok := x.(*ir.Const); ok {
		if ky, ok := y.(*ir.Const); ok {
			if _, f := ir.EvalBinary(e.Op, kx.Value, ky.Value); f == ir.Overflow {
				c.errorf(e.OpPos, "%s", constantOverflow(ir.BinaryText(e.Op, kx.Value, ky.Value)))
				return poison{}
			}
		}
	}
	return fold(&ir.Binary{Op: e.Op, X: x, Y: y, T: t, Pos: e.OpPos})
}

// constantOverflow is the message of a constant operation op (with its
// operands' values) whose result is outside int64.
func constantOverflow(op string) string {
	return "integer overflow: the constant " + op + " is outside int64"
}

// fold evaluates an expression whose operands are constants.
func fold(e ir.Expr) ir.Expr {
	switch e := e.(type) {
	case *ir.Binary:
		kx, okx := e.X.(*ir.Const)
		ky, oky := e.Y.(*ir.Const)
		if okx && oky {
			if v, f := ir.EvalBinary(e.Op, kx.Value, ky.Value); f == ir.NoFault {
				return &ir.Const{Value: v, T: e.T}
			}
		}
		// Short-circuits with one constant side.
		if e.Op == syntax.AndAnd && ((okx && kx.Value == 0) || (oky && ky.Value == 0)) {
			return &ir.Const{Value: 0, T: ir.BoolType()}
		}
		if e.Op == syntax.OrOr && ((okx && kx.Value != 0) || (oky && ky.Value != 0)) {
			return &ir.Const{Value: 1, T: ir.BoolType()}
		}
		if e.Op == syntax.AndAnd || e.Op == syntax.OrOr {
			// true && y is y; false || y is y.
			if okx {
				return e.Y
			}
			if oky {
				return e.X
			}
		}
	case *ir.Unary:
		if k, ok := e.X.(*ir.Const); ok {
			if e.Op == syntax.Not {
				return &ir.Const{Value: 1 - k.Value, T: ir.BoolType()}
			}
			if v, ok := ir.Neg(k.Value); ok {
				return &ir.Const{Value: v, T: k.T}
			}
		}
	case *ir.Cond:
		if k, ok := e.C.(*ir.Const); ok {
			if k.Value != 0 {
				return e.X
			}
			return e.Y
		}
	}
	return e
}
