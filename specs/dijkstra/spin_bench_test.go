package dijkstra_test

import (
	"context"
	"fmt"
	"math/bits"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/spectest"
	"github.com/ringcheck/ringcheck/specs/spintest"
)

// twin is the Promela twin of the spec.
const twin = "testdata/dijkstra.pml"

// configs returns K^n, the number of configurations of the ring.
func configs(n, k int) int64 {
	c := int64(1)
	for range n {
		c *= int64(k)
	}
	return c
}

// panFlags are the pan options for a search of about states states: a depth
// bound far above the ring's (depth-first) depth and a hash table with at
// least as many slots as states.
func panFlags(states int64) []string {
	return []string{"-m100000", fmt.Sprintf("-w%d", bits.Len64(uint64(states)))}
}

// TestSPINTwinAgrees checks testdata/dijkstra.pml against ringcheck's model
// on n=4, K=4, started from every configuration.
//
// Relation found: pan stores K^n + 1 states, ringcheck's full sweep visits
// K^n. The one extra state is SPIN's global initial state, before init's
// atomic sequence has chosen the x[i]; pan does not store the sequence's
// intermediate states. pan's transitions (stored+matched) are 1 + K^n + E,
// where E is ringcheck's transition count (one per privileged process per
// configuration): one arrival for the root state, one arrival per
// configuration from init's choice tree, and one per ring move.
func TestSPINTwinAgrees(t *testing.T) {
	const n, k = 4, 4
	sys := spectest.Build(t, "dijkstra", specs.Values{"n": n, "K": k})
	ours, err := explore.Sweep(context.Background(), sys, spectest.NopMonitor{}, explore.Options{})
	if err != nil {
		t.Fatalf("sweeping the configurations: %v", err)
	}
	if ours.States != configs(n, k) {
		t.Fatalf("ringcheck swept %d configurations, want K^n = %d", ours.States, configs(n, k))
	}

	r := spintest.Run(t, twin, map[string]int{"N": n, "K": k}, panFlags(ours.States)...)
	t.Logf("pan: %d stored, %d transitions, %d errors; ringcheck: %d states, %d transitions",
		r.StatesStored, r.Transitions, r.Errors, ours.States, ours.Transitions)
	if r.Errors != 0 || !r.Complete || r.DepthTruncated {
		t.Fatalf("pan: %d errors (want 0: the ring never deadlocks), complete %v, depth truncated %v\n%s",
			r.Errors, r.Complete, r.DepthTruncated, r.Output)
	}
	if want := ours.States + 1; r.StatesStored != want {
		t.Errorf("pan stored %d states, want ringcheck's %d + 1 (SPIN's pre-init state) = %d", r.StatesStored, ours.States, want)
	}
	if want := 1 + ours.States + ours.Transitions; r.Transitions != want {
		t.Errorf("pan made %d transitions, want 1 + %d + %d = %d", r.Transitions, ours.States, ours.Transitions, want)
	}
}

// BenchmarkSPINDijkstraAll runs SPIN's exhaustive search of the twin from all
// K^n configurations (no partial-order reduction, no compression; see
// spintest.CFlags), compiling pan once outside the timed loop. configs/s is
// K^n over pan's own elapsed time, comparable with ringcheck's sweep rate.
func BenchmarkSPINDijkstraAll(b *testing.B) {
	for _, c := range []struct{ n, k int }{{7, 7}, {8, 8}} {
		b.Run(fmt.Sprintf("n=%d,K=%d", c.n, c.k), func(b *testing.B) {
			total := configs(c.n, c.k)
			m := spintest.Compile(b, twin, map[string]int{"N": c.n, "K": c.k})
			flags := panFlags(total + 1)
			var r spintest.Result
			for b.Loop() {
				r = m.Run(b, flags...)
			}
			if r.Errors != 0 || !r.Complete || r.DepthTruncated || r.StatesStored != total+1 {
				b.Fatalf("pan: %d stored (want K^n+1 = %d), %d errors, complete %v, depth truncated %v\n%s",
					r.StatesStored, total+1, r.Errors, r.Complete, r.DepthTruncated, r.Output)
			}
			rate := r.StatesPerSecond
			if rate == 0 && r.Seconds > 0 {
				rate = float64(r.StatesStored) / r.Seconds
			}
			b.ReportMetric(float64(r.StatesStored), "spin-states")
			b.ReportMetric(rate, "spin-states/s")
			if r.Seconds > 0 {
				b.ReportMetric(float64(total)/r.Seconds, "configs/s")
			}
			b.ReportMetric(r.MemoryMB, "spin-MB")
		})
	}
}
