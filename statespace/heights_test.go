package statespace_test

import (
	"context"
	"errors"
	"testing"

	"github.com/ringcheck/ringcheck/internal/testsys"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/statespace"
)

func TestHeights(t *testing.T) {
	const size = 60
	sys, a, b := testsys.Grid(t, size)
	sp, err := statespace.NewSpace(sys)
	if err != nil {
		t.Fatal(err)
	}
	corner := uint32(size*size - 1) // (size-1, size-1): the last rank
	keep := func(v uint32) bool { return v != corner }
	succ := func(c *statespace.Cursor, v uint32, dst []uint32) ([]uint32, error) {
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
	sp, _ := statespace.NewSpace(sys)
	succ := func(c *statespace.Cursor, v uint32, dst []uint32) ([]uint32, error) {
		return append(dst, (v+1)%1000), nil
	}
	for _, workers := range []int{1, 2, 3} {
		err := sp.Heights(context.Background(), workers, func(uint32) bool { return true }, succ, make([]uint16, 1000), nil)
		if !errors.Is(err, statespace.ErrCyclic) {
			t.Fatalf("workers=%d: %v, want ErrCyclic", workers, err)
		}
	}
}
