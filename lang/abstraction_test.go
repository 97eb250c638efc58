package lang_test

import (
	"context"
	"testing"

	"github.com/ringcheck/ringcheck"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/lang"
)

// TestAbstractionInvariant pins `abstraction invariant`: the invariant is
// marked as one on which the model's abstraction rests, so that where it
// fails starvation is not decided, while a plain invariant is not.
func TestAbstractionInvariant(t *testing.T) {
	src := `spec abs "an abstraction invariant"
topology ring(2)
var x: 0..2
process all { action a: x < 2 -> x := x + 1 }
invariant small: x[0] <= 2
abstraction invariant low: x[0] < 2
predicate requesting(p): x[p] == 2
predicate inCS(p): false
valid_end: true
`
	f, err := lang.Parse("abs.ring", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	sys, err := f.Build(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(sys.Invariants) != 2 || sys.Invariants[0].Abstraction || !sys.Invariants[1].Abstraction {
		t.Fatalf("invariants %q: want small plain and low an abstraction", []string{sys.Invariants[0].Name, sys.Invariants[1].Name})
	}
	spec, err := f.Spec()
	if err != nil {
		t.Fatal(err)
	}
	req := &ringcheck.Request{Spec: spec, Properties: []invariants.Property{invariants.Safety, invariants.Starvation},
		From: invariants.FromInit, Fairness: invariants.WeakFairness, Workers: 1}
	res, err := req.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got := map[invariants.Property]string{}
	for _, o := range res.Report.Outcomes {
		got[o.Property] = string(o.Verdict)
	}
	if got[invariants.Safety] != "violated" || got[invariants.Starvation] != "unknown" {
		t.Errorf("verdicts %v: want safety violated and starvation unknown (low fails)", got)
	}
}
