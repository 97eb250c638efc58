// Package modclock keeps an unbounded counter (a Lamport clock, a sequence
// number) modulo W, for the specs whose requests recur for ever.
//
// A protocol that only compares live counter values, takes their maximum
// and adds one to a live value can run on residues modulo W = 2·Window+3
// instead of integers, as long as the live values lie within Window of
// each other: every difference then lies in -(W-1)/2..(W-1)/2, where the
// residues' difference (Diff) is the integers' difference, and one step,
// which adds at most one new value one above a live one, widens the spread
// by at most one, which W leaves room for. A spec checks that condition as
// an invariant (Spread ≤ Window in every reachable configuration); where
// it holds, the modular model is the unbounded one up to a common shift of
// every counter.
package modclock

import (
	"fmt"

	"github.com/ringcheck/ringcheck/model"
)

// MaxWindow is the largest window: W must fit the 64-bit set of residues
// Spread uses.
const MaxWindow = 30

// Ring is the residues modulo W = 2·Window+3 of a counter whose live
// values lie within Window of each other.
type Ring struct {
	W, Window int
}

// New returns the ring of a window in 1..MaxWindow.
func New(window int) (Ring, error) {
	if window < 1 || window > MaxWindow {
		return Ring{}, fmt.Errorf("a clock window in 1..%d, not %d", MaxWindow, window)
	}
	return Ring{W: 2*window + 3, Window: window}, nil
}

// Diff is x - y taken modulo W in -(W-1)/2..(W-1)/2: the difference of
// the integers x and y stand for while they lie within Window.
func (r Ring) Diff(x, y int) int {
	d := ((x-y)%r.W + r.W) % r.W
	if d > r.W/2 {
		d -= r.W
	}
	return d
}

// Max is the larger of x and y, compared by Diff.
func (r Ring) Max(x, y int) int {
	if r.Diff(y, x) > 0 {
		return y
	}
	return x
}

// Next is x+1 modulo W.
func (r Ring) Next(x int) int { return (x + 1) % r.W }

// Spread is the length of the shortest arc of the circle of W residues
// that holds every value each passes to its argument (0 for none or one):
// the spread of the integers they stand for while it is below W/2.
func (r Ring) Spread(each func(add func(x int))) int {
	var seen uint64
	each(func(x int) { seen |= 1 << uint(x) })
	if seen == 0 {
		return 0
	}
	// The longest run of residues not seen, around the circle, is the
	// complement of the shortest arc that holds every value seen.
	gap, run := 0, 0
	for x := 0; x < 2*r.W; x++ {
		if seen&(1<<uint(x%r.W)) != 0 {
			run = 0
			continue
		}
		run++
		gap = max(gap, min(run, r.W))
	}
	return r.W - 1 - gap
}

// Invariant is the invariant on which the ring's abstraction rests, named
// name and marked as such (model.Predicate.Abstraction): spread, the
// Spread of the live values that live describes, is at most Window, so
// that the counters kept stand for unbounded ones.
func (r Ring) Invariant(name, live, kept string, spread func(*model.State) int) model.Predicate {
	return model.Predicate{
		Name:        name,
		Doc:         fmt.Sprintf("%s lie within %d of each other, so %s kept modulo %d compare as unbounded ones", live, r.Window, kept, r.W),
		Holds:       func(s *model.State) bool { return spread(s) <= r.Window },
		Abstraction: true,
	}
}
