package dijkstra_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
)

// oracleConvergence decides convergence under a daemon by brute force,
// independently of the model and explore packages: a recursive
// depth-first search over configurations as strings, with the worst-case
// number of steps to a legitimate configuration memoised. It reports
// whether every execution reaches L and, if so, the worst case.
func oracleConvergence(n, k int, daemon string) (converges bool, worst int) {
	const (
		white = 0
		grey  = 1
		black = 2
	)
	color := map[string]int{}
	steps := map[string]int{}
	cyclic := false
	var visit func(x []int) int
	visit = func(x []int) int {
		key := fmt.Sprint(x)
		switch color[key] {
		case grey:
			cyclic = true
			return 0
		case black:
			return steps[key]
		}
		count := 0
		for i := range x {
			if privileged(x, i) {
				count++
			}
		}
		if count == 1 {
			color[key] = black
			return 0
		}
		color[key] = grey
		h := 0
		for _, y := range oracleSuccessors(x, k, daemon) {
			h = max(h, 1+visit(y))
		}
		color[key] = black
		steps[key] = h
		return h
	}
	x := make([]int, n)
	for {
		worst = max(worst, visit(append([]int(nil), x...)))
		i := 0
		for ; i < n; i++ {
			if x[i]++; x[i] < k {
				break
			}
			x[i] = 0
		}
		if i == n {
			break
		}
	}
	return !cyclic, worst
}

func TestConvergenceMatchesOracle(t *testing.T) {
	for _, daemon := range []model.Daemon{model.Central, model.Distributed, model.Synchronous} {
		for n := 2; n <= 5; n++ {
			for k := 2; k <= 6; k++ {
				t.Run(fmt.Sprintf("%v/n=%d/K=%d", daemon, n, k), func(t *testing.T) {
					sys := build(t, n, k, daemon)
					converges, worst := oracleConvergence(n, k, daemon.String())
					rep, err := invariants.Check(context.Background(), sys, invariants.Options{
						Properties: []invariants.Property{invariants.Closure, invariants.Convergence},
						From:       invariants.FromAll,
						Search:     explore.Options{Workers: 2},
					})
					if err != nil {
						t.Fatal(err)
					}
					closure, conv := rep.Outcomes[0], rep.Outcomes[1]
					if closure.Verdict != invariants.Holds {
						t.Errorf("closure %s", closure.Verdict)
					}
					if (conv.Verdict == invariants.Holds) != converges {
						t.Fatalf("convergence %s, oracle says converges=%v", conv.Verdict, converges)
					}
					if !converges {
						replayOutsideL(t, sys, n, conv.Counterexample)
						return
					}
					st := rep.Stabilization
					if st == nil || st.WorstSteps != worst {
						t.Fatalf("worst case %+v, oracle %d", st, worst)
					}
					if worst > 0 {
						w := st.Witness
						if len(w.Steps) != worst || privilegedIn(w.States[len(w.States)-1], n) != 1 {
							t.Fatalf("witness of %d steps does not end in L after the worst case %d", len(w.Steps), worst)
						}
						replaySteps(t, sys, w)
					}
				})
			}
		}
	}
}

// replayOutsideL checks a convergence counterexample: a lasso whose steps
// are real, which closes, and whose configurations are all outside L.
func replayOutsideL(t *testing.T, sys *model.System, n int, ce *invariants.Counterexample) {
	t.Helper()
	if ce == nil || ce.Kind != invariants.Lasso || len(ce.Steps) != len(ce.States) {
		t.Fatalf("want a lasso, got %+v", ce)
	}
	for i, s := range ce.States {
		if privilegedIn(s, n) == 1 {
			t.Fatalf("state %d of the counterexample is legitimate", i)
		}
	}
	replaySteps(t, sys, ce)
}

func replaySteps(t *testing.T, sys *model.System, ce *invariants.Counterexample) {
	t.Helper()
	if err := ce.Replay(sys); err != nil {
		t.Fatal(err)
	}
}

// oracleRounds computes the worst-case rounds by brute force over
// (configuration, pending set) pairs, recursively, independently of the
// invariants package: a round ends when every process enabled at its start
// has moved or been disabled; the round in which L is reached counts.
func oracleRounds(n, k int, daemon string) int {
	legit := func(x []int) bool {
		c := 0
		for i := range x {
			if privileged(x, i) {
				c++
			}
		}
		return c == 1
	}
	enabled := func(x []int) map[int]bool {
		en := map[int]bool{}
		for i := range x {
			if privileged(x, i) {
				en[i] = true
			}
		}
		return en
	}
	memo := map[string]int{}
	var r func(x []int, pending map[int]bool) int
	r = func(x []int, pending map[int]bool) int {
		key := fmt.Sprint(x, pending)
		if v, ok := memo[key]; ok {
			return v
		}
		best := 0
		for _, y := range oracleSuccessors(x, k, daemon) {
			if legit(y) {
				best = max(best, 1)
				continue
			}
			enY := enabled(y)
			rest := map[int]bool{}
			for p := range pending {
				moved := x[p] != y[p] || (p == 0 && k == 1)
				if !moved && enY[p] {
					rest[p] = true
				}
			}
			if len(rest) == 0 {
				best = max(best, 1+r(y, enY))
			} else {
				best = max(best, r(y, rest))
			}
		}
		memo[key] = best
		return best
	}
	worst := 0
	x := make([]int, n)
	for {
		if !legit(x) {
			worst = max(worst, r(append([]int(nil), x...), enabled(x)))
		}
		i := 0
		for ; i < n; i++ {
			if x[i]++; x[i] < k {
				break
			}
			x[i] = 0
		}
		if i == n {
			return worst
		}
	}
}

func TestRoundsMatchOracle(t *testing.T) {
	for _, daemon := range []model.Daemon{model.Central, model.Distributed, model.Synchronous} {
		for _, nk := range [][2]int{{3, 2}, {3, 3}, {4, 3}, {4, 4}, {5, 4}, {5, 5}} {
			n, k := nk[0], nk[1]
			if converges, _ := oracleConvergence(n, k, daemon.String()); !converges {
				continue
			}
			sys := build(t, n, k, daemon)
			rep, err := invariants.Check(context.Background(), sys, invariants.Options{
				Properties: []invariants.Property{invariants.Convergence},
				From:       invariants.FromAll,
			})
			if err != nil {
				t.Fatal(err)
			}
			st := rep.Stabilization
			want := oracleRounds(n, k, daemon.String())
			if st == nil || !st.RoundsComputed || st.WorstRounds != want {
				t.Errorf("%v n=%d K=%d: rounds %+v, oracle %d", daemon, n, k, st, want)
			}
		}
	}
}
