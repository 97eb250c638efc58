package compile

import (
	"testing"

	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
)

// TestMemoKey checks that expressions share a key exactly when they are
// the same computation, and that none is made for what depends on the
// step rather than the configuration.
func TestMemoKey(t *testing.T) {
	x, y := &ir.Var{Name: "x"}, &ir.Var{Name: "y"}
	q, choice := &ir.Local{Name: "q"}, &ir.Local{Name: "k"}
	recv := &ir.Receive{}
	read := func(v *ir.Var, proc ir.Expr) ir.Expr { return &ir.VarRef{Var: v, Proc: proc} }
	and := func(a, b ir.Expr) ir.Expr { return &ir.Binary{Op: syntax.AndAnd, X: a, Y: b} }
	lt := func(a, b ir.Expr) ir.Expr { return &ir.Binary{Op: syntax.Lt, X: a, Y: b} }
	k := func(v int) ir.Expr { return &ir.Const{Value: v} }
	pred := &ir.Neighbor{Of: &ir.Self{}, Offset: -1}
	at := func(l *ir.Local) ir.Expr { return &ir.LocalRef{Local: l} }
	bound := bindings{q: 2}

	base := and(lt(read(x, nil), k(3)), lt(read(y, nil), read(x, nil)))
	same := and(lt(read(x, nil), k(3)), lt(read(y, nil), read(x, nil)))
	different := []ir.Expr{
		and(lt(read(x, nil), k(4)), lt(read(y, nil), read(x, nil))),
		and(lt(read(y, nil), k(3)), lt(read(y, nil), read(x, nil))),
		and(lt(read(x, pred), k(3)), lt(read(y, nil), read(x, nil))),
		and(lt(k(3), read(x, nil)), lt(read(y, nil), read(x, nil))),
		&ir.Binary{Op: syntax.OrOr, X: lt(read(x, nil), k(3)), Y: lt(read(y, nil), read(x, nil))},
		and(lt(read(x, at(q)), k(3)), lt(read(y, nil), read(x, nil))), // q bound to 2
	}
	want, ok := memoKey(base, bound, nil)
	if !ok {
		t.Fatal("no key for a configuration's expression")
	}
	if got, _ := memoKey(same, bound, nil); got != want {
		t.Errorf("the same expression has keys %q and %q", got, want)
	}
	seen := map[string]int{want: -1}
	for i, e := range different {
		got, ok := memoKey(e, bound, nil)
		if !ok {
			t.Errorf("expression %d has no key", i)
		}
		if j, dup := seen[got]; dup {
			t.Errorf("expressions %d and %d share the key %q", i, j, got)
		}
		seen[got] = i
	}
	// A bound local is its value: the same key as the constant.
	viaLocal, _ := memoKey(lt(read(x, at(q)), k(3)), bound, nil)
	viaConst, _ := memoKey(lt(read(x, k(2)), k(3)), bound, nil)
	if viaLocal != viaConst {
		t.Errorf("q bound to 2 keys as %q, the constant 2 as %q", viaLocal, viaConst)
	}
	for name, e := range map[string]ir.Expr{
		"a received field":   and(lt(&ir.FieldRef{Recv: recv, Index: 0}, k(1)), lt(read(x, nil), k(3))),
		"a choice parameter": and(lt(at(choice), k(1)), lt(read(x, nil), k(3))),
	} {
		if key, ok := memoKey(e, bound, nil); ok {
			t.Errorf("%s has the key %q", name, key)
		}
	}
	// With the receive keyed (from the predecessor, one type), its fields
	// have keys, one per field, and another receive's fields none.
	field := func(r *ir.Receive, i int) ir.Expr {
		return and(lt(&ir.FieldRef{Recv: r, Index: i}, k(1)), lt(read(x, nil), k(3)))
	}
	key0, ok0 := memoKey(field(recv, 0), bound, recv)
	key1, ok1 := memoKey(field(recv, 1), bound, recv)
	if !ok0 || !ok1 || key0 == key1 {
		t.Errorf("the received fields 0 and 1 have the keys %q (%v) and %q (%v)", key0, ok0, key1, ok1)
	}
	if key, ok := memoKey(field(&ir.Receive{}, 0), bound, recv); ok {
		t.Errorf("another receive's field has the key %q", key)
	}
	// A quantifier's own local is part of its key.
	forall := &ir.Quant{Kind: "forall", Var: choice, Body: lt(read(x, at(choice)), k(3))}
	if _, ok := memoKey(forall, nil, nil); !ok {
		t.Error("a quantifier over its own local has no key")
	}
}

// TestMemoKeepsReceivedFields compiles actions that receive a message from
// their predecessor and share an expression of its fields: the expression
// gets a slot of the step's memo, computed once for the guards of both.
func TestMemoKeepsReceivedFields(t *testing.T) {
	const src = `spec s
topology ring(3)
var x: 0..3
message M(v: 0..3)
channels capacity 2 carry M
process all {
  action a: recv M(v) from pred, (exists q: x[q] == v) && x < 3 -> x := x + 1
  action b: recv M(v) from pred, !((exists q: x[q] == v) && x < 3) -> x := v
  init: send M(self) to succ
}
`
	_, sys := build(t, src)
	if sys.MemoSlots < 1 {
		t.Errorf("the guards' shared expression of a received field has no memo slot (%d slots)", sys.MemoSlots)
	}
}
