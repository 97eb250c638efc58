package ring_test

import (
	"testing"

	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/specs"
)

func TestKLNaiveTwin(t *testing.T) {
	testTwin(t, twin{
		file: "kl-naive.ring", spec: "kl-naive",
		instances: []specs.Values{
			{"n": 3, "L": 3, "K": 2, "Cmax": 0}, {"n": 4, "L": 4, "K": 2, "Cmax": 0},
			{"n": 3, "L": 3, "K": 2, "Cmax": 1}, {"n": 4, "L": 3, "K": 3, "Cmax": 0},
		},
		fromInit:     []invariants.Property{invariants.Safety, invariants.Deadlock, invariants.Starvation},
		fairness:     invariants.WeakFairness,
		fromAll:      []invariants.Property{invariants.Deadlock},
		allInstances: []specs.Values{{"n": 2, "L": 2, "K": 1, "Cmax": 0}, {"n": 3, "L": 2, "K": 2, "Cmax": 2}, {"n": 2, "L": 3, "K": 3, "Cmax": 3}},
	})
}

func TestKLPusherTwin(t *testing.T) {
	testTwin(t, twin{
		file: "kl-pusher.ring", spec: "kl-pusher",
		instances: []specs.Values{
			{"n": 3, "L": 3, "K": 2, "Cmax": 0}, {"n": 2, "L": 2, "K": 2, "Cmax": 0},
			{"n": 3, "L": 3, "K": 2, "Cmax": 2}, {"n": 4, "L": 3, "K": 2, "Cmax": 0},
		},
		fromInit:     []invariants.Property{invariants.Safety, invariants.Deadlock, invariants.Starvation},
		fairness:     invariants.WeakFairness,
		fromAll:      []invariants.Property{invariants.Deadlock},
		allInstances: []specs.Values{{"n": 2, "L": 1, "K": 1, "Cmax": 0}, {"n": 2, "L": 2, "K": 2, "Cmax": 3}},
	})
}

func TestKLDDHLTwin(t *testing.T) {
	testTwin(t, twin{
		file: "kl-ddhl.ring", spec: "kl-ddhl",
		instances: []specs.Values{
			{"n": 2, "L": 1, "K": 1, "Cmax": 0, "staycs": 0},
			{"n": 2, "L": 2, "K": 2, "Cmax": 0, "staycs": 0},
			{"n": 2, "L": 2, "K": 1, "Cmax": 6, "staycs": 1},
			{"n": 3, "L": 1, "K": 1, "Cmax": 0, "staycs": 0},
		},
		fromInit: []invariants.Property{invariants.Safety, invariants.Deadlock, invariants.Starvation},
		fairness: invariants.WeakFairness,
	})
}
