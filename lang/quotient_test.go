package lang_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/lang"
	"github.com/ringcheck/ringcheck/model"
)

// TestSymmetryStabilityOnShippedSpecs: on the shipped files that declare
// symmetry and a legitimacy predicate, closure and convergence from
// every configuration with symmetry reduction get the unreduced
// analysis's verdicts, counts and cycle lengths, store the pinned number
// of orbits, and their counterexamples replay on the unreduced model.
func TestSymmetryStabilityOnShippedSpecs(t *testing.T) {
	for _, c := range []struct {
		file   string
		values map[string]int
		orbits uint64
	}{
		{"../examples/herman.ring", map[string]int{"n": 3}, 4},
		{"../examples/herman.ring", map[string]int{"n": 7}, 20},
		{"../examples/herman.ring", map[string]int{"n": 9}, 60},
		{"../examples/israeli-jalfon.ring", map[string]int{"N": 4}, 6},
		{"../examples/israeli-jalfon.ring", map[string]int{"N": 7}, 20},
		{"../examples/israeli-jalfon.ring", map[string]int{"N": 10}, 108},
	} {
		t.Run(fmt.Sprintf("%s %v", filepath.Base(c.file), c.values), func(t *testing.T) {
			sys := buildSymmetric(t, c.file, c.values, model.Central)
			check := func(symmetry bool) *invariants.Report {
				rep, err := invariants.Check(context.Background(), sys, invariants.Options{
					Properties: []invariants.Property{invariants.Closure, invariants.Convergence},
					From:       invariants.FromAll, Search: explore.Options{Workers: 2, Symmetry: symmetry}})
				if err != nil {
					t.Fatal(err)
				}
				return rep
			}
			full, red := check(false), check(true)
			if red.Orbits != c.orbits {
				t.Errorf("%d orbits, want %d", red.Orbits, c.orbits)
			}
			if red.Search.States != full.Search.States || red.Search.Transitions != full.Search.Transitions ||
				red.Search.DistinctTransitions != full.Search.DistinctTransitions || *red.Legitimate != *full.Legitimate {
				t.Errorf("reduced %d states, %d transitions, %d pairs, %d legitimate; unreduced %d, %d, %d, %d",
					red.Search.States, red.Search.Transitions, red.Search.DistinctTransitions, *red.Legitimate,
					full.Search.States, full.Search.Transitions, full.Search.DistinctTransitions, *full.Legitimate)
			}
			for i, o := range red.Outcomes {
				f := full.Outcomes[i]
				if o.Verdict != f.Verdict || o.Stuck != f.Stuck {
					t.Errorf("%s: reduced %s (%s), unreduced %s (%s)", o.Property, o.Verdict, o.Reason, f.Verdict, f.Reason)
				}
				if o.Counterexample == nil {
					continue
				}
				if err := o.Counterexample.Replay(sys); err != nil {
					t.Errorf("%s: the reduced counterexample does not replay: %v", o.Property, err)
				}
				if o.Counterexample.Kind != f.Counterexample.Kind || len(o.Counterexample.Steps) != len(f.Counterexample.Steps) {
					t.Errorf("%s: reduced a %s of %d steps, unreduced a %s of %d", o.Property, o.Counterexample.Kind, len(o.Counterexample.Steps),
						f.Counterexample.Kind, len(f.Counterexample.Steps))
				}
			}
		})
	}
}

// maxRing converges under the central daemon: a process copies a larger
// value from its predecessor, and counts up where its neighbours agree
// with it; L is every process holding the same value.
const maxRing = `spec maxring "copy the larger value, count up where the neighbours agree"
param n = 6 in 3..12 "processes"
param K = 3 in 2..8 "values"
topology biring(n)
var x: 0..K-1
process all {
  action copy: x < x[pred] -> x := x[pred]
  action bump: x == x[pred] && x < K-1 && x[succ] == x -> x := x + 1
}
legitimate "every process holds the same value": forall p: x[p] == x[p-1]
symmetry rotation
`

// TestSymmetryWorstCaseWitness: on a ring that converges, the worst case
// in steps and rounds over the orbits is the unreduced one, and its
// witness is a concrete execution of that many steps from outside L into
// L.
func TestSymmetryWorstCaseWitness(t *testing.T) {
	f, err := lang.Parse("maxring.ring", []byte(maxRing))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{4, 6} {
		sys, err := f.Build(map[string]int{"n": n, "K": 3})
		if err != nil {
			t.Fatal(err)
		}
		check := func(symmetry bool) *invariants.Stabilization {
			rep, err := invariants.Check(context.Background(), sys, invariants.Options{
				Properties: []invariants.Property{invariants.Convergence},
				From:       invariants.FromAll, Search: explore.Options{Workers: 2, Symmetry: symmetry}})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Stabilization == nil {
				t.Fatalf("n=%d symmetry %v: convergence %s", n, symmetry, rep.Outcomes[0].Verdict)
			}
			return rep.Stabilization
		}
		full, red := check(false), check(true)
		t.Logf("n=%d: worst case %d steps, %d rounds", n, full.WorstSteps, full.WorstRounds)
		if red.WorstSteps != full.WorstSteps || red.WorstRounds != full.WorstRounds || red.Legitimate != full.Legitimate || full.WorstSteps == 0 {
			t.Errorf("n=%d: reduced %d steps %d rounds %d legitimate, unreduced %d, %d, %d", n, red.WorstSteps, red.WorstRounds, red.Legitimate,
				full.WorstSteps, full.WorstRounds, full.Legitimate)
		}
		w := red.Witness
		if err := w.Replay(sys); err != nil {
			t.Errorf("n=%d: the witness does not replay: %v", n, err)
		}
		legit := sys.Legitimate.Holds
		if len(w.Steps) != red.WorstSteps || legit(w.States[0]) || !legit(w.States[len(w.States)-1]) {
			t.Errorf("n=%d: the witness takes %d steps, want %d from outside L into L", n, len(w.Steps), red.WorstSteps)
		}
	}
}
