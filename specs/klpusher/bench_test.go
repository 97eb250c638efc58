package klpusher_test

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/klpusher"
)

// BenchmarkStarvationCheck explores every state reachable from the initial
// configuration and decides starvation under weak fairness for every
// process, reporting states per second over the whole check, the states,
// and the peak live heap:
//
//	go test ./specs/klpusher -run '^$' -bench StarvationCheck -benchtime 1x
func BenchmarkStarvationCheck(b *testing.B) {
	for _, p := range []specs.Values{
		{"n": 3, "L": 3, "K": 2, "Cmax": 0},
		{"n": 5, "L": 4, "K": 2, "Cmax": 0},
		{"n": 6, "L": 5, "K": 3, "Cmax": 0},
	} {
		b.Run(fmt.Sprintf("n=%d,L=%d,K=%d", p["n"], p["L"], p["K"]), func(b *testing.B) {
			sys, err := klpusher.Build(p, specs.BuildOptions{})
			if err != nil {
				b.Fatal(err)
			}
			var (
				rep     *invariants.Report
				peak    uint64
				elapsed time.Duration
			)
			for b.Loop() {
				heap := explore.StartHeapSampler(10 * time.Millisecond)
				start := time.Now()
				rep, err = invariants.Check(context.Background(), sys, invariants.Options{
					Properties: []invariants.Property{invariants.Starvation},
					From:       invariants.FromInit,
					Fairness:   invariants.WeakFairness,
					Search:     explore.Options{Workers: runtime.GOMAXPROCS(0)},
				})
				elapsed = time.Since(start)
				peak = max(peak, heap.Stop())
				if err != nil {
					b.Fatal(err)
				}
			}
			if rep.Outcomes[0].Verdict != invariants.Violated {
				b.Fatalf("starvation %s, the paper's Figure 2 says violated", rep.Outcomes[0].Verdict)
			}
			b.ReportMetric(float64(rep.Search.States), "states")
			b.ReportMetric(float64(rep.Search.States)/elapsed.Seconds(), "states/s")
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
			b.ReportMetric(float64(peak)/float64(rep.Search.States), "bytes/state")
		})
	}
}
