package raynal_test

import (
	"fmt"
	"math/bits"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/specs/spectest"
	"github.com/ringcheck/ringcheck/specs/spintest"
)

// twin is the Promela twin of the spec.
const twin = "testdata/raynal.pml"

// raynalPanFlags are the pan options for a search of about states states:
// a depth bound well above the depth pan's depth-first search reaches (at
// most a few dozen steps on these instances: every execution is finite;
// the callers check that pan did not report it too small) and a hash table
// with about as many slots as states.
func raynalPanFlags(states int64) []string {
	return []string{"-m100000", fmt.Sprintf("-w%d", bits.Len64(uint64(states)))}
}

// raynalFastCompile is spintest.CFlags with -O0, which compiles pan.c
// several times faster than -O2: pan runs slower, which costs less on
// the tests' searches, well under a second.
func raynalFastCompile() []string { return append(spintest.CFlags(), "-O0") }

// twinDefines are the -D defines of testdata/raynal.pml for instance p
// (count=0, Cmax=0: the twin's CMAX defaults to 3R), with the invariants
// asserted (inv) or not.
func twinDefines(p params, inv bool) map[string]int {
	k := p.k
	if k == 0 {
		k = p.m
	}
	return map[string]int{"N": p.n, "M": p.m, "K": k, "R": p.r, "ASKED": p.asked, "INV": b2i(inv)}
}

// reachableRaynal counts the states and transitions ringcheck reaches
// from the initial configuration of p.
func reachableRaynal(t testing.TB, p params) *explore.Result {
	t.Helper()
	sys, _ := build(t, p)
	return spectest.Reachable(t, sys)
}

// TestSPINTwinAgrees checks testdata/raynal.pml against ringcheck's model
// from the initial configuration, for §3 (asked=0) and §5.1 (asked=1).
//
// Relation found: pan (safety mode, no -E) stores exactly ringcheck's
// reachable count + 1 and makes ringcheck's transitions + 2, for both
// versions:
//
//	n=2 M=2 R=2 asked=0        674 =     673 + 1,    1160 =    1158 + 2
//	n=2 M=1 R=2 asked=0        141 =     140 + 1,     192 =     190 + 2
//	n=2 M=2 R=3 asked=0       2308 =    2307 + 1,    4144 =    4142 + 2
//	n=2 M=3 K=2 R=2 asked=0    962 =     961 + 1,    1758 =    1756 + 2
//	n=3 M=2 R=1 asked=0      24942 =   24941 + 1,   74063 =   74061 + 2
//	n=2 M=2 R=2 asked=1        679 =     678 + 1,    1142 =    1140 + 2
//	n=2 M=2 R=3 asked=1       2510 =    2509 + 1,    4512 =    4510 + 2
//	n=3 M=2 R=1 asked=1      24942 =   24941 + 1,   74063 =   74061 + 2
//	n=3 M=2 R=2 asked=0    1096553 = 1096552 + 1, 3680704 = 3680702 + 2  (benchmarks)
//
// The extra state is SPIN's global initial state, before init's atomic
// sequence has started the processes; pan does not store the
// intermediate states of that sequence nor of the actions' d_steps, the
// Node proctypes loop at one control state, each App's control state is
// a function of its process's reqs and busy flags (it makes its R
// requests and leaves in an unrolled sequence), the process parameters
// and init's local are constant, the scratch variables are hidden and the
// diagonal channels and used/delayed/asked entries are never written, so
// every other stored state is one of ringcheck's configurations. The
// extra transitions are init's atomic step and the arrival pan counts for
// its root state; every other pan transition is one ringcheck move (one
// d_step per action and request choice). pan finds no invalid end state:
// SPIN agrees with ringcheck that the only configurations without a step
// are the valid end states (every App at its end label: every process
// idle with its R requests made, every channel empty), so neither version
// deadlocks. With asked=0 the invariants are asserted in every d_step and
// hold on every reachable state; with asked=1 (unsafe, see
// TestSPINVariantVerdict) the counts are taken without the assertions.
func TestSPINTwinAgrees(t *testing.T) {
	for _, p := range []params{
		{n: 2, m: 2, r: 2},
		{n: 2, m: 1, r: 2},
		{n: 2, m: 2, r: 3},
		{n: 2, m: 3, k: 2, r: 2},
		{n: 3, m: 2, r: 1},
		{n: 2, m: 2, r: 2, asked: 1},
		{n: 2, m: 2, r: 3, asked: 1},
		{n: 3, m: 2, r: 1, asked: 1},
	} {
		t.Run(p.String(), func(t *testing.T) {
			ours := reachableRaynal(t, p)
			m := spintest.CompileWith(t, twin, twinDefines(p, p.asked == 0), raynalFastCompile())
			r := m.Run(t, raynalPanFlags(ours.States)...)
			t.Logf("pan: %d stored, %d transitions, %.2fs, %.1f MB; ringcheck: %d states, %d transitions, %v",
				r.StatesStored, r.Transitions, r.Seconds, r.MemoryMB, ours.States, ours.Transitions, ours.Elapsed)
			if r.Errors != 0 || !r.Complete || r.DepthTruncated {
				t.Fatalf("pan: %d errors (%s), complete %v, depth truncated %v; want a full search with no violation and no deadlock\n%s",
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

// TestSPINVariantVerdict is SPIN's verdict on the spec's finding (see
// TestVariantUnsafe): for n=2, M=2, R=2, with the invariants asserted in
// every d_step, pan finds that §5.1 (asked=1) violates units_allocated
// (the assertion hs <= M, hs being Σ k_i over processes with ok_i), as
// ringcheck's safety check does, while §3 (asked=0) satisfies both
// invariants on every reachable state. pan is compiled with -DREACH and
// run with -i, so its trail is a shortest one: 13 process steps after
// init's, ringcheck's 13, ending, like ringcheck's, with P0 using 2 units
// and P1 using 1.
func TestSPINVariantVerdict(t *testing.T) {
	flags := append(raynalFastCompile(), "-DREACH")
	t.Run("asked=0", func(t *testing.T) {
		p := params{n: 2, m: 2, r: 2}
		m := spintest.CompileWith(t, twin, twinDefines(p, true), flags)
		r := m.Run(t, append(raynalPanFlags(1000), "-i")...)
		if r.Errors != 0 || !r.Complete || r.DepthTruncated {
			t.Fatalf("pan: %d errors (%s), complete %v, depth truncated %v; want the invariants to hold\n%s",
				r.Errors, r.Violation, r.Complete, r.DepthTruncated, r.Output)
		}
	})
	t.Run("asked=1", func(t *testing.T) {
		p := params{n: 2, m: 2, r: 2, asked: 1}
		sys, _ := build(t, p)
		safety := spectest.Check(t, sys, spectest.WeakFairnessFromInit(invariants.Safety)).Outcomes[0]
		if safety.Verdict != invariants.Violated || safety.Counterexample == nil {
			t.Fatalf("ringcheck: safety %s (%s), want violated with a counterexample", safety.Verdict, safety.Reason)
		}
		m := spintest.CompileWith(t, twin, twinDefines(p, true), flags)
		r := m.Run(t, append(raynalPanFlags(1000), "-i")...)
		want := fmt.Sprintf("assertion violated (hs<=%d)", p.m)
		if r.Errors == 0 || !strings.HasPrefix(r.Violation, want) {
			t.Fatalf("pan: %d errors (%q); want %q, the units_allocated assertion\n%s", r.Errors, r.Violation, want, r.Output)
		}
		trail := m.Replay(t)
		var steps []string
		for _, s := range trail.Steps {
			if s.Proc != ":init:" {
				// init is pid 0, then Node(i) and App(i) are 2i+1 and 2i+2.
				steps = append(steps, fmt.Sprintf("%s(%d)", s.Proc, (s.Pid-1)/2))
			}
		}
		t.Logf("pan: %s; ringcheck: %s; pan's %d process steps: %s",
			r.Violation, safety.Reason, len(steps), strings.Join(steps, " "))
		if got, want := len(steps), len(safety.Counterexample.Steps); got != want || want != 13 {
			t.Errorf("pan's shortest trail has %d process steps, ringcheck's %d; want both 13", got, want)
		}
		last := trail.Steps[len(trail.Steps)-1].Globals
		if last["ok[0]"] != 1 || last["k[0]"] != 2 || last["ok[1]"] != 1 || last["k[1]"] != 1 {
			t.Errorf("pan's trail ends with ok=[%d %d] k=[%d %d], want P0 using 2 units and P1 using 1",
				last["ok[0]"], last["ok[1]"], last["k[0]"], last["k[1]"])
		}
	})
}
