package runs_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/runs"
	"github.com/ringcheck/ringcheck/statespace"
)

// TestWorstRoundsStopsWhenCancelled: the worst case in rounds stops soon
// after its context is cancelled, even inside the search from one
// configuration that covers most of the product: here a binary tree over
// a million configurations, x → 2x+1 or 2x+2 with L the leaves, whose
// every step takes 50 µs.
func TestWorstRoundsStopsWhenCancelled(t *testing.T) {
	const n = 1 << 20
	b := model.NewBuilder("tree", model.UniRing, 1)
	x := b.Var("x", model.IntRange(0, n-1))
	b.Action(model.Action{Name: "down", Choices: 2,
		Guard: func(c *model.Ctx) bool { return c.Get(x) < n/2 },
		Effect: func(c *model.Ctx, ch int) {
			time.Sleep(50 * time.Microsecond)
			c.Set(x, min(n-1, 2*c.Get(x)+1+ch))
		}})
	b.Legitimate(model.Predicate{Name: "leaf", Holds: func(s *model.State) bool { return s.Get(0, x) >= n/2 }})
	b.Initial(func(*model.System, *model.State) {})
	sys, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	sp, err := statespace.NewSpace(sys)
	if err != nil {
		t.Fatal(err)
	}
	inL := statespace.NewBits(sp.Size())
	for v := uint32(n / 2); v < n; v++ {
		inL.Set(v)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	timer := time.AfterFunc(time.Second, cancel)
	defer timer.Stop()
	done := make(chan error, 1)
	go func() {
		_, _, _, err := runs.WorstRounds(ctx, sp, inL, 2, 0, nil)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("WorstRounds returned %v; want the cancellation", err)
		}
	case <-time.After(6 * time.Second):
		t.Fatal("WorstRounds still runs 5 s after its context was cancelled")
	}
}
