package lang_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"pgregory.net/rapid"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/lang"
	"github.com/ringcheck/ringcheck/model"
)

// symmetricInstances are small instances of every shipped file that
// declares symmetry, with the states a search from init stores without
// and with symmetry reduction (the quotient's, pinned).
var symmetricInstances = []struct {
	file          string
	values        map[string]int
	daemon        model.Daemon
	full, reduced int64
}{
	{"../examples/herman.ring", map[string]int{"n": 3}, model.Central, 8, 4},
	{"../examples/herman.ring", map[string]int{"n": 5}, model.Synchronous, 32, 8},
	{"../examples/israeli-jalfon.ring", map[string]int{"N": 4}, model.Central, 4, 1},
	{"../examples/israeli-jalfon.ring", map[string]int{"N": 6}, model.Central, 6, 1},
	{"../specs/ring/kl-naive.ring", map[string]int{"n": 3, "L": 3, "K": 2}, model.Central, 827, 279},
	{"../specs/ring/kl-naive.ring", map[string]int{"n": 4, "L": 3, "K": 2}, model.Central, 5388, 1347},
	{"../specs/ring/kl-pusher.ring", map[string]int{"n": 3, "L": 3, "K": 2}, model.Central, 4128, 1376},
}

// stateSet collects the packed states a search visits, and whether
// each invariant fails somewhere and some state has no step.
type stateSet struct {
	mu       sync.Mutex
	sys      *model.System
	states   map[string]*model.State
	violated []bool
	deadlock bool
}

func newStateSet(sys *model.System) *stateSet {
	return &stateSet{sys: sys, states: map[string]*model.State{}, violated: make([]bool, len(sys.Invariants))}
}

func (s *stateSet) Observe(v *explore.Visit) {
	w := make([]uint64, s.sys.Words())
	s.sys.Pack(v.State, w)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.states[fmt.Sprint(w)] = v.State.Clone()
	for i, in := range s.sys.Invariants {
		if !in.Holds(v.State) {
			s.violated[i] = true
		}
	}
	if v.Successors == 0 && (s.sys.ValidEnd == nil || !s.sys.ValidEnd.Holds(v.State)) {
		s.deadlock = true
	}
}

func (s *stateSet) Decided() bool { return false }

func buildSymmetric(t *testing.T, file string, values map[string]int, d model.Daemon) *model.System {
	t.Helper()
	f, err := lang.Read(file)
	if err != nil {
		t.Fatal(err)
	}
	sys, err := f.Build(values)
	if err != nil {
		t.Fatal(err)
	}
	if sys.Symmetry == nil {
		t.Fatalf("%s declares no symmetry", file)
	}
	if sys, err = sys.WithDaemon(d); err != nil {
		t.Fatal(err)
	}
	return sys
}

// TestSymmetryQuotientCounts: for every symmetric instance, the search
// with symmetry reduction stores the pinned number of orbits and finds
// the same invariant and deadlock verdicts as the search without.
func TestSymmetryQuotientCounts(t *testing.T) {
	for _, c := range symmetricInstances {
		t.Run(fmt.Sprintf("%s %v %s", filepath.Base(c.file), c.values, c.daemon), func(t *testing.T) {
			sys := buildSymmetric(t, c.file, c.values, c.daemon)
			full, red := newStateSet(sys), newStateSet(sys)
			rf, err := explore.BFS(context.Background(), sys, full, explore.Options{})
			if err != nil {
				t.Fatal(err)
			}
			rr, err := explore.BFS(context.Background(), sys, red, explore.Options{Symmetry: true})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d states, %d orbits", rf.States, rr.States)
			if rf.States != c.full || rr.States != c.reduced {
				t.Errorf("%d states and %d orbits, want %d and %d", rf.States, rr.States, c.full, c.reduced)
			}
			if !slices.Equal(full.violated, red.violated) || full.deadlock != red.deadlock {
				t.Errorf("verdicts differ: invariants violated %v, deadlock %v without; %v, %v with", full.violated, full.deadlock, red.violated, red.deadlock)
			}
		})
	}
}

// TestSymmetricSpecsCommuteWithTheGroup is the semantic check of every
// shipped file that declares symmetry: on every state reachable from
// init, and on random configurations, each element g of the group maps
// the successors of s to those of g(s), and every predicate holds in s
// where it holds in g(s) (a process predicate of p where it holds of
// g(p)).
func TestSymmetricSpecsCommuteWithTheGroup(t *testing.T) {
	files, err := filepath.Glob("../examples/*.ring")
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob("../specs/ring/*.ring")
	files = append(files, more...)
	declared := map[string]bool{}
	for _, file := range files {
		f, err := lang.Read(file)
		if err != nil {
			t.Fatal(err)
		}
		inst, err := f.Instance(nil)
		if err != nil {
			t.Fatal(err)
		}
		if inst.Symmetry != nil {
			declared[file] = true
		}
	}
	covered := map[string]bool{}
	for _, c := range symmetricInstances {
		covered[c.file] = true
	}
	for file := range declared {
		if !covered[file] {
			t.Errorf("%s declares symmetry and has no instance in symmetricInstances", file)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range symmetricInstances {
		if !declared[c.file] {
			t.Errorf("%s is in symmetricInstances and declares no symmetry", c.file)
			continue
		}
		sys := buildSymmetric(t, c.file, c.values, c.daemon)
		reach := newStateSet(sys)
		if _, err := explore.BFS(context.Background(), sys, reach, explore.Options{}); err != nil {
			t.Fatal(err)
		}
		states := make([]*model.State, 0, len(reach.states)+200)
		for _, st := range reach.states {
			states = append(states, st)
		}
		for range 200 {
			st := sys.NewState()
			sys.RandomConfiguration(rng, st)
			states = append(states, st)
		}
		if err := commutes(sys, states); err != nil {
			t.Errorf("%s %v: %v", c.file, c.values, err)
		}
	}
}

// commutes checks every state of states against every element of the
// group.
func commutes(sys *model.System, states []*model.State) error {
	ex := sys.NewExpander()
	img, imgNext := sys.NewState(), sys.NewState()
	w := make([]uint64, sys.Words())
	successors := func(st *model.State, g int) (map[string]int, error) {
		out := map[string]int{}
		_, err := ex.Expand(st, func(step *model.Step, next *model.State) bool {
			sys.Permute(g, next, imgNext)
			sys.Pack(imgNext, w)
			out[fmt.Sprint(w, step.Faulty())]++
			return true
		})
		return out, err
	}
	preds := []*model.Predicate{sys.Legitimate, sys.ValidEnd, sys.Start, sys.ClosureFrom}
	for i := range sys.Invariants {
		preds = append(preds, &sys.Invariants[i])
	}
	for _, st := range states {
		for g := 1; g < sys.GroupSize(); g++ {
			sys.Permute(g, st, img)
			for _, p := range preds {
				if p != nil && p.Holds(st) != p.Holds(img) {
					return fmt.Errorf("%s differs between %v and its image under %d", p.Name, sys.Decode(st), g)
				}
			}
			for _, pp := range sys.ProcessPredicates {
				for p := range sys.N() {
					if pp.Holds(st, p) != pp.Holds(img, sys.ProcessImage(g, p)) {
						return fmt.Errorf("%s(%d) differs between %v and its image under %d", pp.Name, p, sys.Decode(st), g)
					}
				}
			}
			// The successors of st mapped by g are those of g(st), and
			// one fails to expand where the other does.
			mapped, err := successors(st, g)
			got, err2 := successors(img, 0)
			if (err == nil) != (err2 == nil) {
				return fmt.Errorf("expanding %v and its image under %d: %v; %v", sys.Decode(st), g, err, err2)
			}
			if err == nil && !mapsEqual(mapped, got) {
				return fmt.Errorf("the successors of the image under %d of %v are not the images of its successors", g, sys.Decode(st))
			}
		}
	}
	return nil
}

func mapsEqual(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestCommutesFindsAnAsymmetricSystem: the semantic check refuses a
// system that declares symmetry and whose process 0 alone acts, and one
// whose invariant reads process 0.
func TestCommutesFindsAnAsymmetricSystem(t *testing.T) {
	build := func(rootOnly, rootInvariant bool) *model.System {
		b := model.NewBuilder("asym", model.UniRing, 3)
		x := b.Var("x", model.IntRange(0, 2))
		b.Action(model.Action{Name: "inc", Choices: 1,
			Guard:  func(c *model.Ctx) bool { return (!rootOnly || c.P == 0) && c.Get(x) < 2 },
			Effect: func(c *model.Ctx, _ int) { c.Set(x, c.Get(x)+1) }})
		if rootInvariant {
			b.Invariant(model.Predicate{Name: "root", Holds: func(s *model.State) bool { return s.Get(0, x) < 2 }})
		}
		b.Initial(func(*model.System, *model.State) {})
		b.Symmetry(false)
		sys, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		return sys
	}
	for _, c := range []struct{ rootOnly, rootInvariant, want bool }{{false, false, false}, {true, false, true}, {false, true, true}} {
		sys := build(c.rootOnly, c.rootInvariant)
		reach := newStateSet(sys)
		if _, err := explore.BFS(context.Background(), sys, reach, explore.Options{}); err != nil {
			t.Fatal(err)
		}
		var states []*model.State
		for _, st := range reach.states {
			states = append(states, st)
		}
		if err := commutes(sys, states); (err != nil) != c.want {
			t.Errorf("root only %v, root invariant %v: %v", c.rootOnly, c.rootInvariant, err)
		}
	}
}

// TestInlineSymmetricSpecsCommute runs the semantic check on specs
// whose symmetry the checker proves with reflection and with channels,
// which no shipped file declares.
func TestInlineSymmetricSpecsCommute(t *testing.T) {
	for name, src := range map[string]string{
		"walking tokens on a bidirectional ring": `spec ij
param N = 5 in 2..8
topology biring(N)
var q: bool
process all {
  atomic action left:  q -> q := false, q[pred] := true
  atomic action right: q -> q := false, q[succ] := true
}
process 0 { init: q := true }
process 2 { init: q := true }
legitimate: (count p: q[p]) == 1
invariant some: (count p: q[p]) >= 1
symmetry rotation, reflection
`,
		"messages both ways": `spec msgs
param n = 3 in 3..6
topology biring(n)
var x: 0..2
message T(v: 1..2)
channels capacity 1
process all {
  action sl: x > 0 -> send T(x) to pred, x := x - 1
  action sr: x > 0 -> send T(x) to succ, x := x - 1
  action rl: recv T(v) from pred -> x := (x + v) mod 3
  action rr: recv T(v) from succ -> x := (x + v) mod 3
}
process 1 { init: x := 2 }
process 2 { init: x := 1 }
invariant bounded: (sum p: x[p]) + (sum p: len(pred(p), p) + len(succ(p), p)) <= 3 * n
predicate busy(p): x[p] > 0 || len(pred(p), p) + len(succ(p), p) > 0
symmetry rotation, reflection
`,
	} {
		f, err := lang.Parse(name+".ring", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		sys, err := f.Build(nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if sys.Symmetry == nil || !sys.Symmetry.Reflection {
			t.Fatalf("%s: symmetry %v", name, sys.Symmetry)
		}
		reach := newStateSet(sys)
		if _, err := explore.BFS(context.Background(), sys, reach, explore.Options{}); err != nil {
			t.Fatal(err)
		}
		var states []*model.State
		for _, st := range reach.states {
			states = append(states, st)
		}
		if err := commutes(sys, states); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		red := newStateSet(sys)
		res, err := explore.BFS(context.Background(), sys, red, explore.Options{Symmetry: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d states, %d orbits under rotation and reflection", name, len(reach.states), res.States)
		if !slices.Equal(reach.violated, red.violated) || reach.deadlock != red.deadlock {
			t.Errorf("%s: verdicts differ", name)
		}
	}
}

// TestSymmetryCheckIsSound draws small random specs that declare
// symmetry, from relative constructs and from constructs that break it
// (self == 0, x[0], p < q, x := self, one process's action), and holds
// the checker to soundness: whenever it accepts the declaration, the
// semantic check passes on every reachable state and on random
// configurations, and the reduced search finds the unreduced verdicts.
func TestSymmetryCheckIsSound(t *testing.T) {
	accepted := 0
	rapid.Check(t, func(t *rapid.T) {
		bi := rapid.Bool().Draw(t, "biring")
		refl := bi && rapid.Bool().Draw(t, "reflection")
		g := &specGen{t: t, bi: bi, bad: rapid.Bool().Draw(t, "bad")}
		var b strings.Builder
		topo := "ring"
		if bi {
			topo = "biring"
		}
		fmt.Fprintf(&b, "spec r\nparam n = 3 in 3..4\ntopology %s(n)\nvar x: 0..2\n", topo)
		block := "all"
		if g.bad && rapid.IntRange(0, 9).Draw(t, "block") == 0 {
			block = "0"
		}
		fmt.Fprintf(&b, "process %s {\n", block)
		for i := range rapid.IntRange(1, 2).Draw(t, "actions") {
			guard, value := g.boolExpr("", 2), g.intExpr("", 2)
			// A quantifier reads every process, which only a timeout's
			// guard may.
			kind := ""
			if strings.Contains(guard+value, ":") {
				kind = "timeout "
			}
			fmt.Fprintf(&b, "  %saction a%d: %s -> x := (%s) mod 3\n", kind, i, guard, value)
			if refl {
				fmt.Fprintf(&b, "  %saction m%d: %s -> x := (%s) mod 3\n", kind, i, mirror(guard), mirror(value))
			}
		}
		b.WriteString("}\nprocess 1 { init: x := 1 }\n")
		fmt.Fprintf(&b, "invariant i: forall p: %s\n", g.boolExpr("p", 2))
		if rapid.Bool().Draw(t, "legitimate") {
			fmt.Fprintf(&b, "legitimate: exists p: %s\n", g.boolExpr("p", 2))
		}
		b.WriteString("symmetry rotation")
		if refl {
			b.WriteString(", reflection")
		}
		b.WriteString("\n")
		src := b.String()
		f, err := lang.Parse("r.ring", []byte(src))
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		sys, err := f.Build(nil)
		if err != nil {
			// Refused: for its symmetry, or for a read the topology does
			// not allow, which the generator does not avoid.
			return
		}
		reach := newStateSet(sys)
		if _, err := explore.BFS(context.Background(), sys, reach, explore.Options{}); err != nil {
			// A read the topology does not allow, found as the step
			// runs.
			return
		}
		accepted++
		states := make([]*model.State, 0, len(reach.states)+20)
		for _, st := range reach.states {
			states = append(states, st)
		}
		rng := rand.New(rand.NewPCG(uint64(len(src)), 7))
		for range 20 {
			st := sys.NewState()
			sys.RandomConfiguration(rng, st)
			states = append(states, st)
		}
		if err := commutes(sys, states); err != nil {
			t.Fatalf("the checker accepted an asymmetric spec: %v\n%s", err, src)
		}
		red := newStateSet(sys)
		if _, err := explore.BFS(context.Background(), sys, red, explore.Options{Symmetry: true}); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(reach.violated, red.violated) || reach.deadlock != red.deadlock {
			t.Fatalf("verdicts differ with symmetry reduction\n%s", src)
		}
	})
	if accepted == 0 {
		t.Error("the checker accepted none of the specs drawn")
	}
	t.Logf("%d specs accepted", accepted)
}

// specGen draws expressions of the ring language over x, some relative
// (symmetric), some reading a process index as a value.
type specGen struct {
	t  *rapid.T
	bi bool
	// bad lets it draw constructs that break symmetry.
	bad bool
}

// procTerm draws a process: in an action (v empty) or in the body of a
// quantifier over v.
func (g *specGen) procTerm(v string) string {
	if v == "" {
		opts := []string{"self", "pred"}
		if g.bi {
			opts = append(opts, "succ")
		}
		return rapid.SampledFrom(opts).Draw(g.t, "proc")
	}
	opts := []string{"V", "V - 1", "V + 1", "pred(V)", "succ(V)", "V + x[V]"}
	if g.bad {
		opts = append(opts, "0", "1")
	}
	return rapid.SampledFrom(opts).Draw(g.t, "proc")
}

// intExpr draws an integer expression, in an action (v empty) or in the
// body of a quantifier over v.
func (g *specGen) intExpr(v string, depth int) string {
	n := 5
	if depth <= 0 {
		n = 2
	}
	switch rapid.IntRange(0, n).Draw(g.t, "int") {
	case 0:
		return fmt.Sprint(rapid.IntRange(0, 2).Draw(g.t, "const"))
	case 1:
		return "x[" + strings.ReplaceAll(g.procTerm(v), "V", v) + "]"
	case 2:
		if !g.bad {
			if v == "" {
				return "x"
			}
			return "x[" + v + "]"
		}
		if v == "" {
			return "self"
		}
		return v
	case 3:
		op := rapid.SampledFrom([]string{"+", "-", "*"}).Draw(g.t, "op")
		return "(" + g.intExpr(v, depth-1) + " " + op + " " + g.intExpr(v, depth-1) + ")"
	case 4:
		opts := []string{"q - 1", "q + 1", "q"}
		if g.bad {
			opts = append(opts, "0")
		}
		return "(count q: x[q] == x[" + rapid.SampledFrom(opts).Draw(g.t, "count") + "])"
	default:
		return "(sum q: x[q])"
	}
}

// boolExpr draws a boolean expression, as intExpr an integer one.
func (g *specGen) boolExpr(v string, depth int) string {
	n := 4
	if depth <= 0 {
		n = 1
	}
	switch rapid.IntRange(0, n).Draw(g.t, "bool") {
	case 0, 1:
		op := rapid.SampledFrom([]string{"==", "!=", "<", "<="}).Draw(g.t, "cmp")
		return g.intExpr(v, depth-1) + " " + op + " " + g.intExpr(v, depth-1)
	case 2:
		op := rapid.SampledFrom([]string{"&&", "||"}).Draw(g.t, "bop")
		return "(" + g.boolExpr(v, depth-1) + " " + op + " " + g.boolExpr(v, depth-1) + ")"
	case 3:
		return "!(" + g.boolExpr(v, depth-1) + ")"
	default:
		if v == "" {
			return "(forall p: " + g.boolExpr("p", depth-1) + ")"
		}
		w := v + "q"
		return "(exists " + w + ": " + g.boolExpr(w, depth-1) + " && " + w + " != " + v + ")"
	}
}

// mirror exchanges pred and succ, and p + 1 and p - 1, in an expression
// drawn by specGen.
func mirror(s string) string {
	return strings.NewReplacer("pred", "succ", "succ", "pred", "p - 1", "p + 1", "p + 1", "p - 1").Replace(s)
}
