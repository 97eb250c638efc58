package natsnet_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/ringcheck/ringcheck/cluster"
	"github.com/ringcheck/ringcheck/cluster/natsnet"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs/spectest"
)

var props = []invariants.Property{invariants.Safety, invariants.Deadlock}

func system(t testing.TB, file string, params map[string]int) *model.System {
	t.Helper()
	return spectest.File(t, filepath.Join("../..", file), params)
}

func summary(rep *invariants.Report) string {
	r := rep.Search
	s := fmt.Sprintf("states %d transitions %d distinct %d depth %d stop %s\n", r.States, r.Transitions, r.DistinctTransitions, r.MaxDepth, r.Stop)
	for _, o := range rep.Outcomes {
		s += fmt.Sprintf("%s: %s (%s)\n", o.Property, o.Verdict, o.Reason)
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

// workers starts n workers on url that build sys, each on a connection
// of its own, and returns their connections.
func workers(t *testing.T, ctx context.Context, url string, n int, sys *model.System) []*nats.Conn {
	t.Helper()
	var conns []*nats.Conn
	for k := range n {
		nc, err := nats.Connect(url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(nc.Close)
		conns = append(conns, nc)
		go natsnet.Work(ctx, nc, func([]byte) (*model.System, []invariants.Property, error) { return sys, props, nil }, natsnet.WorkOptions{Name: fmt.Sprint("w", k), Once: true})
	}
	return conns
}

// TestOverNATS runs the partitioned search on 1, 2 and 4 workers over an
// embedded NATS server, with fragments of a few kilobytes, and compares
// it with one process.
func TestOverNATS(t *testing.T) {
	srv, url, err := natsnet.StartServer()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	sys := system(t, "specs/ring/raynal.ring", map[string]int{"n": 2, "M": 2, "requests": 2, "asked": 1})
	want, err := invariants.Check(context.Background(), sys, invariants.Options{Properties: props, From: invariants.FromInit})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 2, 4} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			workers(t, ctx, url, n, sys)
			nc, err := nats.Connect(url)
			if err != nil {
				t.Fatal(err)
			}
			defer nc.Close()
			node, names, err := natsnet.Hire(ctx, nc, n, sys, []byte(`{}`), natsnet.HireOptions{Batch: 7, Credit: 2})
			if err != nil {
				t.Fatal(err)
			}
			defer node.Close()
			if len(names) != n {
				t.Fatalf("names %v", names)
			}
			rep, err := cluster.Check(ctx, sys, node, cluster.Options{Properties: props})
			if err != nil {
				t.Fatal(err)
			}
			if got, w := summary(rep), summary(want); got != w {
				t.Errorf("got\n%s\nwant\n%s", got, w)
			}
		})
	}
}

// TestLostWorker closes one worker's connection (w1's) in the middle of
// a run: the report, within LostAfter and a little, leaves every property
// unknown and names w1.
func TestLostWorker(t *testing.T) {
	srv, url, err := natsnet.StartServer()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	sys := system(t, "specs/ring/kl-naive.ring", map[string]int{"n": 5, "L": 5, "K": 3})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	conns := workers(t, ctx, url, 2, sys)
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	node, names, err := natsnet.Hire(ctx, nc, 2, sys, []byte(`{}`), natsnet.HireOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer node.Close()
	go func() {
		time.Sleep(300 * time.Millisecond)
		conns[1].Close()
	}()
	start := time.Now()
	rep, err := cluster.Check(ctx, sys, node, cluster.Options{Properties: props, Names: names})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > natsnet.LostAfter+5*time.Second {
		t.Errorf("lost after %s", d)
	}
	if !rep.Unknown() || rep.Violated() {
		t.Errorf("unknown %v violated %v, want unknown", rep.Unknown(), rep.Violated())
	}
	for _, o := range rep.Outcomes {
		if o.Verdict != invariants.Unknown || !strings.Contains(o.Reason, "(w1) was lost: ") {
			t.Errorf("%s: %s (%s), want unknown, w1 lost", o.Property, o.Verdict, o.Reason)
		}
	}
	t.Log(rep.Outcomes[0].Reason, time.Since(start))
}

// TestConvergenceOverNATS runs closure and convergence from every
// configuration on 1, 2 and 4 workers over an embedded NATS server, with
// small batches, and compares it with one process: the counts, the
// verdicts, the worst case and its witness.
func TestConvergenceOverNATS(t *testing.T) {
	srv, url, err := natsnet.StartServer()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	stab := []invariants.Property{invariants.Closure, invariants.Convergence}
	sys := system(t, "specs/ring/dijkstra.ring", map[string]int{"n": 5, "K": 5})
	want, err := invariants.Check(context.Background(), sys, invariants.Options{Properties: stab, From: invariants.FromAll})
	if err != nil {
		t.Fatal(err)
	}
	witness := func(rep *invariants.Report) string {
		st := rep.Stabilization
		if st == nil || st.Witness == nil {
			return "no witness"
		}
		return fmt.Sprintf("worst %d: %s", st.WorstSteps, summary(&invariants.Report{Search: rep.Search, Outcomes: []invariants.Outcome{{Counterexample: st.Witness}}}))
	}
	for _, n := range []int{1, 2, 4} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			for k := range n {
				nc, err := nats.Connect(url)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(nc.Close)
				go natsnet.Work(ctx, nc, func([]byte) (*model.System, []invariants.Property, error) { return sys, stab, nil }, natsnet.WorkOptions{Name: fmt.Sprint("w", k), Once: true})
			}
			nc, err := nats.Connect(url)
			if err != nil {
				t.Fatal(err)
			}
			defer nc.Close()
			node, _, err := natsnet.Hire(ctx, nc, n, sys, []byte(`{}`), natsnet.HireOptions{Batch: 7, Credit: 2})
			if err != nil {
				t.Fatal(err)
			}
			defer node.Close()
			rep, err := cluster.Check(ctx, sys, node, cluster.Options{Properties: stab})
			if err != nil {
				t.Fatal(err)
			}
			if got, w := summary(rep), summary(want); got != w {
				t.Errorf("got\n%s\nwant\n%s", got, w)
			}
			if got, w := witness(rep), witness(want); got != w {
				t.Errorf("got\n%s\nwant\n%s", got, w)
			}
		})
	}
}
