package ringcheck_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck"
	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/lang"
	"github.com/ringcheck/ringcheck/specs"
)

// wideRing is a ring of n processes whose full space (16^n
// configurations) is too large to sweep, but whose L (every x at most 1)
// holds in 2^n of them: closure is decided from their enumeration. With
// leave = 1 a step leaves L.
const wideRing = `spec wide "a ring too wide to sweep"
param n = 12 in 2..16 "processes"
param leave = 0 in 0..1 "1: a step leaves L"
topology ring(n)
var x: 0..15 = 0
process all {
  action copy: x != x[pred] -> x := x[pred]
  action up: leave == 1 && x == 1 -> x := 2
}
legitimate "every x at most 1": forall p: x[p] <= 1
`

// wideSpec parses src as a .ring file's catalogue entry.
func wideSpec(t *testing.T, src string) *specs.Spec {
	t.Helper()
	f, err := lang.Parse("wide.ring", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	s, err := f.Spec()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestClosureEnumeratedFromRingFile checks that closure of a .ring file
// whose full space is too large to sweep is decided over the
// configurations of its L, enumerated from the BDD of its legitimacy
// predicate: holds, violated with a step out of L, unknown when a bound
// stops it, and an error that says why when the predicate cannot be
// encoded.
func TestClosureEnumeratedFromRingFile(t *testing.T) {
	spec := wideSpec(t, wideRing)
	closure := []invariants.Property{invariants.Closure}
	req := ringcheck.Request{Spec: spec, Properties: closure, From: invariants.FromAll, Workers: 2}
	res, err := req.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	o := res.Report.Outcomes[0]
	if o.Verdict != invariants.Holds || !strings.Contains(o.Reason, "4096 legitimate configurations enumerated from the BDD of L") {
		t.Errorf("closure: %s (%s), want holds over the 2^12 = 4096 configurations of L enumerated", o.Verdict, o.Reason)
	}
	if res.Report.Search.States != 1<<12 || res.Report.Unknown() {
		t.Errorf("%d states, unknown %v: want the 4096 of L, complete", res.Report.Search.States, res.Report.Unknown())
	}

	req.Params = map[string]int{"leave": 1}
	res, err = req.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	o = res.Report.Outcomes[0]
	if o.Verdict != invariants.Violated || o.Counterexample == nil || len(o.Counterexample.States) != 2 {
		t.Fatalf("closure with a step out of L: %s (%s), want violated by one step", o.Verdict, o.Reason)
	}
	if err := o.Counterexample.Replay(res.System); err != nil {
		t.Errorf("the counterexample does not replay: %v", err)
	}
	if to := o.Counterexample.States[1]; res.System.Legitimate.Holds(to) {
		t.Errorf("the counterexample's step ends in L")
	}

	// Bounds: a stopped enumeration, or a stopped encoding of L, leaves
	// closure unknown.
	req.Params = nil
	req.MaxStates = 100
	res, err = req.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if o := res.Report.Outcomes[0]; o.Verdict != invariants.Unknown || res.Report.Search.Stop != explore.StateBound {
		t.Errorf("closure bounded at 100 states: %s, stop %v, want unknown at the state bound", o.Verdict, res.Report.Search.Stop)
	}
	req.MaxStates = 0
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err = req.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if o := res.Report.Outcomes[0]; o.Verdict != invariants.Unknown || res.Report.Search.Stop != explore.Interrupted {
		t.Errorf("closure interrupted: %s, stop %v, want unknown, interrupted", o.Verdict, res.Report.Search.Stop)
	}

	// A predicate the symbolic engine refuses: today's refusal, with why.
	guarded := strings.Replace(wideRing, "forall p: x[p] <= 1", "forall p: x[p] <= 1 && (x[p] == 2 || x[p] / (x[p] - 2) <= 0)", 1)
	req = ringcheck.Request{Spec: wideSpec(t, guarded), Properties: closure, From: invariants.FromAll, Workers: 1}
	_, err = req.Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "cannot encode the legitimacy predicate") || !strings.Contains(err.Error(), "too many to sweep") {
		t.Errorf("closure of an L the symbolic engine cannot encode: %v, want an error saying so and that the space is too large to sweep", err)
	}
}
