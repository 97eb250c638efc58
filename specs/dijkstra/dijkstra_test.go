package dijkstra_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/spectest"
)

// The oracle below is written from the design's definition of the ring,
// independently of the model package: configurations are arrays, the
// search is a plain BFS over a Go map.

func privileged(x []int, i int) bool {
	n := len(x)
	if i == 0 {
		return x[0] == x[n-1]
	}
	return x[i] != x[i-1]
}

func move(x []int, i, k int) {
	if i == 0 {
		x[0] = (x[0] + 1) % k
	} else {
		x[i] = x[i-1]
	}
}

// oracleSuccessors lists the successors of x under the daemon: every
// non-empty subset of privileged processes (distributed), all of them
// (synchronous) or one (central), each reading the old configuration.
func oracleSuccessors(x []int, k int, daemon string) [][]int {
	var priv []int
	for i := range x {
		if privileged(x, i) {
			priv = append(priv, i)
		}
	}
	var out [][]int
	for subset := 1; subset < 1<<len(priv); subset++ {
		count := 0
		for b := range priv {
			if subset&(1<<b) != 0 {
				count++
			}
		}
		switch daemon {
		case "central":
			if count != 1 {
				continue
			}
		case "synchronous":
			if count != len(priv) {
				continue
			}
		}
		next := append([]int(nil), x...)
		for b, i := range priv {
			if subset&(1<<b) != 0 {
				old := append([]int(nil), x...)
				move(old, i, k)
				next[i] = old[i]
			}
		}
		out = append(out, next)
	}
	return out
}

func oracleReachable(n, k int, daemon string) (states, transitions int) {
	s, t := spectest.CountReachableByKey(make([]int, n), func(x []int) string { return fmt.Sprint(x) },
		func(x []int) [][]int { return oracleSuccessors(x, k, daemon) })
	return int(s), int(t)
}

// oracleAll counts the transitions of the full space and the
// configurations whose privileged count is not one.
func oracleAll(n, k int, daemon string) (configs, transitions, illegitimate int) {
	x := make([]int, n)
	for {
		configs++
		transitions += len(oracleSuccessors(x, k, daemon))
		count := 0
		for i := range x {
			if privileged(x, i) {
				count++
			}
		}
		if count != 1 {
			illegitimate++
		}
		i := 0
		for ; i < n; i++ {
			x[i]++
			if x[i] < k {
				break
			}
			x[i] = 0
		}
		if i == n {
			return
		}
	}
}

// privilegedIn counts the privileged processes of configuration s of a
// ring of n (x is each process's first variable).
func privilegedIn(s *model.State, n int) int {
	x := make([]int, n)
	for i := range x {
		x[i] = s.Get(i, 0)
	}
	count := 0
	for i := range x {
		if privileged(x, i) {
			count++
		}
	}
	return count
}

// build returns specs/ring/dijkstra.ring, the catalogue's dijkstra, for n
// and K under daemon d.
func build(t *testing.T, n, k int, d model.Daemon) *model.System {
	t.Helper()
	sys, err := spectest.Build(t, "dijkstra", specs.Values{"n": n, "K": k}).WithDaemon(d)
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

func TestReachableMatchesOracle(t *testing.T) {
	for _, daemon := range []model.Daemon{model.Central, model.Distributed, model.Synchronous} {
		for n := 2; n <= 5; n++ {
			for k := 2; k <= 5; k++ {
				t.Run(fmt.Sprintf("%v/n=%d/K=%d", daemon, n, k), func(t *testing.T) {
					sys := build(t, n, k, daemon)
					wantStates, wantTrans := oracleReachable(n, k, daemon.String())
					for _, workers := range []int{1, 2} {
						res, err := explore.BFS(context.Background(), sys, spectest.NopMonitor{}, explore.Options{Workers: workers})
						if err != nil {
							t.Fatal(err)
						}
						if res.States != int64(wantStates) || res.Transitions != int64(wantTrans) || !res.Complete() {
							t.Fatalf("workers=%d: %d states %d transitions complete=%v; oracle %d states %d transitions",
								workers, res.States, res.Transitions, res.Complete(), wantStates, wantTrans)
						}
					}
				})
			}
		}
	}
}

// From all-zero under the central daemon, the reachable states are the
// n·K configurations with one privilege: the root's value v followed by a
// run of v at positions 0..i and v-1 after.
func TestFromInitVisitsNK(t *testing.T) {
	for _, nk := range [][2]int{{5, 5}, {3, 7}, {7, 3}} {
		sys := build(t, nk[0], nk[1], model.Central)
		rep, err := invariants.Check(context.Background(), sys, invariants.Options{
			Properties: []invariants.Property{invariants.Safety, invariants.Deadlock},
			From:       invariants.FromInit,
		})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Search.States != int64(nk[0]*nk[1]) {
			t.Errorf("n=%d K=%d: %d states, want %d", nk[0], nk[1], rep.Search.States, nk[0]*nk[1])
		}
		for _, o := range rep.Outcomes {
			if o.Verdict != invariants.Holds {
				t.Errorf("n=%d K=%d: %s %s", nk[0], nk[1], o.Property, o.Verdict)
			}
		}
	}
}

func TestSweepMatchesOracle(t *testing.T) {
	for _, daemon := range []model.Daemon{model.Central, model.Distributed, model.Synchronous} {
		for _, nk := range [][2]int{{3, 3}, {4, 3}, {5, 5}} {
			n, k := nk[0], nk[1]
			sys := build(t, n, k, daemon)
			configs, trans, illegit := oracleAll(n, k, daemon.String())
			rep, err := invariants.Check(context.Background(), sys, invariants.Options{
				Properties: []invariants.Property{invariants.Deadlock, invariants.Safety},
				From:       invariants.FromAll,
				Search:     explore.Options{Workers: 2},
			})
			if err != nil {
				t.Fatal(err)
			}
			if daemon == model.Central && n == 5 && k == 5 && configs != 3125 {
				t.Fatalf("oracle counts %d configurations", configs)
			}
			// Safety is violated from all (illegitimate configurations
			// exist), so the sweep may stop early once deadlock is also
			// decided; deadlock never is, so it runs to the end.
			if rep.Search.States != int64(configs) || rep.Search.Transitions != int64(trans) {
				t.Errorf("%v n=%d K=%d: %d configurations %d transitions, oracle %d %d", daemon, n, k,
					rep.Search.States, rep.Search.Transitions, configs, trans)
			}
			if got := rep.Outcomes[0].Verdict; got != invariants.Holds {
				t.Errorf("%v n=%d K=%d: deadlock %s, want holds", daemon, n, k, got)
			}
			if got := rep.Outcomes[1].Verdict; (got == invariants.Violated) != (illegit > 0) {
				t.Errorf("%v n=%d K=%d: safety %s with %d illegitimate configurations", daemon, n, k, got, illegit)
			}
			// The witness is a single configuration (every configuration is
			// a starting point) and it must really be illegitimate.
			ce := rep.Outcomes[1].Counterexample
			if ce == nil || len(ce.States) != 1 || privilegedIn(ce.States[0], n) == 1 {
				t.Errorf("%v n=%d K=%d: safety counterexample is not a single illegitimate configuration", daemon, n, k)
			}
		}
	}
}
