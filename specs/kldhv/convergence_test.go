package kldhv_test

import (
	"testing"

	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/reports"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/spectest"
)

// loadConfiguration reads configuration index (negative: from the end) of
// the trace file path, as 'check --start' does, and encodes it for sys,
// whatever parameters the trace names: the caller vouches that sys has the
// same variables, messages and domains.
func loadConfiguration(tb testing.TB, sys *model.System, path string, index int) *model.State {
	tb.Helper()
	t, err := reports.ReadTraceFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	st, err := t.Configuration(sys, index)
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	return st
}

// noConvergence is a configuration from which kl-dhv never stabilizes
// (found by 'ringcheck rounds kl-dhv -p MaxSeq=20 --runs 100000', run 7400
// of seed 1, and cut to the cycle it falls into).
const noConvergence = "testdata/no-convergence.json"

// TestNoConvergence pins a finding: from the configuration in
// testdata/no-convergence.json (n=3, ℓ=K=2, MaxSeq=20, Cmax 2ℓ+2), all
// three processes request two units and the tokens they hold add up to 4
// (T_h = 2, 1, 1) while Root's controller counts 2 (C_e = 1, MyT_c = 1), so
// it never disables nor replenishes. Every execution from there, fair even
// under strong fairness, circles outside L forever: the reachable graph is
// one cycle of 147 steps through 210 configurations, none legitimate, and
// every process starves on it. So convergence from every configuration
// fails, decided exhaustively from this one. Of the two repairs of the
// starvation finding, fix=1 (LOCK tests the enabled tokens) breaks the
// cycle: from the same configuration every weakly fair execution then
// reaches L (convergence from every configuration stays unknown); fix=2 (A_l8
// re-enables a token before it increments T_h) does not.
func TestNoConvergence(t *testing.T) {
	for _, tc := range []struct {
		fix      int
		fairness invariants.Fairness
		want     invariants.Verdict
		states   int64
	}{
		{0, invariants.WeakFairness, invariants.Violated, 210},
		{0, invariants.StrongFairness, invariants.Violated, 210},
		{1, invariants.WeakFairness, invariants.Unknown, 3649266},
		{2, invariants.WeakFairness, invariants.Violated, 210},
	} {
		if testing.Short() && tc.states > 100000 {
			t.Logf("fix=%d, %s fairness: %d states, left to the run without -short", tc.fix, tc.fairness, tc.states)
			continue
		}
		sys, _ := build(t, "MaxSeq", 20, "fix", tc.fix)
		start := loadConfiguration(t, sys, noConvergence, 0)
		if built, err := noConvergenceState(sys); err != nil || !built.Equal(start) {
			t.Fatalf("NoConvergence (%v) is not the configuration of %s", err, noConvergence)
		}
		if sys.Legitimate.Holds(start) {
			t.Fatal("the configuration is legitimate")
		}
		rep := spectest.Check(t, sys, invariants.Options{
			Properties: []invariants.Property{invariants.Convergence},
			From:       invariants.FromGiven, Start: []*model.State{start}, Fairness: tc.fairness,
		})
		o := rep.Outcomes[0]
		t.Logf("fix=%d, %s fairness: convergence %s over %d states", tc.fix, tc.fairness, o.Verdict, rep.Search.States)
		if o.Verdict != tc.want || tc.states >= 0 && rep.Search.States != tc.states {
			t.Fatalf("fix=%d, %s fairness: convergence %s (%s) over %d states, want %s over %d",
				tc.fix, tc.fairness, o.Verdict, o.Reason, rep.Search.States, tc.want, tc.states)
		}
		if o.Verdict == invariants.Violated {
			ce := o.Counterexample
			if ce.Kind != invariants.Lasso || len(ce.Steps) != 147 {
				t.Fatalf("fix=%d: a %s of %d steps, want a lasso of 147", tc.fix, ce.Kind, len(ce.Steps))
			}
			if err := ce.Replay(sys); err != nil {
				t.Fatal(err)
			}
			for i, st := range ce.States {
				if sys.Legitimate.Holds(st) {
					t.Fatalf("state %d of the lasso is legitimate", i)
				}
			}
		}
	}
}

// TestNoConvergenceNeedsItsInstance: the configuration exists for n=3 only.
func TestNoConvergenceNeedsItsInstance(t *testing.T) {
	sys, _ := build(t, "n", 2, "MaxSeq", 20)
	if _, err := noConvergenceState(sys); err == nil {
		t.Fatal("NoConvergence for n=2: no error")
	}
}

// TestConvergenceClaimStart: the file's convergence claim is decided from
// noConvergenceState, the configuration of testdata/no-convergence.json
// (its embedded copy, specs/ring/no-convergence.json, is the claim's
// start file).
func TestConvergenceClaimStart(t *testing.T) {
	spec := spectest.Builtin(t, "kl-dhv")
	var claim *specs.Claim
	for i, c := range spec.Claims {
		if c.Property == "convergence" {
			claim = &spec.Claims[i]
		}
	}
	if claim == nil || claim.Start == nil || claim.Found != "violated" || claim.From != "all" {
		t.Fatalf("claim %+v, want a convergence claim from all, found violated from a start", claim)
	}
	sys := spectest.Build(t, "kl-dhv", claim.Params)
	got, err := claim.Start(sys)
	if err != nil {
		t.Fatal(err)
	}
	want, err := noConvergenceState(sys)
	if err != nil {
		t.Fatal(err)
	}
	if v := handles(t, sys, params(t, "MaxSeq", 20)); !got.Equal(want) {
		t.Errorf("the claim starts from\n %s\nwant\n %s", render(sys, v, got), render(sys, v, want))
	}
	if !loadConfiguration(t, sys, noConvergence, 0).Equal(want) {
		t.Errorf("%s is not noConvergenceState's configuration", noConvergence)
	}
}
