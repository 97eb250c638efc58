package explore

import (
	"context"
	"testing"

	"github.com/ringcheck/ringcheck/internal/testsys"
)

// TestFingerprintShardsStayFull: with fingerprints, a shard of the visited
// set is at most seven eighths full and grows by an eighth, so the set
// holds at most 8 × 9/7 bytes a state (past its first slots), whatever
// the number of states: a grid of 102,400 states (1,600 a shard) fits in
// about 1 MB, not the 2 MB of shards doubled to 4,096 slots; and the
// search finds the exact store's states.
func TestFingerprintShardsStayFull(t *testing.T) {
	sys, _, _ := testsys.Grid(t, 320)
	exact, err := BFS(context.Background(), sys, nopMonitor{}, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{1, 2} {
		res, err := BFS(context.Background(), sys, nopMonitor{}, Options{Workers: workers, Fingerprints: true})
		if err != nil {
			t.Fatal(err)
		}
		if res.States != exact.States || res.Transitions != exact.Transitions || !res.Complete() {
			t.Fatalf("%d workers: %d states, %d transitions; exact %d, %d", workers, res.States, res.Transitions, exact.States, exact.Transitions)
		}
		v := res.paths.(*bfsPaths).seen
		for i := range v.shards {
			if sh := &v.shards[i]; sh.count*8 > int64(len(sh.slots))*fpLoad {
				t.Fatalf("%d workers: shard %d holds %d fingerprints in %d slots", workers, i, sh.count, len(sh.slots))
			}
		}
		if most := res.States*8*9/7 + numShards*64*8; v.bytes() > most {
			t.Errorf("%d workers: the shards hold %d bytes for %d states, more than %d", workers, v.bytes(), res.States, most)
		}
	}
}
