package thiare_test

import (
	"fmt"
	"math/bits"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/spectest"
	"github.com/ringcheck/ringcheck/specs/spintest"
)

// twin is the Promela twin of the spec.
const twin = "testdata/thiare.pml"

// twinInstance is one instance of the spec and of the twin: the twin's
// defines N, R, RES, RESEND and REPLACE are the spec's n, requests,
// resources, resend and replace (Cmax is the default, every token that can
// exist, in both).
type twinInstance struct{ n, r, res, resend, replace int }

func (in twinInstance) String() string {
	return fmt.Sprintf("n=%d,requests=%d,resources=%d,resend=%d,replace=%d", in.n, in.r, in.res, in.resend, in.replace)
}

func (in twinInstance) values(tb testing.TB) specs.Values {
	tb.Helper()
	return spectest.Resolve(tb, spectest.Builtin(tb, "thiare"), "n", in.n, "requests", in.r, "resources", in.res,
		"resend", in.resend, "replace", in.replace, "Cmax", 0)
}

func (in twinInstance) defines() map[string]int {
	return map[string]int{"N": in.n, "R": in.r, "RES": in.res, "RESEND": in.resend, "REPLACE": in.replace}
}

// thiarePanFlags are the pan options for a search of about states states:
// a depth bound far above the depth pan's depth-first search reaches (at
// most 64 on the tests' instances; the callers check that pan did not
// report it too small) and a hash table with about as many slots as
// states.
func thiarePanFlags(states int64) []string {
	return []string{"-m100000", fmt.Sprintf("-w%d", max(bits.Len64(uint64(states)), 10))}
}

// fastCompile is spintest.CFlags with -O0, which compiles pan.c several
// times faster than -O2; pan runs slower, which costs less on the tests'
// searches, well under a second each.
func fastCompile() []string { return append(spintest.CFlags(), "-O0") }

// reachableThiare counts the states and transitions ringcheck reaches from
// the initial configuration of in.
func reachableThiare(t testing.TB, in twinInstance) *explore.Result {
	t.Helper()
	return spectest.Reachable(t, spectest.Build(t, "thiare", in.values(t)))
}

// TestSPINTwinAgrees checks testdata/thiare.pml against ringcheck's model
// from the initial configuration.
//
// Relation found: pan (safety mode, no -E) stores exactly ringcheck's
// reachable count + 1 and makes ringcheck's transitions + 2:
//
//	n=3 R=2 (default)           3101 =   3100 + 1,    5700 =   5698 + 2
//	n=4 R=2                    89309 =  89308 + 1,  201039 = 201037 + 2
//	n=2 R=1                       31 =     30 + 1,      40 =     38 + 2
//	n=4 R=1                     3383 =   3382 + 1,    7090 =   7088 + 2
//	n=3 R=1 resources=2         2090 =   2089 + 1,    4370 =   4368 + 2
//	n=3 R=1 resend=1            2339 =   2338 + 1,    4680 =   4678 + 2
//	n=5 R=1 replace=0          43906 =  43905 + 1,  108949 = 108947 + 2
//	n=3 R=2 resend=1 (pan -A) 359500 = 359499 + 1,  945911 = 945909 + 2
//
// The extra state is SPIN's global initial state, before init's atomic
// sequence has started the processes; pan does not store the intermediate
// states of that sequence nor of the actions' d_steps, every proctype
// stays at one control state (Watch moves only in a deadlock), the process
// parameters and init's local are constant, the scratch variables are
// hidden, and intransit (the timeout's guard) is a function of the
// channels, so every other stored state is one of ringcheck's
// configurations. The extra transitions are init's atomic step and the
// arrival pan counts for its root state; every other pan transition is one
// ringcheck move (one d_step per request, leave and timeout, and one
// d_step for the six mutually exclusive receipt actions, exactly one of
// which is enabled when the incoming channel is not empty). On these
// instances pan finds no invalid end state, as ringcheck finds no
// deadlock. The last instance violates mutex (Rule 4, see
// TestRule4StaleTokenBreaksSafety), so pan runs with -A (assertions
// ignored) to search it whole; TestSPINTwinAgreesOnVerdicts checks the
// violation; -short skips it.
//
// n=4 R=3 is the benchmarks' instance: BenchmarkReachable and
// BenchmarkSPIN check the same relation there, 646583 = 646582 + 1 states
// and 1487487 = 1487485 + 2 transitions.
func TestSPINTwinAgrees(t *testing.T) {
	for _, tc := range []struct {
		in     twinInstance
		panArg []string
	}{
		{twinInstance{3, 2, 1, 0, 1}, nil},
		{twinInstance{2, 1, 1, 0, 1}, nil},
		{twinInstance{4, 1, 1, 0, 1}, nil},
		{twinInstance{4, 2, 1, 0, 1}, nil},
		{twinInstance{3, 1, 2, 0, 1}, nil},
		{twinInstance{3, 1, 1, 1, 1}, nil},
		{twinInstance{5, 1, 1, 0, 0}, nil},
		{twinInstance{3, 2, 1, 1, 1}, []string{"-A"}},
	} {
		in := tc.in
		t.Run(in.String(), func(t *testing.T) {
			if testing.Short() && in.resend == 1 && in.r > 1 {
				t.Skip("short: 359499 states, a few seconds for each checker")
			}
			t.Parallel()
			ours := reachableThiare(t, in)
			m := spintest.CompileWith(t, twin, in.defines(), fastCompile())
			r := m.Run(t, append(thiarePanFlags(ours.States), tc.panArg...)...)
			t.Logf("pan: %d stored, %d transitions, %.2fs, %.1f MB; ringcheck: %d states, %d transitions, %v",
				r.StatesStored, r.Transitions, r.Seconds, r.MemoryMB, ours.States, ours.Transitions, ours.Elapsed)
			if r.Errors != 0 || !r.Complete || r.DepthTruncated {
				t.Fatalf("pan: %d errors (%s), complete %v, depth truncated %v; want a full search with no error\n%s",
					r.Errors, r.Violation, r.Complete, r.DepthTruncated, r.Output)
			}
			if want := ours.States + 1; r.StatesStored != want {
				t.Errorf("pan stored %d states, want ringcheck's %d + 1 (SPIN's pre-init state) = %d", r.StatesStored, ours.States, want)
			}
			if want := ours.Transitions + 2; r.Transitions != want {
				t.Errorf("pan made %d transitions, want ringcheck's %d + 2 = %d", r.Transitions, ours.Transitions, want)
			}
		})
	}
}

// TestSPINTwinAgreesOnVerdicts checks that SPIN and ringcheck agree on the
// spec's two findings and on their absence:
//
//   - n=5 R=1, Rule 2 as written: ringcheck finds a deadlock
//     (TestRule2Deadlock) and pan, in safety mode without -E, an invalid
//     end state (the twin's Watch process reports a configuration with no
//     step that is not the valid end state "every node served, idle, no
//     token in transit"); with replace=0 neither finds one (the twin's
//     valid end states are exactly the spec's).
//   - n=3 R=2 with Rule 4 (resend=1): ringcheck finds mutex violated
//     (TestRule4StaleTokenBreaksSafety) and pan the assertion of enter;
//     without Rule 4 neither does.
func TestSPINTwinAgreesOnVerdicts(t *testing.T) {
	for _, tc := range []struct {
		in        twinInstance
		prop      invariants.Property
		violated  bool
		violation string // the start of pan's "pan:1:" line
	}{
		{twinInstance{5, 1, 1, 0, 1}, invariants.Deadlock, true, "invalid end state"},
		{twinInstance{5, 1, 1, 0, 0}, invariants.Deadlock, false, ""},
		{twinInstance{3, 2, 1, 1, 1}, invariants.Safety, true, "assertion violated"},
		{twinInstance{3, 2, 1, 0, 1}, invariants.Safety, false, ""},
	} {
		in := tc.in
		t.Run(fmt.Sprintf("%s/%s", in, tc.prop), func(t *testing.T) {
			t.Parallel()
			sys := spectest.Build(t, "thiare", in.values(t))
			rep := spectest.Check(t, sys, spectest.WeakFairnessFromInit(tc.prop))
			o := rep.Outcomes[0]
			want := invariants.Holds
			if tc.violated {
				want = invariants.Violated
			}
			if o.Verdict != want {
				t.Fatalf("ringcheck: %s %s, want %s", tc.prop, o.Verdict, want)
			}
			m := spintest.CompileWith(t, twin, in.defines(), fastCompile())
			r := m.Run(t, thiarePanFlags(200000)...)
			t.Logf("ringcheck: %s %s; pan: %d errors (%s), %d stored", tc.prop, o.Verdict, r.Errors, r.Violation, r.StatesStored)
			if r.DepthTruncated {
				t.Fatalf("pan: depth bound too small\n%s", r.Output)
			}
			if !tc.violated {
				if r.Errors != 0 || !r.Complete {
					t.Fatalf("pan: %d errors (%s), complete %v; want none, as ringcheck\n%s", r.Errors, r.Violation, r.Complete, r.Output)
				}
				if cnt := rep.Search.States; r.StatesStored != cnt+1 {
					t.Errorf("pan stored %d states, want ringcheck's %d + 1", r.StatesStored, cnt)
				}
				return
			}
			if r.Errors == 0 || !strings.HasPrefix(r.Violation, tc.violation) {
				t.Fatalf("pan: %d errors (%q); want %q, as ringcheck's %s violation\n%s", r.Errors, r.Violation, tc.violation, tc.prop, r.Output)
			}
		})
	}
}
