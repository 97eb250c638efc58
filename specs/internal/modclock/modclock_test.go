package modclock

import (
	"testing"

	"github.com/ringcheck/ringcheck/model"
)

func TestDiffMaxNext(t *testing.T) {
	r, err := New(4) // W = 11
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ x, y, diff, max int }{
		{3, 1, 2, 3},
		{1, 3, -2, 3},
		{0, 10, 1, 0}, // 11 after 10
		{10, 0, -1, 0},
		{5, 5, 0, 5},
		{0, 6, 5, 0}, // 11 vs 6: within (W-1)/2
		{0, 5, -5, 5},
	} {
		if got := r.Diff(tc.x, tc.y); got != tc.diff {
			t.Errorf("Diff(%d, %d) = %d, want %d", tc.x, tc.y, got, tc.diff)
		}
		if got := r.Max(tc.x, tc.y); got != tc.max {
			t.Errorf("Max(%d, %d) = %d, want %d", tc.x, tc.y, got, tc.max)
		}
	}
	if r.Next(10) != 0 || r.Next(3) != 4 {
		t.Errorf("Next(10) = %d, Next(3) = %d", r.Next(10), r.Next(3))
	}
}

func TestSpread(t *testing.T) {
	r, _ := New(4) // W = 11
	for _, tc := range []struct {
		values []int
		want   int
	}{
		{nil, 0},
		{[]int{7}, 0},
		{[]int{2, 2}, 0},
		{[]int{1, 4}, 3},
		{[]int{10, 0, 1}, 2}, // 10, 11, 12
		{[]int{9, 2}, 4},     // 9 .. 13
		{[]int{0, 3, 6, 9}, 8},
	} {
		got := r.Spread(func(add func(int)) {
			for _, x := range tc.values {
				add(x)
			}
		})
		if got != tc.want {
			t.Errorf("Spread(%v) = %d, want %d", tc.values, got, tc.want)
		}
	}
}

func TestNewRejectsWindows(t *testing.T) {
	for _, w := range []int{0, -1, MaxWindow + 1} {
		if _, err := New(w); err == nil {
			t.Errorf("New(%d) accepted", w)
		}
	}
}

func TestInvariant(t *testing.T) {
	r, _ := New(2)
	spread := 0
	inv := r.Invariant("w", "the values", "they", func(*model.State) int { return spread })
	if !inv.Abstraction || inv.Name != "w" {
		t.Fatalf("invariant %q, abstraction %v", inv.Name, inv.Abstraction)
	}
	for _, tc := range []struct {
		spread int
		holds  bool
	}{{0, true}, {2, true}, {3, false}} {
		spread = tc.spread
		if got := inv.Holds(nil); got != tc.holds {
			t.Errorf("spread %d: holds %v, want %v", tc.spread, got, tc.holds)
		}
	}
}
