package check

import (
	"fmt"
	"math"
	"slices"

	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
	"github.com/ringcheck/ringcheck/model"
)

func (c *checker) call(e *syntax.CallExpr, sc *scope) ir.Expr {
	name := e.Fun.Name
	argc := func(n int) bool {
		if len(e.Args) != n {
			c.errorf(e.Fun.Pos, "%s takes %d arguments, not %d", name, n, len(e.Args))
			return false
		}
		return true
	}
	switch name {
	case "pred", "succ":
		if !argc(1) {
			return &ir.Const{T: ir.IntType()}
		}
		of := c.procExpr(e.Args[0], sc)
		off := map[string]int{"pred": -1, "succ": 1}[name]
		if !c.neighborOnLine(of, off, e.Fun.Pos, name, sc) {
			return poison{}
		}
		if k, ok := of.(*ir.Const); ok {
			return &ir.Const{Value: ir.Offset(k.Value, off, c.spec.N), T: ir.IntType()}
		}
		return &ir.Neighbor{Of: of, Offset: off}
	case "pos":
		if !argc(3) {
			return &ir.Const{T: ir.IntType()}
		}
		cp := &ir.ChanPos{Msg: c.messageArg(e.Args[0], name), From: c.procExpr(e.Args[1], sc), To: c.procExpr(e.Args[2], sc)}
		sc.recordChan(cp.From, cp.To)
		return cp
	case "len", "msgs":
		want := 2
		if name == "msgs" {
			want = 3
			if len(e.Args) == 4 {
				want = 4
			}
		}
		if !argc(want) {
			return &ir.Const{T: ir.IntType()}
		}
		if c.spec.Channels == nil {
			c.errorf(e.Fun.Pos, "%s reads a channel, and there are no channels", name)
		}
		cl := &ir.ChanLen{}
		args := e.Args
		if name == "msgs" {
			cl.Msg = c.messageArg(args[0], name)
			args = args[1:]
		}
		cl.From, cl.To = c.procExpr(args[0], sc), c.procExpr(args[1], sc)
		if len(args) == 3 {
			cl.Upto = c.intExpr(args[2], sc, "a number of messages")
		}
		if k1, ok := cl.From.(*ir.Const); ok {
			if k2, ok := cl.To.(*ir.Const); ok {
				n := c.spec.N
				from, to := ((k1.Value%n)+n)%n, ((k2.Value%n)+n)%n
				if !(model.Topology{Kind: c.spec.Topology, N: n}).Linked(from, to) {
					c.errorf(e.Fun.Pos, "there is no channel %d→%d", from, to)
				}
			}
		}
		sc.recordChan(cl.From, cl.To)
		return cl
	case "min", "max", "abs":
		n := 2
		if name == "abs" {
			n = 1
		}
		if !argc(n) {
			return &ir.Const{T: ir.IntType()}
		}
		x := c.intExpr(e.Args[0], sc, "an argument of "+name)
		if name == "abs" {
			if k, ok := x.(*ir.Const); ok && k.Value == math.MinInt {
				c.errorf(e.Fun.Pos, "%s", constantOverflow(fmt.Sprintf("abs(%d)", k.Value)))
				return poison{}
			}
			neg := &ir.Binary{Op: syntax.Lt, X: x, Y: &ir.Const{T: ir.IntType()}, T: ir.BoolType()}
			return fold(&ir.Cond{C: neg, X: fold(&ir.Unary{Op: syntax.Minus, X: x, Pos: e.Fun.Pos}), Y: x})
		}
		y := c.intExpr(e.Args[1], sc, "an argument of "+name)
		op := syntax.Lt
		if name == "max" {
			op = syntax.Gt
		}
		return fold(&ir.Cond{C: fold(&ir.Binary{Op: op, X: x, Y: y, T: ir.BoolType()}), X: x, Y: y})
	}
	if d, ok := c.defs[name]; ok {
		if !argc(len(d.Params)) {
			return c.placeholder(d, sc)
		}
		args := make([]ir.Expr, len(e.Args))
		sizes := make([]int, len(e.Args))
		for i, a := range e.Args {
			before := c.nodes
			args[i] = c.expr(a, sc)
			sizes[i] = c.nodes - before
		}
		return c.expand(d, args, sizes, e.Fun.Pos, sc)
	}
	if d, ok := c.preds[name]; ok {
		if !argc(1) {
			return &ir.Const{T: ir.BoolType()}
		}
		before := c.nodes
		arg := c.procExpr(e.Args[0], sc)
		size := c.nodes - before
		if slices.Contains(c.expanding, name) {
			c.errorf(e.Fun.Pos, "%s is defined in terms of itself", name)
			return &ir.Const{T: ir.BoolType()}
		}
		params := map[string]int{d.Param.Name: size}
		defer c.enter(name, e.Fun.Pos, d.Body, params)()
		inner := *sc
		inner.parent = sc
		inner.names = map[string]ir.Expr{d.Param.Name: arg}
		inner.sizes = params
		return c.boolExpr(d.Body, &inner, "a process predicate")
	}
	c.errorf(e.Fun.Pos, "undefined function %s", name)
	return poison{}
}

// selector checks head(p, q).field: a field of the message at the head of
// a channel.
func (c *checker) selector(e *syntax.SelectorExpr, sc *scope) ir.Expr {
	if e.Index != nil {
		return c.arrayFieldRead(e, sc)
	}
	if c.wholeArrayField(e) {
		return poison{}
	}
	if id, ok := e.X.(*syntax.Ident); ok {
		if x, _, found := sc.lookup(id.Name); found {
			if b, msg := x.(msgBinding); msg {
				return c.msgField(e, b)
			}
			if b, run := x.(runBinding); run {
				return c.runField(e, b)
			}
		}
		c.errorf(e.X.ExprPos(), "only a message has fields: %s is not one a quantifier over a channel binds (count m in chan(p, q): m.%s ...)", id.Name, e.Field.Name)
		return poison{}
	}
	call, ok := e.X.(*syntax.CallExpr)
	head := ok && call.Fun.Name == "head" && len(call.Args) == 2
	first := ok && call.Fun.Name == "first" && len(call.Args) == 3
	if !head && !first {
		c.errorf(e.X.ExprPos(), "only a message in a channel has fields: head(p, q).%s or first(M, p, q).%s", e.Field.Name, e.Field.Name)
		return poison{}
	}
	if c.spec.Channels == nil {
		c.errorf(call.Fun.Pos, "%s reads a channel, and there are no channels", call.Fun.Name)
	}
	args := call.Args
	hf := &ir.HeadField{Field: e.Field.Name}
	if first {
		hf.First = c.messageArg(args[0], "first")
		args = args[1:]
	}
	hf.From, hf.To = c.procExpr(args[0], sc), c.procExpr(args[1], sc)
	for _, m := range c.spec.Messages {
		idx := -1
		if hf.First != nil && m != hf.First {
			hf.Index = append(hf.Index, idx)
			continue
		}
		for i, f := range m.Fields {
			if f.Name == e.Field.Name {
				idx = i
				if hf.T == nil || f.Type == invalidType {
					hf.T = f.Type
				} else if hf.T != invalidType && !sameType(hf.T, f.Type) {
					c.errorf(e.Field.Pos, "messages have fields %s of different types: head(p, q).%s would not have one type", e.Field.Name, e.Field.Name)
				}
			}
		}
		hf.Index = append(hf.Index, idx)
	}
	if hf.T == nil {
		c.errorf(e.Field.Pos, "no message has a field %s", e.Field.Name)
		hf.T = invalidType
	}
	sc.recordChan(hf.From, hf.To)
	return hf
}

// messageArg resolves the argument of fun that names a message type.
func (c *checker) messageArg(e syntax.Expr, fun string) *ir.Message {
	id, _ := e.(*syntax.Ident)
	m, known := c.messages[identName(id)]
	if !known {
		c.errorf(e.ExprPos(), "the first argument of %s is a message type", fun)
		return &ir.Message{}
	}
	return m
}

func identName(id *syntax.Ident) string {
	if id == nil {
		return ""
	}
	return id.Name
}
