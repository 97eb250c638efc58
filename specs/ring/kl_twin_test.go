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

func TestRaynalTwin(t *testing.T) {
	// §3 and §5.1, with and without the ghost counter: the variant's
	// safety violation (n=2, M=2, R=2) has the same shortest length in
	// both.
	testTwin(t, twin{
		file: "raynal.ring", spec: "raynal",
		instances: []specs.Values{
			{"n": 2, "M": 2, "K": 0, "requests": 2, "asked": 0, "count": 0, "Cmax": 0},
			{"n": 3, "M": 2, "K": 1, "requests": 1, "asked": 0, "count": 1, "Cmax": 0},
			{"n": 2, "M": 2, "K": 0, "requests": 2, "asked": 1, "count": 0, "Cmax": 0},
			{"n": 3, "M": 1, "K": 0, "requests": 1, "asked": 1, "count": 1, "Cmax": 0},
			{"n": 2, "M": 3, "K": 2, "requests": 2, "asked": 0, "count": 0, "Cmax": 2},
		},
		fromInit: []invariants.Property{invariants.Safety, invariants.Deadlock, invariants.Starvation},
		fairness: invariants.WeakFairness,
		renamed:  map[string]string{"count": "ghost"},
	})
}

func TestRaynalAndTwin(t *testing.T) {
	// §6 with at most R demands: the Go spec's default instance (the
	// claims'), two and three types on two processes, and channels too
	// small (an overflow, with the same shortest length in both).
	testTwin(t, twin{
		file: "raynal-and.ring", spec: "raynal-and",
		instances: []specs.Values{
			{"n": 3, "types": 2, "M": 1, "K": 0, "requests": 1, "Cmax": 0},
			{"n": 2, "types": 2, "M": 1, "K": 0, "requests": 1, "Cmax": 0},
			{"n": 2, "types": 2, "M": 2, "K": 0, "requests": 1, "Cmax": 0},
			{"n": 2, "types": 3, "M": 2, "K": 1, "requests": 2, "Cmax": 0},
			{"n": 2, "types": 2, "M": 2, "K": 0, "requests": 2, "Cmax": 2},
		},
		fromInit: []invariants.Property{invariants.Safety, invariants.Deadlock, invariants.Starvation},
		fairness: invariants.WeakFairness,
	})
}

func TestRaynalAndRecurringTwin(t *testing.T) {
	// §6 with recurring demands and modular clocks: the Go spec's claim
	// instance (weak fairness per action), one type, and a window too
	// small, where clock_window fails and starvation is not decided.
	testTwin(t, twin{
		file: "raynal-and.ring", spec: "raynal-and",
		instances: []specs.Values{
			{"n": 2, "types": 2, "M": 2, "K": 0, "requests": 0, "window": 0, "Cmax": 0},
			{"n": 2, "types": 1, "M": 2, "K": 0, "requests": 0, "window": 2, "Cmax": 0},
			{"n": 2, "types": 2, "M": 1, "K": 0, "requests": 0, "window": 1, "Cmax": 0},
		},
		fromInit: []invariants.Property{invariants.Safety, invariants.Deadlock, invariants.Starvation},
		fairness: invariants.WeakActionFairness,
	})
}
