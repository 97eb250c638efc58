package invariants_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
)

// symCounters is a ring of three processes declared symmetric under
// rotation, each with a counter x in 0..2 that it increments while it is
// not behind its predecessor: an increment past 2 is a range fault. The
// initial counters are init, so that the orbit's representative and the
// concrete configurations differ.
func symCounters(t *testing.T, init []int) *model.System {
	t.Helper()
	b := model.NewBuilder("counters", model.UniRing, len(init))
	x := b.Var("x", model.IntRange(0, 2))
	b.Action(model.Action{Name: "inc", Choices: 1,
		Guard:  func(c *model.Ctx) bool { return c.Get(x) >= c.Read(c.Pred(), x) },
		Effect: func(c *model.Ctx, _ int) { c.Set(x, c.Get(x)+1) }})
	b.Invariant(model.Predicate{Name: "no-two", Holds: func(s *model.State) bool {
		n := 0
		for p := range len(init) {
			if s.Get(p, x) == 2 {
				n++
			}
		}
		return n < 2
	}})
	b.ProcessPredicate(model.ProcessPredicate{Name: "requesting", Holds: func(s *model.State, p int) bool { return s.Get(p, x) == 1 }})
	b.ProcessPredicate(model.ProcessPredicate{Name: "inCS", Holds: func(s *model.State, p int) bool { return s.Get(p, x) == 2 }})
	b.Legitimate(model.Predicate{Name: "legitimate", Holds: func(s *model.State) bool {
		for p := range len(init) {
			if s.Get(p, x) != s.Get(0, x) {
				return false
			}
		}
		return true
	}})
	b.ReportRangeFaults()
	b.Initial(func(_ *model.System, s *model.State) {
		for p, v := range init {
			s.Set(p, x, v)
		}
	})
	b.Symmetry(false)
	sys, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// TestSymmetrySafetyCounterexamplesAreConcrete: with symmetry reduction,
// safety and deadlock get the verdicts they get without, and a
// counterexample, invariant or range fault, is a path of the unreduced
// system from its initial configuration, as long as the unreduced one,
// whose range fault names the process that takes the last step.
func TestSymmetrySafetyCounterexamplesAreConcrete(t *testing.T) {
	for _, init := range [][]int{{0, 0, 1}, {1, 0, 0}, {0, 2, 1}, {2, 2, 0}, {0, 1, 2, 0}} {
		sys := symCounters(t, init)
		run := func(sym bool) *invariants.Report {
			rep, err := invariants.Check(context.Background(), sys, invariants.Options{
				Properties: []invariants.Property{invariants.Safety, invariants.Deadlock}, From: invariants.FromInit,
				Search: explore.Options{Symmetry: sym}})
			if err != nil {
				t.Fatalf("init %v, symmetry %v: %v", init, sym, err)
			}
			return rep
		}
		full, red := run(false), run(true)
		for i, o := range red.Outcomes {
			f := full.Outcomes[i]
			if o.Verdict != f.Verdict {
				t.Errorf("init %v: %s is %v with symmetry, %v without", init, o.Property, o.Verdict, f.Verdict)
				continue
			}
			ce := o.Counterexample
			if ce == nil {
				continue
			}
			if len(ce.Steps) != len(f.Counterexample.Steps) {
				t.Errorf("init %v: %s: a counterexample of %d steps, %d without symmetry", init, o.Property, len(ce.Steps), len(f.Counterexample.Steps))
			}
			if !ce.States[0].Equal(sys.Initial()[0]) {
				t.Errorf("init %v: %s: the counterexample starts from %v", init, o.Property, sys.Decode(ce.States[0]))
			}
			ex, next := sys.NewExpander(), sys.NewState()
			for i := range ce.Steps {
				if err := ex.Apply(ce.States[i], &ce.Steps[i], next); err != nil || !next.Equal(ce.States[i+1]) {
					t.Fatalf("init %v: %s: step %d does not replay: %v", init, o.Property, i, err)
				}
			}
			if o.Property == invariants.Safety && o.Invariant == "" {
				last := ce.Steps[len(ce.Steps)-1]
				want := fmt.Sprintf("process %d sets x", last.Moves[0].Proc)
				if !strings.Contains(o.Reason, want) || last.RangeFault == "" {
					t.Errorf("init %v: the reason %q, for a last step of process %d", init, o.Reason, last.Moves[0].Proc)
				}
			}
		}
		if red.Search.States > full.Search.States || !red.Search.Symmetry {
			t.Errorf("init %v: %d states with symmetry, %d without", init, red.Search.States, full.Search.States)
		}
	}
}

// TestSymmetryRefusals: symmetry reduction is refused for a system that
// declares none, for starvation and leads-to (which follow a process),
// for safety and deadlock from every configuration, and for closure and
// convergence from elsewhere, with safety or deadlock, or under a
// fairness assumption.
func TestSymmetryRefusals(t *testing.T) {
	sym := symCounters(t, []int{0, 0, 1})
	plain := counterRing(t, 3, 2, false)
	for _, c := range []struct {
		sys      *model.System
		props    []invariants.Property
		from     invariants.From
		fairness invariants.Fairness
		want     string
	}{
		{plain, []invariants.Property{invariants.Safety}, invariants.FromInit, "", "declares no symmetry"},
		{sym, []invariants.Property{invariants.Starvation}, invariants.FromInit, "", "follows one process"},
		{sym, []invariants.Property{invariants.Deadlock}, invariants.FromAll, "", "from the initial configurations"},
		{sym, []invariants.Property{invariants.Convergence}, invariants.FromAll, invariants.WeakFairness, "under no fairness"},
		{sym, []invariants.Property{invariants.Convergence}, invariants.FromRandom, "", "from every configuration (From all)"},
		{sym, []invariants.Property{invariants.Closure, invariants.Deadlock}, invariants.FromAll, "", "check safety and deadlock apart"},
	} {
		opts := invariants.Options{Properties: c.props, From: c.from, Fairness: c.fairness, Search: explore.Options{Symmetry: true}}
		if c.from == invariants.FromRandom {
			opts.Samples = 1
		}
		_, err := invariants.Check(context.Background(), c.sys, opts)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "Search.Symmetry") {
			t.Errorf("%v from %s: error %v, want one naming Search.Symmetry and saying %q", c.props, c.from, err, c.want)
		}
	}
}
