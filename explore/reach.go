package explore

import (
	"errors"
	"fmt"
	"slices"
	"sort"

	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/statespace"
)

// ReachGraph is the graph of the states a complete breadth-first search
// reached: vertices are their ids (in breadth-first order, so a lower id is
// never deeper), edges are regenerated from the model and looked up in the
// search's visited set.
type ReachGraph struct {
	sys   *model.System
	store *store
	seen  *visited
	// levelStarts[d] is the first id of depth d.
	levelStarts []int64
}

// Graph returns the reachable-state graph of a complete BFS.
func (r *Result) Graph() (*ReachGraph, error) {
	b, ok := r.paths.(*bfsPaths)
	if !ok || !r.Complete() {
		return nil, errors.New("the state graph exists only after a complete breadth-first search from the initial configurations")
	}
	if b.seen == nil {
		return nil, errors.New("the search kept no visited set")
	}
	if b.fp {
		return nil, errors.New("the search kept fingerprints of the states, not the states: the state graph needs the exact store")
	}
	if b.sym {
		return nil, errors.New("the search kept one state per orbit of the symmetry group: the state graph needs a search without symmetry reduction")
	}
	return &ReachGraph{sys: b.sys, store: b.store, seen: b.seen, levelStarts: b.levelStarts}, nil
}

// Size is the number of reachable states.
func (g *ReachGraph) Size() uint64 { return uint64(g.store.n) }

// System is the system whose states these are.
func (g *ReachGraph) System() *model.System { return g.sys }

// Depth is the length of a shortest path from an initial state to v.
func (g *ReachGraph) Depth(v uint32) int {
	return sort.Search(len(g.levelStarts), func(d int) bool { return g.levelStarts[d] > int64(v) }) - 1
}

// PathTo returns the ids of a shortest path from an initial state to v,
// following the parent links (which a tree store keeps on a file).
func (g *ReachGraph) PathTo(v uint32) ([]uint32, error) {
	ids := []uint32{v}
	for cur := int64(v); ; {
		p, err := g.store.parentOf(cur)
		if err != nil {
			return nil, err
		}
		if p == noParent {
			break
		}
		ids = append(ids, p)
		cur = int64(p)
	}
	slices.Reverse(ids)
	return ids, nil
}

// NewWalker returns a walker over the graph.
func (g *ReachGraph) NewWalker() statespace.Walker {
	words := g.sys.Words()
	return &reachWalker{g: g, ex: g.sys.NewExpander(), cur: g.sys.NewState(), packed: make([]uint64, words), buf: make([]uint64, words)}
}

type reachWalker struct {
	g      *ReachGraph
	ex     *model.Expander
	cur    *model.State
	packed []uint64
	// buf holds a state decoded from a tree store; look is the walker's
	// cursor of it.
	buf  []uint64
	look treeCursor
}

func (w *reachWalker) Load(v uint32) (*model.State, error) {
	if uint64(v) >= w.g.Size() {
		return nil, fmt.Errorf("state %d was not reached", v)
	}
	w.g.sys.Unpack(w.g.seen.state(int64(v), w.buf), w.cur)
	return w.cur, nil
}

func (w *reachWalker) Successors(st *model.State, fn func(step *model.Step, to uint32, next *model.State)) (int, error) {
	var missing error
	n, err := w.ex.Expand(st, func(step *model.Step, next *model.State) bool {
		w.g.sys.Pack(next, w.packed)
		id := w.g.seen.findWith(w.packed, hashWords(w.packed), &w.look)
		if id < 0 {
			missing = errors.New("a successor of a reached state was not reached: the search was not complete")
			return false
		}
		fn(step, uint32(id), next)
		return true
	})
	if err == nil {
		err = missing
	}
	return n, err
}

// Trace rebuilds the execution through ids.
func (g *ReachGraph) Trace(ids []uint32, closed bool) ([]*model.State, []model.Step, error) {
	states := make([]*model.State, len(ids))
	for i, id := range ids {
		st := g.sys.NewState()
		g.sys.Unpack(g.seen.state(int64(id), make([]uint64, g.sys.Words())), st)
		states[i] = st
	}
	steps, err := g.sys.StepsThrough(states, closed)
	if err != nil {
		return nil, nil, err
	}
	return states, steps, nil
}
