package lang_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/lang"
	"github.com/ringcheck/ringcheck/model"
)

// render writes a configuration as its processes' variables, then the
// channels that hold messages.
func render(sys *model.System, st *model.State) string {
	snap := sys.Decode(st)
	var parts []string
	for _, p := range snap.Processes {
		var vars []string
		for _, v := range p.Vars {
			vars = append(vars, v.Name+"="+v.Text)
		}
		parts = append(parts, strings.Join(vars, " "))
	}
	for _, ch := range snap.Channels {
		if len(ch.Messages) == 0 {
			continue
		}
		var msgs []string
		for _, m := range ch.Messages {
			var fields []string
			for _, f := range m.Fields {
				fields = append(fields, f.Text)
			}
			msgs = append(msgs, m.Type+"("+strings.Join(fields, ",")+")")
		}
		parts = append(parts, fmt.Sprintf("%d→%d %s", ch.From, ch.To, strings.Join(msgs, " ")))
	}
	return strings.Join(parts, " | ")
}

// TestArraysSetsAndFamilies pins the semantics of arrays, of quantifiers
// and for loops over sets, and of action families per peer: for each
// small spec, its initial configuration and every step from it.
func TestArraysSetsAndFamilies(t *testing.T) {
	runStepCases(t, []stepCase{{
		name: "an array over peers has an entry per peer, at its initial value",
		src: `topology ring(3)
var x[peers]: 0..5 = 1`,
		initial: "x[1]=1 x[2]=1 | x[0]=1 x[2]=1 | x[0]=1 x[1]=1",
	}, {
		name: "a for loop over peers assigns each entry; effects read the configuration before the step",
		src: `topology ring(3)
var x[peers]: 0..5
process 0 { action a: true -> for q in peers { x[q] := q + (sum r in peers: x[r]) } }`,
		initial: "x[1]=0 x[2]=0 | x[0]=0 x[2]=0 | x[0]=0 x[1]=0",
		steps:   []string{"0 a: x[1]=1 x[2]=2 | x[0]=0 x[2]=0 | x[0]=0 x[1]=0"},
	}, {
		name: "a quantifier over peers(p) in a guard reads another process's entries",
		src: `topology biring(4)
var x[peers]: 0..3
process 1 { init: x[2] := 3 }
process all { action a: x[pred] == 0 && (exists q in peers(pred): x[pred][q] == 3) -> x[pred] := 1 }`,
		initial: "x[1]=0 x[3]=0 | x[0]=0 x[2]=3 | x[1]=0 x[3]=0 | x[0]=0 x[2]=0",
		steps:   []string{"2 a: x[1]=0 x[3]=0 | x[0]=0 x[2]=3 | x[1]=1 x[3]=0 | x[0]=0 x[2]=0"},
	}, {
		name: "a range array, a loop and a sum over its indices",
		src: `topology ring(2)
var a[0..2]: 0..6
process 0 { action fill: (sum i in 0..2: a[i]) == 0 -> for i in 0..2 { a[i] := 2 * i } }`,
		initial: "a[0]=0 a[1]=0 a[2]=0 | a[0]=0 a[1]=0 a[2]=0",
		steps:   []string{"0 fill: a[0]=0 a[1]=2 a[2]=4 | a[0]=0 a[1]=0 a[2]=0"},
	}, {
		name: "an action family: one action per peer, each receiving from it",
		src: `topology complete(3)
message m(v: 0..2)
channels capacity 2
var got: 0..2
process 1 { init: send m(1) to 0 }
process 2 { init: send m(2) to 0 }
process all { action take(j in peers): recv m(v) from j -> got := v + j - j }`,
		initial: "got=0 | got=0 | got=0 | 1→0 m(1) | 2→0 m(2)",
		steps: []string{
			"0 take(1): got=1 | got=0 | got=0 | 2→0 m(2)",
			"0 take(2): got=2 | got=0 | got=0 | 1→0 m(1)",
		},
	}, {
		name: "a constant condition keeps only the branch taken, whose constants may leave an emptied domain",
		src: `param ghost = 0 in 0..1 "a ghost"
topology ring(2)
var g: 0..ghost
var y: 0..1
process 0 { action a: y == 0 -> y := 1, if ghost == 1 { g := 1 } }`,
		initial: "g=0 y=0 | g=0 y=0",
		steps:   []string{"0 a: g=0 y=1 | g=0 y=0"},
	}, {
		name: "an entry the process has not, at an index known only as the step runs, fails the step",
		src: `topology complete(2)
var x[peers]: 0..1
var i: 0..1
process all { action a: true -> x[i] := 1 }`,
		initial: "x[1]=0 i=0 | x[0]=0 i=0",
		fault:   "action a: case.ring:5:35: process 0 has no entry 0 of x",
	}})
}

// stepCase is a case of the language's semantics: a spec's source (what
// follows its spec line), its initial configuration as render gives it,
// and the steps from there ("process action: configuration after"), or
// the error Expand reports (fault).
type stepCase struct {
	name, src string
	initial   string
	steps     []string
	fault     string
}

// runStepCases builds each case's spec and checks its initial
// configuration and the steps from it, or the fault.
func runStepCases(t *testing.T, cases []stepCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
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
				got = append(got, fmt.Sprintf("%d %s: %s", s.Procs()[0], sys.Label(s), render(sys, next)))
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
		})
	}
}
