package ringcheck

import (
	"context"
	"fmt"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/statespace"
)

// StateGraph returns the state graph the checked properties are about, if
// it has at most limit states, and which of its vertices are initial
// configurations: the full configuration space when the check started
// from every configuration, otherwise the states reachable from the
// initial configurations, found by a complete breadth-first search. It
// refuses a check that started from given or random configurations.
func (r *Result) StateGraph(ctx context.Context, limit uint64) (g statespace.Graph, initial func(v uint32) bool, err error) {
	sys := r.System
	switch r.Options.From {
	case invariants.FromAll:
		if n, ok := sys.Configurations(); !ok || n > limit {
			return nil, nil, fmt.Errorf("the full configuration space of %s has more than the %d configurations a state graph draws", sys.Name, limit)
		}
		sp, err := statespace.NewSpace(sys)
		if err != nil {
			return nil, nil, err
		}
		ranks := map[uint32]bool{}
		for _, st := range sys.Initial() {
			ranks[uint32(sys.Rank(st))] = true
		}
		return sp, func(v uint32) bool { return ranks[v] }, nil
	case invariants.FromInit, "":
		res, err := explore.BFS(ctx, sys, noMonitor{}, explore.Options{MaxStates: int64(limit)})
		if err != nil {
			return nil, nil, err
		}
		if res.Stop == explore.StateBound {
			return nil, nil, fmt.Errorf("%s has more than the %d reachable states a state graph draws", sys.Name, limit)
		}
		if !res.Complete() {
			return nil, nil, fmt.Errorf("the search for %s's state graph stopped: %v", sys.Name, res.Stop)
		}
		rg, err := res.Graph()
		if err != nil {
			return nil, nil, err
		}
		return rg, func(v uint32) bool { return rg.Depth(v) == 0 }, nil
	}
	return nil, nil, fmt.Errorf("a state graph is drawn from the initial configurations or from all of them, not from %s ones", r.Options.From)
}

// noMonitor watches nothing, for a search that only collects states.
type noMonitor struct{}

func (noMonitor) Observe(*explore.Visit) {}
func (noMonitor) Decided() bool          { return false }
