package lejeune_test

import (
	"fmt"
	"testing"

	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/specs/spectest"
)

// TestVerdictsSmall: for at most R requests per process, exhaustively from
// init, safety (exclusion, one token per resource, counter bound),
// deadlock freedom and starvation freedom under weak fairness hold on
// N=3, M=2, R=1 and on N=2, M=2, R=2, with loans off and with threshold 1
// (strict=0: the pseudo-code invariant, violated by TestDuplicateCounterFound,
// is left out so that safety decides Theorem 1 and Lemmas 1–3). The state
// counts pin the model. (N=3, M=3, R=1, about 15 s, is the regression
// manifest's case.)
func TestVerdictsSmall(t *testing.T) {
	for _, tc := range []struct {
		n, m, r, loan int
		states        int64
	}{
		{3, 2, 1, 0, 17136},
		{3, 2, 1, 1, 27273},
		{2, 2, 2, 0, 14800},
		{2, 2, 2, 1, 16274},
		{3, 1, 2, 0, 160362},
		{4, 1, 1, 0, 32628},
	} {
		t.Run(fmt.Sprintf("N=%d,M=%d,R=%d,loan=%d", tc.n, tc.m, tc.r, tc.loan), func(t *testing.T) {
			sys, _ := build(t, tc.n, tc.m, tc.r, tc.loan, 0)
			rep := check(t, sys, invariants.Safety, invariants.Deadlock, invariants.Starvation)
			for _, o := range rep.Outcomes {
				if o.Verdict != invariants.Holds {
					t.Errorf("%s %s (%s), want holds", o.Property, o.Verdict, o.Reason)
				}
			}
			if rep.Search.States != tc.states {
				t.Errorf("%d states, want %d", rep.Search.States, tc.states)
			}
			t.Logf("%d states, %d transitions", rep.Search.States, rep.Search.Transitions)
		})
	}
}

// TestStrictDeadlockStarvation: with strict=1 (the default) deadlock and
// starvation are decided the same (the invariant affects safety only).
func TestStrictDeadlockStarvation(t *testing.T) {
	sys, _ := build(t, 3, 2, 1, 1, 1)
	rep := check(t, sys, invariants.Deadlock, invariants.Starvation)
	for _, o := range rep.Outcomes {
		if o.Verdict != invariants.Holds {
			t.Errorf("%s %s (%s), want holds", o.Property, o.Verdict, o.Reason)
		}
	}
}

// TestDoneCriterion is what "check lejeune -p N=3 -p M=2 [-p loan=1]
// --check safety,deadlock,starvation --fairness weak" decides, through the
// catalogue entry: every property exhaustively; safety is violated by the
// pseudo-code invariant (the duplicate counter), deadlock and starvation
// hold, for at most one request per process.
func TestDoneCriterion(t *testing.T) {
	sp := spectest.Builtin(t, "lejeune")
	for _, loan := range []int{0, 1} {
		vals, err := sp.Resolve(map[string]int{"N": 3, "M": 2, "loan": loan})
		if err != nil {
			t.Fatal(err)
		}
		sys, err := sp.Build(vals)
		if err != nil {
			t.Fatal(err)
		}
		rep := check(t, sys, invariants.Safety, invariants.Deadlock, invariants.Starvation)
		if !rep.Search.Complete() {
			t.Fatalf("loan=%d: search stopped: %v", loan, rep.Search.Stop)
		}
		want := map[invariants.Property]invariants.Verdict{
			invariants.Safety: invariants.Violated, invariants.Deadlock: invariants.Holds, invariants.Starvation: invariants.Holds,
		}
		for _, o := range rep.Outcomes {
			if o.Verdict != want[o.Property] {
				t.Errorf("loan=%d: %s %s (%s), want %s", loan, o.Property, o.Verdict, o.Reason, want[o.Property])
			}
			if o.Counterexample != nil {
				if err := o.Counterexample.Replay(sys); err != nil {
					t.Error(err)
				}
			}
		}
		t.Logf("loan=%d (%v): %d states, %d transitions", loan, vals, rep.Search.States, rep.Search.Transitions)
	}
}
