package explore_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/internal/testsys"
)

// slowMonitor takes 20 µs over each state, as the invariants of a large
// spec may, and calls wide (once) when it first sees a state of depth 1.
type slowMonitor struct {
	once sync.Once
	wide func()
}

func (m *slowMonitor) Observe(v *explore.Visit) {
	if v.Depth == 1 {
		m.once.Do(m.wide)
	}
	for start := time.Now(); time.Since(start) < 20*time.Microsecond; {
	}
}

func (*slowMonitor) Decided() bool { return false }

// TestStoppedSearchesEndPromptly: a search that Ctrl-C (its context) or
// its time limit stops while it expands a level of a million states ends
// within five seconds (four times that under the race detector, which
// slows the one expansion of the initial state, a million steps, that no
// bound interrupts), however many states it has stored without expanding
// them (the monitor would take twenty seconds to judge them).
func TestStoppedSearchesEndPromptly(t *testing.T) {
	sys := testsys.Chains(t, 1<<20, 2)
	for _, fp := range []bool{false, true} {
		for _, bound := range []string{"cancel", "time limit"} {
			ctx, cancel := context.WithCancel(context.Background())
			opts := explore.Options{Workers: 2, Fingerprints: fp}
			start := time.Now()
			// The bound falls a second into the wide level, or at the
			// time limit if the search reaches it later (expanding the
			// initial state, a million steps, is one step of the search).
			var mu sync.Mutex
			var bounded time.Time
			mon := &slowMonitor{wide: func() {
				mu.Lock()
				defer mu.Unlock()
				bounded = time.Now()
				if bound == "cancel" {
					bounded = bounded.Add(time.Second)
					time.AfterFunc(time.Second, cancel)
				}
			}}
			if bound == "time limit" {
				opts.TimeLimit = time.Second
			}
			res, err := explore.BFS(ctx, sys, mon, opts)
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			bounded = later(bounded, start.Add(opts.TimeLimit))
			mu.Unlock()
			want := map[string]explore.StopReason{"cancel": explore.Interrupted, "time limit": explore.TimeBound}[bound]
			if took := time.Since(bounded); res.Stop != want || took > slowdown*5*time.Second {
				t.Fatalf("fingerprints %v, %s: %v, %v after the bound with %d states stored", fp, bound, res.Stop, took, res.States)
			}
		}
	}
}

// later is the later of a and b.
func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
