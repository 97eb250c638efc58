package runs_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/budget"
	"github.com/ringcheck/ringcheck/internal/testsys"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/runs"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/spectest"
	"github.com/ringcheck/ringcheck/statespace"
)

// searchRounds runs SearchRounds and fails the test on an error.
func searchRounds(t *testing.T, sys *model.System, opts runs.RoundOptions) *runs.RoundResult {
	t.Helper()
	res, err := runs.SearchRounds(context.Background(), sys, opts, sys.Legitimate.Holds)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestSearchRoundsDijkstraWithinWorstCase: a sweep is an execution of the
// central daemon in which every round contains at least one asynchronous
// round as the exhaustive analysis counts them, so no run of Dijkstra's ring
// with n=5, K=5 may take more than its exhaustive worst case, 7 rounds
// (pinned by the stabilization tests). Every witness verifies, with the
// rounds its run reported.
func TestSearchRoundsDijkstraWithinWorstCase(t *testing.T) {
	sys := dijkstraSys(t, 5, 5)
	for _, order := range []runs.SweepOrder{runs.Backward, runs.Shuffled} {
		res := searchRounds(t, sys, runs.RoundOptions{Runs: 3000, Seed: 9, MaxRounds: 50, Order: order})
		reached, lo, hi, mean, notReached, _ := res.Summary()
		if notReached > 0 || reached != 3000 || hi > 7 || hi < 3 || lo < 0 || mean < float64(lo) || mean > float64(hi) {
			t.Fatalf("%s: reached %d (not %d), rounds %d..%d mean %.2f; want all 3000 within 7, some taking 3 or more", order, reached, notReached, lo, hi, mean)
		}
		got, err := runs.VerifyRounds(sys, res.Witness, sys.Legitimate.Holds)
		if err != nil {
			t.Fatalf("%s: the slowest run's witness does not verify: %v", order, err)
		}
		if got != hi {
			t.Fatalf("%s: the witness reaches L in round %d, the run reported %d", order, got, hi)
		}
	}
}

// TestSearchRoundsReproducible: the same options give the same runs, and
// a run replayed alone (First) is the run of the larger search.
func TestSearchRoundsReproducible(t *testing.T) {
	sys := klddhlSys(t, 3)
	opts := runs.RoundOptions{Runs: 200, Seed: 4, MaxRounds: 120}
	a, b := searchRounds(t, sys, opts), searchRounds(t, sys, opts)
	if !reflect.DeepEqual(a.Runs, b.Runs) || a.Slowest != b.Slowest {
		t.Fatal("two searches with the same options differ")
	}
	for _, i := range []int{0, 17, a.Slowest, 199} {
		one := searchRounds(t, sys, runs.RoundOptions{Runs: 1, First: i, Seed: 4, MaxRounds: 120})
		if !reflect.DeepEqual(one.Runs[0], a.Runs[i]) || one.Witness.Run != i {
			t.Fatalf("run %d alone: %+v (witness of run %d), in the search: %+v", i, one.Runs[0], one.Witness.Run, a.Runs[i])
		}
	}
}

// klddhlSys returns the catalogue's kl-ddhl (specs/ring/kl-ddhl.ring) for
// n processes and L = K = 2, with Cmax 0 (L+3), or the second value of
// each pair of extra.
func klddhlSys(t *testing.T, n int, extra ...int) *model.System {
	t.Helper()
	p := specs.Values{"n": n, "L": 2, "K": 2, "Cmax": 0, "staycs": 0}
	for i := 0; i+1 < len(extra); i += 2 {
		p["Cmax"] = extra[i+1]
	}
	return spectest.Build(t, "kl-ddhl", p)
}

// TestSearchRoundsWitnessesVerify replays kl-ddhl runs one by one (with
// message passing, environment steps, timeouts and actions that receive
// several messages) and checks each against VerifyRounds, in both orders
// and with critical sections of geometric length or of one round.
func TestSearchRoundsWitnessesVerify(t *testing.T) {
	sys := klddhlSys(t, 3)
	for _, tt := range []struct {
		order    runs.SweepOrder
		csRounds int
	}{{runs.Backward, 0}, {runs.Shuffled, 0}, {runs.Backward, 1}, {runs.Shuffled, 1}} {
		order := tt.order
		several := false
		for i := range 150 {
			res := searchRounds(t, sys, runs.RoundOptions{Runs: 1, First: i, Seed: 2, MaxRounds: 120, Order: order, Invariants: sys.Invariants, CSRounds: tt.csRounds})
			run, w := res.Runs[0], res.Witness
			got, err := runs.VerifyRounds(sys, w, sys.Legitimate.Holds)
			if err != nil {
				t.Fatalf("%s run %d: %v", order, i, err)
			}
			if !run.Reached || got != run.Rounds || len(w.RoundEnds) != run.Rounds || len(w.Steps) != run.Steps {
				t.Fatalf("%s run %d: %+v, but its witness reaches L in round %d with %d rounds and %d steps", order, i, run, got, len(w.RoundEnds), len(w.Steps))
			}
			// The invariants: units-in-use, then legitimate, which is L:
			// it fails last in the round before L or in L's own.
			for k, last := range run.LastViolated {
				if last > run.Rounds {
					t.Fatalf("%s run %d: invariant %d violated in round %d, after L in round %d", order, i, k, last, run.Rounds)
				}
			}
			if last := run.LastViolated[1]; run.Rounds > 0 && last != run.Rounds && last != run.Rounds-1 {
				t.Fatalf("%s run %d: L reached in round %d, but legitimate last fails in round %d", order, i, run.Rounds, last)
			}
			for k := 1; k < len(w.Steps); k++ {
				several = several || w.Steps[k].Moves[0].Proc == w.Steps[k-1].Moves[0].Proc
			}
		}
		if !several {
			t.Fatalf("%s: no action took more than one step", order)
		}
	}
}

// TestVerifyRoundsRejects: a witness altered in any of the ways the round
// model forbids fails to verify.
func TestVerifyRoundsRejects(t *testing.T) {
	sys := klddhlSys(t, 3)
	res := searchRounds(t, sys, runs.RoundOptions{Runs: 50, Seed: 3, MaxRounds: 120})
	w := res.Witness
	if len(w.RoundEnds) < 3 {
		t.Fatalf("the slowest of 50 runs takes %d rounds; the test needs 3", len(w.RoundEnds))
	}
	if _, err := runs.VerifyRounds(sys, w, sys.Legitimate.Holds); err != nil {
		t.Fatal(err)
	}
	clone := func() *runs.RoundWitness {
		c := *w
		c.RoundEnds = append([]int(nil), w.RoundEnds...)
		c.Steps = append([]model.Step(nil), w.Steps...)
		c.States = append([]*model.State(nil), w.States...)
		return &c
	}
	// The first round in which two processes act, and where the second's
	// action starts.
	split := -1
	for k := 1; k < w.RoundEnds[0]; k++ {
		if w.Steps[k].Moves[0].Proc != w.Steps[k-1].Moves[0].Proc {
			split = k
			break
		}
	}
	cases := map[string]func(c *runs.RoundWitness){
		"two rounds merged": func(c *runs.RoundWitness) {
			c.RoundEnds = append(c.RoundEnds[:0:0], c.RoundEnds[1:]...)
		},
		"a round cut inside an action": func(c *runs.RoundWitness) {
			if split > 1 {
				c.RoundEnds = append([]int{split - 1}, c.RoundEnds...)
			} else {
				c.RoundEnds[0]--
			}
		},
		"rounds out of order": func(c *runs.RoundWitness) {
			c.RoundEnds[0], c.RoundEnds[1] = c.RoundEnds[1], c.RoundEnds[0]
		},
		// Ends past the steps, but the last one right: VerifyRounds must
		// refuse them before it indexes the steps, not panic. The witness
		// cut to its first round, whose steps are a valid round, with
		// that round said to end one step past them.
		"a round ending past the last step, then the last round": func(c *runs.RoundWitness) {
			e := c.RoundEnds[0]
			c.Steps, c.States = c.Steps[:e], c.States[:e+1]
			c.RoundEnds = []int{e + 1, e}
		},
		"an early round ending far past the steps": func(c *runs.RoundWitness) {
			c.RoundEnds[1] = 1 << 40
		},
		"a round ending before the first step": func(c *runs.RoundWitness) {
			c.RoundEnds[0] = -1
		},
		"a step dropped": func(c *runs.RoundWitness) {
			c.Steps = append(c.Steps[:1:1], c.Steps[2:]...)
			c.States = append(c.States[:2:2], c.States[3:]...)
			for r := range c.RoundEnds {
				c.RoundEnds[r]--
			}
		},
		"the last steps missing": func(c *runs.RoundWitness) {
			c.Steps = c.Steps[:len(c.Steps)-1]
			c.States = c.States[:len(c.States)-1]
		},
	}
	for name, alter := range cases {
		c := clone()
		alter(c)
		if _, err := runs.VerifyRounds(sys, c, sys.Legitimate.Holds); err == nil {
			t.Errorf("%s: the witness still verifies", name)
		}
	}
}

// counters is a one-process system for the action boundaries: a timeout
// that counts t modulo 4 and a protocol action that counts x modulo 3,
// both always enabled, in that order; L never holds.
func counters(t *testing.T) *model.System {
	b := model.NewBuilder("counters", model.UniRing, 1)
	x := b.Var("x", model.IntRange(0, 2))
	tv := b.Var("t", model.IntRange(0, 3))
	b.Action(model.Action{Name: "tick", Kind: model.Timeout, Guard: func(*model.Ctx) bool { return true },
		Effect: func(c *model.Ctx, _ int) { c.Set(tv, (c.Get(tv)+1)%4) }})
	b.Action(model.Action{Name: "count", Guard: func(*model.Ctx) bool { return true },
		Effect: func(c *model.Ctx, _ int) { c.Set(x, (c.Get(x)+1)%3) }})
	b.Legitimate(model.Predicate{Name: "never", Holds: func(*model.State) bool { return false }})
	b.Initial(func(*model.System, *model.State) {})
	sys, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// TestActionEnds: an action times out once (tick, the first action, is
// then excluded), then repeats its process's first enabled protocol action
// until its next step would lead back into the action (count: two steps,
// 0→1→2, then 2→0 is a return); so every round takes three steps, and no
// run reaches L.
func TestActionEnds(t *testing.T) {
	sys := counters(t)
	res := searchRounds(t, sys, runs.RoundOptions{Runs: 5, Seed: 1, MaxRounds: 4})
	for i, run := range res.Runs {
		if run.Reached || run.Deadlock || run.Rounds != 4 || run.Steps != 12 {
			t.Fatalf("run %d: %+v, want 4 rounds of 3 steps, L not reached", i, run)
		}
	}
	var labels []string
	for k := range res.Witness.Steps[:3] {
		labels = append(labels, sys.Label(&res.Witness.Steps[k]))
	}
	if want := []string{"tick", "count", "count"}; !reflect.DeepEqual(labels, want) {
		t.Fatalf("the first round's steps are %v, want %v", labels, want)
	}
	if _, err := runs.VerifyRounds(sys, res.Witness, sys.Legitimate.Holds); err != nil {
		t.Fatal(err)
	}
}

// TestSearchRoundsDeadlock: a run that reaches a configuration outside L
// with no step at all ends there, as a deadlock.
func TestSearchRoundsDeadlock(t *testing.T) {
	b := model.NewBuilder("stop", model.UniRing, 2)
	x := b.Var("x", model.IntRange(0, 3))
	b.Action(model.Action{Name: "down", Guard: func(c *model.Ctx) bool { return c.Get(x) > 0 },
		Effect: func(c *model.Ctx, _ int) { c.Set(x, c.Get(x)-1) }})
	b.Legitimate(model.Predicate{Name: "some-3", Holds: func(s *model.State) bool { return s.Get(0, x) == 3 && s.Get(1, x) == 3 }})
	b.Initial(func(*model.System, *model.State) {})
	sys, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	res := searchRounds(t, sys, runs.RoundOptions{Runs: 40, Seed: 1, MaxRounds: 10})
	reached, _, _, _, notReached, deadlocks := res.Summary()
	if deadlocks == 0 || deadlocks != notReached || reached+notReached != 40 {
		t.Fatalf("reached %d, not reached %d, deadlocks %d; want every run not starting in L to deadlock", reached, notReached, deadlocks)
	}
	for i, run := range res.Runs {
		if run.Deadlock && run.Rounds != 1 && run.Rounds != 2 {
			t.Fatalf("run %d deadlocks in round %d; x counts down to 0 in one action, so the first round (x = 0 everywhere) or the second finds no step", i, run.Rounds)
		}
	}
}

// TestWorstRoundsWithinTheBudget: the worst case in rounds is computed
// within a budget that holds its product, and left out with the reason
// when the budget does not.
func TestWorstRoundsWithinTheBudget(t *testing.T) {
	sys := dijkstraSys(t, 4, 4)
	sp, err := statespace.NewSpace(sys)
	if err != nil {
		t.Fatal(err)
	}
	inL := statespace.NewBits(sp.Size())
	c := sp.NewCursor()
	for v := range uint32(sp.Size()) {
		st, err := c.Load(v)
		if err != nil {
			t.Fatal(err)
		}
		if sys.Legitimate.Holds(st) {
			inL.Set(v)
		}
	}
	worst, _, note, err := runs.WorstRounds(context.Background(), sp, inL, 1, 0, budget.New(budget.Heap()+64<<20))
	if err != nil || note != "" || worst < 1 {
		t.Fatalf("within 64 MiB: %d rounds, note %q, %v", worst, note, err)
	}
	_, _, note, err = runs.WorstRounds(context.Background(), sp, inL, 1, 0, budget.New(1))
	if err != nil || !strings.Contains(note, "over the memory budget") {
		t.Fatalf("over the budget: note %q, %v", note, err)
	}
}

// TestSearchRoundsBoundsCriticalSections: with CSRounds = 1 a process in
// its critical section at the start of an action leaves in it, so no two
// round ends in a row find it there; without the bound its coin keeps it
// there for several rounds now and then.
func TestSearchRoundsBoundsCriticalSections(t *testing.T) {
	sys, st := testsys.Requests{N: 1, NeverLegitimate: true}.Build(t)
	longest := func(csRounds int) int {
		res := searchRounds(t, sys, runs.RoundOptions{Runs: 1, Seed: 3, MaxRounds: 400, CSRounds: csRounds})
		w := res.Witness
		if w == nil || len(w.RoundEnds) != 400 {
			t.Fatalf("cs-rounds %d: no witness of 400 rounds", csRounds)
		}
		best, run := 0, 0
		for _, end := range w.RoundEnds {
			if w.States[end].Get(0, st) == testsys.InCS {
				run++
			} else {
				run = 0
			}
			best = max(best, run)
		}
		return best
	}
	if got := longest(1); got != 1 {
		t.Errorf("with critical sections of one round, %d round ends in a row find the process inside", got)
	}
	if got := longest(0); got < 3 {
		t.Errorf("with critical sections of geometric length, at most %d round ends in a row find the process inside in 400 rounds", got)
	}
}
