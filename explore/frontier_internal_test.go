package explore

import (
	"context"
	"fmt"
	"testing"

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
	mem, err := BFS(context.Background(), sys, nopMonitor{}, Options{Workers: 2, Fingerprints: true})
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

type nopMonitor struct{}

func (nopMonitor) Observe(*Visit) {}
func (nopMonitor) Decided() bool  { return false }
