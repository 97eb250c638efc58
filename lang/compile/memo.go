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
	key, ok := memoKey(e, b)
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

// memoKey writes e, with the locals of b as their values, as a text that
// two expressions share only when they have the same value in every
// configuration for the same process. It fails for an expression that
// reads the received message or a local bound only as the step runs (a
// choice parameter), and for one too large to be worth the key.
func memoKey(e ir.Expr, b bindings) (string, bool) {
	w := &keyWriter{b: b, inner: map[*ir.Local]bool{}}
	w.expr(e)
	if !w.ok || w.sb.Len() > maxMemoKey {
		return "", false
	}
	return w.sb.String(), true
}

type keyWriter struct {
	sb strings.Builder
	b  bindings
	// inner are the locals bound inside the expression (its quantifiers').
	inner map[*ir.Local]bool
	ok    bool
}

func (w *keyWriter) s(parts ...string) {
	for _, p := range parts {
		w.sb.WriteString(p)
	}
}

func (w *keyWriter) int(v int) { w.sb.WriteString(strconv.Itoa(v)) }

func (w *keyWriter) ptr(p any) { fmt.Fprintf(&w.sb, "%p", p) }

func (w *keyWriter) expr(e ir.Expr) {
	if w.sb.Len() > maxMemoKey {
		return
	}
	w.ok = true
	w.node(e)
}

// node writes e; it clears w.ok for what no key can stand for.
func (w *keyWriter) node(e ir.Expr) {
	if e == nil {
		w.s("_")
		return
	}
	switch e := e.(type) {
	case *ir.Const:
		w.s("k")
		w.int(e.Value)
	case *ir.Self:
		w.s("self")
	case *ir.Neighbor:
		w.s("nb(")
		w.int(e.Offset)
		w.s(",")
		w.node(e.Of)
		w.s(")")
	case *ir.VarRef:
		w.s("v(")
		w.ptr(e.Var)
		w.s(",")
		w.node(e.Proc)
		w.s(")")
	case *ir.ElemRef:
		w.s("el(")
		w.ptr(e.Array)
		w.s(",")
		w.node(e.Proc)
		w.s(",")
		w.node(e.Index)
		w.s(")")
	case *ir.LocalRef:
		if v, ok := w.b[e.Local]; ok {
			w.s("k")
			w.int(v)
		} else if w.inner[e.Local] {
			w.s("l")
			w.ptr(e.Local)
		} else {
			w.ok = false
		}
	case *ir.Unary:
		w.s("u", strconv.Itoa(int(e.Op)), "(")
		w.node(e.X)
		w.s(")")
	case *ir.Binary:
		w.s("b", strconv.Itoa(int(e.Op)), "(")
		w.node(e.X)
		w.s(",")
		w.node(e.Y)
		w.s(")")
	case *ir.Cond:
		w.s("if(")
		w.node(e.C)
		w.s(",")
		w.node(e.X)
		w.s(",")
		w.node(e.Y)
		w.s(")")
	case *ir.Quant:
		w.inner[e.Var] = true
		w.s("q", e.Kind, "(")
		w.ptr(e.Var)
		w.s(",")
		if e.Over != nil {
			w.ptr(e.Over)
			w.s(",")
			w.node(e.Over.Of)
		}
		w.s(",")
		w.node(e.Body)
		w.s(")")
	case *ir.ChanLen:
		w.s("len(")
		w.node(e.From)
		w.s(",")
		w.node(e.To)
		w.s(",")
		w.ptr(e.Msg)
		w.s(",")
		w.node(e.Upto)
		w.s(")")
	case *ir.ChanPos:
		w.s("pos(")
		w.node(e.From)
		w.s(",")
		w.node(e.To)
		w.s(",")
		w.ptr(e.Msg)
		w.s(")")
	case *ir.HeadField:
		w.s("head(")
		w.node(e.From)
		w.s(",")
		w.node(e.To)
		w.s(",")
		w.ptr(e.First)
		w.s(",", e.Field, ")")
	default:
		// The received message's fields, and anything else.
		w.ok = false
	}
}
