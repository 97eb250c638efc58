package thiare_test

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/spectest"
	"github.com/ringcheck/ringcheck/specs/spintest"
	"github.com/ringcheck/ringcheck/specs/thiare"
)

// bench is the benchmarked instance, n=4 with R=3 requests each (the
// other parameters at their defaults: one resource, no Rule 4, Rule 2 as
// written), the largest of the spec's deadlock-free instances whose search
// takes a few seconds (about 1.5 s for ringcheck on two cores, 2 s for
// pan; n=4 with R=2, 89308 states, takes a third of a second); from its
// initial configuration ringcheck reaches benchStates configurations by
// benchTransitions transitions, and pan stores one state more and makes
// two transitions more (see TestSPINTwinAgrees).
var bench = twinInstance{n: 4, r: 3, res: 1, resend: 0, replace: 1}

const (
	benchStates      = 646582
	benchTransitions = 1487485
)

// BenchmarkReachable is ringcheck's exhaustive breadth-first search of the
// configurations reachable from the initial one (explore.BFS with a
// monitor that checks nothing, on every core), reporting the states, states
// per second, the bytes per state of the state store and visited set
// (store-bytes/state), and the peak live heap, whole and per state:
//
//	go test ./specs/thiare -run '^$' -bench Reachable -benchtime 1x
func BenchmarkReachable(b *testing.B) {
	b.Run(bench.String(), func(b *testing.B) {
		sys, err := thiare.Build(bench.values(b), specs.BuildOptions{})
		if err != nil {
			b.Fatal(err)
		}
		var (
			res  *explore.Result
			peak uint64
		)
		for b.Loop() {
			heap := explore.StartHeapSampler(10 * time.Millisecond)
			res, err = explore.BFS(context.Background(), sys, spectest.NopMonitor{}, explore.Options{Workers: runtime.GOMAXPROCS(0)})
			peak = max(peak, heap.Stop())
			if err != nil {
				b.Fatal(err)
			}
		}
		if !res.Complete() || res.States != benchStates || res.Transitions != benchTransitions {
			b.Fatalf("ringcheck: %d states, %d transitions, stop %v; want %d and %d, complete",
				res.States, res.Transitions, res.Stop, benchStates, benchTransitions)
		}
		b.ReportMetric(float64(res.States), "states")
		b.ReportMetric(float64(res.States)/res.Elapsed.Seconds(), "states/s")
		b.ReportMetric(float64(res.StoreBytes)/float64(res.States), "store-bytes/state")
		b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
		b.ReportMetric(float64(peak)/float64(res.States), "bytes/state")
	})
}

// BenchmarkSPIN runs SPIN's exhaustive search of testdata/thiare.pml on the
// same instance: pan in safety mode (no partial-order reduction, no
// compression; see spintest.CFlags), compiled once, outside the timed loop,
// without -E (it finds no invalid end state: no deadlock) and with the
// mutex assertions on (none fails). It checks that pan stores ringcheck's
// states + 1 and makes its transitions + 2, and reports pan's stored
// states, its rate (pan's "pan: rate" line), its memory (pan's "memory
// usage (Mbyte)": hash table, state store and search stack) and that
// memory per stored state:
//
//	go test ./specs/thiare -run '^$' -bench SPIN -benchtime 1x
func BenchmarkSPIN(b *testing.B) {
	b.Run(bench.String(), func(b *testing.B) {
		const want = benchStates + 1
		m := spintest.Compile(b, twin, bench.defines())
		flags := thiarePanFlags(want)
		var r spintest.Result
		for b.Loop() {
			r = m.Run(b, flags...)
		}
		if r.Errors != 0 || !r.Complete || r.DepthTruncated || r.StatesStored != want || r.Transitions != benchTransitions+2 {
			b.Fatalf("pan: %d stored (want %d), %d transitions (want %d), %d errors, complete %v, depth truncated %v\n%s",
				r.StatesStored, want, r.Transitions, benchTransitions+2, r.Errors, r.Complete, r.DepthTruncated, r.Output)
		}
		rate := r.StatesPerSecond
		if rate == 0 && r.Seconds > 0 {
			rate = float64(r.StatesStored) / r.Seconds
		}
		b.ReportMetric(float64(r.StatesStored), "spin-states")
		b.ReportMetric(rate, "spin-states/s")
		b.ReportMetric(r.MemoryMB, "spin-MB")
		b.ReportMetric(r.MemoryMB*(1<<20)/float64(r.StatesStored), "spin-bytes/state")
	})
}
