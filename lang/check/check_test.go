package check_test

import (
	"testing"

	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/lang/check"
	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
	"github.com/ringcheck/ringcheck/model"
)

const ring = `spec s
param n = 3 in 2..8
topology ring(n)
var x: 0..2 = 0
`

// checkSource parses and checks src for the default parameters.
func checkSource(t *testing.T, src string) (*ir.Spec, error) {
	t.Helper()
	f, err := syntax.Parse("s.ring", []byte(src))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return check.Check(f, nil)
}

// TestCheck checks small files: each is accepted, or refused with exactly
// the errors given (file:line:col: message, one per line, in source
// order).
func TestCheck(t *testing.T) {
	tests := []struct {
		name, src string
		want      string // the errors, or "" for none
	}{
		{"def used without its arguments",
			ring + "def f(p) = x[p] == 0\ninvariant i: f\n",
			"s.ring:6:14: f takes 1 arguments: write f(...)"},
		{"def called with too few arguments is a boolean all the same",
			ring + "def f(p, q) = x[p] == x[q]\ninvariant i: f(0) && true\n",
			"s.ring:6:14: f takes 2 arguments, not 1"},
		{"eight fields",
			ring + "message m(a: 0..1, b: 0..1, c: 0..1, d: 0..1, e: 0..1, f: 0..1, g: 0..1, h: 0..1)\nchannels capacity 1\n",
			""},
		{"twenty-one fields",
			ring + "message m(a: 0..0, b: 0..0, c: 0..0, d: 0..0, e: 0..0, f: 0..0, g: 0..0, h: 0..0, i: 0..0, j: 0..0, k: 0..0, l: 0..0, m: 0..0, n: 0..0, o: 0..0, p: 0..0, q: 0..0, r: 0..0, s: 0..0, t: 0..0, u: 0..0)\nchannels capacity 1\n",
			"s.ring:5:191: message m has 21 fields: a message has at most 20"},
		{"nine fields",
			ring + "message m(a: 0..1, b: 0..1, c: 0..1, d: 0..1, e: 0..1, f: 0..1, g: 0..1, h: 0..1, i: 0..1)\nchannels capacity 1\n",
			""},
		{"choice of 4096",
			ring + "process all { action A(k in 1..4096): x == 0 -> x := 1 }\n",
			""},
		{"choice of 4097",
			ring + "process all { action A(k in 0..4096): x == 0 -> x := 1 }\n",
			"s.ring:5:29: choice k ranges over 0..4096: a choice has at most 4096 alternatives"},
		{"choice of a billion",
			ring + "process all { action A(k in 0..1000000000): x == 0 -> x := 1 }\n",
			"s.ring:5:29: choice k ranges over 0..1000000000: a choice has at most 4096 alternatives"},
		{"largest domain",
			ring + "var y: 1..2147483647\n",
			""},
		{"domain too large",
			ring + "var y: 0..2147483647\n",
			"s.ring:5:8: range 0..2147483647 is too large: a type has at most 2147483647 values"},
		{"message without channels",
			ring + "message tok\n",
			"s.ring:5:1: message tok is declared but there are no channels (channels capacity C)"},
		{"claim's parameter within its range",
			ring + "claim safety holds with n = 8\n",
			""},
		{"claim's parameter outside its range",
			ring + "claim safety holds with n = 99\n",
			"s.ring:5:29: parameter n=99 is outside its range 2..8"},
		{"predicate then def",
			ring + "predicate f(p): true\ndef f(p) = true\n",
			"s.ring:6:5: f is declared twice"},
		{"def then predicate",
			ring + "def f(p) = true\npredicate f(p): true\n",
			"s.ring:6:11: f is declared twice"},
		{"predicate then a block's variable",
			ring + "predicate y(p): true\nprocess all { var y: 0..1\n action A: y == 0 -> y := 1 }\n",
			"s.ring:6:19: y is declared twice"},
		{"predicate then a variable",
			ring + "predicate y(p): true\nvar y: 0..1\n",
			"s.ring:6:5: y is declared twice"},
		{"fairness weak-action",
			ring + "claim starvation holds fairness weak-action\n",
			""},
		{"fairness strong-action",
			ring + "claim leads-to violated fairness strong-action\ncheck safety, leads-to\n",
			""},
		{"fairness misspelt",
			ring + "claim starvation holds fairness weak-actoin\n",
			`s.ring:5:33: fairness is none, weak, strong, weak-action or strong-action, not "weak-actoin"`},
		{"channel from a negative process",
			ring + "message tok\nchannels capacity 1\ninvariant i: len(-1, 0) + len(n-1, 0) + len(-4, -3) <= 1\n",
			""},
		{"channel against the ring",
			ring + "message tok\nchannels capacity 1\ninvariant i: len(0, -1) == 0\n",
			"s.ring:7:14: there is no channel 0→2"},
		{"errors sorted by position",
			"spec s\ntopology ring(3)\nvar x: 0..2\nprocess all { action A: x == 0 -> x := 7 }\nchannels capacity 0\nvar x: bool\n",
			"s.ring:4:40: 7 is outside x's domain 0..2\ns.ring:5:19: channel capacity 0 is outside 1..255\ns.ring:6:5: x is declared twice"},
		{"overflow policy's condition not constant",
			ring + "message tok\nchannels capacity 1 overflow block if x[0] == 0 else error\n",
			"s.ring:6:39: an overflow policy's condition is a boolean constant over the parameters (block if requests > 0 else error)"},
		{"overflow policy misspelt after else",
			ring + "message tok\nchannels capacity 1 overflow block if n > 2 else eror\n",
			`s.ring:6:50: overflow policy "eror" is not one of block, drop, error`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := checkSource(t, tc.src)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// TestClaimFairness checks that a claim keeps its hyphenated fairness,
// and takes exactly the fairness assumptions the engines parse.
func TestClaimFairness(t *testing.T) {
	spec, err := checkSource(t, ring+"claim starvation holds fairness strong-action with n = 4\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(spec.Claims) != 1 || spec.Claims[0].Fairness != "strong-action" || spec.Claims[0].Params["n"] != 4 {
		t.Fatalf("claims %+v", spec.Claims)
	}
	for _, f := range []string{"none", "weak", "strong", "weak-action", "strong-action", "weak-process", "fair", "strongest"} {
		_, checkErr := checkSource(t, ring+"claim starvation holds fairness "+f+"\n")
		_, parseErr := invariants.ParseFairness(f)
		if (checkErr == nil) != (parseErr == nil) {
			t.Errorf("fairness %s: the checker says %v, the engines %v", f, checkErr, parseErr)
		}
	}
}

// TestOverflowIf checks that a channels declaration's policy follows its
// condition on the parameters.
func TestOverflowIf(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want model.Overflow
	}{{2, model.Block}, {3, model.Error}} {
		f, err := syntax.Parse("s.ring", []byte(ring+"message tok\nchannels capacity 1 overflow block if n == 2 else error\n"))
		if err != nil {
			t.Fatal(err)
		}
		spec, err := check.Check(f, map[string]int{"n": tc.n})
		if err != nil {
			t.Fatal(err)
		}
		if spec.Channels.Overflow != tc.want {
			t.Errorf("n=%d: overflow %v, want %v", tc.n, spec.Channels.Overflow, tc.want)
		}
	}
}

// TestInitPosition checks that an init keeps its position, for the
// problems found when it runs.
func TestInitPosition(t *testing.T) {
	spec, err := checkSource(t, ring+"process all {\n  init: x := self\n}\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(spec.Inits) != 1 || spec.Inits[0].Pos != (syntax.Pos{Line: 6, Col: 3}) || spec.File != "s.ring" {
		t.Fatalf("inits %+v in %q", spec.Inits, spec.File)
	}
}
