package explore

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/ringcheck/ringcheck/internal/testsys"
	"github.com/ringcheck/ringcheck/model"
)

// TestFrontierSpills: a level larger than the segments it may keep goes
// to its file a segment at a time and reads back the same, from several
// caches, and the file serves the next level after a reset.
func TestFrontierSpills(t *testing.T) {
	const words, n = 3, 3*segStates + 100
	f := newFrontier(words, 1)
	state := func(i int64, level uint64) []uint64 {
		return []uint64{uint64(i), uint64(i) * 7, level}
	}
	for level := uint64(0); level < 2; level++ {
		f.reset()
		for i := int64(0); i < n; i++ {
			f.add(state(i, level))
		}
		if f.file == nil || f.segs[1] != nil || f.segs[0] == nil || f.segs[3] == nil {
			t.Fatalf("level %d: segments in memory %v, file %v; want the first and the last only", level, []bool{f.segs[0] != nil, f.segs[1] != nil, f.segs[2] != nil, f.segs[3] != nil}, f.file != nil)
		}
		var a, b segCache
		for _, i := range []int64{0, segStates, 2*segStates + 5, segStates + 1, n - 1, 1} {
			for _, c := range []*segCache{&a, &b} {
				got := f.get(i, c)
				if want := state(i, level); got[0] != want[0] || got[1] != want[1] || got[2] != want[2] || c.err != nil {
					t.Fatalf("level %d, state %d: %v, want %v (%v)", level, i, got, want, c.err)
				}
			}
		}
		if f.bytes() >= int64(n*words*8) {
			t.Fatalf("level %d: %d bytes in memory for %d states", level, f.bytes(), n)
		}
	}
}

// TestFrontierCacheFollowsTheLevel: a worker's cache of a segment on
// file serves that frontier's level only. The search swaps its two
// frontiers at each level, and each reuses its file, so segment k of the
// next level, or of this frontier's level after a reset, must be read
// anew, not served from the copy of the last level's segment k.
func TestFrontierCacheFollowsTheLevel(t *testing.T) {
	const words, n = 2, 2*segStates + 100 // segment 1 on file, 2 in memory
	state := func(i int64, level uint64) []uint64 { return []uint64{uint64(i), level} }
	fill := func(f *frontier, level uint64) {
		f.reset()
		for i := int64(0); i < n; i++ {
			f.add(state(i, level))
		}
		if f.segs[1] != nil {
			t.Fatalf("level %d: segment 1 stays in memory", level)
		}
	}
	a, b := newFrontier(words, 1), newFrontier(words, 1)
	var c segCache
	check := func(f *frontier, level uint64) {
		t.Helper()
		for _, i := range []int64{segStates + 3, 2*segStates - 1} {
			if got, want := f.get(i, &c), state(i, level); got[0] != want[0] || got[1] != want[1] || c.err != nil {
				t.Fatalf("level %d, state %d: %v, want %v (%v)", level, i, got, want, c.err)
			}
		}
	}
	fill(a, 0)
	check(a, 0)
	fill(b, 1) // the swap: the next level is the other frontier's
	check(b, 1)
	check(a, 0)
	fill(a, 2) // the same frontier, reset and refilled
	check(a, 2)
}

// TestSpilledLevelsFindTheSameStates: a search whose levels go to their
// files finds the states, transitions and paths of one that keeps them
// in memory. Its graph, x → 5x+1 and x → 7x+3 modulo 2^17, has levels
// that double until most states are reached.
func TestSpilledLevelsFindTheSameStates(t *testing.T) {
	b := model.NewBuilder("doubling", model.UniRing, 1)
	x := b.Var("x", model.IntRange(0, 1<<17-1))
	for _, m := range [][2]int{{5, 1}, {7, 3}} {
		b.Action(model.Action{
			Name:   fmt.Sprintf("mul%d", m[0]),
			Guard:  func(*model.Ctx) bool { return true },
			Effect: func(c *model.Ctx, _ int) { c.Set(x, (c.Get(x)*m[0]+m[1])%(1<<17)) },
		})
	}
	b.Initial(func(*model.System, *model.State) {})
	sys, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	mem, err := BFS(context.Background(), sys, nopMonitor{}, Options{Workers: 2, Fingerprints: true, frontierKeep: math.MaxInt})
	if err != nil {
		t.Fatal(err)
	}
	spilled, err := BFS(context.Background(), sys, nopMonitor{}, Options{Workers: 2, Fingerprints: true, frontierKeep: 1})
	if err != nil {
		t.Fatal(err)
	}
	if mem.States != spilled.States || mem.Transitions != spilled.Transitions || mem.MaxDepth != spilled.MaxDepth || mem.States < 4*segStates {
		t.Fatalf("spilled %d states, %d transitions, depth %d; in memory %d, %d, %d", spilled.States, spilled.Transitions, spilled.MaxDepth, mem.States, mem.Transitions, mem.MaxDepth)
	}
	for _, id := range []StateID{0, 5000, 70000, StateID(mem.States - 1)} {
		a, _, err := mem.Path(id)
		if err != nil {
			t.Fatal(err)
		}
		c, _, err := spilled.Path(id)
		if err != nil {
			t.Fatal(err)
		}
		if !a[len(a)-1].Equal(c[len(c)-1]) || len(a) != len(c) {
			t.Fatalf("the paths to %d differ", id)
		}
	}
}

// TestSpilledLevelsReadTheirOwnSegments: levels whose only segment on
// file is segment 1 (with one segment kept in memory), so that the
// workers' last read of a level's file and their first of the next
// level's are both segment 1: the search still finds every state. The
// initial state spreads to w states, each the head of a chain of depth
// steps.
func TestSpilledLevelsReadTheirOwnSegments(t *testing.T) {
	const w, depth = 2*segStates + 100, 3
	sys := testsys.Chains(t, w, depth)
	for _, workers := range []int{1, 2} {
		res, err := BFS(context.Background(), sys, nopMonitor{}, Options{Workers: workers, Fingerprints: true, frontierKeep: 1})
		if err != nil {
			t.Fatal(err)
		}
		if want := int64(1 + w*depth); res.States != want || res.Transitions != want-1 || res.Stop != Exhausted {
			t.Fatalf("%d workers: %d states, %d transitions, %v; want %d states, %d transitions, exhausted", workers, res.States, res.Transitions, res.Stop, want, want-1)
		}
	}
}

type nopMonitor struct{}

func (nopMonitor) Observe(*Visit) {}
func (nopMonitor) Decided() bool  { return false }
