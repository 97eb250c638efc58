package check_test

import (
	"strings"
	"testing"
)

// TestSymmetryDeclaration: the checker accepts a symmetry declaration
// where every action and predicate reads processes only relatively, and
// refuses it, naming the action or predicate, where one reads a process
// index as a value.
func TestSymmetryDeclaration(t *testing.T) {
	const ring = "spec s\nparam n = 4 in 3..8\ntopology ring(n)\nvar x: 0..3\n"
	const biring = "spec s\nparam n = 4 in 3..8\ntopology biring(n)\nvar x: 0..3\n"
	const msgs = "message T(v: 0..3)\nchannels capacity 2\n"
	tests := []struct {
		name, src  string
		reflection bool
		want       string // a part of the error, or "" when accepted
	}{
		{"relative reads", ring + "process all { action copy: x != x[pred] -> x := x[pred] }\nlegitimate: (count p: x[p] == x[p-1]) == 1\nsymmetry rotation\n", false, ""},
		{"processes compared for equality", ring + "process all { action a: x == 0 -> x := 1 }\ninvariant i: forall p: forall q: p == q || x[p] != 3 || x[q] != 3\nsymmetry rotation\n", false, ""},
		{"a process plus a value", ring + "process all { action a: x == 0 -> x := 1 }\npredicate ahead(p): forall q in 1..n-1: x[p] >= x[p + q]\nsymmetry rotation\n", false, ""},
		{"channels and peers", ring + msgs + "process all {\n  action s: x > 0 -> send T(x) to succ, x := 0\n  action r: recv T(v) from pred -> x := v\n  action t: (sum q in peers: x[q]) > 5 -> x := 0\n}\ninvariant i: forall p: len(p, succ(p)) <= 2 && (forall m in chan(p, succ(p)): m.v < 4)\nsymmetry rotation\n", false, ""},
		{"mirrored actions", biring + "process all {\n  action l: x > 0 -> x := x[pred]\n  action r: x > 0 -> x := x[succ]\n}\nlegitimate: (count p: x[p] == 0) == 1\nsymmetry rotation, reflection\n", true, ""},
		{"a process sent as a value", ring + msgs + "process all { action s: x > 0 -> send T(self) to succ }\nsymmetry rotation\n", false, "action s reads the process index as a value (self)"},
		{"a constant process in a timeout guard", ring + "process all { timeout action a: x[pred] == 0 && x[1] == 0 -> x := 1 }\nsymmetry rotation\n", false, "action a reads the process index as a value"},
		{"a channel named by constants", ring + msgs + "process all { action s: x > 0 -> send T(x) to succ }\ninvariant i: len(0, 1) <= 1\nsymmetry rotation\n", false, "invariant i reads the process index as a value (process 0 named by its index)"},
		{"a process in arithmetic", ring + "process all { action a: x == 0 -> x := 1 }\npredicate odd(p): p % 2 == 1\nsymmetry rotation\n", false, "predicate odd reads the process index as a value (p % 2)"},
		{"a process ordered", ring + "process all { action a: x == 0 && (forall q: q <= self || x[q] == 0) -> x := 1 }\nsymmetry rotation\n", false, "reads the process index as a value (q <= self)"},
		{"an unmirrored action", biring + "process all { action l: x > 0 -> x := x[pred] }\nsymmetry rotation, reflection\n", true, "action l has no mirror"},
		{"an unmirrored predicate", biring + "process all {\n  action l: x > 0 -> x := x[pred]\n  action r: x > 0 -> x := x[succ]\n}\ninvariant i: forall p: x[p] <= x[p+1]\nsymmetry rotation, reflection\n", true, "invariant i is not its own mirror"},
		{"an unmirrored offset", biring + "process all {\n  action l: x > 0 -> x := x[pred]\n  action r: x > 0 -> x := x[succ]\n}\ninvariant i: forall p: x[p] <= x[1 + p]\nsymmetry rotation, reflection\n", true, "invariant i is not its own mirror"},
		{"a mirrored offset", biring + "process all {\n  action l: x > 0 -> x := x[pred]\n  action r: x > 0 -> x := x[succ]\n}\ninvariant i: forall p: x[p] <= x[p + 1] || x[p] <= x[p - 1]\nsymmetry rotation, reflection\n", true, ""},
		{"a second declaration", ring + "process all { action a: x == 0 -> x := 1 }\nsymmetry rotation\nsymmetry rotation\n", false, "a second symmetry declaration"},
		{"reflection alone", ring + "process all { action a: x == 0 -> x := 1 }\nsymmetry reflection\n", false, "reflection goes with rotation"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec, err := checkSource(t, tt.src)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if spec.Symmetry == nil || spec.Symmetry.Reflection != tt.reflection {
					t.Fatalf("symmetry %v, want reflection %v", spec.Symmetry, tt.reflection)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "s.ring:") {
				t.Fatalf("error %v, want s.ring:LINE:COL: ...%s", err, tt.want)
			}
		})
	}
}
