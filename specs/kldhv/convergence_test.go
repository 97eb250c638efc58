package kldhv_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs/kldhv"
)

// exhaustiveLimit is the largest full configuration space the brief lets
// closure and convergence be attempted on.
const exhaustiveLimit = 5e8

// TestConfigurationSpaces records the size of the full configuration space
// of the instances closure and convergence would need, none of which can
// be decided exhaustively: the smallest sensible n=3 instance (ℓ=K=2,
// Cmax=2ℓ+2=6 so that no legitimate run drops a message, MaxSeq =
// n(Cmax+1)−1 = 20 for counter flushing) does not even fit in 64 bits, and
// neither does any n=2 or ℓ=1 instance the protocol runs on unchanged. Even
// n=2, ℓ=K=1 with Cmax=2 (which drops messages of legitimate runs) and
// MaxSeq=1 (below counter flushing's need) has more than 5·10⁸.
func TestConfigurationSpaces(t *testing.T) {
	for _, tc := range []struct {
		name                  string
		n, l, k, cmax, maxSeq int
		wantFits              bool
	}{
		{"smallest sensible n=3", 3, 2, 2, 6, 20, false},
		{"n=2, ℓ=K=2", 2, 2, 2, 6, 13, false},
		{"n=2, ℓ=K=1, Cmax=2ℓ+2", 2, 1, 1, 4, 9, true},
		{"n=2, ℓ=K=1, Cmax=2, MaxSeq=1", 2, 1, 1, 2, 1, true},
	} {
		sys, _ := build(t, "n", tc.n, "L", tc.l, "K", tc.k, "Cmax", tc.cmax, "MaxSeq", tc.maxSeq)
		size, ok := sys.Configurations()
		t.Logf("%s (n=%d L=%d K=%d Cmax=%d MaxSeq=%d): %d configurations, fits in 63 bits: %v", tc.name, tc.n, tc.l, tc.k, tc.cmax, tc.maxSeq, size, ok)
		if ok != tc.wantFits {
			t.Errorf("%s: fits %v, want %v", tc.name, ok, tc.wantFits)
		}
		if ok && float64(size) <= exhaustiveLimit {
			t.Errorf("%s: %d configurations, within reach of an exhaustive check: decide closure and convergence there", tc.name, size)
		}
	}
}

// TestRecoveryEvidence is randomized evidence, not a verdict: explore.Simulate
// on n=2, ℓ=K=1, Cmax=4, MaxSeq=9 (the largest instance whose space fits in
// 63 bits, as Simulate's random fault needs), each run hit by a transient
// fault (a uniformly random configuration) after 50 steps, counting the
// steps back to L.
func TestRecoveryEvidence(t *testing.T) {
	if testing.Short() {
		t.Skip("randomized evidence")
	}
	sys, _ := build(t, "n", 2, "L", 1, "K", 1, "Cmax", 4, "MaxSeq", 9)
	res, err := explore.Simulate(context.Background(), sys, explore.SimOptions{Steps: 3000, Runs: 300, Seed: 1, FaultAt: 50}, invariantsOf(sys), sys.Legitimate.Holds)
	if err != nil {
		t.Fatal(err)
	}
	faulted, reached, lo, hi, mean := res.Recovery()
	t.Logf("evidence: %d runs faulted, %d reached L within %d steps after the fault (min %d, mean %.1f, max %d steps); %d deadlocks, %d violations after recovery",
		faulted, reached, 3000-50, lo, mean, hi, res.Deadlocks, res.Violations)
	if res.Deadlocks > 0 || res.Violations > 0 {
		t.Errorf("a run deadlocked or violated an invariant after recovering: %+v", res.First)
	}
	if reached == 0 {
		t.Error("no run recovered")
	}
}

func invariantsOf(sys *model.System) func(*model.State) string {
	return func(s *model.State) string {
		for i := range sys.Invariants {
			if !sys.Invariants[i].Holds(s) {
				return sys.Invariants[i].Name
			}
		}
		return ""
	}
}

// randomConfig fills s with a uniformly random value for every variable
// and, for every channel, a uniformly random length and random messages.
func randomConfig(r *rand.Rand, sys *model.System, v kldhv.Vars, s *model.State) {
	for p := range sys.Processes {
		for _, id := range sys.Processes[p].Vars {
			d := sys.Vars[id].Domain
			s.Set(p, id, d.Min+r.IntN(d.Size()))
		}
	}
	for _, ch := range v.Out {
		for s.Len(ch) > 0 {
			s.Pop(ch)
		}
		for range r.IntN(v.Cmax + 1) {
			var m model.Msg
			switch r.IntN(6) {
			case 0:
				m = sys.Msg(v.CToken, r.IntN(v.MaxSeq+1))
			case 1:
				m = sys.Msg(v.EnabledToken)
			case 2:
				m = sys.Msg(v.Token)
			case 3:
				m = sys.Msg(v.Collect, r.IntN(v.MaxVc+1))
			case 4:
				m = sys.Msg(v.Allocate, r.IntN(v.MaxTa+1), r.IntN(2))
			default:
				m = sys.Msg(v.Disable)
			}
			s.Push(ch, m)
		}
	}
}

// TestRecoveryEvidenceN3 is randomized evidence for the smallest sensible
// n=3 instance (ℓ=K=2, Cmax=6, MaxSeq=20), whose space does not fit in 64
// bits so Simulate cannot draw from it: random configurations drawn here
// (uniform variables, uniform channel lengths and messages), then uniformly
// random steps until L holds.
func TestRecoveryEvidenceN3(t *testing.T) {
	if testing.Short() {
		t.Skip("randomized evidence")
	}
	sys, v := build(t, "n", 3, "L", 2, "K", 2, "Cmax", 6, "MaxSeq", 20)
	r := rand.New(rand.NewPCG(1, 2))
	ex := sys.NewExpander()
	cur, next := sys.NewState(), sys.NewState()
	const runs, budget, closureSteps = 200, 20000, 2000
	reached, worst, total := 0, 0, 0
	for run := 0; run < runs; run++ {
		randomConfig(r, sys, v, cur)
		steps := 0
		for ; steps < budget && !sys.Legitimate.Holds(cur); steps++ {
			k, seen := -1, 0
			if _, err := ex.Expand(cur, func(_ *model.Step, succ *model.State) bool {
				seen++
				if r.IntN(seen) == 0 {
					next.CopyFrom(succ)
					k = seen
				}
				return true
			}); err != nil {
				t.Fatal(err)
			}
			if k < 0 {
				t.Fatalf("run %d: deadlock outside L: %s", run, kldhv.Render(sys, v, cur))
			}
			cur, next = next, cur
		}
		if steps == budget {
			continue
		}
		reached++
		total += steps
		worst = max(worst, steps)
		// Closure evidence: the run stays in L, and the invariants hold.
		for after := 0; after < closureSteps; after++ {
			k, seen := -1, 0
			if _, err := ex.Expand(cur, func(_ *model.Step, succ *model.State) bool {
				seen++
				if r.IntN(seen) == 0 {
					next.CopyFrom(succ)
					k = seen
				}
				return true
			}); err != nil {
				t.Fatal(err)
			}
			if k < 0 {
				t.Fatalf("run %d: deadlock in L: %s", run, kldhv.Render(sys, v, cur))
			}
			if !sys.Legitimate.Holds(next) || invariantsOf(sys)(next) != "" {
				t.Fatalf("run %d: a step from L leaves L or breaks an invariant:\n%s\n%s", run, kldhv.Render(sys, v, cur), kldhv.Render(sys, v, next))
			}
			cur, next = next, cur
		}
	}
	t.Logf("evidence: %d of %d random configurations reached L within %d random steps (mean %.1f, max %d), and stayed in L for %d more steps each",
		reached, runs, budget, float64(total)/float64(max(1, reached)), worst, closureSteps)
	if reached == 0 {
		t.Error("no run reached L")
	}
}
