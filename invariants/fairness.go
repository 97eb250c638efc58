package invariants

import "fmt"

// Fairness restricts the executions a liveness property quantifies over.
type Fairness string

// The fairness assumptions.
const (
	// NoFairness: every execution counts.
	NoFairness Fairness = "none"
	// WeakFairness: only executions in which no process is continuously
	// enabled without moving.
	WeakFairness Fairness = "weak"
	// StrongFairness: only executions in which no process is infinitely
	// often enabled without moving.
	StrongFairness Fairness = "strong"
	// WeakActionFairness: only executions in which no action of a process
	// is continuously enabled without being taken. Each action is its own
	// obligation, so a process that keeps moving by one action cannot
	// defer another for ever: a message at the head of a channel whose
	// receive is enabled is received (the finite delay of reliable links,
	// where each sender's messages have their own receive action).
	WeakActionFairness Fairness = "weak-action"
	// StrongActionFairness: only executions in which no action of a
	// process is infinitely often enabled without being taken.
	StrongActionFairness Fairness = "strong-action"
)

// perAction reports whether f makes every action its own obligation.
func (f Fairness) perAction() bool {
	return f == WeakActionFairness || f == StrongActionFairness
}

// ParseFairness parses "none", "weak", "strong", "weak-action" or
// "strong-action".
func ParseFairness(s string) (Fairness, error) {
	switch Fairness(s) {
	case NoFairness, WeakFairness, StrongFairness, WeakActionFairness, StrongActionFairness:
		return Fairness(s), nil
	}
	return "", fmt.Errorf("fairness %q is not one of none, weak, strong, weak-action, strong-action", s)
}
