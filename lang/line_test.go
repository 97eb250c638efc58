package lang_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/lang"
	"github.com/ringcheck/ringcheck/model"
)

// TestLinesFixedValuesAndSets pins the semantics of what the classics need
// (issue 27): the line topology, values held fixed by a block, a name
// declared by several blocks, an empty process range, a sum over a
// boolean, and the init and start predicates. For each small spec: its
// initial configurations, every step from the first, the number of the
// model's variables, the legitimacy predicate on each initial
// configuration, and how many configurations satisfy the start predicate.
func TestLinesFixedValuesAndSets(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		params    map[string]int
		initial   []string
		steps     []string // "process action: configuration after"
		vars      int      // the model's variables (0: not checked)
		legit     []bool   // L on each initial configuration (nil: not checked)
		start     int      // configurations where start holds (0: none declared)
	}{{
		name: "a line links each process with its neighbours: the ends have one each",
		src: `topology line(3)
var x: 0..3
process 0 { action a: x[succ] == 0 -> x := 1 }
process 1 { action b: x[pred] == 0 && x[succ] == 0 -> x := 2 }
process 2 { action c: x[pred] == 0 -> x := 3 }`,
		initial: []string{"x=0 | x=0 | x=0"},
		steps:   []string{"0 a: x=1 | x=0 | x=0", "1 b: x=0 | x=2 | x=0", "2 c: x=0 | x=0 | x=3"},
	}, {
		name: "on a line, the peers of an end are its one neighbour",
		src: `topology line(3)
var x: 0..2
process all { action a: x == 0 -> x := (sum q in peers: 1) }`,
		initial: []string{"x=0 | x=0 | x=0"},
		steps:   []string{"0 a: x=1 | x=0 | x=0", "1 a: x=0 | x=2 | x=0", "2 a: x=0 | x=0 | x=1"},
	}, {
		name: "on a line, a channel each way between neighbours",
		src: `topology line(3)
message m
channels capacity 1
var got: 0..1
process 0 { init: send m to succ }
process 1 { action r: recv m from pred -> got := 1, send m to succ }`,
		initial: []string{"got=0 | got=0 | got=0 | 0→1 m()"},
		steps:   []string{"1 r: got=0 | got=1 | got=0 | 1→2 m()"},
	}, {
		name: "a value a block holds fixed is read as its processes' variable, and takes no place",
		src: `topology line(3)
var x: bool
process 0 {
  const up = true
  action a: x == x[succ] && !up[succ] -> x := !x
}
process 1 {
  var up: bool
  action b: up[pred] && !up[succ] -> up := true
}
process 2 { const up = false }
legitimate: forall p: up[p] == (p == 0)`,
		initial: []string{"x=false | x=false up=false | x=false"},
		steps:   []string{"0 a: x=true | x=false up=false | x=false", "1 b: x=false | x=false up=true | x=false"},
		vars:    2,
		legit:   []bool{true},
	}, {
		name: "a name declared by blocks with one type and initial value is one variable",
		src: `topology biring(3)
process 0 { var w: 0..1 }
process 2 { var w: 0..1 }
process 2 { action a: w[succ] == 0 && w == 0 -> w := 1 }
legitimate: (sum p: w[p]) == 0`,
		initial: []string{"w=0 |  | w=0"},
		steps:   []string{"2 a: w=0 |  | w=1"},
		vars:    1,
		legit:   []bool{true},
	}, {
		name: "a name declared by blocks with other domains is a variable in each",
		src: `topology ring(3)
process 0 { var v: 0..5 = 5 }
process 1..2 { var v: 0..1 }
process 1 { action a: v[pred] == 5 -> v := 1 }
process 2 { action b: v[pred] == 1 -> v := 1 }
legitimate: (sum p: v[p]) == 5`,
		initial: []string{"v=5 | v=0 | v=0"},
		steps:   []string{"1 a: v=5 | v=1 | v=0"},
		vars:    2,
		legit:   []bool{true},
	}, {
		name:   "an empty process range is a block of no process",
		params: map[string]int{"n": 3},
		src: `param n = 3 in 3..5 "processes"
topology biring(n)
var x: 0..1
process 0 { action a: x == 0 -> x := 1 }
process 1..n-3 {
  var up: bool
  action b: x == 0 -> x := 1, up := true
}
process n-2..n-1 { action c: x == 0 && x[pred] == 0 -> x := 1 }
legitimate: forall p: !up[p]`,
		initial: []string{"x=0 | x=0 | x=0"},
		steps:   []string{"0 a: x=1 | x=0 | x=0", "1 c: x=0 | x=1 | x=0", "2 c: x=0 | x=0 | x=1"},
		legit:   []bool{true},
	}, {
		name: "a sum over a boolean counts the members where it holds",
		src: `topology ring(3)
var x: 0..1
process 0 { init: x := 1 }
legitimate: (sum p: x[p] == 1) == 1 && (sum q in 0..2: x[q] == 0) == 2`,
		initial: []string{"x=1 | x=0 | x=0"},
		legit:   []bool{true},
	}, {
		name: "an init predicate makes every configuration where it holds initial",
		src: `topology ring(2)
var x: 0..2
init: x[0] != x[1]
legitimate: x[0] == 0`,
		initial: []string{"x=1 | x=0", "x=2 | x=0", "x=0 | x=1", "x=2 | x=1", "x=0 | x=2", "x=1 | x=2"},
		legit:   []bool{false, false, true, false, true, false},
	}, {
		name: "a start predicate: the configurations where it holds",
		src: `topology ring(2)
var x: 0..2
start "x[0] is 0": x[0] == 0`,
		initial: []string{"x=0 | x=0"},
		start:   3,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := lang.Parse("case.ring", []byte("spec case \"a case\"\n"+tc.src+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			sys, err := f.Build(tc.params)
			if err != nil {
				t.Fatal(err)
			}
			initial := sys.Initial()
			var got []string
			for _, st := range initial {
				got = append(got, render(sys, st))
			}
			if strings.Join(got, "\n") != strings.Join(tc.initial, "\n") {
				t.Errorf("initial configurations\n got  %q\n want %q", got, tc.initial)
			}
			got = nil
			if _, err := sys.NewExpander().Expand(initial[0], func(s *model.Step, next *model.State) bool {
				got = append(got, fmt.Sprintf("%d %s: %s", s.Procs()[0], sys.Label(s), render(sys, next)))
				return true
			}); err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, "\n") != strings.Join(tc.steps, "\n") {
				t.Errorf("steps\n got  %q\n want %q", got, tc.steps)
			}
			if tc.vars > 0 && len(sys.Vars) != tc.vars {
				t.Errorf("%d variables in the model, want %d", len(sys.Vars), tc.vars)
			}
			if tc.legit != nil {
				for i, st := range initial {
					if got := sys.Legitimate.Holds(st); got != tc.legit[i] {
						t.Errorf("L on initial configuration %d (%s) is %v, want %v", i, render(sys, st), got, tc.legit[i])
					}
				}
			}
			switch {
			case tc.start == 0 && sys.Start != nil:
				t.Error("a start predicate, and the file declares none")
			case tc.start > 0 && sys.Start == nil:
				t.Error("no start predicate")
			case tc.start > 0:
				states, err := sys.Satisfying(sys.Start.Holds, 1<<20)
				if err != nil || len(states) != tc.start {
					t.Errorf("%d configurations satisfy the start predicate (%v), want %d", len(states), err, tc.start)
				}
			}
		})
	}
}
