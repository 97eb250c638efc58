package klpusher_test

import (
	"testing"
	"time"
)

func TestZZCounts(t *testing.T) {
	for _, tc := range []struct{ n, l, k int }{{3, 3, 2}, {3, 3, 3}, {4, 4, 2}, {4, 4, 3}, {4, 3, 3}, {5, 5, 2}, {5, 5, 3}, {5, 4, 3}, {6, 6, 3}} {
		start := time.Now()
		r := reachable(t, tc.n, tc.l, tc.k, 0)
		t.Logf("%v: %d states %d trans %v", tc, r.States, r.Transitions, time.Since(start))
	}
}
