package dijkstra_test

import (
	"fmt"
	"math/bits"
	"slices"
	"sync"
	"testing"

	"github.com/ringcheck/ringcheck/specs/spintest"
)

// convergeDefines are the spin defines of the convergence twin: the ring
// size and -DCONVERGE, which adds the ltl claim <> (started && legit) to
// testdata/dijkstra.pml (see its header).
func convergeDefines(n, k int) map[string]int {
	return map[string]int{"N": n, "K": k, "CONVERGE": 1}
}

// convergeFlags are the pan options for the convergence search of a ring
// with K^n = total configurations: acceptance cycles (-a), no fairness (no
// -f, like ringcheck's fairness=none), and panFlags' depth bound and hash
// table for the K^n + 1 states pan stores.
func convergeFlags(total int64) []string {
	return append([]string{"-a"}, panFlags(total+1)...)
}

// ring is a configuration x[0..n-1] of Dijkstra's ring.
type ring []int

// privileged counts the privileged processes of x, as the ring counts them.
func (x ring) privileged() int {
	n := len(x)
	count := 0
	if x[0] == x[n-1] {
		count++
	}
	for i := 1; i < n; i++ {
		if x[i] != x[i-1] {
			count++
		}
	}
	return count
}

// ringOf reads the configuration of an n-process ring from a replayed
// step's globals (x[i] absent: never printed, still 0).
func ringOf(globals map[string]int, n int) ring {
	x := make(ring, n)
	for i := range x {
		x[i] = globals[fmt.Sprintf("x[%d]", i)]
	}
	return x
}

// bruteConvergence decides convergence of the n-process, K-state ring under
// the central daemon with no fairness by brute force, independently of both
// SPIN and ringcheck: a depth-first search over all K^n configurations of
// the graph with legitimate configurations as sinks, which converges iff it
// has no cycle. It also returns the worst case, over all configurations and
// executions, of the number of moves before a legitimate configuration.
func bruteConvergence(n, k int) (converges bool, worst int) {
	total := int(configs(n, k))
	decode := func(c int) ring {
		x := make(ring, n)
		for i := range x {
			x[i] = c % k
			c /= k
		}
		return x
	}
	encode := func(x ring) int {
		c := 0
		for i := n - 1; i >= 0; i-- {
			c = c*k + x[i]
		}
		return c
	}
	succ := func(c int) []int {
		x := decode(c)
		if x.privileged() == 1 {
			return nil
		}
		var out []int
		for i := range x {
			y := slices.Clone(x)
			switch {
			case i == 0 && x[0] == x[n-1]:
				y[0] = (x[0] + 1) % k
			case i > 0 && x[i] != x[i-1]:
				y[i] = x[i-1]
			default:
				continue
			}
			out = append(out, encode(y))
		}
		return out
	}
	const (
		white = iota
		grey
		black
	)
	color := make([]byte, total)
	dist := make([]int, total) // moves to legitimacy, worst case
	type frame struct {
		c    int
		next []int
	}
	for root := range total {
		if color[root] != white {
			continue
		}
		color[root] = grey
		stack := []frame{{root, succ(root)}}
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if len(f.next) > 0 {
				d := f.next[0]
				f.next = f.next[1:]
				switch color[d] {
				case grey:
					return false, 0
				case white:
					color[d] = grey
					stack = append(stack, frame{d, succ(d)})
				}
				continue
			}
			for _, d := range succ(f.c) {
				dist[f.c] = max(dist[f.c], dist[d]+1)
			}
			color[f.c] = black
			worst = max(worst, dist[f.c])
			stack = stack[:len(stack)-1]
		}
	}
	return true, worst
}

// TestSPINConvergenceTwin checks SPIN's convergence verdict on
// testdata/dijkstra.pml -DCONVERGE (pan -a, no fairness) against rings whose
// answer is known: Dijkstra's ring converges under the central daemon from
// every configuration when K ≥ n-1 and, on these sizes, does not when
// K ≤ n-2. Each expectation is also checked by brute force.
//
// When the ring converges, pan stores exactly K^n + 1 states (the
// configurations and the pre-init state; see the model's header) and finds
// no acceptance cycle. When it does not, the test replays pan's
// counterexample and checks it is genuine: after init, a nonempty cycle of
// ring moves through illegitimate configurations that returns to its first
// configuration.
func TestSPINConvergenceTwin(t *testing.T) {
	if _, _, err := spintest.Tools(); err != nil {
		t.Skipf("skipping SPIN comparison: %v", err)
	}
	// -O0: gcc compiles pan.c five times faster, and these searches are tiny.
	cflags := append(spintest.LivenessCFlags(), "-O0")
	for _, c := range []struct {
		n, k     int
		converge bool
	}{
		{3, 2, true},
		{4, 2, false},
		{4, 3, true},
		{4, 4, true},
		{5, 2, false},
		{5, 3, false},
		{5, 4, true},
		{6, 3, false},
		{6, 4, false},
		{6, 5, true},
	} {
		t.Run(fmt.Sprintf("n=%d,K=%d", c.n, c.k), func(t *testing.T) {
			t.Parallel()
			brute, worst := bruteConvergence(c.n, c.k)
			if brute != c.converge {
				t.Fatalf("brute force says converges=%v, the table %v", brute, c.converge)
			}
			total := configs(c.n, c.k)
			m := spintest.CompileWith(t, twin, convergeDefines(c.n, c.k), cflags)
			r := m.Run(t, convergeFlags(total)...)
			if r.DepthTruncated {
				t.Fatalf("pan's search depth was cut by -m\n%s", r.Output)
			}
			if c.converge {
				if r.Errors != 0 || !r.Complete {
					t.Fatalf("pan: %d errors (%s), complete %v; want 0 errors: the ring converges\n%s",
						r.Errors, r.Violation, r.Complete, r.Output)
				}
				if r.StatesStored != total+1 {
					t.Errorf("pan stored %d states, want K^n+1 = %d", r.StatesStored, total+1)
				}
				t.Logf("converges: pan stored %d states (%d visited); worst case %d moves (brute force)",
					r.StatesStored, r.Visited, worst)
				return
			}
			if r.Errors == 0 {
				t.Fatalf("pan: 0 errors; want an acceptance cycle: the ring does not converge\n%s", r.Output)
			}
			tr := m.Replay(t)
			checkDivergence(t, tr, c.n)
			var prefix int
			for _, s := range tr.Steps[:tr.CycleStart] {
				if s.Proc != ":init:" {
					prefix++
				}
			}
			t.Logf("does not converge: pan: %s; counterexample from x=%v: %d ring moves to x=%v, then a cycle of %d back to it",
				r.Violation, ringOf(initEnd(tr).Globals, c.n), prefix,
				ringOf(tr.Steps[tr.CycleStart-1].Globals, c.n), len(tr.Steps)-tr.CycleStart)
		})
	}
}

// initEnd returns the last step of init in tr: the configuration it chose.
func initEnd(tr spintest.Trail) spintest.Step {
	var last spintest.Step
	for _, s := range tr.Steps {
		if s.Proc == ":init:" {
			last = s
		}
	}
	return last
}

// checkDivergence checks that tr is an execution that never reaches a
// legitimate configuration after init: init ends with started set, every
// later step is a ring move into an illegitimate configuration, and the
// trail ends with a nonempty cycle of ring moves back to the configuration
// it started from.
func checkDivergence(t *testing.T, tr spintest.Trail, n int) {
	t.Helper()
	if tr.CycleStart <= 0 || tr.CycleStart >= len(tr.Steps) {
		t.Fatalf("counterexample has no nonempty cycle after init (cycle starts at step %d of %d)\n%s",
			tr.CycleStart, len(tr.Steps), tr.Output)
	}
	afterInit := -1
	for i, s := range tr.Steps {
		if s.Proc == ":init:" {
			if afterInit >= 0 {
				t.Fatalf("init moves after the ring has\n%s", tr.Output)
			}
			continue
		}
		if afterInit < 0 {
			afterInit = i
			if i == 0 || tr.Steps[i-1].Globals["started"] != 1 {
				t.Fatalf("a ring process moves before init sets started\n%s", tr.Output)
			}
		}
		if x := ringOf(s.Globals, n); x.privileged() == 1 {
			t.Fatalf("step %d reaches the legitimate configuration %v\n%s", s.Num, x, tr.Output)
		}
	}
	if afterInit < 0 || afterInit > tr.CycleStart {
		t.Fatalf("the cycle contains init's steps\n%s", tr.Output)
	}
	first := ringOf(tr.Steps[tr.CycleStart-1].Globals, n)
	if first.privileged() == 1 {
		t.Fatalf("the cycle starts from the legitimate configuration %v\n%s", first, tr.Output)
	}
	if last := ringOf(tr.Steps[len(tr.Steps)-1].Globals, n); !slices.Equal(first, last) {
		t.Fatalf("the cycle goes from %v to %v, not back\n%s", first, last, tr.Output)
	}
}

// convergenceMemory is the measurement BenchmarkSPINConvergence's n=9 case
// estimates its memory from: the last n=8 run's bytes per stored state.
var convergenceMemory struct {
	sync.Mutex
	bytesPerState float64 // excluding the hash table
	from          string  // the run it was measured on
}

// hashTableMB is the size in pan's megabytes (MiB) of pan's hash table for
// a search of states states with panFlags' -w: 2^w slots of 8 bytes.
func hashTableMB(states int64) float64 {
	return float64(uint64(8)<<bits.Len64(uint64(states))) / (1 << 20)
}

// BenchmarkSPINConvergence runs SPIN's convergence check of the twin
// (testdata/dijkstra.pml -DCONVERGE, pan -a without fairness; see
// convergeFlags and spintest.LivenessCFlags) from all K^n configurations,
// compiling pan once outside the timed loop. Metrics: spin-states is pan's
// stored states (K^n + 1), spin-visited the states of both passes of its
// nested depth-first search (twice that), spin-states/s pan's own rate
// (visited states per second), configs/s K^n over pan's elapsed time
// (comparable with ringcheck's convergence check), spin-MB pan's total
// memory.
//
// n=9, K=9 runs only if its memory, estimated from the n=8 run (per stored
// state, excluding the hash table, scaled to 9^9 + 1 states, plus the -w29
// hash table), fits in pan's 16 GB limit (spintest.LivenessCFlags'
// -DMEMLIM=16000); otherwise it is skipped with the estimate.
func BenchmarkSPINConvergence(b *testing.B) {
	for _, c := range []struct{ n, k int }{{7, 7}, {8, 8}, {9, 9}} {
		b.Run(fmt.Sprintf("n=%d,K=%d", c.n, c.k), func(b *testing.B) {
			total := configs(c.n, c.k)
			if c.n == 9 {
				estimate := convergenceEstimate(b, total+1)
				if estimate > 16000 {
					b.Skipf("skipping n=9, K=9: pan would need about %.1f GB (%d states × %.1f bytes, measured on %s, + %.0f MB hash table), over its 16 GB limit",
						estimate/1024, total+1, convergenceMemory.bytesPerState, convergenceMemory.from, hashTableMB(total+1))
				}
			}
			r := spinConvergence(b, c.n, c.k)
			rate := r.StatesPerSecond
			if rate == 0 && r.Seconds > 0 {
				rate = float64(r.Visited) / r.Seconds
			}
			b.ReportMetric(float64(r.StatesStored), "spin-states")
			b.ReportMetric(float64(r.Visited), "spin-visited")
			b.ReportMetric(rate, "spin-states/s")
			if r.Seconds > 0 {
				b.ReportMetric(float64(total)/r.Seconds, "configs/s")
			}
			b.ReportMetric(r.MemoryMB, "spin-MB")
		})
	}
}

// spinConvergence compiles the convergence twin for n, K and runs pan -a
// b.N times (b.Loop), checks it converges with K^n + 1 states stored, and
// returns the last run's result. An n=8 run is recorded in
// convergenceMemory.
func spinConvergence(b *testing.B, n, k int) spintest.Result {
	total := configs(n, k)
	m := spintest.CompileWith(b, twin, convergeDefines(n, k), spintest.LivenessCFlags())
	flags := convergeFlags(total)
	b.Logf("pan %v", flags)
	var r spintest.Result
	for b.Loop() {
		r = m.Run(b, flags...)
	}
	if r.Errors != 0 || !r.Complete || r.DepthTruncated || r.StatesStored != total+1 {
		b.Fatalf("pan: %d stored (want K^n+1 = %d), %d errors (%s), complete %v, depth truncated %v\n%s",
			r.StatesStored, total+1, r.Errors, r.Violation, r.Complete, r.DepthTruncated, r.Output)
	}
	if n == 8 {
		recordConvergenceMemory(r, fmt.Sprintf("n=%d,K=%d", n, k))
	}
	return r
}

// recordConvergenceMemory records r's memory per stored state, excluding
// the hash table, in convergenceMemory.
func recordConvergenceMemory(r spintest.Result, from string) {
	convergenceMemory.Lock()
	defer convergenceMemory.Unlock()
	convergenceMemory.bytesPerState = (r.MemoryMB - hashTableMB(r.StatesStored)) * (1 << 20) / float64(r.StatesStored)
	convergenceMemory.from = from
}

// convergenceEstimate returns the estimated memory in pan's megabytes of a
// convergence search storing states states, from the n=8 run's bytes per
// state (running it, untimed, if this process has not).
func convergenceEstimate(b *testing.B, states int64) float64 {
	convergenceMemory.Lock()
	measured := convergenceMemory.from != ""
	convergenceMemory.Unlock()
	if !measured {
		b.StopTimer()
		total := configs(8, 8)
		m := spintest.CompileWith(b, twin, convergeDefines(8, 8), spintest.LivenessCFlags())
		r := m.Run(b, convergeFlags(total)...)
		if r.Errors != 0 || !r.Complete || r.StatesStored != total+1 {
			b.Fatalf("pan on n=8, K=8: %d stored, %d errors, complete %v\n%s", r.StatesStored, r.Errors, r.Complete, r.Output)
		}
		recordConvergenceMemory(r, "n=8,K=8")
		b.StartTimer()
	}
	convergenceMemory.Lock()
	defer convergenceMemory.Unlock()
	return convergenceMemory.bytesPerState*float64(states)/(1<<20) + hashTableMB(states)
}
