package klpusher_test

import (
	"context"
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/specs/spintest"
)

// twin is the Promela twin of the spec.
const twin = "testdata/klpusher.pml"

// panFlags are the pan options for a search of about states states: a depth
// bound and a hash table with about as many slots as states.
func panFlags(states int64) []string {
	return []string{fmt.Sprintf("-m%d", max(states, 10000)), fmt.Sprintf("-w%d", bits.Len64(uint64(states)))}
}

// TestSPINTwinAgrees checks testdata/klpusher.pml against ringcheck's model
// on Figure 2's ring, N=3, L=3, K=2.
//
// Relation found, as for kl-naive: pan stores exactly ringcheck's reachable
// count + 1 (SPIN's global initial state, before init's atomic sequence has
// started the ring processes and filled the channels), 4129 = 4128 + 1, and
// makes ringcheck's transitions + 2 (init's atomic step, and the arrival
// pan counts for its root state), 15380 = 15378 + 2. Without -E pan finds
// no invalid end state: SPIN agrees that the pusher leaves no deadlock.
func TestSPINTwinAgrees(t *testing.T) {
	const n, l, k = 3, 3, 2
	m := spintest.Compile(t, twin, map[string]int{"N": n, "L": l, "K": k})
	r := m.Run(t, "-m100000")
	ours := reachable(t, n, l, k, 0)
	t.Logf("pan: %d stored, %d transitions; ringcheck: %d states, %d transitions",
		r.StatesStored, r.Transitions, ours.States, ours.Transitions)
	if r.Errors != 0 || !r.Complete || r.DepthTruncated {
		t.Fatalf("pan: %d errors, complete %v, depth truncated %v; want a full search with no deadlock\n%s",
			r.Errors, r.Complete, r.DepthTruncated, r.Output)
	}
	if want := ours.States + 1; r.StatesStored != want {
		t.Errorf("pan stored %d states, want ringcheck's %d + 1 (SPIN's pre-init state) = %d", r.StatesStored, ours.States, want)
	}
	if want := ours.Transitions + 2; r.Transitions != want {
		t.Errorf("pan made %d transitions, want ringcheck's %d + 2 = %d", r.Transitions, ours.Transitions, want)
	}

	// Figure 2's configuration (a) is reachable: -DFIGURE2 asserts false
	// on reaching it.
	fig := spintest.Run(t, twin, map[string]int{"N": n, "L": l, "K": k, "FIGURE2": 1}, "-E", "-m100000")
	if fig.Errors != 1 || !strings.Contains(fig.Output, "assertion violated") {
		t.Errorf("pan -DFIGURE2 -E: %d errors, want the assertion marking Figure 2's configuration (a)\n%s", fig.Errors, fig.Output)
	}
}

// starveDefines are the spin defines of the starvation twin for process p.
func starveDefines(n, l, k, p int) map[string]int {
	return map[string]int{"N": n, "L": l, "K": k, "STARVE": 1, "P": p}
}

// compileStarve builds pan for the weak-fairness starvation search of
// process p (init and two proctypes per process run), with extra gcc flags
// after spintest.FairCFlags (-O0 compiles several times faster than its
// -O2, for tests whose searches take milliseconds).
func compileStarve(tb testing.TB, n, l, k, p int, cflags ...string) *spintest.Model {
	tb.Helper()
	return spintest.CompileWith(tb, twin, starveDefines(n, l, k, p), append(spintest.FairCFlags(2*n+1), cflags...))
}

// TestSPINStarvation: SPIN's verdict on [] (req_P -> <> cs_P) under weak
// fairness (pan -a -f) for every process P, against ringcheck's:
//
//	N=3 L=3 K=2 (Figure 2)  every process can starve (an acceptance cycle for P = 0, 1, 2)
//	N=3 L=2 K=2             every process can starve
//	N=2 L=2 K=2             every process can starve
//	N=3 L=3 K=1             no process starves (no acceptance cycle)
//	N=2 L=1 K=1             no process starves
//
// With K=1 a requesting process collects the first token that reaches the
// head of its channel, and one must: so the cycles found for K=2 are not an
// artefact of the fairness encoding. For Figure 2's ring the counterexample
// of P=2 is replayed: its cycle keeps process 2 requesting throughout.
// ringcheck's starvation check (when this build has it) gives the same
// verdicts, process by process (Outcome.Starving).
func TestSPINStarvation(t *testing.T) {
	for _, tc := range []struct {
		n, l, k int
		starves bool
	}{
		{3, 3, 2, true},
		{3, 2, 2, true},
		{2, 2, 2, true},
		{3, 3, 1, false},
		{2, 1, 1, false},
	} {
		for p := 0; p < tc.n; p++ {
			name := fmt.Sprintf("N=%d,L=%d,K=%d,P=%d", tc.n, tc.l, tc.k, p)
			m := compileStarve(t, tc.n, tc.l, tc.k, p, "-O0")
			r := m.Run(t, "-a", "-f", "-m100000", "-w18")
			t.Logf("%s: %d errors %q, %d stored (%d visited), %.2fs", name, r.Errors, r.Violation, r.StatesStored, r.Visited, r.Seconds)
			if r.DepthTruncated {
				t.Fatalf("%s: depth bound too small\n%s", name, r.Output)
			}
			if got := r.Errors > 0; got != tc.starves {
				t.Errorf("%s: pan -a -f found %d acceptance cycles, want starvation %v\n%s", name, r.Errors, tc.starves, r.Output)
				continue
			}
			if tc.starves && !strings.HasPrefix(r.Violation, "acceptance cycle") {
				t.Errorf("%s: pan reports %q, want an acceptance cycle", name, r.Violation)
			}
			if !tc.starves || tc.n != 3 || tc.l != 3 || p != 2 {
				continue
			}
			tr := m.Replay(t)
			if tr.CycleStart < 0 || tr.CycleStart >= len(tr.Steps) {
				t.Fatalf("%s: the trail has no cycle (start %d of %d steps)", name, tr.CycleStart, len(tr.Steps))
			}
			// The state the cycle starts from is the one after the step
			// before it; the cycle returns to it.
			for i := tr.CycleStart - 1; i < len(tr.Steps); i++ {
				g := tr.Steps[i].Globals
				if need, cnt := g["need[2]"], g["cnt[2]"]; !(need > 0 && cnt < need) {
					t.Errorf("%s: after step %d of the trail process 2 has need=%d cnt=%d: not requesting", name, tr.Steps[i].Num, need, cnt)
				}
			}
			t.Logf("%s: SPIN's lasso has %d steps, %d in the cycle", name, len(tr.Steps), len(tr.Steps)-tr.CycleStart)
		}
		if invariants.Implemented(invariants.Starvation) != nil {
			continue
		}
		sys, _ := build(t, tc.n, tc.l, tc.k)
		rep, err := invariants.Check(context.Background(), sys, invariants.Options{
			Properties: []invariants.Property{invariants.Starvation},
			From:       invariants.FromInit,
			Fairness:   invariants.WeakFairness,
			Search:     explore.Options{Workers: 2},
		})
		if err != nil {
			t.Fatal(err)
		}
		want := invariants.Holds
		if tc.starves {
			want = invariants.Violated
		}
		var wantStarving []int
		if tc.starves {
			for p := 0; p < tc.n; p++ {
				wantStarving = append(wantStarving, p)
			}
		}
		if o := rep.Outcomes[0]; o.Verdict != want || !slices.Equal(o.Starving, wantStarving) {
			t.Errorf("N=%d L=%d K=%d: ringcheck says starvation %s for processes %v, SPIN %s for %v",
				tc.n, tc.l, tc.k, o.Verdict, o.Starving, want, wantStarving)
		}
	}
}

// starveInstances are the benchmarked instances: Figure 2's ring and the
// largest whose exhaustive pan -a -f -c0 search took under a minute on the
// 2-core machine it was sized on (n=5, L=4, K=2: about 33 s, 1.04 million
// states stored, 10 million visited, 520 MB; n=5, L=5, K=2 took 84 s and
// n=4, L=4, K=4 32 s). ringcheck reaches 4128 and 597765 states from init
// for the two; BenchmarkStarvationCheck (bench_test.go) is ringcheck's side,
// its starvation check under weak fairness for every process.
var starveInstances = []struct {
	n, l, k int
	depth   int64 // pan -m: above the depth its search reaches
	stored  int64 // about the states pan stores, to size its hash table
}{
	{3, 3, 2, 100000, 7226},
	{5, 4, 2, 2000000, 1039779},
}

// BenchmarkSPINStarvation runs SPIN's weak-fairness search for the
// starvation of process 2, pan -a -f on the ltl claim
// [] (req_2 -> <> cs_2) of testdata/klpusher.pml, exhaustively: with -c0
// pan does not stop at the first acceptance cycle (it finds one within a
// few hundred steps) but explores the whole product of the ring, the
// claim and the fairness counters, which is the work ringcheck's
// starvation check does for every process at once. pan is compiled once,
// outside the timed loop, with spintest.FairCFlags (no partial-order
// reduction; default byte-mask compression, which pan -a requires).
// Metrics: spin-states (stored), spin-visited (both passes of the nested
// search), spin-states/s (pan's rate, from the visited count), spin-MB,
// spin-cycles (acceptance cycles counted).
func BenchmarkSPINStarvation(b *testing.B) {
	for _, in := range starveInstances {
		b.Run(fmt.Sprintf("n=%d,L=%d,K=%d", in.n, in.l, in.k), func(b *testing.B) {
			m := compileStarve(b, in.n, in.l, in.k, 2)
			flags := []string{"-a", "-f", "-c0", fmt.Sprintf("-m%d", in.depth), fmt.Sprintf("-w%d", bits.Len64(uint64(in.stored)))}
			var r spintest.Result
			for b.Loop() {
				r = m.Run(b, flags...)
			}
			if r.Errors == 0 || !r.Complete || r.DepthTruncated {
				b.Fatalf("pan: %d acceptance cycles (want some), complete %v, depth truncated %v\n%s",
					r.Errors, r.Complete, r.DepthTruncated, r.Output)
			}
			rate := r.StatesPerSecond
			if rate == 0 && r.Seconds > 0 {
				rate = float64(r.Visited) / r.Seconds
			}
			b.ReportMetric(float64(r.StatesStored), "spin-states")
			b.ReportMetric(float64(r.Visited), "spin-visited")
			b.ReportMetric(rate, "spin-states/s")
			b.ReportMetric(r.MemoryMB, "spin-MB")
			b.ReportMetric(float64(r.Errors), "spin-cycles")
		})
	}
}
