package invariants

import (
	"fmt"

	"github.com/ringcheck/ringcheck/model"
)

// maxStartSpace bounds the configurations a start predicate is evaluated
// over: the full configuration space, swept once.
const maxStartSpace = 1 << 24

// startConfigurations returns every configuration where sys's start
// predicate holds.
func startConfigurations(sys *model.System) ([]*model.State, error) {
	if sys.Start == nil {
		return nil, fmt.Errorf("spec %s declares no start predicate", sys.Name)
	}
	states, err := sys.Satisfying(sys.Start.Holds, maxStartSpace)
	if err != nil {
		return nil, fmt.Errorf("spec %s: the start predicate: %w", sys.Name, err)
	}
	return states, nil
}

// startHolds is the outcome of convergence from start when no execution
// from the states reachable from the start configurations avoids L.
func startHolds(opts Options, fairness Fairness, states uint64) Outcome {
	return Outcome{Property: Convergence, Verdict: Holds,
		Reason: fmt.Sprintf("every execution from the %d start configuration%s reaches L (fairness %s, %d states)", len(opts.Start), plural(len(opts.Start)), fairness, states)}
}

// startWord names the configurations a search from given or start
// configurations starts from, in reasons.
func startWord(opts Options) string {
	if opts.From == FromStart {
		return "start"
	}
	return "given"
}
