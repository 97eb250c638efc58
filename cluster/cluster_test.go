package cluster_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ringcheck/ringcheck/budget"
	"github.com/ringcheck/ringcheck/cluster"
	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs/spectest"
)

var safetyDeadlock = []invariants.Property{invariants.Safety, invariants.Deadlock}

// system builds file (relative to the module's root) at params.
func system(t testing.TB, file string, params map[string]int) *model.System {
	t.Helper()
	return spectest.File(t, filepath.Join("..", file), params)
}

// runLocal runs a partitioned search of sys on n in-process workers.
func runLocal(t testing.TB, sys *model.System, n int, opts cluster.Options, wopts cluster.WorkerOptions, dup bool) *invariants.Report {
	t.Helper()
	net := cluster.NewLocal(n)
	if dup {
		net.Duplicate, net.Lose = true, 5
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	errs := make([]error, n)
	for k := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[k] = cluster.Serve(ctx, sys, opts.Properties, k, net.Node(k), wopts)
		}()
	}
	rep, err := cluster.Check(ctx, sys, net.Node(cluster.Coordinator), opts)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	for k, err := range errs {
		if err != nil {
			t.Fatalf("worker %d: %v", k, err)
		}
	}
	return rep
}

// summary is what must not depend on the number of workers: the counts,
// the stop, and each outcome with its counterexample.
func summary(t testing.TB, rep *invariants.Report) string {
	t.Helper()
	r := rep.Search
	s := fmt.Sprintf("states %d transitions %d distinct %d depth %d stop %s\n", r.States, r.Transitions, r.DistinctTransitions, r.MaxDepth, r.Stop)
	for _, o := range rep.Outcomes {
		s += fmt.Sprintf("%s: %s (%s) invariant %q\n", o.Property, o.Verdict, o.Reason, o.Invariant)
		if ce := o.Counterexample; ce != nil {
			for i, st := range ce.States {
				s += fmt.Sprintf("  %v %v", st.Vars, st.Msgs)
				if i < len(ce.Steps) {
					s += fmt.Sprintf(" -[%+v]->", ce.Steps[i])
				}
				s += "\n"
			}
		}
	}
	return s
}

type testCase struct {
	file   string
	params map[string]int
	search explore.Options
	// props: safety and deadlock when nil.
	props []invariants.Property
	// long: skipped with -short (as under -race).
	long bool
}

var cases = []testCase{
	{"specs/ring/dijkstra.ring", map[string]int{"n": 5, "K": 5}, explore.Options{}, nil, false},
	{"specs/ring/kl-pusher.ring", map[string]int{"n": 3, "L": 3, "K": 2}, explore.Options{}, nil, false},
	{"specs/ring/kl-naive.ring", map[string]int{"n": 3, "L": 3, "K": 1}, explore.Options{}, nil, false},
	{"specs/ring/kl-naive.ring", map[string]int{"n": 4, "L": 4, "K": 2}, explore.Options{}, nil, false},
	{"specs/ring/raynal.ring", map[string]int{"n": 2, "M": 2, "requests": 2, "asked": 1}, explore.Options{}, nil, false},
	{"specs/ring/raynal.ring", map[string]int{"n": 2, "M": 2, "requests": 0}, explore.Options{}, nil, false},
	{"specs/ring/lejeune.ring", nil, explore.Options{MaxStates: 5000}, nil, false},
	{"specs/ring/kl-pusher.ring", map[string]int{"n": 3, "L": 3, "K": 2}, explore.Options{MaxStates: 1000}, nil, false},
	{"specs/ring/kl-pusher.ring", map[string]int{"n": 3, "L": 3, "K": 2}, explore.Options{MaxDepth: 7}, nil, false},
	// Deadlock alone is decided in the middle of a level of more than
	// explore.DecideEvery states: the counts are those at the point where
	// the single-process search asked.
	{"specs/ring/kl-naive.ring", map[string]int{"n": 5, "L": 4, "K": 3}, explore.Options{}, []invariants.Property{invariants.Deadlock}, true},
	{"examples/herman.ring", nil, explore.Options{}, nil, false},
	{"examples/three-state.ring", nil, explore.Options{}, nil, false},
	{"examples/ewd392.ring", nil, explore.Options{}, nil, false},
	{"examples/israeli-jalfon.ring", nil, explore.Options{}, nil, false},
}

// TestSameAsOneProcess compares the partitioned search on 1, 2 and 4
// in-process workers with explore.BFS through invariants.Check.
func TestSameAsOneProcess(t *testing.T) {
	for _, c := range cases {
		props := c.props
		if props == nil {
			props = safetyDeadlock
		}
		t.Run(fmt.Sprintf("%s/%v/%v/depth=%d,states=%d", filepath.Base(c.file), c.params, props, c.search.MaxDepth, c.search.MaxStates), func(t *testing.T) {
			if c.long && testing.Short() {
				t.Skip("a long case, skipped with -short")
			}
			sys := system(t, c.file, c.params)
			opts := invariants.Options{Properties: props, From: invariants.FromInit, Search: c.search}
			opts.Search.Workers = 2
			want, err := invariants.Check(context.Background(), sys, opts)
			if err != nil {
				t.Fatal(err)
			}
			ws := summary(t, want)
			t.Log(ws)
			for _, n := range []int{1, 2, 4} {
				got := runLocal(t, sys, n, cluster.Options{Properties: props, Search: c.search}, cluster.WorkerOptions{}, false)
				if gs := summary(t, got); gs != ws {
					t.Errorf("%d workers:\n%s\nwant (one process):\n%s", n, gs, ws)
				}
				if got.Violated() != want.Violated() || got.Unknown() != want.Unknown() {
					t.Errorf("%d workers: violated %v unknown %v, want %v %v", n, got.Violated(), got.Unknown(), want.Violated(), want.Unknown())
				}
			}
		})
	}
}

// TestFlowControl runs with one successor a batch and one batch in
// flight per peer, and with every batch delivered twice, the copy late,
// and every fifth lost the first time it is sent (so that its sender
// sends it again): the same report.
func TestFlowControl(t *testing.T) {
	sys := system(t, "specs/ring/raynal.ring", map[string]int{"n": 2, "M": 2, "requests": 2, "asked": 1})
	opts := cluster.Options{Properties: safetyDeadlock}
	want := summary(t, runLocal(t, sys, 1, opts, cluster.WorkerOptions{}, false))
	for _, tc := range []struct {
		name  string
		wopts cluster.WorkerOptions
		dup   bool
	}{
		{"credit 1 batch 1", cluster.WorkerOptions{Batch: 1, Credit: 1}, false},
		{"batches lost and twice", cluster.WorkerOptions{Batch: 3, Credit: 2, RetryAfter: 20 * time.Millisecond}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := summary(t, runLocal(t, sys, 3, opts, tc.wopts, tc.dup)); got != want {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// TestWorkerMemory gives each worker a budget its share cannot fit in:
// the search stops with what it has, unknown (never holds), and the
// budget's refusal names the worker.
func TestWorkerMemory(t *testing.T) {
	sys := system(t, "specs/ring/kl-pusher.ring", map[string]int{"n": 4, "L": 4, "K": 3})
	rep := runLocal(t, sys, 2, cluster.Options{Properties: safetyDeadlock}, cluster.WorkerOptions{Memory: budget.New(4 << 20)}, false)
	if rep.Search.Stop != explore.MemoryBound || !rep.Unknown() || rep.Violated() {
		t.Fatalf("stop %s, unknown %v, violated %v: want the memory bound, unknown", rep.Search.Stop, rep.Unknown(), rep.Violated())
	}
	for _, o := range rep.Outcomes {
		if o.Verdict != invariants.Unknown {
			t.Errorf("%s: %s, want unknown", o.Property, o.Verdict)
		}
	}
	if ex := rep.Search.Exceeded; ex == nil || !strings.Contains(ex.Error(), "worker ") {
		t.Errorf("the refusal %v does not name the worker", ex)
	}
}

// TestTimeLimit stops a search by its time limit in the middle: the
// counts so far, unknown (never holds), stopped by the time limit.
func TestTimeLimit(t *testing.T) {
	sys := system(t, "specs/ring/kl-naive.ring", map[string]int{"n": 5, "L": 5, "K": 3})
	rep := runLocal(t, sys, 2, cluster.Options{Properties: safetyDeadlock, Search: explore.Options{TimeLimit: 200 * time.Millisecond}}, cluster.WorkerOptions{}, false)
	if rep.Search.Stop != explore.TimeBound || !rep.Unknown() || rep.Search.States == 0 {
		t.Fatalf("stop %s, unknown %v, %d states: want the time limit, unknown, some states", rep.Search.Stop, rep.Unknown(), rep.Search.States)
	}
	for _, o := range rep.Outcomes {
		if o.Verdict == invariants.Holds {
			t.Errorf("%s holds", o.Property)
		}
	}
}
