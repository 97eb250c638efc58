package compile

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/lang/check"
	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
	"github.com/ringcheck/ringcheck/model"
)

// TestPredicatesAgreeWithTheReferenceEvaluator compiles every predicate of
// the .ring files of specs/ring and examples on small instances, and
// checks that the closures and ir.Eval, the tree-walking reference
// semantics, agree on every configuration reachable by a few thousand
// steps from the initial one and on random configurations.
func TestPredicatesAgreeWithTheReferenceEvaluator(t *testing.T) {
	forEachRingFile(t, func(t *testing.T, spec *ir.Spec) {
		c := newCompiler(spec)
		sys, err := c.build()
		if err != nil {
			t.Fatal(err)
		}
		type pred struct {
			name     string
			body     ir.Expr
			self     int
			bindings bindings
		}
		var preds []pred
		for _, p := range spec.Invariants {
			preds = append(preds, pred{p.Name, p.Body, -1, nil})
		}
		if spec.Legitimate != nil {
			preds = append(preds, pred{"legitimate", spec.Legitimate.Body, -1, nil})
		}
		for _, pp := range spec.ProcessPredicates {
			for q := range spec.N {
				preds = append(preds, pred{pp.Name, pp.Body, q, bindings{pp.Param: q}})
			}
		}
		compiled := make([]stateFn, len(preds))
		for i, p := range preds {
			compiled[i] = c.state(p.body, p.bindings, -1)
		}
		visit := func(s *model.State) {
			for i, p := range preds {
				env := &bindEnv{stateEnv: stateEnv{c: c, s: s, self: p.self}, b: p.bindings}
				want, err := ir.Eval(p.body, env)
				if err != nil {
					t.Fatalf("%s: %v", p.name, err)
				}
				got, err := c.evaluate(compiled[i], s)
				if err != nil {
					t.Fatalf("%s (process %d): %v compiled, %d by the reference evaluator", p.name, p.self, err, want)
				}
				if got != want {
					t.Fatalf("%s (process %d) = %d compiled, %d by the reference evaluator, in\n%v", p.name, p.self, got, want, sys.Decode(s))
				}
			}
		}
		walked, sampled := walkAndSample(t, sys, 1, 3000, visit)
		// The walk stops early only at a configuration without a
		// successor, but it must take a step; the sample always draws
		// its 3000.
		if walked < 2 || sampled != 3000 {
			t.Fatalf("%d configurations of the walk (no step taken?) and %d random ones checked", walked, sampled)
		}
	})
}

// bindEnv adds the bindings of a process predicate's parameter to
// stateEnv.
type bindEnv struct {
	stateEnv
	b bindings
}

func (e *bindEnv) Local(l *ir.Local) int { return e.b[l] }

// TestMemoChangesNoStep compiles every .ring file of specs/ring and
// examples twice, with and without the step memo (memo.go), and checks
// that both give every configuration the same steps to the same
// successors, on a random walk from the initial configuration and on
// random configurations.
func TestMemoChangesNoStep(t *testing.T) {
	forEachRingFile(t, func(t *testing.T, spec *ir.Spec) {
		memo, err := newCompiler(spec).build()
		if err != nil {
			t.Fatal(err)
		}
		plain := newCompiler(spec)
		plain.noMemo = true
		ref, err := plain.build()
		if err != nil {
			t.Fatal(err)
		}
		if plain.plan != nil || ref.MemoSlots != 0 {
			t.Fatal("the compiler without memo kept one")
		}
		exMemo, exRef := memo.NewExpander(), ref.NewExpander()
		walkAndSample(t, memo, 2, 2000, func(s *model.State) {
			if !slices.Equal(stepKeys(memo, exMemo, s), stepKeys(ref, exRef, s)) {
				got, want := stepsOf(memo, exMemo, s), stepsOf(ref, exRef, s)
				t.Fatalf("in %v\nwith the memo:\n%s\nwithout:\n%s", memo.Decode(s), strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	})
}

// stepsOf lists s's steps in sys, each as its label and successor, and
// the fault that stops its expansion last (a random configuration may be
// one no execution reaches, where a file's action faults: two
// compilations of one spec must fault alike).
func stepsOf(sys *model.System, ex *model.Expander, s *model.State) []string {
	var out []string
	if _, err := ex.Expand(s, func(step *model.Step, next *model.State) bool {
		out = append(out, sys.Label(step)+" → "+fmt.Sprint(sys.Decode(next)))
		return true
	}); err != nil {
		out = append(out, "fault: "+err.Error())
	}
	return out
}

// stepKeys lists s's steps in sys as stepsOf does, each successor packed
// rather than decoded: as exact to compare and cheaper, stepsOf then
// saying what differs.
func stepKeys(sys *model.System, ex *model.Expander, s *model.State) []string {
	var out []string
	words := make([]uint64, sys.Words())
	if _, err := ex.Expand(s, func(step *model.Step, next *model.State) bool {
		sys.Pack(next, words)
		key := append([]byte(sys.Label(step)), 0)
		for _, w := range words {
			key = strconv.AppendUint(append(key, ' '), w, 16)
		}
		out = append(out, string(key))
		return true
	}); err != nil {
		out = append(out, "fault: "+err.Error())
	}
	return out
}

// TestOutcomeMasks checks the branch-free comparisons against Go's.
func TestOutcomeMasks(t *testing.T) {
	ops := map[syntax.Token]func(a, b int) bool{
		syntax.Eq: func(a, b int) bool { return a == b }, syntax.Neq: func(a, b int) bool { return a != b },
		syntax.Lt: func(a, b int) bool { return a < b }, syntax.Le: func(a, b int) bool { return a <= b },
		syntax.Gt: func(a, b int) bool { return a > b }, syntax.Ge: func(a, b int) bool { return a >= b },
	}
	for op, want := range ops {
		m, ok := outcomesOf(op)
		if !ok {
			t.Fatalf("%v is not a comparison", op)
		}
		for a := -2; a <= 2; a++ {
			for b := -2; b <= 2; b++ {
				if got := m.of(a, b); got != b2i(want(a, b)) {
					t.Errorf("%d %v %d = %d", a, op, b, got)
				}
			}
		}
	}
	if _, ok := outcomesOf(syntax.Plus); ok {
		t.Error("+ taken for a comparison")
	}
}

// forEachRingFile runs f, as a subtest, on the checked default instance
// of every .ring file of specs/ring and examples.
func forEachRingFile(t *testing.T, f func(t *testing.T, spec *ir.Spec)) {
	files, _ := filepath.Glob("../../specs/ring/*.ring")
	more, _ := filepath.Glob("../../examples/*.ring")
	for _, path := range append(files, more...) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			ast, err := syntax.Parse(path, src)
			if err != nil {
				t.Fatal(err)
			}
			spec, err := check.Check(ast, nil)
			if err != nil {
				t.Fatal(err)
			}
			f(t, spec)
		})
	}
}

// walkAndSample calls visit on the configurations of a walk of up to n
// steps from sys's initial configuration, each step to a successor chosen
// by a fixed rule, and then on n uniformly random configurations (channel
// contents included), drawn with seed. It returns how many configurations
// of the walk it visited (fewer than n when the walk reaches one without
// a successor) and how many random ones.
func walkAndSample(t *testing.T, sys *model.System, seed uint64, n int, visit func(*model.State)) (walked, sampled int) {
	t.Helper()
	ex := sys.NewExpander()
	s := sys.Initial()[0].Clone()
	for i := range n {
		visit(s)
		walked++
		var succ []*model.State
		if _, err := ex.Expand(s, func(_ *model.Step, next *model.State) bool {
			succ = append(succ, next.Clone())
			return true
		}); err != nil {
			t.Fatal(err)
		}
		if len(succ) == 0 {
			break
		}
		s = succ[(i*7919)%len(succ)]
	}
	rng := rand.New(rand.NewPCG(seed, uint64(len(sys.Name))))
	r := sys.NewState()
	for range n {
		sys.RandomConfiguration(rng, r)
		visit(r)
		sampled++
	}
	return walked, sampled
}

// fusedSrc has guards of every comparison between the acting process's
// variable and a constant, another variable or a neighbour's, and between
// a received field and a variable or a constant, on either side.
const fusedSrc = `spec fused "the guards compiled into one closure"
param n = 3 in 2..4 "processes"
topology biring(n)
var x: 0..2 = 0
var y: 0..2 = 1
message T(v: 0..2)
channels capacity 1 overflow drop carry T
process 0..n-1 {
  action a1: x < x[pred] -> x := x[pred], send T(x) to succ
  action a2: x <= y -> y := x[succ]
  action a3: x > x[succ] -> x := y
  action a4: x >= 2 -> x := 0
  action a5: x == x[succ] -> y := (y + 1) mod 3
  action a6: y != 1 -> y := 1
  action a7: x == y -> x := (x + 2) mod 3
  action a8: x != x[pred] -> x := 1
  action a9: y == 0 -> y := x[pred]
  action a10: x != y -> y := x
  action a11: x < y -> y := 0
  action r1: recv T(v) from pred, v == x -> x := v
  action r2: recv T(v) from pred, v != y -> y := v
  action r3: recv T(v) from pred, v < x -> skip
  action r4: recv T(v) from pred, 1 >= v -> x := v, send T(v) to succ
  action r5: recv T(v) from pred, y > v -> y := v
  action r6: recv T(v) from pred, v <= 1 -> skip
}
invariant any "anything": true
`

// TestFusedGuardsChangeNoStep compiles a spec whose guards and
// assignments take the single-closure forms of actions.go twice, with
// and without them, and checks that both give every configuration the
// same steps to the same successors.
func TestFusedGuardsChangeNoStep(t *testing.T) {
	ast, err := syntax.Parse("fused.ring", []byte(fusedSrc))
	if err != nil {
		t.Fatal(err)
	}
	spec, err := check.Check(ast, nil)
	if err != nil {
		t.Fatal(err)
	}
	fused, err := newCompiler(spec).build()
	if err != nil {
		t.Fatal(err)
	}
	general := newCompiler(spec)
	general.noFused = true
	ref, err := general.build()
	if err != nil {
		t.Fatal(err)
	}
	steps := func(sys *model.System, ex *model.Expander, s *model.State) []string {
		var out []string
		if _, err := ex.Expand(s, func(step *model.Step, next *model.State) bool {
			out = append(out, sys.Label(step)+" → "+fmt.Sprint(sys.Decode(next)))
			return true
		}); err != nil {
			t.Fatal(err)
		}
		return out
	}
	exFused, exRef := fused.NewExpander(), ref.NewExpander()
	taken := map[string]bool{}
	walkAndSample(t, fused, 3, 3000, func(s *model.State) {
		got, want := steps(fused, exFused, s), steps(ref, exRef, s)
		if !slices.Equal(got, want) {
			t.Fatalf("in %v\nfused:\n%s\ngeneral:\n%s", fused.Decode(s), strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		for _, st := range got {
			taken[strings.Fields(st)[0]] = true
		}
	})
	if len(taken) < 10 {
		t.Errorf("only %d distinct steps taken: %v", len(taken), taken)
	}
}
