package compile

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/lang/check"
	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
	"github.com/ringcheck/ringcheck/model"
)

// loopsSrc has for loops large enough to compile as loops (nested, over
// a range and over peers, inside and outside a sequential block), whose
// bodies index arrays by the loop's local, send to it, read it in
// quantifiers, and fault (in configurations where z, which no action
// sets, is 1): an entry the process lacks, an index past the array, a
// division by zero, a value outside a variable's domain.
const loopsSrc = `spec loops "large loops"
param n = 3 in 2..4 "processes"
topology complete(n)
var a[0..11]: 0..3
var b[0..11]: 0..3
var k: 0..15
var e[0..1]: 0..3
var z: 0..1
message T(v: 0..3)
channels capacity 2 overflow drop carry T
process 0 { var only[0..11]: 0..1 }
process all {
  action fill: k < 15 -> do {
    let t := 0;
    for i in 0..11 {
      for j in 0..11 {
        if i + j == k { a[i] := (a[j] + b[i] + 1) mod 4; t := t + a[i] }
        else if j == k { b[j] := (b[i] + (count q in 0..11: a[q] == j mod 4)) mod 4 }
      }
    };
    for q in peers {
      for i in 0..11 { if a[i] == q + 1 && i == k { send T(a[i]) to q } }
    };
    k := k + 1;
    if t > 40 { k := 0 }
  }
  action faults: z == 1 && k == 13 -> do {
    for i in 0..11 {
      for j in 0..11 {
        if i == 11 && j == 11 && a[0] == 1 { only[i] := 1 };
        if i == 10 && j == 11 && a[0] == 2 { a[j] := 10 / (a[i] - a[i]) };
        if i == 9 && j == 11 && a[0] == 3 { b[i] := 4 + j };
        if i == 8 && j == 11 && a[1] == 1 { a[i] := e[i - 5] }
      }
    };
    k := 14
  }
  action take(q in peers): recv T(v) from q -> do { for i in 0..11 { for j in 0..11 { if i == v && j == v + q { b[i] := (b[j] + 1) mod 4 } } } }
}
invariant any "anything": true
`

// checkSpec parses and checks src with values.
func checkSpec(t *testing.T, name string, src []byte, values map[string]int) *ir.Spec {
	t.Helper()
	ast, err := syntax.Parse(name, src)
	if err != nil {
		t.Fatal(err)
	}
	spec, err := check.Check(ast, values)
	if err != nil {
		t.Fatal(err)
	}
	return spec
}

// TestRolledLoopsChangeNoStep compiles loopsSrc, lejeune.ring (whose
// loops are compiled as loops) and every other .ring file of specs/ring
// and examples twice, with every loop unrolled and with the large ones
// compiled as loops, and checks that both give every configuration the
// same steps to the same successors, and the same faults at the same
// places, on a random walk from the initial configuration and on random
// configurations.
func TestRolledLoopsChangeNoStep(t *testing.T) {
	// shrink, when not 0, is the factor by which compiling the large
	// loops as loops must shrink the closures.
	compare := func(t *testing.T, spec *ir.Spec, shrink int, n int) {
		c := newCompiler(spec)
		rolled, err := c.build()
		if err != nil {
			t.Fatal(err)
		}
		unrolled := newCompiler(spec)
		unrolled.noRoll = true
		ref, err := unrolled.build()
		if err != nil {
			t.Fatal(err)
		}
		if shrink > 0 && c.nodes*shrink > unrolled.nodes {
			t.Fatalf("%d closures with loops, %d unrolled: no loop compiled as a loop", c.nodes, unrolled.nodes)
		}
		if c.nodes == unrolled.nodes {
			// No loop is compiled as a loop (one that is takes fewer
			// closures than unrolled): the two compilations are the same.
			return
		}
		exRolled, exRef := rolled.NewExpander(), ref.NewExpander()
		faults := map[string]bool{}
		walkAndSample(t, rolled, 5, n, func(s *model.State) {
			got, want := stepKeys(rolled, exRolled, s), stepKeys(ref, exRef, s)
			if !slices.Equal(got, want) {
				got, want = stepsOf(rolled, exRolled, s), stepsOf(ref, exRef, s)
				t.Fatalf("in %v\nwith loops:\n%s\nunrolled:\n%s", rolled.Decode(s), strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			if len(got) > 0 && strings.HasPrefix(got[len(got)-1], "fault: ") {
				faults[got[len(got)-1]] = true
			}
		})
		if spec.Name == "loops" && len(faults) < 4 {
			t.Errorf("%d faults met, want the 4 of action faults: %v", len(faults), faults)
		}
	}
	t.Run("loops", func(t *testing.T) {
		compare(t, checkSpec(t, "loops.ring", []byte(loopsSrc), nil), 4, 3000)
	})
	t.Run("lejeune", func(t *testing.T) {
		src, err := os.ReadFile("../../specs/ring/lejeune.ring")
		if err != nil {
			t.Fatal(err)
		}
		compare(t, checkSpec(t, "lejeune.ring", src, map[string]int{"N": 3, "M": 2, "loan": 1}), 2, 200)
	})
	forEachRingFile(t, func(t *testing.T, spec *ir.Spec) { compare(t, spec, 0, 300) })
}

// TestLargeLoopsCompileSmall pins the size of what large loops compile
// to: lejeune.ring's N=3 M=2 instance, whose loops unrolled take about
// 41,000 closures, takes at most 100,000 with them compiled as loops
// (about 18,000), and a loop of a million iterations, which unrolled
// would pass the compiler's bound (maxNodes), a few thousand.
func TestLargeLoopsCompileSmall(t *testing.T) {
	src, err := os.ReadFile("../../specs/ring/lejeune.ring")
	if err != nil {
		t.Fatal(err)
	}
	c := newCompiler(checkSpec(t, "lejeune.ring", src, map[string]int{"N": 3, "M": 2, "loan": 1}))
	if _, err := c.build(); err != nil {
		t.Fatal(err)
	}
	if c.nodes > 100_000 {
		t.Errorf("lejeune N=3 M=2 compiles to %d closures, want at most 100000", c.nodes)
	}
	const big = `spec big
topology ring(2)
var a[0..62]: 0..1
var x: 0..1
process all {
  action go: x == 0 -> do { x := 1; for i in 0..999 { for j in 0..999 { if i == j && i mod 16 == 0 { a[i / 16] := 1 } } } }
}
`
	c = newCompiler(checkSpec(t, "big.ring", []byte(big), nil))
	sys, err := c.build()
	if err != nil {
		t.Fatal(err)
	}
	if c.nodes > 10_000 {
		t.Errorf("a loop of 10^6 iterations compiles to %d closures, want at most 10000", c.nodes)
	}
	var next *model.State
	if _, err := sys.NewExpander().Expand(sys.Initial()[0], func(_ *model.Step, s *model.State) bool {
		next = s.Clone()
		return false
	}); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(sys.Decode(next)); !strings.Contains(got, "{a[62] 1 ") {
		t.Errorf("the loop did not run to its end: %s", got)
	}
}
