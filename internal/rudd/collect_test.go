package rudd

import (
	"runtime/debug"
	"testing"
)

// TestDeadReferencesAreCollected: BDDs a program no longer holds are
// collected when the node table fills, even where the Go collector would
// not have run by itself (it is off here), so the table stays near the
// size of what is live instead of growing with everything ever built.
func TestDeadReferencesAreCollected(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	const vars = 24
	b, err := New(vars, Nodesize(1<<12))
	if err != nil {
		t.Fatal(err)
	}
	// Each round builds a BDD of some thousands of nodes, x_i = x_{i+12}
	// for every i < 12 with the variables rotated by the round (the
	// order separates each pair), and drops it: 1.5 million nodes built
	// in all.
	for round := range 200 {
		f := b.True()
		for i := range 12 {
			f = b.And(f, b.Equiv(b.Ithvar((round+i)%vars), b.Ithvar((round+i+12)%vars)))
		}
		if b.Errored() {
			t.Fatal(b.Error())
		}
	}
	if size := len(b.nodes); size > 1<<17 {
		t.Errorf("the node table holds %d nodes after dropping every BDD built, want at most %d", size, 1<<17)
	}
}
