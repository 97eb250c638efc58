package explore

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/ringcheck/ringcheck/internal/testsys"
)

// noMonitor judges nothing and never decides.
type noMonitor struct{}

func (noMonitor) Observe(*Visit) {}
func (noMonitor) Decided() bool  { return false }

// TestWorkersAreCapped: a search asked for more than MaxWorkers runs
// MaxWorkers, and fewer than one runs one.
func TestWorkersAreCapped(t *testing.T) {
	for _, tc := range []struct{ asked, runs int }{
		{-3, 1}, {0, 1}, {1, 1}, {7, 7}, {MaxWorkers, MaxWorkers}, {MaxWorkers + 1, MaxWorkers}, {100000, MaxWorkers},
	} {
		if got := workers(Options{Workers: tc.asked}); got != tc.runs {
			t.Errorf("Workers %d: %d goroutines, want %d", tc.asked, got, tc.runs)
		}
	}
}

// TestMergeWorkIsLinear: whatever the number of workers, a parallel merge
// runs at most one goroutine per shard of the visited set, and each of
// its first phase looks at each candidate once (the last at the new
// ones alone): the work grows with the
// candidates, not with the candidates times the workers. The searches
// find the same states, a 25-state grid with 100,000 workers asked
// included.
func TestMergeWorkIsLinear(t *testing.T) {
	for _, tc := range []struct {
		size int
		fp   bool
	}{{5, false}, {60, false}, {60, true}} {
		sys, _, _ := testsys.Grid(t, tc.size)
		for _, asked := range []int{2, 3, 64, 65, MaxWorkers, 100000} {
			opts := Options{Workers: asked, Fingerprints: tc.fp}
			e := &bfs{sys: sys, mon: noMonitor{}, opts: opts, clk: newClock(context.Background(), opts)}
			res, err := e.run()
			if err != nil {
				t.Fatal(err)
			}
			if res.States != int64(tc.size*tc.size) || !res.Complete() {
				t.Fatalf("grid %d, %d workers: %d states, stop %v", tc.size, asked, res.States, res.Stop)
			}
			m := &e.merge
			phases, goroutines := m.phases.Load(), m.goroutines.Load()
			candidates, visits := m.candidates.Load(), m.visits.Load()
			perPhase := int64(min(asked, MaxWorkers, numShards))
			if phases == 0 || goroutines > phases*perPhase {
				t.Errorf("grid %d, %d workers: %d goroutines in %d phases, want at most %d a phase", tc.size, asked, goroutines, phases, perPhase)
			}
			// The first phase looks at every candidate once; with the
			// exact store, the last settles the new ones alone.
			if visits != candidates {
				t.Errorf("grid %d, %d workers: the phases looked at candidates %d times for %d candidates, want %d", tc.size, asked, visits, candidates, candidates)
			}
			if settled := m.settled.Load(); settled > candidates || tc.fp && settled != 0 || !tc.fp && settled == 0 {
				t.Errorf("grid %d, %d workers: %d candidates settled of %d", tc.size, asked, settled, candidates)
			}
		}
	}
}

// cancelOnObserve cancels the search's context when the first state is
// expanded: after its round's workers have taken their chunks, before
// the round is merged.
type cancelOnObserve struct {
	noMonitor
	cancel func()
}

func (m cancelOnObserve) Observe(*Visit) { m.cancel() }

// TestMergeStopsAtTheClock: a merge whose search must stop (here its
// context is cancelled while the round is expanded) keeps none of the
// round's candidates, stops in its first phase, and the search says why.
// A search cancelled before it starts takes no chunk of its first round,
// and merges nothing.
func TestMergeStopsAtTheClock(t *testing.T) {
	sys, _, _ := testsys.Grid(t, 20)
	for _, fp := range []bool{false, true} {
		opts := Options{Workers: 4, Fingerprints: fp}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		e := &bfs{sys: sys, mon: noMonitor{}, opts: opts, clk: newClock(ctx, opts)}
		res, err := e.run()
		if err != nil {
			t.Fatal(err)
		}
		if res.Stop != Interrupted || res.States != 1 || e.merge.phases.Load() != 0 || res.Transitions != 0 {
			t.Fatalf("fingerprints %v, cancelled before: %d states, %d transitions, %d merge phases, stop %v; want the initial state alone, unexpanded, interrupted", fp, res.States, res.Transitions, e.merge.phases.Load(), res.Stop)
		}

		ctx, cancel = context.WithCancel(context.Background())
		defer cancel()
		e = &bfs{sys: sys, mon: cancelOnObserve{cancel: cancel}, opts: opts, clk: newClock(ctx, opts)}
		res, err = e.run()
		if err != nil {
			t.Fatal(err)
		}
		if res.Stop != Interrupted || res.States != 1 {
			t.Fatalf("fingerprints %v: %d states, stop %v; want the initial state alone, interrupted", fp, res.States, res.Stop)
		}
		if !e.merge.stopped.Load() || e.merge.phases.Load() != 1 {
			t.Fatalf("fingerprints %v: stopped %v after %d phases; want stopped in the first", fp, e.merge.stopped.Load(), e.merge.phases.Load())
		}
	}
}

// cancelAtDepth cancels the search's context at the first state of depth
// depth it is shown, and counts the states it is shown after that.
type cancelAtDepth struct {
	noMonitor
	depth  int
	cancel func()
	after  *atomic.Int64
	fired  *atomic.Bool
}

func (m cancelAtDepth) Observe(v *Visit) {
	if m.fired.Load() {
		m.after.Add(1)
		return
	}
	if v.Depth == m.depth {
		m.fired.Store(true)
		m.cancel()
	}
}

// TestRoundStopsBetweenChunks: once the search must stop, its workers
// take no more chunks of the round they are expanding: a level of 600
// states (the 600th diagonal of a grid), one round, is cut after the
// chunk of 256 under way, where before it was expanded whole.
func TestRoundStopsBetweenChunks(t *testing.T) {
	sys, _, _ := testsys.Grid(t, 700)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	mon := cancelAtDepth{depth: 599, cancel: cancel, after: new(atomic.Int64), fired: new(atomic.Bool)}
	opts := Options{Workers: 1}
	e := &bfs{sys: sys, mon: mon, opts: opts, clk: newClock(ctx, opts)}
	res, err := e.run()
	if err != nil {
		t.Fatal(err)
	}
	if res.Stop != Interrupted {
		t.Fatalf("stop %v, want interrupted", res.Stop)
	}
	if after := mon.after.Load(); after >= roundChunk {
		t.Fatalf("%d states expanded after the search had to stop, want fewer than a chunk (%d)", after, roundChunk)
	}
}
