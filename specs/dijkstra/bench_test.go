package dijkstra_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
)

// BenchmarkDeadlockFromAll checks deadlock freedom from every
// configuration (K^n of them) with as many workers as GOMAXPROCS, and
// reports configurations per second, bytes per configuration and the peak
// live heap:
//
//	go test ./specs/dijkstra -run '^$' -bench DeadlockFromAll -benchtime 3x
func BenchmarkDeadlockFromAll(b *testing.B) {
	for _, nk := range [][2]int{{7, 7}, {8, 8}} {
		b.Run(fmt.Sprintf("n=%d/K=%d", nk[0], nk[1]), func(b *testing.B) {
			sys := build(&testing.T{}, nk[0], nk[1], model.Central)
			var (
				res  *explore.Result
				peak uint64
			)
			for b.Loop() {
				heap := explore.StartHeapSampler(10 * time.Millisecond)
				rep, err := invariants.Check(context.Background(), sys, invariants.Options{
					Properties: []invariants.Property{invariants.Deadlock},
					From:       invariants.FromAll,
					Search:     explore.Options{Workers: benchWorkers()},
				})
				peak = max(peak, heap.Stop())
				if err != nil || rep.Outcomes[0].Verdict != invariants.Holds {
					b.Fatalf("err %v, verdict %v", err, rep.Outcomes)
				}
				res = rep.Search
			}
			b.ReportMetric(float64(res.States)/res.Elapsed.Seconds(), "configs/s")
			b.ReportMetric(float64(peak)/float64(res.States), "bytes/config")
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
		})
	}
}

// BenchmarkConvergenceFromAll decides closure and convergence from every
// configuration and measures the worst-case stabilization time (steps, and
// rounds where the product of configurations and pending sets fits),
// reporting configurations per second, bytes per configuration and the peak
// live heap:
//
//	go test ./specs/dijkstra -run '^$' -bench ConvergenceFromAll -benchtime 1x
func BenchmarkConvergenceFromAll(b *testing.B) {
	for _, nk := range [][2]int{{7, 7}, {8, 8}, {9, 9}} {
		b.Run(fmt.Sprintf("n=%d/K=%d", nk[0], nk[1]), func(b *testing.B) {
			if nk[0] == 9 && testing.Short() {
				b.Skip("n=9 K=9 takes minutes; run without -short")
			}
			sys := build(&testing.T{}, nk[0], nk[1], model.Central)
			var (
				rep  *invariants.Report
				peak uint64
			)
			for b.Loop() {
				heap := explore.StartHeapSampler(10 * time.Millisecond)
				var err error
				rep, err = invariants.Check(context.Background(), sys, invariants.Options{
					Properties: []invariants.Property{invariants.Closure, invariants.Convergence},
					From:       invariants.FromAll,
					Search:     explore.Options{Workers: benchWorkers()},
				})
				peak = max(peak, heap.Stop())
				if err != nil || rep.Outcomes[1].Verdict != invariants.Holds {
					b.Fatalf("err %v, outcomes %v", err, rep.Outcomes)
				}
			}
			res := rep.Search
			b.ReportMetric(float64(res.States)/res.Elapsed.Seconds(), "configs/s")
			b.ReportMetric(float64(peak)/float64(res.States), "bytes/config")
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
			b.ReportMetric(float64(rep.Stabilization.WorstSteps), "worst-steps")
			if rep.Stabilization.RoundsComputed {
				b.ReportMetric(float64(rep.Stabilization.WorstRounds), "worst-rounds")
			}
		})
	}
}
