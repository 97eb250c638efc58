package raynal_test

import (
	"slices"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs/internal/raynaltest"
	"github.com/ringcheck/ringcheck/specs/spectest"
)

// TestPropositionsP2P4 decides §4.2's P2 and §4.4's P4 as leads-to
// properties, with recurring requests (so that they are not implied by
// every execution being finite) on the instances where clock_window holds,
// under fairness per action (every message received in finite time):
//   - P2: a process waiting while a process with a later timestamp is in
//     its critical section eventually enters (overtaken ~> inCS);
//   - P4: the waiting request of lowest timestamp that asks for no more
//     than the units not granted is eventually granted (first_fits ~>
//     inCS);
//
// and, with M=1, the remark after P2 as the invariant timestamp_order (the
// process in its critical section has priority over every waiting one),
// which safety checks along with clock_window.
func TestPropositionsP2P4(t *testing.T) {
	for _, tc := range []struct {
		n, m   int
		states int64
	}{
		{2, 1, 396},
		{2, 2, 2684},
		{3, 1, 48495},
	} {
		sys, _ := buildWindow(t, tc.n, tc.m, 0, 0)
		// The file declares timestamp_order for every M; it says nothing
		// (M != 1 || ...) when M ≥ 2, where a process is overtaken
		// (TestP2PredicatesAreNotVacuous).
		if !slices.ContainsFunc(sys.Invariants, func(p model.Predicate) bool { return p.Name == "timestamp_order" }) {
			t.Fatalf("n=%d M=%d: no invariant timestamp_order", tc.n, tc.m)
		}
		for _, from := range []string{"overtaken", "first_fits"} {
			rep := spectest.Check(t, sys, invariants.Options{
				Properties: []invariants.Property{invariants.Safety, invariants.LeadsToProperty},
				From:       invariants.FromInit,
				Fairness:   invariants.WeakActionFairness,
				LeadsTo:    invariants.LeadsTo{From: from, To: "inCS"},
				Search:     explore.Options{Workers: spectest.Workers},
			})
			if rep.Search.States != tc.states {
				t.Errorf("n=%d M=%d: %d states, want %d", tc.n, tc.m, rep.Search.States, tc.states)
			}
			for _, o := range rep.Outcomes {
				if o.Verdict != invariants.Holds {
					t.Errorf("n=%d M=%d, %s ~> inCS: %s %s (%s)", tc.n, tc.m, from, o.Property, o.Verdict, o.Reason)
				}
			}
		}
	}
}

// TestP2PredicatesAreNotVacuous: with M ≥ 2 a process does wait while
// one with a later timestamp is inside (the virtual order of the remark
// after P2 is not the actual one), so the leads-to of P2 is about
// something; with M=1 it never does (timestamp_order), and P2 holds
// vacuously. The lowest waiting request fits in both.
func TestP2PredicatesAreNotVacuous(t *testing.T) {
	for _, tc := range []struct {
		n, m      int
		overtaken bool
	}{
		{2, 2, true},
		{3, 1, false},
	} {
		sys, _ := buildWindow(t, tc.n, tc.m, 0, 0)
		seen := map[string]bool{}
		for _, name := range []string{"overtaken", "first_fits"} {
			p, ok := sys.ProcessPredicateByName(name)
			if !ok {
				t.Fatalf("no process predicate %q", name)
			}
			raynaltest.Visit(t, sys, func(s *model.State) {
				for i := 0; i < sys.N(); i++ {
					seen[name] = seen[name] || p.Holds(s, i)
				}
			})
		}
		if seen["overtaken"] != tc.overtaken || !seen["first_fits"] {
			t.Errorf("n=%d M=%d: overtaken seen %v (want %v), first_fits seen %v (want true)", tc.n, tc.m, seen["overtaken"], tc.overtaken, seen["first_fits"])
		}
	}
}
