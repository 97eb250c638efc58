package counterflush_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/spectest"
	"github.com/ringcheck/ringcheck/specs/spintest"
)

// twin is the Promela twin of the spec (see its header).
const twin = "testdata/counterflush.pml"

// spinPanFlags bound pan's depth-first search far above the models' depth
// and give it a hash table larger than their state counts.
var spinPanFlags = []string{"-m100000", "-w20"}

// TestSPINTwinReachable checks testdata/counterflush.pml, started from the
// spec's initial configuration, against ringcheck's BFS from init on
// n=3, Cmax=1.
//
// Relation found: pan stores ringcheck's 18 states + 1. The extra state is
// SPIN's global initial state, before init's atomic sequence has started
// the processes and put Token(0) in ch[N-1] (pan does not store the
// sequence's intermediate states). pan's transitions (stored+matched) are
// ringcheck's + 2: one for the root state and one for init's sequence,
// besides one per ring move.
func TestSPINTwinReachable(t *testing.T) {
	const n, cmax = 3, 1
	sys := spectest.Build(t, "counterflush", specs.Values{"n": n, "Cmax": cmax})
	ours, err := explore.BFS(context.Background(), sys, spectest.NopMonitor{}, explore.Options{})
	if err != nil {
		t.Fatalf("exploring from init: %v", err)
	}
	if ours.States != 18 || !ours.Complete() {
		t.Fatalf("ringcheck reached %d states (complete %v), want n·M = 18", ours.States, ours.Complete())
	}

	r := spintest.Run(t, twin, map[string]int{"N": n, "CMAX": cmax}, spinPanFlags...)
	t.Logf("pan: %d stored, %d transitions, %d errors; ringcheck: %d states, %d transitions",
		r.StatesStored, r.Transitions, r.Errors, ours.States, ours.Transitions)
	if r.Errors != 0 || !r.Complete || r.DepthTruncated {
		t.Fatalf("pan: %d errors (%s; want 0: the ring never deadlocks), complete %v, depth truncated %v\n%s",
			r.Errors, r.Violation, r.Complete, r.DepthTruncated, r.Output)
	}
	if want := ours.States + 1; r.StatesStored != want {
		t.Errorf("pan stored %d states, want ringcheck's %d + 1 (SPIN's pre-init state) = %d", r.StatesStored, ours.States, want)
	}
	if want := ours.Transitions + 2; r.Transitions != want {
		t.Errorf("pan made %d transitions, want ringcheck's %d + 2 = %d", r.Transitions, ours.Transitions, want)
	}
}

// configurations returns the number of configurations of the n-process
// ring: M^n counters times, per channel, 1 + M + … + M^Cmax contents.
func configurations(n, cmax int) int64 {
	m := int64(n * (cmax + 1))
	var perChan, pow int64 = 0, 1
	for range cmax + 1 {
		perChan += pow
		pow *= m
	}
	total := int64(1)
	for range n {
		total *= m * perChan
	}
	return total
}

// TestSPINTwinConverges checks the twin's convergence verdict (-DCONVERGE:
// from every configuration, ltl <> (started && legit), pan -a without
// fairness) against ringcheck's convergence check from all configurations:
// both say convergence holds. pan stores every configuration (each is a
// leaf of init's choice tree) plus the pre-init state.
func TestSPINTwinConverges(t *testing.T) {
	if _, _, err := spintest.Tools(); err != nil {
		t.Skipf("skipping SPIN comparison: %v", err)
	}
	// -O0: gcc compiles pan.c several times faster; the searches are tiny.
	cflags := append(spintest.LivenessCFlags(), "-O0")
	for _, c := range []struct{ n, cmax int }{{2, 1}, {3, 1}} {
		t.Run(fmt.Sprintf("n=%d,Cmax=%d", c.n, c.cmax), func(t *testing.T) {
			t.Parallel()
			total := configurations(c.n, c.cmax)

			sys := spectest.Build(t, "counterflush", specs.Values{"n": c.n, "Cmax": c.cmax})
			rep, err := invariants.Check(context.Background(), sys, invariants.Options{
				Properties: []invariants.Property{invariants.Convergence},
				From:       invariants.FromAll,
				Search:     explore.Options{Workers: 2},
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Outcomes) != 1 || rep.Outcomes[0].Verdict != invariants.Holds {
				t.Fatalf("ringcheck: %+v, want convergence holds", rep.Outcomes)
			}

			m := spintest.CompileWith(t, twin, map[string]int{"N": c.n, "CMAX": c.cmax, "CONVERGE": 1}, cflags)
			r := m.Run(t, append([]string{"-a"}, spinPanFlags...)...)
			if r.DepthTruncated {
				t.Fatalf("pan's search depth was cut by -m\n%s", r.Output)
			}
			if r.Errors != 0 || !r.Complete {
				t.Fatalf("pan: %d errors (%s), complete %v; want 0 errors: ringcheck says convergence holds\n%s",
					r.Errors, r.Violation, r.Complete, r.Output)
			}
			if r.StatesStored != total+1 {
				t.Errorf("pan stored %d states, want %d configurations + 1 (pre-init state) = %d", r.StatesStored, total, total+1)
			}
			if st := rep.Stabilization; st != nil && st.Configurations != uint64(total) {
				t.Errorf("ringcheck checked %d configurations, want %d", st.Configurations, total)
			}
			t.Logf("convergence holds in both: pan stored %d states (%d visited), 0 errors; ringcheck %s over %d configurations",
				r.StatesStored, r.Visited, rep.Outcomes[0].Verdict, total)
		})
	}
}
