package lejeune_test

import (
	"testing"

	"github.com/ringcheck/ringcheck/model"
)

// TestExpandDoesNotAllocate: guards and effects allocate nothing, on every
// configuration of the token-loss scenario (requests, forwarding, counters,
// tokens with queues, loans asked).
func TestExpandDoesNotAllocate(t *testing.T) {
	sys, _ := build(t, 4, 2, 1, 1, 1)
	ce := replay(t, sys, tokenLoss)
	ex := sys.NewExpander()
	yield := func(*model.Step, *model.State) bool { return true }
	for i, s := range ce.States {
		if a := testing.AllocsPerRun(20, func() {
			if _, err := ex.Expand(s, yield); err != nil {
				t.Fatal(err)
			}
		}); a != 0 {
			t.Errorf("state %d: %v allocations per Expand", i, a)
		}
	}
}
