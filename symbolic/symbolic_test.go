package symbolic_test

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ringcheck/ringcheck/budget"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/lang"
	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/symbolic"
)

// agreement is the instances both engines decide, under one semantics.
type agreement struct {
	file     string
	daemon   model.Daemon
	fairness invariants.Fairness
	values   []map[string]int
}

var agreements = []agreement{
	{"../specs/ring/dijkstra.ring", model.Central, invariants.NoFairness, []map[string]int{
		{"n": 3, "K": 2}, {"n": 3, "K": 3}, {"n": 4, "K": 3}, {"n": 4, "K": 4},
		{"n": 5, "K": 3}, {"n": 5, "K": 5}, {"n": 6, "K": 4}, {"n": 6, "K": 6},
	}},
	{"../specs/ring/dijkstra.ring", model.Central, invariants.WeakFairness, []map[string]int{
		{"n": 3, "K": 2}, {"n": 4, "K": 2}, {"n": 4, "K": 4}, {"n": 5, "K": 3},
	}},
	{"../specs/ring/dijkstra.ring", model.Distributed, invariants.NoFairness, []map[string]int{
		{"n": 3, "K": 2}, {"n": 4, "K": 3}, {"n": 5, "K": 2}, {"n": 5, "K": 4}, {"n": 5, "K": 5},
	}},
	{"../specs/ring/dijkstra.ring", model.Synchronous, invariants.NoFairness, []map[string]int{
		{"n": 3, "K": 3}, {"n": 4, "K": 4}, {"n": 5, "K": 5},
	}},
	{"../examples/three-state.ring", model.Central, invariants.NoFairness, []map[string]int{{"n": 3}, {"n": 4}, {"n": 5}, {"n": 6}}},
	{"../examples/three-state.ring", model.Central, invariants.WeakFairness, []map[string]int{{"n": 3}, {"n": 4}, {"n": 5}}},
	{"../examples/three-state.ring", model.Distributed, invariants.NoFairness, []map[string]int{{"n": 3}, {"n": 4}, {"n": 5}}},
	// Message passing: FIFO channels, receives, a timeout action (whose
	// fairness obligation holds under every fairness).
	{"../specs/ring/counterflush.ring", model.Central, invariants.NoFairness, []map[string]int{
		{"n": 2, "Cmax": 1}, {"n": 2, "Cmax": 2}, {"n": 3, "Cmax": 1},
	}},
	{"../specs/ring/counterflush.ring", model.Central, invariants.WeakFairness, []map[string]int{{"n": 2, "Cmax": 1}, {"n": 3, "Cmax": 1}}},
	// Weak fairness per action: every action its own constraint. busy.ring
	// converges under it and not under weak fairness per process.
	{"testdata/busy.ring", model.Central, invariants.NoFairness, []map[string]int{{"n": 2}, {"n": 3}}},
	// A two-dimensional array: entries at constant and dynamic indices.
	{"testdata/grid.ring", model.Central, invariants.NoFairness, []map[string]int{{"n": 2}, {"n": 3}}},
	{"testdata/grid.ring", model.Central, invariants.WeakFairness, []map[string]int{{"n": 2}, {"n": 3}}},
	{"testdata/grid.ring", model.Distributed, invariants.NoFairness, []map[string]int{{"n": 2}, {"n": 3}}},
	{"testdata/busy.ring", model.Central, invariants.WeakFairness, []map[string]int{{"n": 2}, {"n": 3}}},
	// Array fields of messages: entries at constant and computed indices,
	// in an action (head(...).v[x]) and in L (m.v[x[p]]).
	{"testdata/fieldarray.ring", model.Central, invariants.NoFairness, []map[string]int{{"n": 2}, {"n": 3}}},
	{"testdata/fieldarray.ring", model.Central, invariants.WeakFairness, []map[string]int{{"n": 2}, {"n": 3}}},
	{"testdata/busy.ring", model.Central, invariants.WeakActionFairness, []map[string]int{{"n": 2}, {"n": 3}}},
	{"../specs/ring/dijkstra.ring", model.Central, invariants.WeakActionFairness, []map[string]int{{"n": 3, "K": 2}, {"n": 4, "K": 2}, {"n": 4, "K": 4}}},
	{"../examples/three-state.ring", model.Central, invariants.WeakActionFairness, []map[string]int{{"n": 3}, {"n": 4}, {"n": 5}}},
	{"../specs/ring/counterflush.ring", model.Central, invariants.WeakActionFairness, []map[string]int{{"n": 2, "Cmax": 1}, {"n": 3, "Cmax": 1}}},
	// Strong fairness, per process and per action: fair components of
	// the weak fixpoint.
	{"../specs/ring/dijkstra.ring", model.Central, invariants.StrongFairness, []map[string]int{
		{"n": 3, "K": 2}, {"n": 4, "K": 2}, {"n": 4, "K": 3}, {"n": 4, "K": 4}, {"n": 5, "K": 3},
	}},
	{"../specs/ring/dijkstra.ring", model.Central, invariants.StrongActionFairness, []map[string]int{{"n": 3, "K": 2}, {"n": 4, "K": 2}, {"n": 5, "K": 3}}},
	{"../examples/three-state.ring", model.Central, invariants.StrongFairness, []map[string]int{{"n": 3}, {"n": 4}, {"n": 5}}},
	{"../examples/three-state.ring", model.Central, invariants.StrongActionFairness, []map[string]int{{"n": 3}, {"n": 4}}},
	{"../specs/ring/counterflush.ring", model.Central, invariants.StrongFairness, []map[string]int{{"n": 2, "Cmax": 1}, {"n": 3, "Cmax": 1}}},
	{"../specs/ring/counterflush.ring", model.Central, invariants.StrongActionFairness, []map[string]int{{"n": 2, "Cmax": 1}, {"n": 3, "Cmax": 1}}},
	{"testdata/busy.ring", model.Central, invariants.StrongFairness, []map[string]int{{"n": 2}, {"n": 3}}},
	// flicker.ring: a cycle that enables a process now and then is weakly
	// fair and strongly unfair (back=0: convergence holds, unbounded);
	// with back=1, removing the configurations that enable it leaves a
	// smaller cycle, fair under every fairness.
	{"testdata/flicker.ring", model.Central, invariants.WeakFairness, []map[string]int{{"back": 0}, {"back": 1}}},
	{"testdata/flicker.ring", model.Central, invariants.StrongFairness, []map[string]int{{"back": 0}, {"back": 1}}},
	{"testdata/flicker.ring", model.Central, invariants.StrongActionFairness, []map[string]int{{"back": 0}, {"back": 1}}},
	{"testdata/busy.ring", model.Central, invariants.StrongActionFairness, []map[string]int{{"n": 2}, {"n": 3}}},
	// stuck.ring: dead configurations outside L and cycles, under every
	// fairness and daemon.
	{"testdata/stuck.ring", model.Central, invariants.NoFairness, []map[string]int{{"n": 2}, {"n": 3}}},
	{"testdata/stuck.ring", model.Central, invariants.WeakFairness, []map[string]int{{"n": 2}, {"n": 3}}},
	{"testdata/stuck.ring", model.Central, invariants.StrongFairness, []map[string]int{{"n": 2}, {"n": 3}}},
	{"testdata/stuck.ring", model.Central, invariants.WeakActionFairness, []map[string]int{{"n": 2}, {"n": 3}}},
	{"testdata/stuck.ring", model.Central, invariants.StrongActionFairness, []map[string]int{{"n": 2}, {"n": 3}}},
	{"testdata/stuck.ring", model.Distributed, invariants.NoFairness, []map[string]int{{"n": 2}, {"n": 3}}},
	{"testdata/stuck.ring", model.Synchronous, invariants.NoFairness, []map[string]int{{"n": 2}, {"n": 3}}},
	// leave.ring: a dead configuration outside L, and cycles that starve
	// a finite action, so unfair under every fairness: only what reaches
	// the dead one does not converge.
	{"testdata/leave.ring", model.Central, invariants.NoFairness, []map[string]int{{"n": 2}, {"n": 3}}},
	{"testdata/leave.ring", model.Central, invariants.WeakFairness, []map[string]int{{"n": 2}}},
	{"testdata/leave.ring", model.Central, invariants.StrongFairness, []map[string]int{{"n": 2}}},
	// halfvar.ring: process 1 declares no variable, so its share of the
	// encoding has no bits.
	{"testdata/halfvar.ring", model.Central, invariants.NoFairness, []map[string]int{{"idle": 0}, {"idle": 1}}},
	{"testdata/halfvar.ring", model.Central, invariants.WeakFairness, []map[string]int{{"idle": 0}, {"idle": 1}}},
	{"testdata/halfvar.ring", model.Central, invariants.StrongFairness, []map[string]int{{"idle": 0}, {"idle": 1}}},
	{"testdata/halfvar.ring", model.Central, invariants.WeakActionFairness, []map[string]int{{"idle": 0}, {"idle": 1}}},
	{"testdata/halfvar.ring", model.Distributed, invariants.NoFairness, []map[string]int{{"idle": 0}, {"idle": 1}}},
	{"testdata/halfvar.ring", model.Synchronous, invariants.NoFairness, []map[string]int{{"idle": 0}, {"idle": 1}}},
	// Atomic actions (a process assigns its neighbour's variable), a
	// receive of any type but one, a guard that reads the choice,
	// quantifiers over a channel's messages.
	{"../examples/israeli-jalfon.ring", model.Central, invariants.NoFairness, []map[string]int{{"N": 3}, {"N": 4}}},
	{"../examples/israeli-jalfon.ring", model.Central, invariants.WeakActionFairness, []map[string]int{{"N": 4}}},
	{"testdata/classics.ring", model.Central, invariants.NoFairness, []map[string]int{{"n": 2}, {"n": 3}}},
	{"testdata/classics.ring", model.Central, invariants.WeakFairness, []map[string]int{{"n": 3}}},
}

// TestAgreesWithTheExplicitEngine decides closure and convergence on
// every instance both engines can, and checks that they agree: verdicts,
// configurations, legitimate ones, the configurations that do not
// converge, the worst case in steps and, under the
// central daemon, in rounds (the encoding then has its pending bits, which
// change nothing else). Every
// witness the symbolic engine draws is replayed on the explicit model:
// a closure violation leaves L, a convergence violation is a dead
// configuration or a cycle outside L, and the worst case is an execution
// of that many steps that reaches L at its last.
func TestAgreesWithTheExplicitEngine(t *testing.T) {
	for _, tt := range agreements {
		f, err := lang.Read(tt.file)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range tt.values {
			t.Run(fmt.Sprintf("%s/%v/%s/%v", filepath.Base(tt.file), tt.daemon, tt.fairness, v), func(t *testing.T) {
				spec, err := f.Instance(v)
				if err != nil {
					t.Fatal(err)
				}
				central := tt.daemon == model.Central
				enc, err := symbolic.Encode(context.Background(), spec, symbolic.Options{Daemon: tt.daemon, Fairness: tt.fairness, Rounds: central})
				if err != nil {
					t.Fatal(err)
				}
				got, err := enc.Analyse(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				sys, err := f.Build(v)
				if err != nil {
					t.Fatal(err)
				}
				if sys, err = sys.WithDaemon(tt.daemon); err != nil {
					t.Fatal(err)
				}
				rep, err := invariants.Check(context.Background(), sys, invariants.Options{
					Properties: []invariants.Property{invariants.Closure, invariants.Convergence},
					From:       invariants.FromAll,
					Fairness:   tt.fairness,
				})
				if err != nil {
					t.Fatal(err)
				}
				closure := rep.Outcomes[0].Verdict == invariants.Holds
				convergence := rep.Outcomes[1].Verdict == invariants.Holds
				if got.Closure != closure || got.Convergence != convergence {
					t.Fatalf("symbolic closure %v convergence %v, explicit %v %v", got.Closure, got.Convergence, closure, convergence)
				}
				if st := rep.Stabilization; st != nil {
					if got.Configurations.Cmp(big.NewInt(int64(st.Configurations))) != 0 || got.Legitimate.Cmp(big.NewInt(int64(st.Legitimate))) != 0 {
						t.Errorf("symbolic %v configurations, %v legitimate; explicit %d, %d", got.Configurations, got.Legitimate, st.Configurations, st.Legitimate)
					}
					if got.Unbounded != st.Unbounded {
						t.Errorf("symbolic unbounded %v, explicit %v", got.Unbounded, st.Unbounded)
					}
					if !st.Unbounded && len(got.Layers) != st.WorstSteps {
						t.Errorf("symbolic worst case %d steps, explicit %d", len(got.Layers), st.WorstSteps)
					}
					if central && got.Convergence && !got.Unbounded {
						if !st.RoundsComputed {
							t.Fatalf("the explicit engine computed no rounds: %s", st.RoundsNote)
						}
						rounds, err := enc.WorstRounds(context.Background())
						if err != nil {
							t.Fatal(err)
						}
						if rounds.Worst != st.WorstRounds {
							t.Errorf("symbolic worst case %d rounds, explicit %d", rounds.Worst, st.WorstRounds)
						}
					}
				}
				// Stuck is what the least fixpoint left out under no
				// fairness and no obligation (a finite or timeout
				// action), and part of it otherwise.
				rest := new(big.Int).Sub(got.Configurations, got.Legitimate)
				for _, l := range got.Layers {
					rest.Sub(rest, l)
				}
				obliged := symbolicFair(tt.fairness) || slices.ContainsFunc(spec.Actions, func(a *ir.Action) bool {
					return a.Liveness == model.Finite || a.Kind == model.Timeout
				})
				if c := got.Stuck.Cmp(rest); got.Convergence && got.Stuck.Sign() != 0 || !got.Convergence && (c > 0 || !obliged && c != 0) {
					t.Errorf("%v configurations do not converge, %v are outside L and its layers", got.Stuck, rest)
				}
				// Both engines count the configurations that do not
				// converge, the same way.
				if explicit := rep.Outcomes[1].Stuck; !got.Convergence && explicit != got.Stuck.String() {
					t.Errorf("symbolic: %v configurations do not converge, explicit: %q", got.Stuck, explicit)
				}
				checkWitnesses(t, sys, got)
				if !got.Convergence && got.Cycle {
					checkFairLasso(t, sys, got.Violation, tt.fairness)
				}
			})
		}
	}
}

func symbolicFair(f invariants.Fairness) bool {
	return f != "" && f != invariants.NoFairness
}

// TestStuckCountsDeadAndCycling: with a dead configuration outside L,
// the configurations that do not converge are those that reach it and
// those that cycle outside L, under every fairness (stuck.ring: every
// configuration with an x in 2..4, 5² − 2² = 21 for n=2 and 5³ − 2³ = 117
// for n=3).
func TestStuckCountsDeadAndCycling(t *testing.T) {
	f, err := lang.Read("testdata/stuck.ring")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{2, 3} {
		for _, fairness := range []invariants.Fairness{invariants.NoFairness, invariants.WeakFairness, invariants.StrongFairness, invariants.WeakActionFairness} {
			spec, err := f.Instance(map[string]int{"n": n})
			if err != nil {
				t.Fatal(err)
			}
			enc, err := symbolic.Encode(context.Background(), spec, symbolic.Options{Daemon: model.Central, Fairness: fairness})
			if err != nil {
				t.Fatal(err)
			}
			res, err := enc.Analyse(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			want := int64(21)
			if n == 3 {
				want = 117
			}
			if res.Convergence || res.Cycle || res.Stuck.Cmp(big.NewInt(want)) != 0 {
				t.Errorf("n=%d %s: convergence %v, cycle %v, %v configurations do not converge; want a dead configuration and %d", n, fairness, res.Convergence, res.Cycle, res.Stuck, want)
			}
		}
	}
}

// checkFairLasso checks, on the explicit model, that the cycle of
// configurations (the last leading back to the first) meets the fairness
// it was drawn under: each weakly fair class (a process's scheduled,
// finite or timeout actions, or under per-action fairness one action)
// enabled at every configuration of it is taken on it, and each strongly
// fair one enabled at some configuration is. The classes are the explicit
// engine's: scheduled actions follow the fairness, finite ones are at
// least weakly fair (strongly under strong fairness), timeouts weakly.
func checkFairLasso(t *testing.T, sys *model.System, cycle []symbolic.Configuration, fairness invariants.Fairness) {
	t.Helper()
	perAction := fairness == invariants.WeakActionFairness || fairness == invariants.StrongActionFairness
	strong := fairness == invariants.StrongFairness || fairness == invariants.StrongActionFairness
	type class struct{ proc, action, role int } // role 0 scheduled, 1 finite, 2 timer
	classesOf := func(m model.Move) []class {
		act := sys.ActionOf(m)
		var out []class
		add := func(role int) {
			c := class{proc: int(m.Proc), action: -1, role: role}
			if perAction {
				c.action = int(m.Action)
			}
			out = append(out, c)
		}
		switch act.Liveness {
		case model.Scheduled:
			add(0)
		case model.Finite:
			add(1)
		}
		if act.Kind == model.Timeout {
			add(2)
		}
		return out
	}
	// strength: 0 no obligation, 1 weak, 2 strong.
	strength := func(c class) int {
		switch {
		case c.role == 0 && strong, c.role == 1 && strong:
			return 2
		case c.role == 0 && fairness != invariants.NoFairness, c.role == 1, c.role == 2:
			return 1
		}
		return 0
	}
	states := make([]*model.State, len(cycle))
	for i, c := range cycle {
		st, err := symbolic.State(sys, c)
		if err != nil {
			t.Fatal(err)
		}
		states[i] = st
	}
	enabledAt := make([]map[class]bool, len(states))
	taken := map[class]bool{}
	ex := sys.NewExpander()
	for i, st := range states {
		enabledAt[i] = map[class]bool{}
		next := states[(i+1)%len(states)]
		stepped := false
		_, err := ex.Expand(st, func(step *model.Step, succ *model.State) bool {
			var cs []class
			for _, m := range step.Moves {
				cs = append(cs, classesOf(m)...)
			}
			for _, c := range cs {
				enabledAt[i][c] = true
			}
			if !stepped && succ.Equal(next) {
				// The cycle's step: the first step to the next configuration
				// (the replay takes the same one).
				stepped = true
				for _, c := range cs {
					taken[c] = true
				}
			}
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	seen := map[class]bool{}
	for _, en := range enabledAt {
		for c := range en {
			seen[c] = true
		}
	}
	for c := range seen {
		everywhere := true
		for _, en := range enabledAt {
			everywhere = everywhere && en[c]
		}
		switch strength(c) {
		case 2:
			if !taken[c] {
				t.Errorf("%s: class %+v is enabled on the cycle and never taken", fairness, c)
			}
		case 1:
			if everywhere && !taken[c] {
				t.Errorf("%s: class %+v is enabled all along the cycle and never taken", fairness, c)
			}
		}
	}
}

// checkWitnesses replays every witness of res on sys.
func checkWitnesses(t *testing.T, sys *model.System, res *symbolic.Result) {
	t.Helper()
	inL := func(c symbolic.Configuration) bool {
		st, err := symbolic.State(sys, c)
		if err != nil {
			t.Fatal(err)
		}
		return sys.Legitimate.Holds(st)
	}
	if !res.Closure {
		if _, err := symbolic.Execution(sys, res.ClosureWitness, false); err != nil {
			t.Errorf("closure witness: %v", err)
		}
		if len(res.ClosureWitness) != 2 || !inL(res.ClosureWitness[0]) || inL(res.ClosureWitness[1]) {
			t.Errorf("closure witness %v does not leave L in one step", res.ClosureWitness)
		}
	}
	if !res.Convergence {
		if res.Stuck.Sign() == 0 || len(res.Violation) == 0 {
			t.Fatalf("convergence fails with %v configurations stuck and a violation of %d configurations", res.Stuck, len(res.Violation))
		}
		for _, c := range res.Violation {
			if inL(c) {
				t.Errorf("the violation passes through L at %v", c)
			}
		}
		ce, err := symbolic.Execution(sys, res.Violation, res.Cycle)
		if err != nil {
			t.Errorf("convergence violation: %v", err)
		}
		if !res.Cycle {
			st, _ := symbolic.State(sys, res.Violation[0])
			if n, _, err := sys.NewExpander().Count(st); err != nil || n != 0 {
				t.Errorf("the dead configuration has %d steps (%v)", n, err)
			}
		} else if ce != nil && len(ce.Steps) == 0 {
			t.Error("a cycle of no step")
		}
		return
	}
	if res.Unbounded {
		return
	}
	if len(res.Worst) != len(res.Layers)+1 {
		t.Fatalf("the worst case takes %d steps, its execution %d", len(res.Layers), len(res.Worst)-1)
	}
	if len(res.Layers) == 0 {
		return
	}
	if _, err := symbolic.Execution(sys, res.Worst, false); err != nil {
		t.Errorf("worst-case execution: %v", err)
	}
	for i, c := range res.Worst {
		if inL(c) != (i == len(res.Worst)-1) {
			t.Errorf("worst-case execution: configuration %d in L is %v", i, inL(c))
		}
	}
}

// TestRefusesWhatItCannotEncode: options it does not cover are refused
// with ErrUnsupported.
func TestRefusesWhatItCannotEncode(t *testing.T) {
	for _, tt := range []struct {
		file string
		opts symbolic.Options
	}{
		{"../specs/ring/counterflush.ring", symbolic.Options{Daemon: model.Distributed}},
		{"../specs/ring/dijkstra.ring", symbolic.Options{Daemon: model.Distributed, Fairness: invariants.StrongFairness}},
		{"../specs/ring/dijkstra.ring", symbolic.Options{Daemon: model.Distributed, Fairness: invariants.WeakFairness}},
		{"../specs/ring/dijkstra.ring", symbolic.Options{Daemon: model.Synchronous, Rounds: true}},
		{"../examples/israeli-jalfon.ring", symbolic.Options{Daemon: model.Distributed}},
		{"../examples/israeli-jalfon.ring", symbolic.Options{Daemon: model.Synchronous}},
	} {
		f, err := lang.Read(tt.file)
		if err != nil {
			t.Fatal(err)
		}
		spec, err := f.Instance(nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := symbolic.Encode(context.Background(), spec, tt.opts); !errors.Is(err, symbolic.ErrUnsupported) {
			t.Errorf("%s %+v: %v, want ErrUnsupported", tt.file, tt.opts, err)
		}
	}
}

// encodeDijkstra encodes dijkstra.ring with n = K = n under opts.
func encodeDijkstra(t *testing.T, n int, opts symbolic.Options) *symbolic.Encoding {
	t.Helper()
	f, err := lang.Read("../specs/ring/dijkstra.ring")
	if err != nil {
		t.Fatal(err)
	}
	spec, err := f.Instance(map[string]int{"n": n, "K": n})
	if err != nil {
		t.Fatal(err)
	}
	enc, err := symbolic.Encode(context.Background(), spec, opts)
	if err != nil {
		t.Fatal(err)
	}
	return enc
}

// TestWorstRoundsNeedsPendingBits: an encoding made without
// Options.Rounds has no pending bits, and WorstRounds says so.
func TestWorstRoundsNeedsPendingBits(t *testing.T) {
	enc := encodeDijkstra(t, 3, symbolic.Options{})
	if _, err := enc.WorstRounds(context.Background()); !errors.Is(err, symbolic.ErrUnsupported) {
		t.Errorf("WorstRounds without pending bits: %v, want ErrUnsupported", err)
	}
}

// TestMemoryBudget: an encoding or an analysis over its memory budget
// ends with the budget's error, not a crash.
func TestMemoryBudget(t *testing.T) {
	f, err := lang.Read("../specs/ring/dijkstra.ring")
	if err != nil {
		t.Fatal(err)
	}
	encode := func(n int, m *budget.Memory) (*symbolic.Encoding, error) {
		spec, err := f.Instance(map[string]int{"n": n, "K": n})
		if err != nil {
			t.Fatal(err)
		}
		return symbolic.Encode(context.Background(), spec, symbolic.Options{Memory: m})
	}
	_, err = encode(5, budget.New(1))
	var exceeded *budget.Exceeded
	if !errors.As(err, &exceeded) {
		t.Errorf("encoding: got %v, want a *budget.Exceeded", err)
	}
	// n = K = 10: an encoding of about 50 MiB (and 80 MiB for its node
	// table's next growth), and fixpoints over 10^10 configurations that
	// take more than 190 MiB: the encoding or, more often, the analysis
	// passes the budget.
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	enc, err := encode(10, budget.New(max(ms.HeapAlloc, budget.Heap())+128<<20))
	if err == nil {
		_, err = enc.Analyse(context.Background())
	}
	if !errors.As(err, &exceeded) {
		t.Errorf("n = K = 10: got %v, want a *budget.Exceeded", err)
	}
}

// stopLimit is how long a computation may take to end after its bound is
// crossed, for these tests: generous for a loaded machine, far below the
// minutes a large instance's encoding and fixpoints take.
const stopLimit = 20 * time.Second

// encodeAndAnalyse encodes spec under opts and analyses it, on a goroutine
// of the test's own: it fails the test, rather than hang, if that takes
// more than deadline.
func encodeAndAnalyse(t *testing.T, ctx context.Context, spec *ir.Spec, opts symbolic.Options, deadline time.Duration) (*symbolic.Result, error) {
	t.Helper()
	type outcome struct {
		res *symbolic.Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		enc, err := symbolic.Encode(ctx, spec, opts)
		if err != nil {
			done <- outcome{nil, err}
			return
		}
		res, err := enc.Analyse(ctx)
		done <- outcome{res, err}
	}()
	select {
	case o := <-done:
		return o.res, o.err
	case <-time.After(deadline):
		t.Fatalf("the check did not stop within %v", deadline)
		return nil, nil
	}
}

// klDDHL is kl-ddhl.ring at its default parameters: 3 processes, channels
// of 5 messages, whose encoding alone takes minutes and gigabytes.
func klDDHL(t *testing.T) *ir.Spec {
	t.Helper()
	f, err := lang.Read("../specs/ring/kl-ddhl.ring")
	if err != nil {
		t.Fatal(err)
	}
	spec, err := f.Instance(nil)
	if err != nil {
		t.Fatal(err)
	}
	return spec
}

// phases records the phases a computation reports its progress in.
type phases struct {
	mu   sync.Mutex
	seen []string
}

func (p *phases) report(pr symbolic.Progress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.seen = append(p.seen, pr.Phase)
}

// encoding reports whether a phase of the encoding was reported.
func (p *phases) encoding() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, s := range p.seen {
		if strings.HasPrefix(s, "encoding") {
			return true
		}
	}
	return false
}

// TestBoundsStopALargeCheck: a convergence check of kl-ddhl.ring at its
// default parameters, stopped by each bound inside its encoding (whose
// BDD operations take seconds each there), ends within stopLimit of the
// bound with a *Stopped error that wraps the bound's error and says where
// it stood, after reporting its progress during the encoding.
func TestBoundsStopALargeCheck(t *testing.T) {
	spec := klDDHL(t)
	t.Run("cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var cancelled time.Time
		time.AfterFunc(time.Second, func() { cancelled = time.Now(); cancel() })
		var seen phases
		_, err := encodeAndAnalyse(t, ctx, spec, symbolic.Options{Progress: seen.report}, time.Second+stopLimit)
		took := time.Since(cancelled)
		checkStopped(t, err, context.Canceled, took, &seen)
	})
	t.Run("deadline", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		deadline, _ := ctx.Deadline()
		var seen phases
		_, err := encodeAndAnalyse(t, ctx, spec, symbolic.Options{Progress: seen.report}, 2*time.Second+stopLimit)
		checkStopped(t, err, context.DeadlineExceeded, time.Since(deadline), &seen)
	})
	t.Run("memory", func(t *testing.T) {
		runtime.GC() // the budget is 64 MiB over what the heap keeps
		start := time.Now()
		var seen phases
		opts := symbolic.Options{Memory: budget.New(budget.Heap() + 64<<20), Progress: seen.report}
		_, err := encodeAndAnalyse(t, context.Background(), spec, opts, stopLimit)
		var exceeded *budget.Exceeded
		if !errors.As(err, &exceeded) {
			t.Fatalf("got %v, want a *budget.Exceeded", err)
		}
		checkStopped(t, err, exceeded, time.Since(start), &seen)
	})
}

// checkStopped checks that err is a *symbolic.Stopped for the bound want,
// met inside the encoding, within stopLimit (took).
func checkStopped(t *testing.T, err, want error, took time.Duration, seen *phases) {
	t.Helper()
	var st *symbolic.Stopped
	if !errors.As(err, &st) || !errors.Is(err, want) {
		t.Fatalf("got %v, want a *symbolic.Stopped wrapping %v", err, want)
	}
	if took > stopLimit {
		t.Errorf("stopped %v after the bound, want at most %v", took, stopLimit)
	}
	if !strings.HasPrefix(st.At.Phase, "encoding") || st.At.Table == 0 {
		t.Errorf("stopped at %+v, want a phase of the encoding and the node table's size", st.At)
	}
	if !strings.Contains(err.Error(), want.Error()) {
		t.Errorf("the error %q does not name the bound (%v)", err, want)
	}
	if !seen.encoding() {
		t.Errorf("no progress reported during the encoding: %q", seen.seen)
	}
}

// TestBoundsStopAFixpoint: a bound crossed during the fixpoints (Dijkstra's
// ring, n = K = 10: 10^10 configurations) ends the analysis with the
// result decided before them and the iterations done.
func TestBoundsStopAFixpoint(t *testing.T) {
	f, err := lang.Read("../specs/ring/dijkstra.ring")
	if err != nil {
		t.Fatal(err)
	}
	spec, err := f.Instance(map[string]int{"n": 10, "K": 10})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opts := symbolic.Options{Progress: func(p symbolic.Progress) {
		if p.Phase == "convergence" && p.Iteration == 3 {
			cancel()
		}
	}}
	res, err := encodeAndAnalyse(t, ctx, spec, opts, stopLimit+30*time.Second)
	var st *symbolic.Stopped
	if !errors.As(err, &st) || !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want a *symbolic.Stopped wrapping context.Canceled", err)
	}
	if res == nil || res.Configurations.String() != "10000000000" || !res.Closure || res.Iterations < 3 || res.PeakNodes == 0 {
		t.Fatalf("partial result %+v, want the counts, closure and at least 3 iterations", res)
	}
	if st.At.Phase != "convergence" || st.At.Iteration < 3 {
		t.Errorf("stopped at %+v, want convergence, iteration 3 or later", st.At)
	}
}
