package klddhl_test

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/klddhl"
	"github.com/ringcheck/ringcheck/specs/spectest"
	"github.com/ringcheck/ringcheck/specs/spintest"
)

// benchN, benchL and benchK are the benchmarked instance, the one of the
// spec's claims; from its initial configuration ringcheck reaches
// benchStates configurations by benchTransitions transitions, and pan
// stores one state more and makes two transitions more (see
// TestSPINTwinAgrees).
const (
	benchN, benchL, benchK = 3, 2, 2
	benchStates            = 2230974
	benchTransitions       = 8439120
)

var benchName = fmt.Sprintf("n=%d,L=%d,K=%d", benchN, benchL, benchK)

// BenchmarkReachable is ringcheck's exhaustive breadth-first search of the
// configurations reachable from the initial one (explore.BFS with a
// monitor that checks nothing, on every core), reporting the states, states
// per second, the bytes per state of the state store and visited set
// (store-bytes/state), and the peak live heap, whole and per state:
//
//	go test ./specs/klddhl -run '^$' -bench Reachable -benchtime 1x
func BenchmarkReachable(b *testing.B) {
	b.Run(benchName, func(b *testing.B) {
		sys, err := klddhl.Build(specs.Values{"n": benchN, "L": benchL, "K": benchK, "Cmax": 0, "staycs": 0}, specs.BuildOptions{})
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

// BenchmarkSPIN runs SPIN's exhaustive search of testdata/klddhl.pml on the
// same instance: pan in safety mode (no partial-order reduction, no
// compression; see spintest.CFlags), compiled once, outside the timed loop,
// without -E (it finds no invalid end state: no deadlock). It checks that
// pan stores ringcheck's states + 1 and makes its transitions + 2, and
// reports pan's stored states, its rate (pan's "pan: rate" line), its
// memory (pan's "memory usage (Mbyte)": hash table, state store and search
// stack) and that memory per stored state:
//
//	go test ./specs/klddhl -run '^$' -bench SPIN -benchtime 1x
func BenchmarkSPIN(b *testing.B) {
	b.Run(benchName, func(b *testing.B) {
		const want = benchStates + 1
		m := spintest.Compile(b, twin, map[string]int{"N": benchN, "L": benchL, "K": benchK})
		flags := ddhlPanFlags(want)
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

// BenchmarkStarvation is ringcheck's starvation check under weak fairness
// from the initial configuration (every process, at once), which the spec
// claims holds, reporting the states, states per second over the whole
// check (search and the fairness analysis), and the peak live heap, whole
// and per state:
//
//	go test ./specs/klddhl -run '^$' -bench Starvation -benchtime 1x
func BenchmarkStarvation(b *testing.B) {
	if err := invariants.Implemented(invariants.Starvation); err != nil {
		b.Skip(err)
	}
	b.Run(benchName, func(b *testing.B) {
		sys, err := klddhl.Build(specs.Values{"n": benchN, "L": benchL, "K": benchK, "Cmax": 0, "staycs": 0}, specs.BuildOptions{})
		if err != nil {
			b.Fatal(err)
		}
		opts := spectest.WeakFairnessFromInit(invariants.Starvation)
		opts.Search.Workers = runtime.GOMAXPROCS(0)
		rep, elapsed, peak := spectest.TimeCheck(b, sys, opts)
		if o := rep.Outcomes[0]; o.Verdict != invariants.Holds || rep.Search.States != benchStates {
			b.Fatalf("starvation %s (%s) over %d states; the spec claims it holds, over %d", o.Verdict, o.Reason, rep.Search.States, benchStates)
		}
		spectest.ReportCheckMetrics(b, rep.Search.States, elapsed, peak)
	})
}
