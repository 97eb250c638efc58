package statespace_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/ringcheck/ringcheck/internal/testsys"
	"github.com/ringcheck/ringcheck/statespace"
)

// TestHeightsStopsWhenCancelled: a search from one root that covers most
// of the graph (here a binary tree over a million ranks, v → 2v+1, 2v+2,
// whose every expansion takes 50 µs) stops soon after its context is
// cancelled, not at the end of the root's search.
func TestHeightsStopsWhenCancelled(t *testing.T) {
	sys, _, _ := testsys.Grid(t, 1024)
	sp, err := statespace.NewSpace(sys)
	if err != nil {
		t.Fatal(err)
	}
	n := uint32(sp.Size())
	all := func(uint32) bool { return true }
	succ := func(_ *statespace.Cursor, v uint32, dst []uint32) ([]uint32, error) {
		time.Sleep(50 * time.Microsecond)
		for _, w := range []uint32{2*v + 1, 2*v + 2} {
			if w < n {
				dst = append(dst, w)
			}
		}
		return dst, nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	timer := time.AfterFunc(time.Second, cancel)
	defer timer.Stop()
	done := make(chan error, 1)
	go func() { done <- sp.Heights(ctx, 2, all, succ, make([]uint16, n), nil) }()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Heights returned %v; want the cancellation", err)
		}
	case <-time.After(6 * time.Second):
		t.Fatal("Heights still runs 5 s after its context was cancelled")
	}
}
