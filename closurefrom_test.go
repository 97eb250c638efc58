package ringcheck_test

import (
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/lang"
)

// narrowedClosure is a spec whose L (every x at most 1) is closed from
// the legitimate configurations where every y is 0 and not from the
// others: a process with x = 1 and y = 1 steps out of L.
const narrowedClosure = `spec narrowed
topology ring(3)
var x: 0..2
var y: 0..1
process all {
  action up: x == 0 -> x := 1
  action down: x == 1 && y == 0 -> x := 0
  action out: x == 1 && y == 1 -> x := 2
  action fix: x == 2 -> x := 0, y := 0
}
legitimate "every x at most 1": forall p: x[p] <= 1
`

// TestClosureFrom checks closure narrowed by a closure from predicate in
// both engines: violated from all of L, it holds from the configurations
// the predicate keeps, and the report says which those are.
func TestClosureFrom(t *testing.T) {
	for _, tc := range []struct {
		name, more, want, reason string
	}{
		{"all of L", "", "closure=violated", ""},
		{"narrowed", `closure from "y at 0 everywhere": forall p: y[p] == 0`, "closure=holds", "where its closure from predicate holds (y at 0 everywhere)"},
		{"narrowed to nothing that leaves", `closure from: forall p: x[p] == 0 || y[p] == 0`, "closure=holds", "where its closure from predicate holds"},
		{"narrowed but not enough", `closure from: y[0] == 0`, "closure=violated", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := lang.Parse("narrowed.ring", []byte(narrowedClosure+tc.more+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			spec, err := f.Spec()
			if err != nil {
				t.Fatal(err)
			}
			req := ringcheck.Request{Spec: spec, From: invariants.FromAll, Properties: props(invariants.Closure)}
			explicit := run(t, req)
			req.Engine = ringcheck.EngineSymbolic
			symbolic := run(t, req)
			for name, res := range map[string]*ringcheck.Result{"explicit": explicit, "symbolic": symbolic} {
				if got := verdicts(res.Report); got != tc.want {
					t.Errorf("%s engine: %s, want %s", name, got, tc.want)
				}
				o := res.Report.Outcomes[0]
				if tc.reason != "" && !strings.Contains(o.Reason, tc.reason) {
					t.Errorf("%s engine: the reason %q does not say %q", name, o.Reason, tc.reason)
				}
				if ce := o.Counterexample; ce != nil {
					sys := res.System
					if from := ce.States[0]; sys.ClosureFrom != nil && !sys.ClosureFrom.Holds(from) {
						t.Errorf("%s engine: the counterexample starts where closure is not decided from", name)
					}
				}
			}
		})
	}
}
