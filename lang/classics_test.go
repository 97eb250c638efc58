package lang_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/lang"
	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/model"
)

// TestClassicsSemantics pins the semantics of what the classics need:
// atomic actions that assign their peers' variables, guards that depend
// on the choice, receives of any type but some, and quantifiers over a
// channel's messages: for each small spec, its initial configuration and
// every step from it (or the fault the first expansion reports).
func TestClassicsSemantics(t *testing.T) {
	runStepCases(t, []stepCase{{
		name: "an atomic action clears its bit and sets its successor's in one step",
		src: `topology ring(3)
var q: 0..1
process 0 { init: q := 1 }
process all { atomic action pass: q == 1 -> q := 0, q[succ] := 1 }`,
		initial: "q=1 | q=0 | q=0",
		steps:   []string{"0 pass: q=0 | q=1 | q=0"},
	}, {
		name: "a token passed to a process that holds one merges with it",
		src: `topology ring(3)
var q: 0..1 = 1
process all { atomic action pass: q == 1 -> q := 0, q[succ] := 1 }`,
		initial: "q=1 | q=1 | q=1",
		steps: []string{
			"0 pass: q=0 | q=1 | q=1",
			"1 pass: q=1 | q=0 | q=1",
			"2 pass: q=1 | q=1 | q=0",
		},
	}, {
		name: "an atomic action assigns both neighbours and itself, reading the configuration before the step",
		src: `topology ring(3)
var x: 0..3
process 0 { atomic action spread: x == 0 -> x := 1, x[pred] := x[pred] + 2, x[succ] := x + 3 }`,
		initial: "x=0 | x=0 | x=0",
		steps:   []string{"0 spread: x=1 | x=3 | x=2"},
	}, {
		name: "a variable assigned twice in one step at a process known as the step runs is a fault",
		src: `topology ring(3)
var q: 0..1
var c: bool = true
process 0 { atomic action a: true -> q := 1, q[if c then self else succ] := 0 }`,
		initial: "q=0 c=true | q=0 c=true | q=0 c=true",
		fault:   "action a: case.ring:5:46: process 0 assigns q of process 0 twice in one step",
	}, {
		name: "a guard that reads the choice enables the alternatives it holds for",
		src: `topology ring(2)
var x: 0..3
process 0 { action pick(k in 1..3): k != x + 1 -> x := k }`,
		initial: "x=0 | x=0",
		steps:   []string{"0 pick(k=2): x=2 | x=0", "0 pick(k=3): x=3 | x=0"},
	}, {
		name: "a guard that reads the choice, with a receive: the choice is read with the message",
		src: `topology ring(2)
message T(v: 0..3)
channels capacity 2
var x: 0..3
process 1 { init: send T(2) to succ }
process 0 { action take(k in 1..3): recv T(v) from pred, k <= v -> x := k }`,
		initial: "x=0 | x=0 | 1→0 T(2)",
		steps:   []string{"0 take(k=1): x=1 | x=0", "0 take(k=2): x=2 | x=0"},
	}, {
		name: "recv any except receives a head of any other type",
		src: `topology ring(2)
message A
message B(v: 0..1)
message C
channels capacity 3
var got: 0..3
process 1 { init: send A to succ, send B(1) to succ, send C to succ }
process 0 { action flush: recv any except C from pred -> got := got + 1 }`,
		initial: "got=0 | got=0 | 1→0 A() B(1) C()",
		steps:   []string{"0 flush: got=1 | got=0 | 1→0 B(1) C()"},
	}, {
		name: "recv any except does not receive the type it excepts",
		src: `topology ring(2)
message A
message C
channels capacity 3
var got: 0..3
process 1 { init: send C to succ, send A to succ }
process 0 { action flush: recv any except C from pred -> got := got + 1 }`,
		initial: "got=0 | got=0 | 1→0 C() A()",
	}, {
		name: "a receive from any channel but one: a family over peers whose guard excludes it",
		src: `topology complete(3)
message m(v: 0..2)
channels capacity 2
var got: 0..2
process 1 { init: send m(1) to 0 }
process 2 { init: send m(2) to 0 }
process 0 { action take(j in peers): recv m(v) from j, j != succ -> got := v }`,
		initial: "got=0 | got=0 | got=0 | 1→0 m(1) | 2→0 m(2)",
		steps:   []string{"0 take(2): got=2 | got=0 | got=0 | 1→0 m(1)"},
	}, {
		name: "quantifiers over a channel's messages, in a guard and an effect",
		src: `topology ring(2)
message T(v: 0..3)
message U
channels capacity 3
var s: 0..9
process 1 { init: send T(1) to succ, send U to succ, send T(2) to succ }
process 0 { action total: s == 0 && (forall m in chan(T, pred, self): m.v > 0) && (count m in chan(pred, self): true) == 3 -> s := sum m in chan(pred, self): m.v }`,
		initial: "s=0 | s=0 | 1→0 T(1) U() T(2)",
		steps:   []string{"0 total: s=3 | s=0 | 1→0 T(1) U() T(2)"},
	}, {
		name: "exists over a channel's messages is false on an empty channel",
		src: `topology ring(2)
message T(v: 0..3)
channels capacity 2
var s: 0..1
process 0 { action a: !(exists m in chan(pred, self): m.v >= 0) -> s := 1 }`,
		initial: "s=0 | s=0",
		steps:   []string{"0 a: s=1 | s=0"},
	}})
}

// TestMessagePredicates evaluates a quantifier over a channel's messages
// in compiled invariants, on the initial configuration.
func TestMessagePredicates(t *testing.T) {
	src := `spec case "a case"
topology ring(3)
message T(v: 0..3)
message U
channels capacity 4
process 2 { init: send T(3) to succ, send U to succ, send T(1) to succ }
invariant small: forall p: forall m in chan(p, succ(p)): m.v < 3
invariant two: (count p: exists m in chan(T, p, succ(p)): m.v == 1) == 1
invariant total: (sum m in chan(2, 0): m.v) == 4
`
	f, err := lang.Parse("case.ring", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	sys, err := f.Build(nil)
	if err != nil {
		t.Fatal(err)
	}
	init := sys.Initial()[0]
	want := map[string]bool{"small": false, "two": true, "total": true}
	for _, inv := range sys.Invariants {
		if got := inv.Holds(init); got != want[inv.Name] {
			t.Errorf("invariant %s: %v, want %v", inv.Name, got, want[inv.Name])
		}
	}
}

// TestAtomicActions pins what the model says of atomic actions: the
// action's write set names the neighbour's variable, the model marks it
// atomic, and a daemon other than the central one is refused.
func TestAtomicActions(t *testing.T) {
	src := `spec case "a case"
topology ring(3)
var q: 0..1
process all { atomic action pass: q == 1 -> q := 0, q[succ] := 1 }
`
	f, err := lang.Parse("case.ring", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	inst, err := f.Instance(nil)
	if err != nil {
		t.Fatal(err)
	}
	a := inst.Actions[0]
	if !a.Atomic {
		t.Error("the action is not atomic in the IR")
	}
	var writes []string
	for _, w := range a.Writes.Vars {
		switch p := w.Proc.(type) {
		case nil:
			writes = append(writes, w.Var.Name)
		case *ir.Neighbor:
			writes = append(writes, fmt.Sprintf("%s[%+d]", w.Var.Name, p.Offset))
		default:
			writes = append(writes, fmt.Sprintf("%s[%T]", w.Var.Name, p))
		}
	}
	if got := strings.Join(writes, " "); got != "q q[+1]" || a.Writes.Global {
		t.Errorf("writes %q (global %v), want \"q q[+1]\" (not global)", got, a.Writes.Global)
	}
	sys, err := f.Build(nil)
	if err != nil {
		t.Fatal(err)
	}
	if !sys.Processes[0].Actions[0].Atomic {
		t.Error("the model's action is not atomic")
	}
	for _, d := range []model.Daemon{model.Distributed, model.Synchronous} {
		if _, err := sys.WithDaemon(d); err == nil || !strings.Contains(err.Error(), "not defined for atomic actions") {
			t.Errorf("%v daemon: %v, want a refusal of atomic actions", d, err)
		}
	}
}

// TestRoleByParameter checks that a liveness role may depend on a
// parameter: `finite if staycs == 0 else optional`.
func TestRoleByParameter(t *testing.T) {
	src := `spec case "a case"
param staycs = 0 in 0..1 "stay in the critical section"
topology ring(2)
var cs: bool
process all {
  environment finite if staycs == 0 else optional action leave: cs -> cs := false
  environment optional if staycs == 1 else scheduled action enter: !cs -> cs := true
}
`
	f, err := lang.Parse("case.ring", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for staycs, want := range [][2]model.Liveness{{model.Finite, model.Scheduled}, {model.Optional, model.Optional}} {
		sys, err := f.Build(map[string]int{"staycs": staycs})
		if err != nil {
			t.Fatal(err)
		}
		acts := sys.Processes[0].Actions
		if acts[0].Liveness != want[0] || acts[1].Liveness != want[1] {
			t.Errorf("staycs=%d: leave %v, enter %v; want %v, %v", staycs, acts[0].Liveness, acts[1].Liveness, want[0], want[1])
		}
	}
}

// TestIsraeliJalfonTransitions pins the transitions of
// examples/israeli-jalfon.ring for N=4 over its full configuration space:
// each of the 16 configurations has two steps per token (left and right),
// 64 labelled steps in all, and each moves one token.
func TestIsraeliJalfonTransitions(t *testing.T) {
	f, err := lang.Read("../examples/israeli-jalfon.ring")
	if err != nil {
		t.Fatal(err)
	}
	sys, err := f.Build(map[string]int{"N": 4})
	if err != nil {
		t.Fatal(err)
	}
	exp := sys.NewExpander()
	labels := map[string]int{}
	total := 0
	for bits := range 1 << 4 {
		st := sys.NewState()
		for p := range 4 {
			st.Set(p, 0, bits>>p&1)
		}
		_, err := exp.Expand(st, func(s *model.Step, next *model.State) bool {
			total++
			labels[fmt.Sprintf("p%d:%s", s.Moves[0].Proc, sys.Label(s))]++
			p := int(s.Moves[0].Proc)
			to := (p + 1) % 4
			if sys.Label(s) == "left" {
				to = (p + 3) % 4
			}
			for r := range 4 {
				want := bits>>r&1 == 1
				switch r {
				case p:
					want = false
				case to:
					want = true
				}
				if (next.Get(r, 0) == 1) != want {
					t.Errorf("configuration %04b, p%d %s: process %d holds %d", bits, p, sys.Label(s), r, next.Get(r, 0))
				}
			}
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if total != 64 {
		t.Errorf("%d transitions, want 64", total)
	}
	for p := range 4 {
		for _, a := range []string{"left", "right"} {
			if n := labels[fmt.Sprintf("p%d:%s", p, a)]; n != 8 {
				t.Errorf("p%d:%s labels %d steps, want 8 (one per configuration where p%d holds a token)", p, a, n, p)
			}
		}
	}
}
