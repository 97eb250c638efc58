package cluster_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ringcheck/ringcheck/budget"
	"github.com/ringcheck/ringcheck/cluster"
	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
)

var closureConvergence = []invariants.Property{invariants.Closure, invariants.Convergence}

// stabilitySummary is what must not depend on the number of workers in
// an analysis of every configuration: the counts, the verdicts with
// their reasons and stuck counts, the worst case and its witness, and
// the counterexamples but for a cycle's (checked by validCycle).
func stabilitySummary(t testing.TB, rep *invariants.Report) string {
	t.Helper()
	r := rep.Search
	s := fmt.Sprintf("configurations %d transitions %d distinct %d stop %s", r.States, r.Transitions, r.DistinctTransitions, r.Stop)
	if rep.Legitimate != nil {
		s += fmt.Sprintf(" legitimate %d", *rep.Legitimate)
	}
	s += "\n"
	for _, o := range rep.Outcomes {
		reason := o.Reason
		if ce := o.Counterexample; ce != nil && ce.Kind == invariants.Lasso {
			// The cycle may be another than the single process's, and
			// not a shortest one.
			reason = strings.Replace(reason, " shortest ", " ", 1)
		}
		s += fmt.Sprintf("%s: %s (%s) stuck %q\n", o.Property, o.Verdict, reason, o.Stuck)
		if ce := o.Counterexample; ce != nil && ce.Kind != invariants.Lasso {
			s += trace(ce)
		}
	}
	if st := rep.Stabilization; st != nil {
		s += fmt.Sprintf("worst %d unbounded %v moves %d %v\n", st.WorstSteps, st.Unbounded, st.WorstMoves, st.MovesComputed)
		if st.Witness != nil {
			s += trace(st.Witness)
		}
	}
	return s
}

func trace(ce *invariants.Counterexample) string {
	s := ""
	for i, st := range ce.States {
		s += fmt.Sprintf("  %v %v", st.Vars, st.Msgs)
		if i < len(ce.Steps) {
			s += fmt.Sprintf(" -[%+v]->", ce.Steps[i])
		}
		s += "\n"
	}
	return s
}

// validCycle checks that a lasso counterexample of convergence from
// every configuration replays on the model, stays outside L and closes.
func validCycle(t *testing.T, sys *model.System, o invariants.Outcome) {
	t.Helper()
	ce := o.Counterexample
	if ce == nil || ce.Kind != invariants.Lasso {
		return
	}
	if err := ce.Replay(sys); err != nil {
		t.Errorf("the cycle does not replay: %v", err)
	}
	for _, st := range ce.States {
		if sys.Legitimate.Holds(st) {
			t.Errorf("the cycle enters L at %v", st.Vars)
		}
	}
	if ce.LoopStart != 0 || len(ce.Steps) != len(ce.States) {
		t.Errorf("not a cycle from its first configuration: loop start %d, %d states, %d steps", ce.LoopStart, len(ce.States), len(ce.Steps))
	}
}

type stabilityCase struct {
	file     string
	params   map[string]int
	fairness invariants.Fairness
	props    []invariants.Property
	// overflow makes every channel's overflow policy error.
	overflow bool
	// want is what the single process must find, so that the case tests
	// what it is there for.
	want string
}

var stabilityCases = []stabilityCase{
	{"specs/ring/dijkstra.ring", map[string]int{"n": 5, "K": 5}, "", closureConvergence, false, "worst 24"},
	{"specs/ring/dijkstra.ring", map[string]int{"n": 4, "K": 4}, "", []invariants.Property{invariants.Convergence}, false, "worst "},
	// A cycle outside L, every cycle fair: found by a walk.
	{"specs/ring/dijkstra.ring", map[string]int{"n": 6, "K": 4}, "", []invariants.Property{invariants.Convergence}, false, "convergence: violated (a cycle"},
	// Weak fairness: the components analysis over what remains.
	{"specs/ring/dijkstra.ring", map[string]int{"n": 5, "K": 3}, invariants.WeakFairness, []invariants.Property{invariants.Convergence}, false, "convergence: violated (a weakly fair cycle"},
	// Configurations outside L with no step.
	{"examples/israeli-jalfon.ring", map[string]int{"N": 4}, "", closureConvergence, false, "no enabled step"},
	// Closure violated (herman is made central below).
	{"examples/herman.ring", map[string]int{"n": 9}, "", closureConvergence, false, "closure: violated"},
	{"examples/three-state.ring", map[string]int{"n": 5}, "", closureConvergence, false, "worst 22"},
	// A timeout: weakly fair whatever the fairness asked.
	{"specs/ring/counterflush.ring", map[string]int{"n": 2, "Cmax": 1}, "", closureConvergence, false, "worst 6"},
	// Faulty steps outside L.
	{"specs/ring/counterflush.ring", map[string]int{"n": 2, "Cmax": 1}, "", closureConvergence, true, "leave the model"},
}

// TestStabilitySameAsOneProcess compares closure and convergence from
// every configuration on 1, 2 and 4 in-process workers with
// invariants.Check on one process.
func TestStabilitySameAsOneProcess(t *testing.T) {
	for _, c := range stabilityCases {
		t.Run(fmt.Sprintf("%s/%v/%s/%v/overflow=%v", filepath.Base(c.file), c.params, c.fairness, c.props, c.overflow), func(t *testing.T) {
			sys := system(t, c.file, c.params)
			if c.file == "examples/herman.ring" {
				sys.Daemon = model.Central
			}
			if c.overflow {
				var err error
				if sys, err = sys.WithOverflow(model.Error); err != nil {
					t.Fatal(err)
				}
			}
			want, err := invariants.Check(context.Background(), sys, invariants.Options{Properties: c.props, From: invariants.FromAll, Fairness: c.fairness})
			if err != nil {
				t.Fatal(err)
			}
			ws := stabilitySummary(t, want)
			t.Log(ws)
			if !strings.Contains(ws, c.want) {
				t.Fatalf("one process: no %q", c.want)
			}
			for _, n := range []int{1, 2, 4} {
				got := runLocal(t, sys, n, cluster.Options{Properties: c.props, Fairness: c.fairness}, cluster.WorkerOptions{}, false)
				if gs := stabilitySummary(t, got); gs != ws {
					t.Errorf("%d workers:\n%s\nwant (one process):\n%s", n, gs, ws)
				}
				for _, o := range got.Outcomes {
					validCycle(t, sys, o)
				}
				if st := got.Stabilization; st != nil && st.RoundsComputed {
					t.Errorf("%d workers: rounds computed", n)
				}
			}
		})
	}
}

// TestStabilityFlowControl runs the analysis with one edge or decrement
// a batch and one batch in flight per peer, and with every batch
// delivered twice, the copy late, and every fifth lost the first time
// it is sent: the same report.
func TestStabilityFlowControl(t *testing.T) {
	sys := system(t, "specs/ring/dijkstra.ring", map[string]int{"n": 4, "K": 4})
	opts := cluster.Options{Properties: closureConvergence}
	want := stabilitySummary(t, runLocal(t, sys, 1, opts, cluster.WorkerOptions{}, false))
	for _, tc := range []struct {
		name  string
		wopts cluster.WorkerOptions
		dup   bool
	}{
		{"credit 1 batch 1", cluster.WorkerOptions{Batch: 1, Credit: 1}, false},
		{"batches lost and twice", cluster.WorkerOptions{Batch: 3, Credit: 2, RetryAfter: 20 * time.Millisecond}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := stabilitySummary(t, runLocal(t, sys, 3, opts, tc.wopts, tc.dup)); got != want {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// TestStabilityStops stops the analysis by a worker's memory budget and
// by the time limit: every property unknown, never holds.
func TestStabilityStops(t *testing.T) {
	sys := system(t, "specs/ring/dijkstra.ring", map[string]int{"n": 7, "K": 7})
	for _, tc := range []struct {
		name  string
		opts  cluster.Options
		wopts cluster.WorkerOptions
		stop  explore.StopReason
	}{
		{"memory", cluster.Options{Properties: closureConvergence}, cluster.WorkerOptions{Memory: budget.New(4 << 20)}, explore.MemoryBound},
		{"time", cluster.Options{Properties: closureConvergence, Search: explore.Options{TimeLimit: 100 * time.Millisecond}}, cluster.WorkerOptions{}, explore.TimeBound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := runLocal(t, sys, 2, tc.opts, tc.wopts, false)
			if rep.Search.Stop != tc.stop || !rep.Unknown() || rep.Violated() {
				t.Fatalf("stop %s, unknown %v, violated %v: want %s, unknown", rep.Search.Stop, rep.Unknown(), rep.Violated(), tc.stop)
			}
			for _, o := range rep.Outcomes {
				if o.Verdict != invariants.Unknown {
					t.Errorf("%s: %s, want unknown", o.Property, o.Verdict)
				}
			}
			if tc.stop == explore.MemoryBound && (rep.Search.Exceeded == nil || !strings.Contains(rep.Search.Exceeded.Error(), "worker ")) {
				t.Errorf("the refusal %v does not name the worker", rep.Search.Exceeded)
			}
		})
	}
}

// TestStabilityLostWorker reports worker 1 failed in the middle of an
// analysis: every property unknown, the reason naming the worker.
func TestStabilityLostWorker(t *testing.T) {
	sys := system(t, "specs/ring/dijkstra.ring", map[string]int{"n": 7, "K": 7})
	net := cluster.NewLocal(2)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 2)
	for k := range 2 {
		go func() { done <- cluster.Serve(ctx, sys, closureConvergence, k, net.Node(k), cluster.WorkerOptions{}) }()
	}
	go func() {
		time.Sleep(100 * time.Millisecond)
		net.Node(1).Send(ctx, cluster.Coordinator, &cluster.Message{Kind: cluster.KindFailed, From: 1, Text: "its process exited"})
	}()
	rep, err := cluster.Check(ctx, sys, net.Node(cluster.Coordinator), cluster.Options{Properties: closureConvergence, Names: []string{"w0", "w1"}})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		<-done
	}
	if !rep.Unknown() || rep.Violated() {
		t.Fatalf("unknown %v violated %v, want unknown", rep.Unknown(), rep.Violated())
	}
	for _, o := range rep.Outcomes {
		if o.Verdict != invariants.Unknown || o.Reason != "worker 1 (w1) was lost: its process exited" {
			t.Errorf("%s: %s (%s), want unknown, w1 lost", o.Property, o.Verdict, o.Reason)
		}
	}
}
