package explore_test

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/ringcheck/ringcheck/budget"
	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/internal/testsys"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/spectest"
)

// byID records the packed form of the state each id names.
type byID struct {
	sys    *model.System
	mu     sync.Mutex
	states map[explore.StateID]string
}

func newByID(sys *model.System) *byID {
	return &byID{sys: sys, states: map[explore.StateID]string{}}
}

func (r *byID) Observe(v *explore.Visit) {
	ws := make([]uint64, r.sys.Words())
	r.sys.Pack(v.State, ws)
	key := fmt.Sprint(ws)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.states[v.ID] = key
}

func (r *byID) Decided() bool { return false }

// catalogueSystem builds spec name of the catalogue with values.
func catalogueSystem(t *testing.T, name string, values specs.Values) *model.System {
	t.Helper()
	spec := spectest.Builtin(t, name)
	vals, err := spec.Resolve(values)
	if err != nil {
		t.Fatal(err)
	}
	sys, err := spec.Build(vals)
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// treeCases are systems of the catalogue, small instances, and a grid of
// 90,000 states whose ids pass the store's first chunk (65,536).
func treeCases(t *testing.T) []struct {
	name string
	sys  *model.System
} {
	grid, _, _ := testsys.Grid(t, 300)
	return []struct {
		name string
		sys  *model.System
	}{
		{"raynal n=2 M=2 requests=3", catalogueSystem(t, "raynal", specs.Values{"n": 2, "M": 2, "requests": 3})},
		{"thiare n=3", catalogueSystem(t, "thiare", specs.Values{"n": 3})},
		{"kl-ddhl n=2 L=1 K=1", catalogueSystem(t, "kl-ddhl", specs.Values{"n": 2, "L": 1, "K": 1})},
		{"counterflush n=4 Cmax=3", catalogueSystem(t, "counterflush", specs.Values{"n": 4, "Cmax": 3})},
		{"grid 300", grid},
	}
}

// TestTreeStoreKeepsTheIds: a search that keeps the states tree-compressed
// gives every state the id the exact store gives it, with the same counts,
// the same shortest paths, and the same reachable graph (depths, paths
// and successors' ids), for 1, 2 and 7 workers, in less memory.
func TestTreeStoreKeepsTheIds(t *testing.T) {
	for _, tc := range treeCases(t) {
		exactMon := newByID(tc.sys)
		exact, err := explore.BFS(context.Background(), tc.sys, exactMon, explore.Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		exactGraph, err := exact.Graph()
		if err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{1, 2, 7} {
			mon := newByID(tc.sys)
			tree, err := explore.BFS(context.Background(), tc.sys, mon, explore.Options{Workers: workers, Tree: true})
			if err != nil {
				t.Fatal(err)
			}
			what := fmt.Sprintf("%s, %d workers", tc.name, workers)
			if tree.States != exact.States || tree.Transitions != exact.Transitions || tree.DistinctTransitions != exact.DistinctTransitions ||
				tree.MaxDepth != exact.MaxDepth || tree.Stop != exact.Stop {
				t.Fatalf("%s: %d states, %d transitions (%d distinct), depth %d, %v; exact %d, %d (%d), %d, %v", what,
					tree.States, tree.Transitions, tree.DistinctTransitions, tree.MaxDepth, tree.Stop,
					exact.States, exact.Transitions, exact.DistinctTransitions, exact.MaxDepth, exact.Stop)
			}
			if !reflect.DeepEqual(mon.states, exactMon.states) {
				for id, st := range exactMon.states {
					if mon.states[id] != st {
						t.Fatalf("%s: state %d is %s; exact %s", what, id, mon.states[id], st)
					}
				}
				t.Fatalf("%s: %d states visited; exact %d", what, len(mon.states), len(exactMon.states))
			}
			if exact.States > 5000 && tree.StoreBytes >= exact.StoreBytes {
				t.Errorf("%s: the tree store holds %d bytes, the exact one %d", what, tree.StoreBytes, exact.StoreBytes)
			}
			graph, err := tree.Graph()
			if err != nil {
				t.Fatal(err)
			}
			walker, exactWalker := graph.NewWalker(), exactGraph.NewWalker()
			step := max(1, exact.States/97)
			for id := explore.StateID(0); id < explore.StateID(exact.States); id += explore.StateID(step) {
				comparePaths(t, what, id, exact, tree)
				v := uint32(id)
				path, err := graph.PathTo(v)
				if err != nil {
					t.Fatal(err)
				}
				exactPath, err := exactGraph.PathTo(v)
				if err != nil {
					t.Fatal(err)
				}
				if d := graph.Depth(v); d != exactGraph.Depth(v) || d != len(path)-1 || !reflect.DeepEqual(path, exactPath) {
					t.Fatalf("%s: state %d at depth %d by %v; exact %d by %v", what, id, d, path, exactGraph.Depth(v), exactPath)
				}
				got, want := successorIDs(t, walker, v), successorIDs(t, exactWalker, v)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s: the successors of %d are %v; exact %v", what, id, got, want)
				}
			}
			comparePaths(t, what, explore.StateID(exact.States-1), exact, tree)
		}
	}
}

// comparePaths fails unless the two searches give the same path to id.
func comparePaths(t *testing.T, what string, id explore.StateID, exact, got *explore.Result) {
	t.Helper()
	ws, wsteps, err := exact.Path(id)
	if err != nil {
		t.Fatal(err)
	}
	gs, gsteps, err := got.Path(id)
	if err != nil {
		t.Fatalf("%s: path to %d: %v", what, id, err)
	}
	if len(gs) != len(ws) || len(gsteps) != len(wsteps) {
		t.Fatalf("%s: path to %d: %d states, exact %d", what, id, len(gs), len(ws))
	}
	for i := range ws {
		if !gs[i].Equal(ws[i]) {
			t.Fatalf("%s: path to %d differs at state %d", what, id, i)
		}
	}
}

// successorIDs returns the ids of the successors of v, in the order the
// walker gives them.
func successorIDs(t *testing.T, w interface {
	Load(uint32) (*model.State, error)
	Successors(*model.State, func(*model.Step, uint32, *model.State)) (int, error)
}, v uint32) []uint32 {
	t.Helper()
	st, err := w.Load(v)
	if err != nil {
		t.Fatal(err)
	}
	var ids []uint32
	if _, err := w.Successors(st, func(_ *model.Step, to uint32, _ *model.State) { ids = append(ids, to) }); err != nil {
		t.Fatal(err)
	}
	return ids
}

// TestTreeStoreBudgetStopsAtTheSameState: under a memory budget, a search
// with the tree store asks before each table grows and stops at the same
// state every time with the same workers, with the budget's refusal, and
// the paths to what it kept are there; under the same budget it keeps
// more states than the exact store.
func TestTreeStoreBudgetStopsAtTheSameState(t *testing.T) {
	if slowdown > 1 {
		t.Skip("4,000,000 states, too long under the race detector; TestTreeStoreKeepsTheIds runs the tree store's workers under it")
	}
	sys, _, _ := testsys.Grid(t, 2000) // 4,000,000 states, far past 8 MiB
	type counts struct {
		states, transitions int64
		depth               int
	}
	firsts := map[int]counts{}
	// The counts only: a result holds its store, which would count in the
	// heap during the next run.
	for _, workers := range []int{1, 3, 1, 3} {
		res, err := explore.BFS(context.Background(), sys, &expandedCounter{}, explore.Options{Memory: budget.New(8 << 20), Workers: workers, Tree: true})
		if err != nil {
			t.Fatal(err)
		}
		if res.Stop != explore.MemoryBound || res.Exceeded == nil || res.Complete() {
			t.Fatalf("%d workers: %v after %d states; want the memory budget", workers, res.Stop, res.States)
		}
		got := counts{res.States, res.Transitions, res.MaxDepth}
		if first, ok := firsts[workers]; !ok {
			firsts[workers] = got
		} else if got != first {
			t.Fatalf("%d workers: stopped at %d states, %d transitions, depth %d; first at %d, %d, %d",
				workers, got.states, got.transitions, got.depth, first.states, first.transitions, first.depth)
		}
		if _, err := res.Graph(); err == nil {
			t.Fatal("an incomplete search gave a graph")
		}
		if states, _, err := res.Path(explore.StateID(res.States - 1)); err != nil || len(states) != got.depth+2 && len(states) != got.depth+1 {
			t.Fatalf("%d workers: path to the last state kept: %d states, %v; depth %d", workers, len(states), err, got.depth)
		}
	}
	first := firsts[1]
	// The exact store keeps more bytes a state: under the same budget it
	// stops sooner.
	exact, err := explore.BFS(context.Background(), sys, &expandedCounter{}, explore.Options{Memory: budget.New(8 << 20), Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if exact.States >= first.states {
		t.Errorf("under 8 MiB the exact store kept %d states, the tree store %d", exact.States, first.states)
	}
}

// TestTreeStoreLiveness: the liveness analyses run on the graph a tree
// store keeps and give the exact store's verdicts and counterexamples: a
// starvation lasso of kl-pusher's Figure 2 under no fairness, and
// raynal's starvation freedom.
func TestTreeStoreLiveness(t *testing.T) {
	for _, tc := range []struct {
		name string
		sys  *model.System
		want invariants.Verdict
	}{
		{"kl-pusher n=3 L=3 K=2", catalogueSystem(t, "kl-pusher", specs.Values{"n": 3, "L": 3, "K": 2}), invariants.Violated},
		{"raynal n=2 M=2 requests=2", catalogueSystem(t, "raynal", specs.Values{"n": 2, "M": 2, "requests": 2}), invariants.Holds},
	} {
		var outcomes [][]invariants.Outcome
		for _, tree := range []bool{false, true} {
			for _, workers := range []int{1, 2} {
				rep, err := invariants.Check(context.Background(), tc.sys, invariants.Options{
					Properties: []invariants.Property{invariants.Starvation},
					Search:     explore.Options{Workers: workers, Tree: tree},
				})
				if err != nil {
					t.Fatal(err)
				}
				if len(rep.Outcomes) != 1 || rep.Outcomes[0].Verdict != tc.want {
					t.Fatalf("%s, tree %v: %+v; want %s", tc.name, tree, rep.Outcomes, tc.want)
				}
				outcomes = append(outcomes, rep.Outcomes)
			}
		}
		for _, o := range outcomes[1:] {
			if !reflect.DeepEqual(o, outcomes[0]) {
				t.Fatalf("%s: %+v; with the exact store and one worker %+v", tc.name, o, outcomes[0])
			}
		}
	}
}
