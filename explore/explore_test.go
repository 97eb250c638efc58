package explore_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ringcheck/ringcheck/budget"
	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/internal/testsys"
	"github.com/ringcheck/ringcheck/model"
)

// recorder remembers every visit.
type recorder struct {
	mu     sync.Mutex
	depth  map[[2]int]int
	succ   map[[2]int]int
	a, b   model.VarID
	visits int
}

func (r *recorder) Observe(v *explore.Visit) {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := [2]int{v.State.Get(0, r.a), v.State.Get(0, r.b)}
	r.depth[k] = v.Depth
	r.succ[k] = v.Successors
	r.visits++
}

func (r *recorder) Decided() bool { return false }

func TestBFSLevelsAndPaths(t *testing.T) {
	const size = 40 // 1600 states: several rounds per level with 2 workers
	sys, a, b := testsys.Grid(t, size)
	for _, workers := range []int{1, 2, 3} {
		rec := &recorder{depth: map[[2]int]int{}, succ: map[[2]int]int{}, a: a, b: b}
		res, err := explore.BFS(context.Background(), sys, rec, explore.Options{Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		if res.States != size*size || rec.visits != size*size || !res.Complete() || res.MaxDepth != 2*(size-1) {
			t.Fatalf("workers=%d: %d states, %d visits, complete=%v, depth %d", workers, res.States, rec.visits, res.Complete(), res.MaxDepth)
		}
		if want := int64(2 * size * (size - 1)); res.Transitions != want {
			t.Fatalf("workers=%d: %d transitions, want %d", workers, res.Transitions, want)
		}
		for k, d := range rec.depth {
			if d != k[0]+k[1] {
				t.Fatalf("workers=%d: state %v at depth %d, want %d", workers, k, d, k[0]+k[1])
			}
		}
		// The last state's path is a shortest one, and the path of every
		// state is a real execution.
		for id := explore.StateID(0); id < explore.StateID(res.States); id += 97 {
			states, steps, err := res.Path(id)
			if err != nil {
				t.Fatal(err)
			}
			last := states[len(states)-1]
			if len(steps) != last.Get(0, a)+last.Get(0, b) {
				t.Fatalf("path to %v has %d steps", sys.Decode(last), len(steps))
			}
			next := sys.NewState()
			ex := sys.NewExpander()
			for i := range steps {
				if err := ex.Apply(states[i], &steps[i], next); err != nil || !next.Equal(states[i+1]) {
					t.Fatalf("step %d of the path to %d does not replay: %v", i, id, err)
				}
			}
		}
	}
}

func TestBFSBounds(t *testing.T) {
	sys, a, b := testsys.Grid(t, 10)
	tests := []struct {
		opts     explore.Options
		states   int64
		stop     explore.StopReason
		complete bool
	}{
		// Depth 3 holds the states with a+b <= 3: 1+2+3+4 = 10.
		{explore.Options{MaxDepth: 3}, 10, explore.DepthBound, false},
		// The deepest state is at 18: a bound of 18 is never crossed.
		{explore.Options{MaxDepth: 18}, 100, explore.Exhausted, true},
		{explore.Options{MaxStates: 50}, 50, explore.StateBound, false},
		{explore.Options{MaxStates: 100}, 100, explore.Exhausted, true},
	}
	for _, tt := range tests {
		rec := &recorder{depth: map[[2]int]int{}, succ: map[[2]int]int{}, a: a, b: b}
		res, err := explore.BFS(context.Background(), sys, rec, tt.opts)
		if err != nil {
			t.Fatal(err)
		}
		if res.States != tt.states || res.Stop != tt.stop || res.Complete() != tt.complete {
			t.Errorf("%+v: %d states, stop %v, complete %v; want %d, %v, %v", tt.opts, res.States, res.Stop, res.Complete(), tt.states, tt.stop, tt.complete)
		}
		// Every kept state is expanded, so its successor count is exact.
		for k, n := range rec.succ {
			want := 0
			if k[0] < 9 {
				want++
			}
			if k[1] < 9 {
				want++
			}
			if n != want {
				t.Errorf("%+v: state %v reported %d successors, want %d", tt.opts, k, n, want)
			}
		}
	}
}

func TestSweepVisitsEveryRankOnce(t *testing.T) {
	sys, a, b := testsys.Grid(t, 200) // 40000 configurations: several chunks
	for _, workers := range []int{1, 2, 4} {
		rec := &recorder{depth: map[[2]int]int{}, succ: map[[2]int]int{}, a: a, b: b}
		res, err := explore.Sweep(context.Background(), sys, rec, explore.Options{Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		if res.States != 40000 || rec.visits != 40000 || len(rec.depth) != 40000 || !res.Complete() {
			t.Fatalf("workers=%d: %d states, %d visits of %d distinct", workers, res.States, rec.visits, len(rec.depth))
		}
		if want := int64(2 * 200 * 199); res.Transitions != want {
			t.Fatalf("workers=%d: %d transitions, want %d", workers, res.Transitions, want)
		}
		states, steps, err := res.Path(12345)
		if err != nil || len(states) != 1 || len(steps) != 0 {
			t.Fatalf("a sweep's path is its configuration alone: %d states, %d steps, %v", len(states), len(steps), err)
		}
	}
	res, err := explore.Sweep(context.Background(), sys, &recorder{depth: map[[2]int]int{}, succ: map[[2]int]int{}, a: a, b: b}, explore.Options{MaxStates: 1000})
	if err != nil || res.Complete() || res.Stop != explore.StateBound || res.States != 1000 {
		t.Fatalf("bounded sweep: %v, %+v", err, res)
	}
}

// decideAt decides once it has seen state id.
type decideAt struct {
	id   explore.StateID
	seen atomic.Bool
}

func (m *decideAt) Observe(v *explore.Visit) {
	if v.ID == m.id {
		m.seen.Store(true)
	}
}

func (m *decideAt) Decided() bool { return m.seen.Load() }

// TestDecidedCountsDoNotDependOnWorkers: a search that stops once the
// monitor has decided reports the same states and transitions for any
// number of workers: BFS asks the monitor every 32768 states of a level
// (and at its end), the sweep at the end of rounds of fixed ranks. The
// deciding state is in the middle of a level wider than that (BFS), and
// of a space of several rounds (the sweep).
func TestDecidedCountsDoNotDependOnWorkers(t *testing.T) {
	sys := testsys.Chains(t, 80000, 2)
	grid, _, _ := testsys.Grid(t, 400) // 160,000 configurations
	for _, tc := range []struct {
		name string
		run  func(context.Context, *model.System, explore.Monitor, explore.Options) (*explore.Result, error)
		sys  *model.System
		id   explore.StateID
		// the states and transitions of the decided search
		states, trans int64
	}{
		// State 40000 is in level 1, ids 1 to 80000: the monitor is
		// asked once 32768 and 65536 of them are expanded, each with
		// one successor.
		{"bfs", explore.BFS, sys, 40000, 1 + 80000 + 65536, 80000 + 65536},
		{"bfs with fingerprints", explore.BFS, sys, 40000, 1 + 80000 + 65536, 80000 + 65536},
		// Rounds end at ranks 16384, 32768, 65536: rank 40000 is in the
		// third.
		{"sweep", explore.Sweep, grid, 40000, 1 << 16, 0},
	} {
		var first *explore.Result
		for _, workers := range []int{1, 2, 3, 4} {
			mon := &decideAt{id: tc.id}
			res, err := tc.run(context.Background(), tc.sys, mon, explore.Options{Workers: workers, Fingerprints: tc.name == "bfs with fingerprints"})
			if err != nil {
				t.Fatal(err)
			}
			if res.Stop != explore.Decided || res.States != tc.states || (tc.trans != 0 && res.Transitions != tc.trans) {
				t.Fatalf("%s, %d workers: %d states, %d transitions, stop %v; want decided, with %d states (and %d transitions if not 0)",
					tc.name, workers, res.States, res.Transitions, res.Stop, tc.states, tc.trans)
			}
			if first == nil {
				first = res
				continue
			}
			if res.States != first.States || res.Transitions != first.Transitions || res.MaxDepth != first.MaxDepth {
				t.Fatalf("%s: %d workers: %d states, %d transitions, depth %d; 1 worker: %d, %d, %d",
					tc.name, workers, res.States, res.Transitions, res.MaxDepth, first.States, first.Transitions, first.MaxDepth)
			}
		}
	}
}

func TestCancelledSearchesStop(t *testing.T) {
	sys, a, b := testsys.Grid(t, 50)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for name, run := range map[string]func(context.Context, *model.System, explore.Monitor, explore.Options) (*explore.Result, error){
		"bfs": explore.BFS, "sweep": explore.Sweep,
	} {
		res, err := run(ctx, sys, &recorder{depth: map[[2]int]int{}, succ: map[[2]int]int{}, a: a, b: b}, explore.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Stop != explore.Interrupted || res.Complete() {
			t.Errorf("%s: stop %v", name, res.Stop)
		}
	}
}

// TestEnginesHonourTheMemoryBudget drives a budget too small for the
// search into each engine: BFS keeps what fits, stops at the end of the
// round, reports every state it kept (expanded or not), and ends with
// MemoryBound and the refused request; the sweep, which keeps nothing per
// configuration, stops when the heap is already over the budget.
func TestEnginesHonourTheMemoryBudget(t *testing.T) {
	sys, _, _ := testsys.Grid(t, 2000) // 4,000,000 states: about 100 MB of store and table
	mem := budget.New(budget.Heap() + 8<<20)
	rec := &expandedCounter{}
	res, err := explore.BFS(context.Background(), sys, rec, explore.Options{Memory: mem})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stop != explore.MemoryBound || res.Complete() || res.Exceeded == nil || res.Exceeded.Need == 0 {
		t.Fatalf("BFS under an 8 MiB budget: stop %v, exceeded %+v", res.Stop, res.Exceeded)
	}
	if res.States <= 1000 || res.States >= 4_000_000 {
		t.Fatalf("BFS under an 8 MiB budget kept %d states", res.States)
	}
	if seen, expanded := rec.seen.Load(), rec.n.Load(); seen != res.States || expanded >= res.States {
		t.Errorf("BFS under a budget reported %d and expanded %d of the %d states it kept", seen, expanded, res.States)
	}

	big, _, _ := testsys.Grid(t, 4000) // 16,000,000 configurations: longer than a tick
	res, err = explore.Sweep(context.Background(), big, &expandedCounter{}, explore.Options{Memory: budget.New(1)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stop != explore.MemoryBound || res.Exceeded == nil || res.States >= 16_000_000 {
		t.Fatalf("sweep over a budget already exceeded: stop %v after %d configurations", res.Stop, res.States)
	}
}

// expandedCounter counts the states reported, and those reported with
// their successors.
type expandedCounter struct{ seen, n atomic.Int64 }

func (c *expandedCounter) Observe(v *explore.Visit) {
	c.seen.Add(1)
	if v.Successors >= 0 {
		c.n.Add(1)
	}
}
func (c *expandedCounter) Decided() bool { return false }

// TestFingerprintsFindTheSameStates: a search that keeps fingerprints
// visits the same states, in the same order, as one that keeps the
// states, for any number of workers, and rebuilds the same shortest paths,
// also to states whose fingerprints went to the spill file (the first
// 65,536 of the 90,000); it keeps no graph, and less memory.
func TestFingerprintsFindTheSameStates(t *testing.T) {
	sys, _, _ := testsys.Grid(t, 300)
	exact, err := explore.BFS(context.Background(), sys, &expandedCounter{}, explore.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{1, 2, 3} {
		fp, err := explore.BFS(context.Background(), sys, &expandedCounter{}, explore.Options{Workers: workers, Fingerprints: true})
		if err != nil {
			t.Fatal(err)
		}
		if fp.States != exact.States || fp.Transitions != exact.Transitions || fp.MaxDepth != exact.MaxDepth || !fp.Complete() {
			t.Fatalf("%d workers: %d states, %d transitions, depth %d; exact %d, %d, %d", workers, fp.States, fp.Transitions, fp.MaxDepth, exact.States, exact.Transitions, exact.MaxDepth)
		}
		if !fp.Fingerprints || fp.CollisionProbability <= 0 || fp.CollisionProbability > 1e-9 {
			t.Fatalf("fingerprints %v, collision probability %g", fp.Fingerprints, fp.CollisionProbability)
		}
		if fp.StoreBytes >= exact.StoreBytes {
			t.Errorf("%d workers: fingerprints hold %d bytes, the exact store %d", workers, fp.StoreBytes, exact.StoreBytes)
		}
		for _, id := range []explore.StateID{0, 1, 777, 12345, 65535, 65536, 80000, explore.StateID(exact.States - 1)} {
			ws, wsteps, err := exact.Path(id)
			if err != nil {
				t.Fatal(err)
			}
			gs, gsteps, err := fp.Path(id)
			if err != nil {
				t.Fatalf("path to %d: %v", id, err)
			}
			if len(gs) != len(ws) || len(gsteps) != len(wsteps) {
				t.Fatalf("path to %d: %d states, exact %d", id, len(gs), len(ws))
			}
			for i := range ws {
				if !gs[i].Equal(ws[i]) {
					t.Fatalf("path to %d differs at state %d", id, i)
				}
			}
		}
		if _, err := fp.Graph(); err == nil {
			t.Fatal("a fingerprint search gave a graph")
		}
	}
}

// TestParallelMergeKeepsTheIds: the states get the same ids, and the same
// shortest paths, whether one goroutine merges each round or every worker
// does (a grid reaches most states from two parents, often found by two
// workers in one round).
func TestParallelMergeKeepsTheIds(t *testing.T) {
	sys, _, _ := testsys.Grid(t, 200)
	one, err := explore.BFS(context.Background(), sys, &expandedCounter{}, explore.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{2, 4, 7} {
		many, err := explore.BFS(context.Background(), sys, &expandedCounter{}, explore.Options{Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		if many.States != one.States || many.Transitions != one.Transitions {
			t.Fatalf("%d workers: %d states, %d transitions; one worker %d, %d", workers, many.States, many.Transitions, one.States, one.Transitions)
		}
		for id := explore.StateID(0); id < explore.StateID(one.States); id += 97 {
			a, _, err := one.Path(id)
			if err != nil {
				t.Fatal(err)
			}
			b, _, err := many.Path(id)
			if err != nil {
				t.Fatal(err)
			}
			if len(a) != len(b) {
				t.Fatalf("%d workers: the path to %d has %d states, %d with one", workers, id, len(b), len(a))
			}
			for i := range a {
				if !a[i].Equal(b[i]) {
					t.Fatalf("%d workers: the paths to %d differ at state %d", workers, id, i)
				}
			}
		}
	}
}

// cancelAtFirst cancels a context at the first state it judges.
type cancelAtFirst struct {
	cancel context.CancelFunc
}

func (m *cancelAtFirst) Observe(*explore.Visit) { m.cancel() }
func (m *cancelAtFirst) Decided() bool          { return false }

// TestCancelStopsTheMerge: a search cancelled while its workers expand a
// round stops before merging it: it keeps none of the round's successors
// and says it was interrupted.
func TestCancelStopsTheMerge(t *testing.T) {
	sys, _, _ := testsys.Grid(t, 20)
	for _, fp := range []bool{false, true} {
		ctx, cancel := context.WithCancel(context.Background())
		res, err := explore.BFS(ctx, sys, &cancelAtFirst{cancel: cancel}, explore.Options{Workers: 3, Fingerprints: fp})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if res.Stop != explore.Interrupted || res.States != 1 {
			t.Fatalf("fingerprints %v: %d states, stop %v; want the initial state alone, interrupted", fp, res.States, res.Stop)
		}
	}
}

// blockingMonitor holds the first worker that expands a state of depth
// depth until the states of that depth seen reach want, or a timeout.
type blockingMonitor struct {
	depth int
	want  int64
	seen  atomic.Int64
	first atomic.Bool
	// reached reports whether the other workers saw want states while
	// the first was held.
	reached atomic.Bool
}

func (m *blockingMonitor) Observe(v *explore.Visit) {
	if v.Depth != m.depth {
		return
	}
	m.seen.Add(1)
	if !m.first.CompareAndSwap(false, true) {
		return
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if m.seen.Load() >= m.want {
			m.reached.Store(true)
			return
		}
		time.Sleep(time.Millisecond)
	}
}

func (m *blockingMonitor) Decided() bool { return false }

// TestWorkersShareARoundByChunks: while one worker is held on a state of
// a 600-state level (a 600 × 600 grid's longest diagonal), the other
// expands every chunk of the level but the held one's, not only its
// half of it: the workers take a round's states a chunk at a time.
func TestWorkersShareARoundByChunks(t *testing.T) {
	sys, _, _ := testsys.Grid(t, 600)
	const depth, level, chunk = 599, 600, 256
	mon := &blockingMonitor{depth: depth, want: level - chunk + 1}
	res, err := explore.BFS(context.Background(), sys, mon, explore.Options{Workers: 2, MaxDepth: depth})
	if err != nil {
		t.Fatal(err)
	}
	if !mon.reached.Load() {
		t.Fatalf("with one worker held, the others saw %d of the level's %d states; want %d", mon.seen.Load(), level, mon.want)
	}
	if got := mon.seen.Load(); got != level {
		t.Errorf("the level's states were seen %d times, want %d (%d states stored)", got, level, res.States)
	}
}
