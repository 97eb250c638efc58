package lang_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/lang"
	"github.com/ringcheck/ringcheck/model"
)

// TestSequentialBlocks pins the semantics of do { ... }: its effects run
// in order, each reading what those before it wrote (the acting
// process's variables, array entries and locals), while everything else
// reads the configuration before the step; for each small spec, its
// initial configuration and every step from it, a step's range fault
// after "!", or the fault that stops the expansion.
func TestSequentialBlocks(t *testing.T) {
	const ring = "topology ring(2)\nvar x: 0..7\nvar y: 0..7\n"
	for _, tc := range []stepCase{{
		name:    "simultaneous effects read the configuration before the step",
		src:     ring + "process 0 { action a: x == 0 -> x := x + 1, y := x + 1 }",
		initial: "x=0 y=0 | x=0 y=0",
		steps:   []string{"0 a: x=1 y=1 | x=0 y=0"},
	}, {
		name:    "in do, an effect reads what the ones before it wrote",
		src:     ring + "process 0 { action a: x == 0 -> do { x := x + 1; y := x + 1; x := y + x } }",
		initial: "x=0 y=0 | x=0 y=0",
		steps:   []string{"0 a: x=3 y=2 | x=0 y=0"},
	}, {
		name:    "a local, reassigned, typed by its expression's values",
		src:     ring + "process 0 { action a: x < 3 -> do { let t := x + 2; t := t * 1 + 1; y := t; x := t - 1 } }",
		initial: "x=0 y=0 | x=0 y=0",
		steps:   []string{"0 a: x=2 y=3 | x=0 y=0"},
	}, {
		name: "a loop carries a value from one member to the next",
		src: `topology ring(2)
var x: 0..20
var a[0..3]: 0..7 = 2
process 0 { init: a[3] := 5 }
process 0 { action total: x == 0 -> do { let s: 0..20 := 0; for i in 0..3 { s := s + a[i]; a[i] := s mod 8 }; x := s } }`,
		initial: "x=0 a[0]=2 a[1]=2 a[2]=2 a[3]=5 | x=0 a[0]=2 a[1]=2 a[2]=2 a[3]=2",
		steps:   []string{"0 total: x=11 a[0]=2 a[1]=4 a[2]=6 a[3]=3 | x=0 a[0]=2 a[1]=2 a[2]=2 a[3]=2"},
	}, {
		name: "an entry assigned at an index known as the step runs, read back",
		src: `topology ring(2)
var x: 0..3 = 1
var a[0..3]: 0..7
process 0 { action a: a[x] == 0 -> do { a[x + 1] := 6; x := x + 1; a[x - 2] := a[x] + 1 } }`,
		initial: "x=1 a[0]=0 a[1]=0 a[2]=0 a[3]=0 | x=1 a[0]=0 a[1]=0 a[2]=0 a[3]=0",
		steps:   []string{"0 a: x=2 a[0]=7 a[1]=0 a[2]=6 a[3]=0 | x=1 a[0]=0 a[1]=0 a[2]=0 a[3]=0"},
	}, {
		name:    "an if assigns in one branch: after it, the value either way",
		src:     ring + "process all { action a: y == 0 -> do { if x == 0 { x := 4 } else { y := 6 }; y := y + x } }\nprocess 1 { init: x := 1 }",
		initial: "x=0 y=0 | x=1 y=0",
		steps:   []string{"0 a: x=4 y=4 | x=1 y=0", "1 a: x=0 y=0 | x=1 y=7"},
	}, {
		name:    "a repeat assigns at each turn",
		src:     ring + "process 0 { action a: x == 0 -> do { repeat 3 { x := x + 2 }; y := x - 1 } }",
		initial: "x=0 y=0 | x=0 y=0",
		steps:   []string{"0 a: x=6 y=5 | x=0 y=0"},
	}, {
		name:    "a neighbour's variable and a simultaneous effect read the configuration before the step",
		src:     ring + "process all { action a: x == 0 -> do { x := x[pred] + 1; x := x + x[pred] }, y := x + 1 }\nprocess 1 { init: x := 3 }",
		initial: "x=0 y=0 | x=3 y=0",
		steps:   []string{"0 a: x=7 y=1 | x=3 y=0"},
	}, {
		name:    "a process's variable read through an index that is the acting process reads what the block wrote",
		src:     ring + "process 0 { action a: x == 0 -> do { x := 5; y := x[self] + x[0] - x[1] - 2 } }\nprocess 1 { init: x := 2 }",
		initial: "x=0 y=0 | x=2 y=0",
		steps:   []string{"0 a: x=5 y=6 | x=2 y=0"},
	}, {
		name: "a send in the block sends the values written before it",
		src: ring + `message m(v: 0..7)
channels capacity 2
process 0 { action a: x == 0 -> do { x := x + 3; send m(x) to succ; x := x + 1; send m(x) to succ } }`,
		initial: "x=0 y=0 | x=0 y=0",
		steps:   []string{"0 a: x=4 y=0 | x=0 y=0 | 0→1 m(3) m(4)"},
	}, {
		name: "a received field and the block's own writes",
		src: ring + `message m(v: 0..7)
channels capacity 2
process 1 { init: send m(3) to succ }
process 0 { action a: recv m(v) from pred -> do { x := v; x := x + v; y := x } }`,
		initial: "x=0 y=0 | x=0 y=0 | 1→0 m(3)",
		steps:   []string{"0 a: x=6 y=6 | x=0 y=0"},
	}, {
		name:    "init runs a block in order",
		src:     ring + "process 1 { init: do { x := 2; y := x * 3; x := y - 1 } }",
		initial: "x=0 y=0 | x=5 y=6",
	}, {
		name:    "init runs a block over an array, at indices known as it runs",
		src:     "topology ring(2)\nvar a[0..3]: 0..7\nprocess 0 { init: do { a[1] := 3; a[a[1] - 1] := a[1] + 1; let t: 0..7 := a[2]; t := t + 1; a[0] := t } }",
		initial: "a[0]=5 a[1]=3 a[2]=4 a[3]=0 | a[0]=0 a[1]=0 a[2]=0 a[3]=0",
	}, {
		name:    "a variable's range fault drops the assignment: the block goes on with the old value",
		src:     ring + "process 0 { action a: x == 0 -> do { x := x + 3; x := x + 5; y := x } }",
		initial: "x=0 y=0 | x=0 y=0",
		steps:   []string{"0 a: x=3 y=3 | x=0 y=0 ! process 0 sets x to 8, outside 0..7"},
	}, {
		name:    "a local's range fault",
		src:     "topology ring(2)\nvar x: 0..3 = 3\nprocess 0 { action a: true -> do { let t: 0..3 := x; t := t + 1; x := 0 } }",
		initial: "x=3 | x=3",
		steps:   []string{"0 a: x=0 | x=3 ! process 0 sets local t to 4, outside 0..3"},
	}, {
		name:    "a local without a type is any 32-bit integer",
		src:     "topology ring(2)\nvar x: 0..3 = 0\nprocess 0 { action a: x == 0 -> do { let i := 0; i := i + 1; i := i * 3; x := i } }",
		initial: "x=0 | x=0",
		steps:   []string{"0 a: x=3 | x=0"},
	}, {
		name:    "a division by zero stops the check at its operator",
		src:     ring + "process 0 { action a: true -> do { let t := x; y := 7 / (t - x) } }",
		initial: "x=0 y=0 | x=0 y=0",
		fault:   "case.ring:5:55: division by zero",
	}, {
		name:    "an entry the process has not, at the index's place",
		src:     "topology ring(2)\nvar a[0..1]: 0..3\nprocess 0 { action a: true -> do { a[0] := 1; a[a[0] + 1] := 2 } }",
		initial: "a[0]=0 a[1]=0 | a[0]=0 a[1]=0",
		fault:   "case.ring:4:49: process 0 has no entry 2 of a",
	}, {
		name: "an atomic action assigns its own variable twice in a block, and a peer's outside it",
		src: `topology ring(2)
var x: 0..7
atomic_placeholder`,
		initial: "x=0 | x=0",
		steps:   []string{"0 a: x=3 | x=4"},
	}} {
		if strings.Contains(tc.src, "atomic_placeholder") {
			tc.src = strings.Replace(tc.src, "atomic_placeholder", "process 0 { atomic action a: x == 0 -> do { x := 1; x := x + 2 }, x[succ] := x + 4 }", 1)
		}
		t.Run(tc.name, func(t *testing.T) { runSeqCase(t, tc) })
	}
}

// runSeqCase is runStepCases for one case, with each step's range fault.
func runSeqCase(t *testing.T, tc stepCase) {
	f, err := lang.Parse("case.ring", []byte("spec case \"a case\"\n"+tc.src+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	sys, err := f.Build(nil)
	if err != nil {
		t.Fatal(err)
	}
	init := sys.Initial()[0]
	if got := render(sys, init); got != tc.initial {
		t.Errorf("initial configuration\n got  %s\n want %s", got, tc.initial)
	}
	var got []string
	_, err = sys.NewExpander().Expand(init, func(s *model.Step, next *model.State) bool {
		line := fmt.Sprintf("%d %s: %s", s.Procs()[0], sys.Label(s), render(sys, next))
		if s.RangeFault != "" {
			line += " ! " + s.RangeFault
		}
		got = append(got, line)
		return true
	})
	switch {
	case tc.fault != "" && (err == nil || !strings.Contains(err.Error(), tc.fault)):
		t.Fatalf("Expand: %v, want an error with %q", err, tc.fault)
	case tc.fault == "" && err != nil:
		t.Fatal(err)
	}
	if tc.fault == "" && strings.Join(got, "\n") != strings.Join(tc.steps, "\n") {
		t.Errorf("steps\n got  %q\n want %q", got, tc.steps)
	}
}
