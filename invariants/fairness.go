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
)

// ParseFairness parses "none", "weak" or "strong".
func ParseFairness(s string) (Fairness, error) {
	switch Fairness(s) {
	case NoFairness, WeakFairness, StrongFairness:
		return Fairness(s), nil
	}
	return "", fmt.Errorf("fairness %q is not one of none, weak, strong", s)
}
