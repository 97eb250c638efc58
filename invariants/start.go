package invariants

import (
	"context"
	"fmt"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/model"
)

// maxStartSpace bounds the configurations a start predicate is evaluated
// over: the full configuration space, swept once.
const maxStartSpace = 1 << 28

// startConfigurations returns every configuration where sys's start
// predicate holds, found by sweeping the full configuration space. The
// configurations kept are charged to the memory budget, and ctx is
// polled; a bound that stops the sweep returns a report whose every
// property is unknown instead.
func startConfigurations(ctx context.Context, sys *model.System, opts Options) ([]*model.State, *Report, error) {
	if sys.Start == nil {
		return nil, nil, fmt.Errorf("spec %s declares no start predicate", sys.Name)
	}
	count, ok := sys.Configurations()
	if !ok || count > maxStartSpace {
		return nil, nil, fmt.Errorf("spec %s: the start predicate is found by sweeping the full configuration space, here about 10^%.0f configurations, more than %d", sys.Name, sys.ConfigurationsLog10(), maxStartSpace)
	}
	st := sys.NewState()
	// A configuration's slices, and its pointer in the list.
	size := uint64(4*len(st.Vars)+4*len(st.Msgs)+4*len(st.Lens)) + 80
	const chunk = 1024
	var out []*model.State
	for i := uint64(0); ; i++ {
		if i%(1<<16) == 0 && ctx.Err() != nil {
			return nil, stoppedStability(opts, explore.Interrupted, ctx.Err(), nil), nil
		}
		if sys.Start.Holds(st) {
			if len(out)%chunk == 0 {
				if err := opts.Search.Memory.Grow(chunk * size); err != nil {
					return nil, stoppedStability(opts, explore.MemoryBound, err, nil), nil
				}
			}
			out = append(out, st.Clone())
		}
		if !sys.NextRank(st) {
			break
		}
	}
	if len(out) == 0 {
		return nil, nil, fmt.Errorf("spec %s: the start predicate: %w", sys.Name, model.ErrNoneSatisfies)
	}
	return out, nil, nil
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
