package invariants_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/ringcheck/ringcheck/budget"
	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
)

// drawStabilizing draws a random system invariant under rotation (and
// with reflection under reflection) with a symmetric legitimacy
// predicate: each process has x in 0..m-1 and moves by a random table of
// its x and its neighbours'; some systems pass tokens on channels, and
// some have a finite action (weakly fair per process under every
// fairness). L holds when the number of processes with x == 0 is in a
// random set.
func drawStabilizing(t *rapid.T) *model.System {
	n := rapid.IntRange(2, 5).Draw(t, "n")
	m := rapid.IntRange(2, 3).Draw(t, "m")
	kind, refl := model.UniRing, false
	if rapid.Bool().Draw(t, "biring") {
		kind, refl = model.BiRing, rapid.Bool().Draw(t, "reflection")
	}
	// Tokens go to the successor only: not with reflection.
	chans := n <= 4 && !refl && rapid.Bool().Draw(t, "channels")
	ms := 1
	if kind == model.BiRing {
		ms = m
	}
	move := make([][][]int, m)
	for x := range m {
		move[x] = make([][]int, m)
		for xp := range m {
			move[x][xp] = make([]int, ms)
			for xs := range ms {
				if refl && xs < xp {
					move[x][xp][xs] = move[x][xs][xp]
					continue
				}
				move[x][xp][xs] = rapid.IntRange(-1, m-1).Draw(t, "move")
			}
		}
	}
	finite := rapid.IntRange(-1, m-1).Draw(t, "finite") // x that a finite action resets to 0 (-1: none)
	legal := make([]bool, n+1)
	for i := range legal {
		legal[i] = rapid.Bool().Draw(t, "legal")
	}
	b := model.NewBuilder("random", kind, n)
	x := b.Var("x", model.IntRange(0, m-1))
	var tok model.MsgType
	if chans {
		tok = b.Message("Tok")
		b.LinkChannels(1, model.Block, tok)
	}
	neighbours := func(c *model.Ctx) (int, int) {
		xs := 0
		if ms > 1 {
			xs = c.Read(c.Succ(), x)
		}
		return c.Read(c.Pred(), x), xs
	}
	b.Action(model.Action{Name: "move", Choices: 1,
		Guard: func(c *model.Ctx) bool {
			xp, xs := neighbours(c)
			return move[c.Get(x)][xp][xs] >= 0
		},
		Effect: func(c *model.Ctx, _ int) {
			xp, xs := neighbours(c)
			c.Set(x, move[c.Get(x)][xp][xs])
		}})
	if finite >= 0 {
		b.Action(model.Action{Name: "leave", Choices: 1, Liveness: model.Finite,
			Guard:  func(c *model.Ctx) bool { return c.Get(x) == finite },
			Effect: func(c *model.Ctx, _ int) { c.Set(x, 0) }})
	}
	if chans {
		b.Action(model.Action{Name: "send", Choices: 1,
			Guard: func(c *model.Ctx) bool { return c.Get(x) == m-1 },
			Effect: func(c *model.Ctx, _ int) {
				c.SendFields(c.Out(c.Succ()), tok)
				c.Set(x, 0)
			}})
		b.Action(model.Action{Name: "recv", Choices: 1,
			Guard: func(c *model.Ctx) bool { return c.HeadIs(c.In(c.Pred()), tok) },
			Effect: func(c *model.Ctx, _ int) {
				c.Receive(c.In(c.Pred()))
				c.Set(x, (c.Get(x)+1)%m)
			}})
	}
	b.Legitimate(model.Predicate{Name: "legitimate", Holds: func(s *model.State) bool {
		zeros := 0
		for p := range n {
			if s.Get(p, x) == 0 {
				zeros++
			}
		}
		return legal[zeros]
	}})
	b.Initial(func(*model.System, *model.State) {})
	b.Symmetry(refl)
	sys, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// stabilityCheck checks closure and convergence from every configuration,
// with symmetry reduction or without.
func stabilityCheck(t interface{ Fatalf(string, ...any) }, sys *model.System, symmetry bool) *invariants.Report {
	rep, err := invariants.Check(context.Background(), sys, invariants.Options{
		Properties: []invariants.Property{invariants.Closure, invariants.Convergence},
		From:       invariants.FromAll, Search: explore.Options{Workers: 2, Symmetry: symmetry}})
	if err != nil {
		t.Fatalf("symmetry %v: %v", symmetry, err)
	}
	return rep
}

// orbitsOf counts the orbits of sys's full space: the distinct canonical
// forms of its configurations.
func orbitsOf(t interface{ Fatalf(string, ...any) }, sys *model.System) uint64 {
	n, _ := sys.Configurations()
	cz, err := sys.NewCanonizer()
	if err != nil {
		t.Fatalf("%v", err)
	}
	seen := map[string]bool{}
	st := sys.NewState()
	w := make([]uint64, sys.Words())
	for r := range n {
		if err := sys.Unrank(r, st); err != nil {
			t.Fatalf("%v", err)
		}
		cz.Pack(st, w)
		seen[fmt.Sprint(w)] = true
	}
	return uint64(len(seen))
}

// compareStability fails unless the reports with and without symmetry
// reduction agree on every verdict and count, the reduced one stored one
// configuration per orbit, and its counterexamples and witness are
// executions of the unreduced system of the right length.
func compareStability(t interface {
	Fatalf(string, ...any)
	Errorf(string, ...any)
}, sys *model.System, full, red *invariants.Report) {
	if red.Search.States != full.Search.States || red.Search.Transitions != full.Search.Transitions || red.Search.DistinctTransitions != full.Search.DistinctTransitions {
		t.Errorf("states, transitions, distinct pairs: reduced %d %d %d, unreduced %d %d %d", red.Search.States, red.Search.Transitions, red.Search.DistinctTransitions,
			full.Search.States, full.Search.Transitions, full.Search.DistinctTransitions)
	}
	if *red.Legitimate != *full.Legitimate {
		t.Errorf("legitimate: reduced %d, unreduced %d", *red.Legitimate, *full.Legitimate)
	}
	if want := orbitsOf(t, sys); red.Orbits != want || full.Orbits != 0 {
		t.Errorf("orbits: reduced %d, unreduced %d, want %d and 0", red.Orbits, full.Orbits, want)
	}
	for i, o := range red.Outcomes {
		f := full.Outcomes[i]
		if o.Verdict != f.Verdict || o.Stuck != f.Stuck {
			t.Errorf("%s: reduced %s (%s), unreduced %s (%s)", o.Property, o.Verdict, o.Reason, f.Verdict, f.Reason)
		}
		if o.Reason != f.Reason && o.Property == invariants.Closure {
			t.Errorf("closure: reduced says %q, unreduced %q", o.Reason, f.Reason)
		}
		if ce := o.Counterexample; ce != nil {
			if err := ce.Replay(sys); err != nil {
				t.Errorf("%s: the reduced counterexample does not replay: %v", o.Property, err)
			}
			fce := f.Counterexample
			if ce.Kind != fce.Kind {
				t.Errorf("%s: reduced counterexample a %s, unreduced a %s", o.Property, ce.Kind, fce.Kind)
			}
			legit := sys.Legitimate.Holds
			switch {
			case o.Property == invariants.Closure && (!legit(ce.States[0]) || legit(ce.States[1])):
				t.Errorf("closure: the reduced counterexample is not a step out of L")
			case o.Property == invariants.Convergence:
				for _, st := range ce.States {
					if legit(st) {
						t.Errorf("convergence: the reduced counterexample passes through L")
					}
				}
			}
		}
	}
	rs, fs := red.Stabilization, full.Stabilization
	if (rs == nil) != (fs == nil) {
		t.Fatalf("stabilization: reduced %v, unreduced %v", rs, fs)
	}
	if rs == nil {
		return
	}
	if rs.WorstSteps != fs.WorstSteps || rs.Unbounded != fs.Unbounded || rs.WorstRounds != fs.WorstRounds || rs.RoundsComputed != fs.RoundsComputed || rs.Legitimate != fs.Legitimate || rs.Configurations != fs.Configurations {
		t.Errorf("stabilization: reduced %+v, unreduced %+v", *rs, *fs)
	}
	if rs.WorstSteps > 0 {
		w := rs.Witness
		if err := w.Replay(sys); err != nil {
			t.Errorf("the reduced worst case's witness does not replay: %v", err)
		}
		legit := sys.Legitimate.Holds
		if len(w.Steps) != rs.WorstSteps || legit(w.States[0]) || !legit(w.States[len(w.States)-1]) {
			t.Errorf("the reduced witness takes %d steps (want %d) from outside L to L", len(w.Steps), rs.WorstSteps)
		}
	}
}

// TestQuotientMatchesFullSpace: on random symmetric systems, closure and
// convergence from every configuration with symmetry reduction get the
// verdicts, counts and worst case they get without, and their
// counterexamples and witness replay on the unreduced system.
func TestQuotientMatchesFullSpace(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sys := drawStabilizing(t)
		compareStability(t, sys, stabilityCheck(t, sys, false), stabilityCheck(t, sys, true))
	})
}

// TestQuotientHonoursTheMemoryBudget: with symmetry reduction, a budget
// the heap already exceeds stops the analysis at its first phase (the
// sweep for the representatives), every verdict unknown.
func TestQuotientHonoursTheMemoryBudget(t *testing.T) {
	sys := symCounters(t, []int{0, 0, 1})
	rep, err := invariants.Check(context.Background(), sys, invariants.Options{
		Properties: []invariants.Property{invariants.Closure, invariants.Convergence},
		From:       invariants.FromAll, Search: explore.Options{Symmetry: true, Memory: budget.New(1)}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Search.Stop != explore.MemoryBound || rep.Search.Exceeded == nil {
		t.Fatalf("stop %v, exceeded %v", rep.Search.Stop, rep.Search.Exceeded)
	}
	for _, o := range rep.Outcomes {
		if o.Verdict != invariants.Unknown {
			t.Errorf("%s: %s (%s)", o.Property, o.Verdict, o.Reason)
		}
	}
	if len(rep.Phases) == 0 || rep.Phases[0].Total != 27 || !strings.Contains(rep.Phases[0].Name, "symmetry reduction") {
		t.Errorf("phases %+v", rep.Phases)
	}
}
