package compile

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
	"github.com/ringcheck/ringcheck/model"
)

// This file finds the expressions that the actions of a spec compute more
// than once for one process in one configuration (a definition such as
// corrupt, used in every guard, or a quantifier repeated in a guard and
// an effect) and compiles them to be computed once: the first closure to
// need the value stores it in a slot of the step's context
// (model.Ctx.Memo), which the others read until the search moves to
// another process or configuration.
//
// The actions are compiled twice: the first time only counts the
// expressions (memoPlan.counting), the second gives a slot to each that
// was met at least twice.

// memoPlan is what the two compilations of the actions share.
type memoPlan struct {
	counting bool
	counts   map[string]int
	slots    map[string]int
}

func newMemoPlan() *memoPlan {
	return &memoPlan{counting: true, counts: map[string]int{}, slots: map[string]int{}}
}

// assign ends the counting: every expression met twice or more gets a
// slot. It returns the number of slots.
func (m *memoPlan) assign() int {
	m.counting = false
	for k, n := range m.counts {
		if n >= 2 {
			m.slots[k] = len(m.slots)
		}
	}
	return len(m.slots)
}

// maxMemoKey bounds the text of an expression worth keeping: a larger one
// is compiled as it is.
const maxMemoKey = 2048

// memoized wraps the compiled form of e, when the plan keeps it, so that
// it is computed once per process and configuration. It returns compiled
// unchanged otherwise.
func (cx *actionCtx) memoized(e ir.Expr, b bindings, compiled func() actionFn) actionFn {
	if cx.plan == nil || !worthMemo(e) {
		return compiled()
	}
	key, ok := memoKey(e, b, cx.keyedRecv())
	if !ok {
		return compiled()
	}
	if cx.plan.counting {
		cx.plan.counts[key]++
		return compiled()
	}
	slot, ok := cx.plan.slots[key]
	if !ok {
		return compiled()
	}
	f := compiled()
	return func(c *model.Ctx, k int) int {
		if v, ok := c.Memo(slot); ok {
			return v
		}
		v := f(c, k)
		c.SetMemo(slot, v)
		return v
	}
}

// worthMemo reports whether e costs more than reading the memo: a chain
// of && or ||, a quantifier, a conditional.
func worthMemo(e ir.Expr) bool {
	switch e := e.(type) {
	case *ir.Binary:
		return e.Op == syntax.AndAnd || e.Op == syntax.OrOr
	case *ir.Quant, *ir.Cond:
		return true
	}
	return false
}

// keyedRecv returns the action's receive when the fields of the message it
// receives may be in a memo key, or nil. They may when the receive takes
// one type of message from the predecessor: the message is then the head
// of the channel from the predecessor in the configuration, the same for
// every action of the process that receives that type from there, and the
// closures read it only once its type is checked.
func (cx *actionCtx) keyedRecv() *ir.Receive {
	r := cx.action.Recv
	if r == nil || r.Any || !isPred(r.From) {
		return nil
	}
	return r
}

// memoKey writes e, with the locals of b as their values, as a text that
// two expressions share only when they have the same value in every
// configuration for the same process. A field of the received message is
// written as the message type and the field's index when recv, the
// action's receive, is not nil (see keyedRecv). It fails for an
// expression that reads the received message otherwise or a local bound
// only as the step runs (a choice parameter), and for one too large to be
// worth the key.
func memoKey(e ir.Expr, b bindings, recv *ir.Receive) (string, bool) {
	w := &keyWriter{b: b, inner: map[*ir.Local]int{}, recv: recv}
	w.expr(e)
	if !w.ok || w.sb.Len() > maxMemoKey {
		return "", false
	}
	return w.sb.String(), true
}

type keyWriter struct {
	sb strings.Builder
	b  bindings
	// inner numbers the locals bound inside the expression (its
	// quantifiers') in the order they are written: two quantifiers that
	// differ only in their locals (two expansions of one definition) have
	// the same key.
	inner map[*ir.Local]int
	// recv, when not nil, is the receive whose fields are written as
	// the head of the channel from the predecessor (keyedRecv).
	recv *ir.Receive
	ok   bool
}

// call writes tag(arg, arg, ...): an expression is written as a node, a
// string as it is, an int in decimal, and anything else (an ir.Var, a
// message type, a set, a local) as its address, which names it.
func (w *keyWriter) call(tag string, args ...any) {
	w.sb.WriteString(tag)
	w.sb.WriteByte('(')
	for i, a := range args {
		if i > 0 {
			w.sb.WriteByte(',')
		}
		switch a := a.(type) {
		case ir.Expr:
			w.node(a)
		case nil:
			w.sb.WriteByte('_')
		case string:
			w.sb.WriteString(a)
		case int:
			w.sb.WriteString(strconv.Itoa(a))
		default:
			fmt.Fprintf(&w.sb, "%p", a)
		}
	}
	w.sb.WriteByte(')')
}

// isInner reports whether l is bound inside the expression.
func (w *keyWriter) isInner(l *ir.Local) bool {
	_, ok := w.inner[l]
	return ok
}

func (w *keyWriter) expr(e ir.Expr) {
	w.ok = true
	w.node(e)
}

// node writes e; it clears w.ok for what no key can stand for.
func (w *keyWriter) node(e ir.Expr) {
	if w.sb.Len() > maxMemoKey {
		w.ok = false
		return
	}
	switch e := e.(type) {
	case nil:
		w.sb.WriteByte('_')
	case *ir.Const:
		w.call("k", e.Value)
	case *ir.Self:
		w.call("self")
	case *ir.Neighbor:
		w.call("nb", e.Offset, e.Of)
	case *ir.VarRef:
		w.call("v", e.Var, e.Proc)
	case *ir.ElemRef:
		w.call("el", e.Array, e.Proc, e.Index)
	case *ir.LocalRef:
		switch v, bound := w.b[e.Local]; {
		case bound:
			w.call("k", v)
		case w.isInner(e.Local):
			w.call("l", w.inner[e.Local])
		default:
			w.ok = false // a choice parameter, bound as the step runs
		}
	case *ir.Unary:
		w.call("u", int(e.Op), e.X)
	case *ir.Binary:
		w.call("b", int(e.Op), e.X, e.Y)
	case *ir.Cond:
		w.call("if", e.C, e.X, e.Y)
	case *ir.Quant:
		w.inner[e.Var] = len(w.inner)
		var over, of any
		if e.Over != nil {
			over, of = e.Over, e.Over.Of
		}
		w.call("q", e.Kind, w.inner[e.Var], over, of, e.Body)
	case *ir.ChanLen:
		w.call("len", e.From, e.To, e.Msg, e.Upto)
	case *ir.ChanPos:
		w.call("pos", e.From, e.To, e.Msg)
	case *ir.HeadField:
		w.call("head", e.From, e.To, e.First, e.Field)
	case *ir.FieldRef:
		if w.recv == nil || e.Recv != w.recv {
			w.ok = false
			return
		}
		// The field of the message of its type at the head of the
		// channel from the predecessor.
		w.call("recv", e.Recv.Msg, e.Index)
	default:
		// Anything else.
		w.ok = false
	}
}
