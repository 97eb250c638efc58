package klnaive_test

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
)

// BenchmarkExhaustiveFromInit explores every state reachable from the
// initial configuration of n=5, L=5, K=3 (checking safety, which holds, so
// the search is exhaustive), and reports states per second, bytes per
// stored state (store and visited set) and the peak live heap:
//
//	go test ./specs/klnaive -run '^$' -bench ExhaustiveFromInit -benchtime 3x
func BenchmarkExhaustiveFromInit(b *testing.B) {
	sys, _ := build(&testing.T{}, 5, 5, 3)
	var (
		res  *explore.Result
		peak uint64
	)
	for b.Loop() {
		heap := explore.StartHeapSampler(10 * time.Millisecond)
		rep, err := invariants.Check(context.Background(), sys, invariants.Options{
			Properties: []invariants.Property{invariants.Safety},
			From:       invariants.FromInit,
			Search:     explore.Options{Workers: runtime.GOMAXPROCS(0)},
		})
		peak = max(peak, heap.Stop())
		if err != nil || rep.Outcomes[0].Verdict != invariants.Holds {
			b.Fatalf("err %v, outcomes %v", err, rep.Outcomes)
		}
		res = rep.Search
	}
	b.ReportMetric(float64(res.States), "states")
	b.ReportMetric(float64(res.States)/res.Elapsed.Seconds(), "states/s")
	b.ReportMetric(float64(res.StoreBytes)/float64(res.States), "store-bytes/state")
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
}
