package compile

import (
	"testing"

	"github.com/ringcheck/ringcheck/lang/ir"
)

// TestFusedShapes compiles the shapes fused.go and specialize flatten and
// counts the closures each compiles to (compiler.nodes): a sum of
// message counts and variables over the processes, a forall of
// comparisons of variables, a guard that is a chain of comparisons, and
// an action whose alternatives index an array by their choice, each one
// closure (or one per alternative) rather than one per node.
func TestFusedShapes(t *testing.T) {
	const head = "spec s\ntopology ring(3)\nvar x: 0..3\nvar y: 0..3\nvar z[0..1]: 0..3\nmessage M\nchannels capacity 2 carry M\n"
	tests := []struct {
		name, decl string
		nodes      int
	}{
		{"sum", "process all { action a: x < 3 -> x := x + 1 }\ninvariant i: (sum p: msgs(M, p, succ(p)) + x[p]) <= 9\n", 2},
		{"forall", "process all { action a: x < 3 -> x := x + 1 }\ninvariant i: forall p: x[p] <= 3 && y[p] <= x[p]\n", 1},
		{"guard chain", "process all { action a: x < 3 && y == 0 && x != y -> x := 1 }\n", 1},
		{"choice", "process all { action a(j in 0..1): z[j] == 0 -> z[j] := 1 }\n", 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := build(t, head+tc.decl)
			// The invariant, compiled once more, alone.
			var nodes int
			if len(c.spec.Invariants) > 0 {
				c.nodes = 0
				c.state(c.spec.Invariants[0].Body, nil, -1)
				nodes = c.nodes
			} else {
				c.nodes = 0
				c.action(c.spec.Actions[0])
				nodes = c.nodes
			}
			if nodes != tc.nodes {
				t.Errorf("%d closures compiled, want %d", nodes, tc.nodes)
			}
		})
	}
}

// TestConstValueOfOneValueTypes checks that a received field or a
// variable of a type of one value is a constant, and one of two values
// is not.
func TestConstValueOfOneValueTypes(t *testing.T) {
	one, two := &ir.Type{Kind: ir.Int, Lo: 2, Hi: 2}, &ir.Type{Kind: ir.Int, Lo: 0, Hi: 1}
	msg := &ir.Message{Name: "M", Fields: []*ir.Field{{Name: "a", Type: one}, {Name: "b", Type: two}}}
	recv := &ir.Receive{Msg: msg}
	x := &ir.Var{Name: "x", Type: one, Procs: []int{0, 1}}
	partial := &ir.Var{Name: "p", Type: one, Procs: []int{0}}
	for _, tc := range []struct {
		name string
		e    ir.Expr
		v    int
		ok   bool
	}{
		{"a field of one value", &ir.FieldRef{Recv: recv, Index: 0}, 2, true},
		{"a field of two values", &ir.FieldRef{Recv: recv, Index: 1}, 0, false},
		{"a variable of one value", &ir.VarRef{Var: x}, 2, true},
		{"a variable some processes lack", &ir.VarRef{Var: partial}, 0, false},
	} {
		if v, ok := constValue(tc.e, nil, -1, 2); v != tc.v || ok != tc.ok {
			t.Errorf("%s: constValue = %d, %v, want %d, %v", tc.name, v, ok, tc.v, tc.ok)
		}
	}
}
