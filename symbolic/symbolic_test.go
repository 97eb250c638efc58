package symbolic_test

import (
	"context"
	"errors"
	"math/big"
	"testing"

	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/lang"
	"github.com/ringcheck/ringcheck/symbolic"
)

// TestAgreesWithTheExplicitEngine decides closure and convergence on
// every instance both engines can, and checks that they agree: verdicts,
// configurations, legitimate ones, and the worst case in steps.
func TestAgreesWithTheExplicitEngine(t *testing.T) {
	for _, tt := range []struct {
		file   string
		values []map[string]int
	}{
		{"../specs/ring/dijkstra.ring", []map[string]int{
			{"n": 3, "K": 2}, {"n": 3, "K": 3}, {"n": 4, "K": 3}, {"n": 4, "K": 4},
			{"n": 5, "K": 3}, {"n": 5, "K": 5}, {"n": 6, "K": 4}, {"n": 6, "K": 6},
		}},
		{"../examples/three-state.ring", []map[string]int{{"n": 3}, {"n": 4}, {"n": 5}, {"n": 6}}},
	} {
		f, err := lang.Read(tt.file)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range tt.values {
			spec, err := f.Instance(v)
			if err != nil {
				t.Fatal(err)
			}
			enc, err := symbolic.Encode(spec, 0)
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
			rep, err := invariants.Check(context.Background(), sys, invariants.Options{
				Properties: []invariants.Property{invariants.Closure, invariants.Convergence},
				From:       invariants.FromAll,
			})
			if err != nil {
				t.Fatal(err)
			}
			closure := rep.Outcomes[0].Verdict == invariants.Holds
			convergence := rep.Outcomes[1].Verdict == invariants.Holds
			if got.Closure != closure || got.Convergence != convergence {
				t.Errorf("%s %v: symbolic closure %v convergence %v, explicit %v %v", spec.Name, v, got.Closure, got.Convergence, closure, convergence)
				continue
			}
			if st := rep.Stabilization; st != nil {
				if got.Configurations.Cmp(big.NewInt(int64(st.Configurations))) != 0 || got.Legitimate.Cmp(big.NewInt(int64(st.Legitimate))) != 0 {
					t.Errorf("%s %v: symbolic %v configurations, %v legitimate; explicit %d, %d", spec.Name, v, got.Configurations, got.Legitimate, st.Configurations, st.Legitimate)
				}
				if !st.Unbounded && len(got.Layers) != st.WorstSteps {
					t.Errorf("%s %v: symbolic worst case %d steps, explicit %d", spec.Name, v, len(got.Layers), st.WorstSteps)
				}
			}
			if !convergence && got.Stuck.Sign() == 0 {
				t.Errorf("%s %v: convergence fails, but no configuration is stuck", spec.Name, v)
			}
		}
	}
}

// TestRefusesWhatItCannotEncode: a spec with channels, or with a finite
// action (a fairness obligation), is refused with ErrUnsupported.
func TestRefusesWhatItCannotEncode(t *testing.T) {
	for _, file := range []string{"../specs/ring/counterflush.ring", "../specs/ring/kl-pusher.ring"} {
		f, err := lang.Read(file)
		if err != nil {
			t.Fatal(err)
		}
		spec, err := f.Instance(nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := symbolic.Encode(spec, 0); !errors.Is(err, symbolic.ErrUnsupported) {
			t.Errorf("%s: %v, want ErrUnsupported", file, err)
		}
	}
}
