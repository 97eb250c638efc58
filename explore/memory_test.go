package explore_test

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/ringcheck/ringcheck/budget"
	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/internal/testsys"
)

// TestBudgetStopsAtTheSameState: a search asks the memory budget with its
// own count of its bytes, at points its states fix, so runs under one
// budget stop at the same state with the same counts, whatever else the
// heap holds meanwhile (within the budget's reserve): garbage that
// another goroutine churns (64 KiB every millisecond) and the collector
// frees when it likes, or 1.5 MiB that the caller keeps live.
func TestBudgetStopsAtTheSameState(t *testing.T) {
	sys, _, _ := testsys.Grid(t, 2000) // 4,000,000 states, far past 8 MiB
	// The counts only: a result holds its store, which would count in
	// the heap during the next run.
	type counts struct {
		states, transitions int64
		depth               int
	}
	// Under the race detector only the parallel search runs: it is what
	// the detector watches, and the sequential one takes as long again.
	workerCounts := []int{1, 3}
	if slowdown > 1 {
		workerCounts = []int{3}
	}
	for _, fp := range []bool{false, true} {
		for _, workers := range workerCounts {
			var first counts
			for _, heap := range []string{"quiet", "churned", "ballast", "quiet"} {
				done := make(chan struct{})
				churned := make(chan struct{})
				go func() {
					defer close(churned)
					for heap == "churned" {
						select {
						case <-done:
							return
						default:
						}
						junk := make([]byte, 1<<16)
						junk[0] = 1
						runtime.KeepAlive(junk)
						time.Sleep(time.Millisecond)
					}
				}()
				var ballast []byte
				if heap == "ballast" {
					ballast = make([]byte, 3<<19)
					ballast[0] = 1
				}
				res, err := explore.BFS(context.Background(), sys, &expandedCounter{}, explore.Options{Memory: budget.New(8 << 20), Workers: workers, Fingerprints: fp})
				runtime.KeepAlive(ballast)
				close(done)
				<-churned
				if err != nil {
					t.Fatal(err)
				}
				if res.Stop != explore.MemoryBound {
					t.Fatalf("fingerprints %v, %d workers, heap %s: %v after %d states; want the memory budget", fp, workers, heap, res.Stop, res.States)
				}
				got := counts{res.States, res.Transitions, res.MaxDepth}
				if first == (counts{}) {
					first = got
					continue
				}
				if got != first {
					t.Fatalf("fingerprints %v, %d workers: with the heap %s, the search stopped at %d states, %d transitions, depth %d; with it quiet, at %d, %d, %d",
						fp, workers, heap, got.states, got.transitions, got.depth, first.states, first.transitions, first.depth)
				}
			}
		}
	}
}
