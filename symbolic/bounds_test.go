package symbolic

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestRunLeavesALongOperation: a computation inside one operation that
// does not return (as a BDD operation of the kernel, which cannot be
// interrupted) is left running once its bound is crossed: run returns
// within grace with an abandoned *Stopped, which says where it stood; and
// while it runs, the last progress report is repeated every heartbeat.
func TestRunLeavesALongOperation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var reports []Progress // written under the watch's lock, read after run
	w := newWatch(ctx, nil, func(p Progress) { reports = append(reports, p) })
	release := make(chan struct{})
	defer close(release)
	wait := heartbeat + heartbeat/2
	var cancelled time.Time
	time.AfterFunc(wait, func() { cancelled = time.Now(); cancel() })
	err := w.run(func() error {
		w.report(Progress{Phase: "a long operation", Iteration: 7})
		<-release
		return nil
	})
	took := time.Since(cancelled)
	var st *Stopped
	if !errors.As(err, &st) || !errors.Is(err, context.Canceled) || !st.Abandoned {
		t.Fatalf("got %v (%+v), want an abandoned *Stopped wrapping context.Canceled", err, st)
	}
	if limit := watchEvery + grace + time.Second; took > limit {
		t.Errorf("returned %v after the bound, want at most %v", took, limit)
	}
	if st.At.Phase != "a long operation" || st.At.Iteration != 7 {
		t.Errorf("stopped at %+v, want the last position reported", st.At)
	}
	if len(reports) < 2 || reports[len(reports)-1].Phase != "a long operation" {
		t.Errorf("progress %+v, want the report and at least one heartbeat repeating it", reports)
	}
}

// TestRunUnwindsAtThePoll: a computation made of BDD operations unwinds at
// the first one after its bound is crossed, and is not abandoned.
func TestRunUnwindsAtThePoll(t *testing.T) {
	k, err := newKernel(4, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	w := newWatch(ctx, nil, nil)
	k.w = w
	err = w.run(func() error {
		for {
			k.Or(k.And(k.Ithvar(0), k.Ithvar(1)), k.Not(k.Ithvar(2)))
		}
	})
	var st *Stopped
	if !errors.As(err, &st) || !errors.Is(err, context.DeadlineExceeded) || st.Abandoned {
		t.Fatalf("got %v (%+v), want a *Stopped wrapping context.DeadlineExceeded, not abandoned", err, st)
	}
	if st.At.Table == 0 {
		t.Errorf("stopped at %+v, want the node table's size", st.At)
	}
}

// TestGrowthBytes: the next growth of the node table doubles it up to
// maxNodeIncrease nodes, at nodeBytes and cacheBytes a node.
func TestGrowthBytes(t *testing.T) {
	for _, tt := range []struct {
		nodes int
		want  uint64
	}{
		{0, 0},
		{1 << 16, 1 << 17 * (nodeBytes + cacheBytes)},
		{1 << 20, 1 << 21 * (nodeBytes + cacheBytes)},
		{3 << 20, 4 << 20 * (nodeBytes + cacheBytes)},
	} {
		if got := growthBytes(tt.nodes); got != tt.want {
			t.Errorf("growthBytes(%d) = %d, want %d", tt.nodes, got, tt.want)
		}
	}
}

// TestKernelIsBuDDyStyle: the BDD the engine makes uses the BuDDy-style
// kernel (a node array with its own hash table) in every build, with no
// build tag: the kernel names itself in its statistics.
func TestKernelIsBuDDyStyle(t *testing.T) {
	b, err := newBDD(8)
	if err != nil {
		t.Fatalf("newBDD: %v", err)
	}
	if stats := b.Stats(); !strings.Contains(stats, "Impl.:      BuDDy\n") {
		t.Errorf("the kernel is not the BuDDy-style one; its statistics:\n%s", stats)
	}
}
