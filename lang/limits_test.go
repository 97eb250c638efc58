package lang_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ringcheck/ringcheck/lang"
)

// TestNestingWithinTheLimit builds files whose expressions and effects
// nest close to the parser's limit: the checker and the compiler, which
// descend them recursively, take them, and the deepest beyond it is
// refused with its place rather than crash.
func TestNestingWithinTheLimit(t *testing.T) {
	const head = "spec s\ntopology ring(3)\nvar x: 0..2\n"
	tests := []struct {
		name, src string
		wantErr   string
	}{
		{"parentheses", head + "process all { action a: x == 0 -> x := 1 }\ninvariant i: " + strings.Repeat("(", 990) + "x[0] >= 0" + strings.Repeat(")", 990) + "\n", ""},
		{"chain", head + "process all { action a: x == 0 -> x := 1 }\ninvariant i: x[0]" + strings.Repeat(" + x[1]", 990) + " >= 0\n", ""},
		{"effects", head + "process all { action a: x == 0 -> " + strings.Repeat("if x[pred] == 0 { ", 900) + "x := 1" + strings.Repeat(" }", 900) + " }\n", ""},
		{"parentheses beyond", head + "invariant i: " + strings.Repeat("(", 2_000_000) + "\n", "d.ring:4:1014: expression or effects nested more than 1000 levels deep"},
		{"minus beyond", head + "invariant i: " + strings.Repeat("-", 3_000_000) + "1 == 0\n", "d.ring:4:1013: expression or effects nested more than 1000 levels deep"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := lang.Parse("d.ring", []byte(tc.src))
			if err == nil {
				_, err = f.Build(nil)
			}
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatal(err)
			case tc.wantErr != "" && (err == nil || err.Error() != tc.wantErr):
				t.Fatalf("error %v, want %s", err, tc.wantErr)
			}
		})
	}
}

// TestDefExpansionLimit builds files whose defs and predicates, expanded
// at each use, grow exponentially in the file's length: the check stops
// at once, at the use whose expansion crosses the limit on nodes, rather
// than run out of time or memory; a file well within it builds.
func TestDefExpansionLimit(t *testing.T) {
	const head = "spec s\ntopology ring(3)\nvar x: 0..2\nprocess all { action a: x == 0 -> x := 1 }\n"
	// doubling declares name1..nameN, each using the previous twice.
	doubling := func(n int, first, next string) string {
		var b strings.Builder
		b.WriteString(first + "\n")
		for i := 1; i <= n; i++ {
			b.WriteString(fmt.Sprintf(next, i, i-1, i-1) + "\n")
		}
		return b.String()
	}
	const past = ": expanding %s here takes the expressions past 1048576 nodes (a def or predicate is copied at each use, with its arguments for its parameters)"
	tests := []struct {
		name, src string
		wantErr   string
		// within bounds the time to the error: a file whose declarations
		// are large without a use beyond the limit (the predicates) is
		// refused once the nodes checked reach it.
		within time.Duration
	}{
		{"60 doubling defs", head + doubling(60, "def d0 = x[0]", "def d%d = d%d + d%d") + "invariant i: d60 >= 0\n",
			"d.ring:66:14" + fmt.Sprintf(past, "d60"), time.Second / 2},
		{"20 doubling defs", head + doubling(20, "def d0 = x[0]", "def d%d = d%d + d%d") + "invariant i: x[1] == 0 || d20 >= 0\n",
			"d.ring:26:27" + fmt.Sprintf(past, "d20"), time.Second / 2},
		{"60 doubling defs with arguments", head + doubling(60, "def f0(p) = x[p]", "def f%d(p) = f%d(p) + f%d(p)") + "process all { action b: f60(self) > 0 -> x := 0 }\n",
			"d.ring:66:25" + fmt.Sprintf(past, "f60"), time.Second / 2},
		{"60 doubling predicates", head + doubling(60, "predicate p0(q): x[q] == 0", "predicate p%d(q): p%d(q) && p%d(q)") + "invariant i: forall q: p60(q)\n",
			"d.ring:21:29" + fmt.Sprintf(past, "p15"), 5 * time.Second},
		{"60 nested arguments", head + "def g(a) = a + a\ninvariant i: " + strings.Repeat("g(", 60) + "x[0]" + strings.Repeat(")", 60) + " >= 0\n",
			"d.ring:6:110" + fmt.Sprintf(past, "g"), time.Second / 2},
		{"12 doubling defs", head + doubling(12, "def d0 = x[0]", "def d%d = d%d + d%d") + "invariant i: d12 >= 0\n", "", 5 * time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan error, 1)
			start := time.Now()
			go func() {
				f, err := lang.Parse("d.ring", []byte(tc.src))
				if err == nil {
					_, err = f.Build(nil)
				}
				done <- err
			}()
			var err error
			select {
			case err = <-done:
			case <-time.After(2 * tc.within):
				t.Fatalf("still checking after %v", 2*tc.within)
			}
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatal(err)
			case tc.wantErr != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.wantErr)):
				t.Fatalf("error %v, want %s", err, tc.wantErr)
			case time.Since(start) > tc.within:
				t.Errorf("refused after %v", time.Since(start))
			}
		})
	}
}

// TestNestedChainsCompileOnce: a guard or predicate of nested && and ||
// chains compiles each part once. Here 40 levels alternate && and ||,
// each with one part that is no comparison (a boolean variable) and the
// next level: a chain that compiled its parts and then fell back to
// compiling them again would double the nodes at each level, 2^40, far
// past the compiler's bound, where once each they are a few hundred.
func TestNestedChainsCompileOnce(t *testing.T) {
	const depth = 40
	var src strings.Builder
	fmt.Fprintf(&src, "spec nested\ntopology ring(2)\nvar b[0..%d]: bool\n", depth)
	src.WriteString("process all { action flip: !b[0] -> b[0] := true }\n")
	// nested is the chain over the entries entry(k) names.
	nested := func(entry string) string {
		body := fmt.Sprintf(entry, 0)
		for k := depth - 1; k >= 1; k-- {
			op := "&&"
			if k%2 == 0 {
				op = "||"
			}
			body = fmt.Sprintf(entry+" %s (%s)", k, op, body)
		}
		return body
	}
	fmt.Fprintf(&src, "invariant nested: %s\n", nested("b[0][%d]"))
	fmt.Fprintf(&src, "process all { action nested: %s -> b[%d] := !b[%d] }\n", nested("b[%d]"), depth, depth)
	f, err := lang.Parse("nested.ring", []byte(src.String()))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Build(nil); err != nil {
		t.Fatalf("%d nested chains: %v", depth, err)
	}
}
