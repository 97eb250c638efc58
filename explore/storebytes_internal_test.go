package explore

import (
	"context"
	"math"
	"os"
	"slices"
	"testing"

	"github.com/ringcheck/ringcheck/internal/testsys"
)

// TestSpilledStoreKeepsATail: a store with a spill file keeps fewer than
// 1<<tailBits states in memory, and reads every state's key and parent
// back from the file, across its parts and chunks.
func TestSpilledStoreKeepsATail(t *testing.T) {
	const words, n = 2, 2<<chunkBits + 3<<tailBits + 17
	f, err := os.CreateTemp(t.TempDir(), "store-*")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := newStore(words)
	s.spillTo(f)
	key := func(id int64) []uint64 { return []uint64{uint64(id) * 0x9E3779B97F4A7C15, uint64(id)} }
	most := int64(words*8+4) << tailBits
	for id := range int64(n) {
		need := s.growth()
		before := s.bytes()
		if got := s.add(key(id), uint32(id/3)); got != id {
			t.Fatalf("state %d added as %d", id, got)
		}
		if s.bytes()-before > int64(need) {
			t.Fatalf("state %d: the store grew by %d bytes, growth said %d", id, s.bytes()-before, need)
		}
		if s.bytes() > most {
			t.Fatalf("state %d: %d bytes in memory, want at most %d", id, s.bytes(), most)
		}
	}
	for _, id := range []int64{0, 1, 1<<tailBits - 1, 1 << tailBits, 1<<chunkBits - 1, 1 << chunkBits, 2<<chunkBits + 5, n - 18, n - 17, n - 1} {
		k, err := s.keyOf(id)
		if err != nil {
			t.Fatal(err)
		}
		if want := key(id); k[0] != want[0] || k[1] != want[1] {
			t.Fatalf("state %d: key %v, want %v", id, k, want)
		}
		p, err := s.parentOf(id)
		if err != nil {
			t.Fatal(err)
		}
		if p != uint32(id/3) {
			t.Fatalf("state %d: parent %d, want %d", id, p, id/3)
		}
	}
}

// TestFingerprintShardsGrowByAnEighth: a shard of fingerprints grows by an
// eighth past seven eighths full, so that it never holds more than 9/7
// slots a fingerprint (past its first size), and finds every
// fingerprint it was given and none other.
func TestFingerprintShardsGrowByAnEighth(t *testing.T) {
	v := newVisited(newStore(1))
	v.fingerprints = true
	const n = 200_000
	fp := func(i uint64) uint64 { return mixKey(i*2 + 1) }
	for i := range uint64(n) {
		h := fp(i)
		if _, added := v.insertFingerprint(h, 0, false); !added {
			t.Fatalf("fingerprint %d was there", i)
		}
		sh := v.shardOf(fingerprintSlot(h))
		if most := max(64, 9*int(sh.count)/7+1); len(sh.slots) > most {
			t.Fatalf("after %d fingerprints, a shard of %d has %d slots; want at most %d", i+1, sh.count, len(sh.slots), most)
		}
	}
	for i := range uint64(n) {
		if !v.contains(nil, fp(i), nil) || v.contains(nil, mixKey(i*2+2), nil) {
			t.Fatalf("fingerprint %d is missed, or its neighbour found", i)
		}
	}
	if per := float64(v.bytes()) / n; per > 8*9.0/7 {
		t.Fatalf("%.2f bytes a fingerprint", per)
	}
}

// TestTreeIndexStaysFull: a tree table's index grows by an eighth past
// its most load, so that it holds at most 9/7 slots a key with tags and
// 3/2 without (past its first size), and finds every key, across the
// change to slots without tags (here at 20,000 ids instead of 2^24 - 1).
func TestTreeIndexStaysFull(t *testing.T) {
	var tb treeTable
	tb.init(false, false)
	tb.tagLimit = 20_000
	const n = 60_000
	key := func(i uint64) uint64 { return i*0x9E3779B97F4A7C15 ^ i<<7 }
	for i := range uint64(n) {
		if id := tb.intern(key(i)); id != uint32(i) {
			t.Fatalf("key %d interned as %d", i, id)
		}
		most := 9*int(tb.n)/7 + 1
		if !tb.tagged {
			most = 3*int(tb.n)/2 + 1
		}
		if most = max(treeFirstSlots, most); len(tb.index) > most {
			t.Fatalf("after %d keys (tags %v), an index of %d slots; want at most %d", tb.n, tb.tagged, len(tb.index), most)
		}
	}
	for i := range uint64(n) {
		if id, ok := tb.find(key(i)); !ok || id != uint32(i) {
			t.Fatalf("key %d found as %d, %v", i, id, ok)
		}
	}
}

// TestFingerprintLevelsGoToTheirFile: with fingerprints, the levels'
// full segments go to their files by default, and Result.StoreBytes
// counts what stays in memory: the levels' segments when they are kept
// there, not when they are on file. A search of 300,001 states then
// holds fewer than 12 bytes a state.
func TestFingerprintLevelsGoToTheirFile(t *testing.T) {
	const w = 100_000
	sys := testsys.Chains(t, w, 3)
	spilled, err := BFS(context.Background(), sys, nopMonitor{}, Options{Workers: 2, Fingerprints: true})
	if err != nil {
		t.Fatal(err)
	}
	kept, err := BFS(context.Background(), sys, nopMonitor{}, Options{Workers: 2, Fingerprints: true, frontierKeep: math.MaxInt})
	if err != nil {
		t.Fatal(err)
	}
	if spilled.States != 1+3*w || kept.States != spilled.States || !spilled.Complete() {
		t.Fatalf("%d states spilled, %d kept; want %d, complete", spilled.States, kept.States, 1+3*w)
	}
	// Each level of w states, a word each, is in memory in kept.
	if level := int64(w * 8 * sys.Words()); kept.StoreBytes-spilled.StoreBytes < level {
		t.Fatalf("store bytes %d with the levels on file, %d in memory: the levels (%d bytes) are not counted as documented", spilled.StoreBytes, kept.StoreBytes, level)
	}
	if per := float64(spilled.StoreBytes) / float64(spilled.States); per > 12 {
		t.Fatalf("%.2f store bytes a state with the levels on file", per)
	}
	// The replay reads the fingerprints back from the store's file.
	for _, id := range []StateID{1, w, StateID(spilled.States - 1)} {
		a, _, err := spilled.Path(id)
		if err != nil {
			t.Fatal(err)
		}
		b, _, err := kept.Path(id)
		if err != nil {
			t.Fatal(err)
		}
		if len(a) != len(b) || !a[len(a)-1].Equal(b[len(b)-1]) {
			t.Fatalf("the paths to %d differ", id)
		}
	}
}

// TestTreeKeysNarrowBySide: a tree table keeps an inner child's id in 24
// bits and a half in 32, so that its keys take 6 bytes (two inner
// children), 7 (one) or 8 (two halves); each key reads back as given, at
// the limits of its sides, and again once the keys are made wide.
func TestTreeKeysNarrowBySide(t *testing.T) {
	for _, c := range []struct {
		leftInner, rightInner bool
		width                 int
	}{{true, true, 6}, {false, true, 7}, {true, false, 7}, {false, false, 8}} {
		var tb treeTable
		tb.init(c.leftInner, c.rightInner)
		if tb.width != c.width {
			t.Fatalf("children inner %v, %v: keys of %d bytes, want %d", c.leftInner, c.rightInner, tb.width, c.width)
		}
		most := func(inner bool) uint64 {
			if inner {
				return 1<<24 - 1
			}
			return 1<<32 - 1
		}
		var keys []uint64
		for i := range uint64(3000) {
			l, r := (i*2654435761)%(most(c.leftInner)+1), (i*40503+most(c.rightInner)-i)%(most(c.rightInner)+1)
			if i < 2 {
				l, r = i*most(c.leftInner), (1-i)*most(c.rightInner)
			}
			k := l<<32 | r
			if id := tb.intern(k); id != uint32(len(keys)) {
				t.Fatalf("children inner %v, %v: key %x interned as %d, want %d", c.leftInner, c.rightInner, k, id, len(keys))
			}
			keys = append(keys, k)
		}
		if got := tb.bytes() - int64(len(tb.index))*4; got != int64(cap(tb.keys[0])) || cap(tb.keys[0]) != 4096*c.width {
			t.Fatalf("children inner %v, %v: %d bytes of keys", c.leftInner, c.rightInner, got)
		}
		for round := range 2 {
			for id, k := range keys {
				if got := tb.key(uint32(id)); got != k {
					t.Fatalf("children inner %v, %v, round %d: key %d reads %x, want %x", c.leftInner, c.rightInner, round, id, got, k)
				}
				if got, ok := tb.find(k); !ok || got != uint32(id) {
					t.Fatalf("children inner %v, %v, round %d: key %x found as %d, %v", c.leftInner, c.rightInner, round, k, got, ok)
				}
			}
			tb.widen()
			if tb.width != wideWidth || tb.tooNarrow(1<<32-1, 1<<32-1) {
				t.Fatalf("children inner %v, %v: widened to %d bytes", c.leftInner, c.rightInner, tb.width)
			}
		}
	}
}

// TestTreeMergeTakesTheWorkersHints: the merge into a tree store takes
// the values of the subtrees the workers found when they looked a new
// state up (the tables had them already), and interns only the others:
// it gives the tables fewer than half the keys they have again that the
// merge without hints gives them, and the same ids, with 1 and 2
// workers.
func TestTreeMergeTakesTheWorkersHints(t *testing.T) {
	sys := wideCounters(t, 5) // 46,656 states
	for _, workers := range []int{1, 2} {
		var refound [2]int64
		var stores [2]*visited
		for k, noHints := range []bool{false, true} {
			res, err := BFS(context.Background(), sys, nopMonitor{}, Options{Workers: workers, Tree: true, noHints: noHints})
			if err != nil {
				t.Fatal(err)
			}
			if res.States != 46656 || !res.Complete() {
				t.Fatalf("%d workers, no hints %v: %d states, %v", workers, noHints, res.States, res.Stop)
			}
			stores[k] = res.paths.(*bfsPaths).seen
			for i := range stores[k].tree.tables {
				refound[k] += stores[k].tree.tables[i].refound
			}
		}
		if refound[0]*2 > refound[1] {
			t.Fatalf("%d workers: the merge gave the tables %d keys they had with hints, %d without", workers, refound[0], refound[1])
		}
		a, b := make([]uint64, sys.Words()), make([]uint64, sys.Words())
		for id := range int64(46656) {
			if x, y := stores[0].state(id, a), stores[1].state(id, b); !slices.Equal(x, y) {
				t.Fatalf("%d workers: state %d is %x with hints, %x without", workers, id, x, y)
			}
		}
	}
}
