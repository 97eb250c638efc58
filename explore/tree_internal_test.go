package explore

import (
	"context"
	"slices"
	"testing"

	"github.com/ringcheck/ringcheck/budget"
	"github.com/ringcheck/ringcheck/model"
)

// wideCounters is a system of six processes, each with a counter x in
// 0..top that it may increment and a 20-bit y that follows x: (top+1)^6
// states packed into 3 words, whose halves take few values each.
func wideCounters(t *testing.T, top int) *model.System {
	t.Helper()
	b := model.NewBuilder("wide", model.UniRing, 6)
	x := b.Var("x", model.IntRange(0, top))
	y := b.Var("y", model.IntRange(0, 1<<20-1))
	b.Action(model.Action{
		Name:  "inc",
		Guard: func(c *model.Ctx) bool { return c.Get(x) < top },
		Effect: func(c *model.Ctx, _ int) {
			c.Set(x, c.Get(x)+1)
			c.Set(y, (c.Get(x)*123457)%(1<<20))
		},
	})
	b.Initial(func(*model.System, *model.State) {})
	sys, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if sys.Words() < 2 {
		t.Fatalf("the system packs into %d words", sys.Words())
	}
	return sys
}

// TestTreeStoreFindsWhatItAdds: a tree store numbers the states in the
// order they are added, finds each by its packed form, decodes each from
// its id, and does not find states it was not given; reshaped keeps all
// of that, with a new shape; and so does a table whose ids outgrow the
// tags of its slots (here at 2,000 ids instead of 2^24 - 1), and one
// whose children's ids outgrow its narrow keys (here at 1,000 instead of
// 2^24).
func TestTreeStoreFindsWhatItAdds(t *testing.T) {
	const words, n = 3, 3000
	state := func(i int) []uint64 {
		// Correlated words, and a high half that is constant.
		return []uint64{uint64(i%17) | uint64(i%5)<<40, uint64(i) * 0x9E3779B97F4A7C15, uint64(i % 3)}
	}
	ts := newTreeStore(words)
	var c treeCursor
	check := func(ts *treeStore, upTo int) {
		t.Helper()
		buf := make([]uint64, words)
		for i := range upTo {
			if id := ts.find(state(i), &c); id != int64(i) {
				t.Fatalf("state %d found as %d", i, id)
			}
			if id := ts.find(state(i), nil); id != int64(i) {
				t.Fatalf("state %d found as %d without a cursor", i, id)
			}
			if got := ts.get(int64(i), buf); !slices.Equal(got, state(i)) {
				t.Fatalf("state %d decodes as %x, want %x", i, got, state(i))
			}
		}
		if id := ts.find(state(upTo), &c); id != -1 {
			t.Fatalf("state %d, not added, found as %d", upTo, id)
		}
	}
	for i := range n / 2 {
		if id := ts.add(state(i), &c); id != int64(i) {
			t.Fatalf("state %d added as %d", i, id)
		}
		if id := ts.add(state(i), &c); id != int64(i) {
			t.Fatalf("state %d added again as %d", i, id)
		}
	}
	check(ts, n/2)
	before := slices.Clone(ts.nodes)
	ts = ts.reshaped()
	if !ts.planned || slices.Equal(ts.nodes, before) {
		t.Fatalf("reshaped: planned %v, nodes %v (were %v)", ts.planned, ts.nodes, before)
	}
	check(ts, n/2)
	if ts.tables[ts.root].width != narrowWidth {
		t.Fatalf("the root's children are %v, and its keys are %d bytes", ts.nodes[ts.root], ts.tables[ts.root].width)
	}
	for i := range ts.tables {
		ts.tables[i].tagLimit = 2000
		ts.tables[i].narrowLimit = 1000
	}
	for i := n / 2; i < n; i++ {
		if id := ts.add(state(i), &c); id != int64(i) {
			t.Fatalf("state %d added as %d after the reshape", i, id)
		}
	}
	check(ts, n)
	if r := &ts.tables[ts.root]; r.tagged || r.width != wideWidth {
		t.Fatalf("the root table of %d ids has tags %v, keys of %d bytes", r.n, r.tagged, r.width)
	}
}

// TestTreeStoreReshapesMidSearch: a search whose tree store reshapes
// after 1,000 states (within a level, within a round) gives the states
// the ids, paths and counts of the exact store, with 1, 2 and 7 workers,
// and holds fewer bytes.
func TestTreeStoreReshapesMidSearch(t *testing.T) {
	sys := wideCounters(t, 3)
	exact, err := BFS(context.Background(), sys, nopMonitor{}, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	eb := exact.paths.(*bfsPaths)
	for _, workers := range []int{1, 2, 7} {
		res, err := BFS(context.Background(), sys, nopMonitor{}, Options{Workers: workers, Tree: true, treeSample: 1000})
		if err != nil {
			t.Fatal(err)
		}
		if res.States != exact.States || res.Transitions != exact.Transitions || res.MaxDepth != exact.MaxDepth || !res.Complete() {
			t.Fatalf("%d workers: %d states, %d transitions, depth %d; exact %d, %d, %d", workers, res.States, res.Transitions, res.MaxDepth, exact.States, exact.Transitions, exact.MaxDepth)
		}
		tb := res.paths.(*bfsPaths)
		if !tb.seen.tree.planned {
			t.Fatalf("%d workers: the tree was not reshaped", workers)
		}
		buf := make([]uint64, sys.Words())
		for id := range exact.States {
			if got, want := tb.seen.state(id, buf), eb.seen.state(id, nil); !slices.Equal(got, want) {
				t.Fatalf("%d workers: state %d is %x; exact %x", workers, id, got, want)
			}
			p, err := tb.store.parentOf(id)
			if err != nil {
				t.Fatal(err)
			}
			if want := eb.store.parent(id); p != want {
				t.Fatalf("%d workers: the parent of %d is %d; exact %d", workers, id, p, want)
			}
		}
		if res.StoreBytes >= exact.StoreBytes {
			t.Errorf("%d workers: the tree store holds %d bytes, the exact one %d", workers, res.StoreBytes, exact.StoreBytes)
		}
	}
}

// TestTreeStoreBudgetStopsWithReshapes: under a memory budget, a search
// whose tree store reshapes (at 1,000 states) stops at the same state
// every time with the same workers, the budget refusing a growth of the
// tree store (a request of some bytes, before the table grows).
func TestTreeStoreBudgetStopsWithReshapes(t *testing.T) {
	if raceDetector {
		t.Skip("a sequential budget test, as long as the rest of the package under the race detector; TestTreeStoreKeepsTheIds runs the tree store's workers under it")
	}
	sys := wideCounters(t, 7) // 262,144 states
	type counts struct {
		states, transitions int64
		depth               int
	}
	firsts := map[int]counts{}
	for _, workers := range []int{1, 3, 1, 3} {
		res, err := BFS(context.Background(), sys, nopMonitor{}, Options{Memory: budget.New(6 << 20), Workers: workers, Tree: true, treeSample: 1000})
		if err != nil {
			t.Fatal(err)
		}
		if res.Stop != MemoryBound || res.Exceeded == nil || res.Exceeded.Need == 0 || res.States < 1000 {
			t.Fatalf("%d workers: %v after %d states; want the memory budget past the reshape", workers, res.Stop, res.States)
		}
		got := counts{res.States, res.Transitions, res.MaxDepth}
		if first, ok := firsts[workers]; !ok {
			firsts[workers] = got
		} else if got != first {
			t.Fatalf("%d workers: stopped at %+v; first at %+v", workers, got, first)
		}
	}
}
