package counterflush_test

import (
	"context"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
)

// TestClosureAndConvergenceFromAll: the paper's claim, decided by the
// checker from every configuration of n=3, Cmax=1 (74,088 of them).
// TestClosureBruteForce and TestConvergenceBruteForce decide the same
// claims without the invariants package.
func TestClosureAndConvergenceFromAll(t *testing.T) {
	sys, _ := build(t, 3, 1)
	rep, err := invariants.Check(context.Background(), sys, invariants.Options{
		Properties: []invariants.Property{invariants.Closure, invariants.Convergence},
		From:       invariants.FromAll,
		Search:     explore.Options{Workers: 2},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Outcomes) != 2 {
		t.Fatalf("%d outcomes", len(rep.Outcomes))
	}
	for _, o := range rep.Outcomes {
		if o.Verdict != invariants.Holds {
			t.Errorf("%s %s (%s), want holds", o.Property, o.Verdict, o.Reason)
		}
	}
	// The worst case in steps agrees with TestConvergenceBruteForce's.
	if st := rep.Stabilization; st == nil || st.Unbounded || st.WorstSteps != 11 || st.Legitimate != 18 {
		t.Errorf("stabilization %+v, want 18 legitimate configurations and a worst case of 11 steps", st)
	} else {
		t.Logf("%d configurations, %d legitimate, worst case %d steps; rounds computed=%v: %d %s",
			st.Configurations, st.Legitimate, st.WorstSteps, st.RoundsComputed, st.WorstRounds, st.RoundsNote)
	}
}
