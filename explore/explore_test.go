package explore_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/model"
)

// grid is a system whose state graph is known: one process with variables
// a and b in 0..size-1 and two actions, a := a+1 and b := b+1 (when below
// the maximum). From (0,0) every (a,b) is reachable, at depth a+b, and the
// only state with no successor is (size-1, size-1).
func grid(t testing.TB, size int) (*model.System, model.VarID, model.VarID) {
	b := model.NewBuilder("grid", model.UniRing, 1)
	va := b.Var("a", model.IntRange(0, size-1))
	vb := b.Var("b", model.IntRange(0, size-1))
	for _, v := range []model.VarID{va, vb} {
		b.Action(model.Action{
			Name:   b.Name(v),
			Guard:  func(c *model.Ctx) bool { return c.Get(v) < size-1 },
			Effect: func(c *model.Ctx, _ int) { c.Set(v, c.Get(v)+1) },
		})
	}
	b.Initial(func(*model.System, *model.State) {})
	sys, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return sys, va, vb
}

// recorder remembers every visit.
type recorder struct {
	mu     sync.Mutex
	depth  map[[2]int]int
	succ   map[[2]int]int
	a, b   model.VarID
	visits int
}

func (r *recorder) Observe(v *explore.Visit) {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := [2]int{v.State.Get(0, r.a), v.State.Get(0, r.b)}
	r.depth[k] = v.Depth
	r.succ[k] = v.Successors
	r.visits++
}

func (r *recorder) Decided() bool { return false }

func TestBFSLevelsAndPaths(t *testing.T) {
	const size = 40 // 1600 states: several rounds per level with 2 workers
	sys, a, b := grid(t, size)
	for _, workers := range []int{1, 2, 3} {
		rec := &recorder{depth: map[[2]int]int{}, succ: map[[2]int]int{}, a: a, b: b}
		res, err := explore.BFS(context.Background(), sys, rec, explore.Options{Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		if res.States != size*size || rec.visits != size*size || !res.Complete() || res.MaxDepth != 2*(size-1) {
			t.Fatalf("workers=%d: %d states, %d visits, complete=%v, depth %d", workers, res.States, rec.visits, res.Complete(), res.MaxDepth)
		}
		if want := int64(2 * size * (size - 1)); res.Transitions != want {
			t.Fatalf("workers=%d: %d transitions, want %d", workers, res.Transitions, want)
		}
		for k, d := range rec.depth {
			if d != k[0]+k[1] {
				t.Fatalf("workers=%d: state %v at depth %d, want %d", workers, k, d, k[0]+k[1])
			}
		}
		// The last state's path is a shortest one, and the path of every
		// state is a real execution.
		for id := explore.StateID(0); id < explore.StateID(res.States); id += 97 {
			states, steps, err := res.Path(id)
			if err != nil {
				t.Fatal(err)
			}
			last := states[len(states)-1]
			if len(steps) != last.Get(0, a)+last.Get(0, b) {
				t.Fatalf("path to %v has %d steps", sys.Decode(last), len(steps))
			}
			next := sys.NewState()
			ex := sys.NewExpander()
			for i := range steps {
				if err := ex.Apply(states[i], &steps[i], next); err != nil || !next.Equal(states[i+1]) {
					t.Fatalf("step %d of the path to %d does not replay: %v", i, id, err)
				}
			}
		}
	}
}

func TestBFSBounds(t *testing.T) {
	sys, a, b := grid(t, 10)
	tests := []struct {
		opts     explore.Options
		states   int64
		stop     explore.StopReason
		complete bool
	}{
		// Depth 3 holds the states with a+b <= 3: 1+2+3+4 = 10.
		{explore.Options{MaxDepth: 3}, 10, explore.DepthBound, false},
		// The deepest state is at 18: a bound of 18 is never crossed.
		{explore.Options{MaxDepth: 18}, 100, explore.Exhausted, true},
		{explore.Options{MaxStates: 50}, 50, explore.StateBound, false},
		{explore.Options{MaxStates: 100}, 100, explore.Exhausted, true},
	}
	for _, tt := range tests {
		rec := &recorder{depth: map[[2]int]int{}, succ: map[[2]int]int{}, a: a, b: b}
		res, err := explore.BFS(context.Background(), sys, rec, tt.opts)
		if err != nil {
			t.Fatal(err)
		}
		if res.States != tt.states || res.Stop != tt.stop || res.Complete() != tt.complete {
			t.Errorf("%+v: %d states, stop %v, complete %v; want %d, %v, %v", tt.opts, res.States, res.Stop, res.Complete(), tt.states, tt.stop, tt.complete)
		}
		// Every kept state is expanded, so its successor count is exact.
		for k, n := range rec.succ {
			want := 0
			if k[0] < 9 {
				want++
			}
			if k[1] < 9 {
				want++
			}
			if n != want {
				t.Errorf("%+v: state %v reported %d successors, want %d", tt.opts, k, n, want)
			}
		}
	}
}

func TestSweepVisitsEveryRankOnce(t *testing.T) {
	sys, a, b := grid(t, 200) // 40000 configurations: several chunks
	for _, workers := range []int{1, 2, 4} {
		rec := &recorder{depth: map[[2]int]int{}, succ: map[[2]int]int{}, a: a, b: b}
		res, err := explore.Sweep(context.Background(), sys, rec, explore.Options{Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		if res.States != 40000 || rec.visits != 40000 || len(rec.depth) != 40000 || !res.Complete() {
			t.Fatalf("workers=%d: %d states, %d visits of %d distinct", workers, res.States, rec.visits, len(rec.depth))
		}
		if want := int64(2 * 200 * 199); res.Transitions != want {
			t.Fatalf("workers=%d: %d transitions, want %d", workers, res.Transitions, want)
		}
		states, steps, err := res.Path(12345)
		if err != nil || len(states) != 1 || len(steps) != 0 {
			t.Fatalf("a sweep's path is its configuration alone: %d states, %d steps, %v", len(states), len(steps), err)
		}
	}
	res, err := explore.Sweep(context.Background(), sys, &recorder{depth: map[[2]int]int{}, succ: map[[2]int]int{}, a: a, b: b}, explore.Options{MaxStates: 1000})
	if err != nil || res.Complete() || res.Stop != explore.StateBound || res.States != 1000 {
		t.Fatalf("bounded sweep: %v, %+v", err, res)
	}
}

func TestCancelledSearchesStop(t *testing.T) {
	sys, a, b := grid(t, 50)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for name, run := range map[string]func(context.Context, *model.System, explore.Monitor, explore.Options) (*explore.Result, error){
		"bfs": explore.BFS, "sweep": explore.Sweep,
	} {
		res, err := run(ctx, sys, &recorder{depth: map[[2]int]int{}, succ: map[[2]int]int{}, a: a, b: b}, explore.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Stop != explore.Interrupted || res.Complete() {
			t.Errorf("%s: stop %v", name, res.Stop)
		}
	}
}

func TestHeights(t *testing.T) {
	const size = 60
	sys, a, b := grid(t, size)
	sp, err := explore.NewSpace(sys)
	if err != nil {
		t.Fatal(err)
	}
	corner := uint32(size*size - 1) // (size-1, size-1): the last rank
	keep := func(v uint32) bool { return v != corner }
	succ := func(c *explore.Cursor, v uint32, dst []uint32) ([]uint32, error) {
		st, err := c.Load(v)
		if err != nil {
			return dst, err
		}
		_, err = c.Successors(st, func(_ *model.Step, to uint32, _ *model.State) {
			if keep(to) {
				dst = append(dst, to)
			}
		})
		return dst, err
	}
	for _, workers := range []int{1, 2, 4} {
		h := make([]uint16, sp.Size())
		if err := sp.Heights(context.Background(), workers, keep, succ, h, nil); err != nil {
			t.Fatalf("workers=%d: %v", workers, err)
		}
		c := sp.NewCursor()
		for v := uint32(0); v < corner; v++ {
			st, _ := c.Load(v)
			// From (x, y) the longest path to the corner has 2(size-1)-x-y steps.
			want := 2*(size-1) - st.Get(0, a) - st.Get(0, b)
			if int(h[v]) != want {
				t.Fatalf("workers=%d: h(%d,%d) = %d, want %d", workers, st.Get(0, a), st.Get(0, b), h[v], want)
			}
		}
	}
}

func TestHeightsReportsCycles(t *testing.T) {
	b := model.NewBuilder("cycle", model.UniRing, 1)
	x := b.Var("x", model.IntRange(0, 999))
	b.Action(model.Action{
		Name:   "next",
		Guard:  func(*model.Ctx) bool { return true },
		Effect: func(c *model.Ctx, _ int) { c.Set(x, (c.Get(x)+1)%1000) },
	})
	b.Initial(func(*model.System, *model.State) {})
	sys, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	sp, _ := explore.NewSpace(sys)
	succ := func(c *explore.Cursor, v uint32, dst []uint32) ([]uint32, error) {
		return append(dst, (v+1)%1000), nil
	}
	for _, workers := range []int{1, 2, 3} {
		err := sp.Heights(context.Background(), workers, func(uint32) bool { return true }, succ, make([]uint16, 1000), nil)
		if !errors.Is(err, explore.ErrCyclic) {
			t.Fatalf("workers=%d: %v, want ErrCyclic", workers, err)
		}
	}
}
