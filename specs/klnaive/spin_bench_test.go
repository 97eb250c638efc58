package klnaive_test

import (
	"fmt"
	"math/bits"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/spectest"
	"github.com/ringcheck/ringcheck/specs/spintest"
)

// twin is the Promela twin of the spec.
const twin = "testdata/klnaive.pml"

// panFlags are the pan options for a search of about states states: a depth
// bound above the depth pan's depth-first search reaches (about a third of
// the states for 5/5/3) and a hash table with about as many slots as states.
func panFlags(states int64) []string {
	return []string{fmt.Sprintf("-m%d", max(states, 10000)), fmt.Sprintf("-w%d", bits.Len64(uint64(states)))}
}

// reachable counts the states ringcheck reaches from the initial
// configuration.
func reachable(t testing.TB, n, l, k int) *explore.Result {
	t.Helper()
	return spectest.Reachable(t, spectest.Build(t, "kl-naive", specs.Values{"n": n, "L": l, "K": k, "Cmax": 0}))
}

// TestSPINTwinAgrees checks testdata/klnaive.pml against ringcheck's model
// on N=3, L=3, K=2.
//
// Relation found: with -E pan stores exactly ringcheck's reachable count + 1.
// The one extra state is SPIN's global initial state, before init's atomic
// sequence has started the ring processes and dealt the tokens (pan does not
// store the sequence's intermediate states, and init then stays at its end
// with a constant local). pan's transitions (stored+matched) are ringcheck's
// + 2: init's atomic step, and the arrival pan counts for its root state.
func TestSPINTwinAgrees(t *testing.T) {
	const n, l, k = 3, 3, 2
	defines := map[string]int{"N": n, "L": l, "K": k}

	m := spintest.Compile(t, twin, defines)
	r := m.Run(t, "-m100000")
	if r.Errors != 1 || !strings.Contains(r.Output, "invalid end state") {
		t.Errorf("pan without -E: %d errors, want 1 invalid end state (the deadlock)\n%s", r.Errors, r.Output)
	}

	ours := reachable(t, n, l, k)
	all := m.Run(t, "-E", "-m100000")
	t.Logf("pan -E: %d stored, %d transitions; ringcheck: %d states, %d transitions",
		all.StatesStored, all.Transitions, ours.States, ours.Transitions)
	if all.Errors != 0 || !all.Complete || all.DepthTruncated {
		t.Fatalf("pan -E: %d errors, complete %v, depth truncated %v; want a full search\n%s",
			all.Errors, all.Complete, all.DepthTruncated, all.Output)
	}
	if want := ours.States + 1; all.StatesStored != want {
		t.Errorf("pan -E stored %d states, want ringcheck's %d + 1 (SPIN's pre-init state) = %d", all.StatesStored, ours.States, want)
	}
	if want := ours.Transitions + 2; all.Transitions != want {
		t.Errorf("pan -E made %d transitions, want ringcheck's %d + 2 = %d", all.Transitions, ours.Transitions, want)
	}

	// The deadlock of the paper's Figure 1 itself (everyone requesting 2 and
	// holding 1) is reachable: -DFIGURE1 asserts false on reaching it.
	fig := spintest.Run(t, twin, map[string]int{"N": n, "L": l, "K": k, "FIGURE1": 1}, "-E", "-m100000")
	if fig.Errors != 1 || !strings.Contains(fig.Output, "assertion violated") {
		t.Errorf("pan -DFIGURE1 -E: %d errors, want the assertion marking Figure 1's configuration\n%s", fig.Errors, fig.Output)
	}
}

// BenchmarkSPINKLNaive runs SPIN's exhaustive search of the twin for n=5,
// L=5, K=3 with -E, so pan explores every reachable state rather than
// stopping at the first deadlock (no partial-order reduction, no
// compression; see spintest.CFlags). pan is compiled once, outside the timed
// loop. pan stores ringcheck's 988727 reachable states + 1 (see
// TestSPINTwinAgrees).
func BenchmarkSPINKLNaive(b *testing.B) {
	const n, l, k = 5, 5, 3
	const want = 988727 + 1
	b.Run(fmt.Sprintf("n=%d,L=%d,K=%d", n, l, k), func(b *testing.B) {
		m := spintest.Compile(b, twin, map[string]int{"N": n, "L": l, "K": k})
		flags := append([]string{"-E"}, panFlags(want)...)
		var r spintest.Result
		for b.Loop() {
			r = m.Run(b, flags...)
		}
		if r.Errors != 0 || !r.Complete || r.DepthTruncated || r.StatesStored != want {
			b.Fatalf("pan: %d stored (want %d), %d errors, complete %v, depth truncated %v\n%s",
				r.StatesStored, want, r.Errors, r.Complete, r.DepthTruncated, r.Output)
		}
		rate := r.StatesPerSecond
		if rate == 0 && r.Seconds > 0 {
			rate = float64(r.StatesStored) / r.Seconds
		}
		b.ReportMetric(float64(r.StatesStored), "spin-states")
		b.ReportMetric(rate, "spin-states/s")
		b.ReportMetric(r.MemoryMB, "spin-MB")
	})
}
