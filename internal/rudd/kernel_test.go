package rudd

import (
	"testing"
	"unsafe"
)

// TestNodeIs24Bytes: a node of the table holds 32-bit indices, 24 bytes
// a node (the figure the symbolic engine's memory budget counts a node
// at).
func TestNodeIs24Bytes(t *testing.T) {
	if got := unsafe.Sizeof(buddynode{}); got != 24 {
		t.Errorf("a node takes %d bytes, want 24", got)
	}
}

// TestHashesStayInRangeAndSpread: _TRIPLE and _PAIR map every key into
// [0..len), and the keys of a node table (a level, two node indices
// near each other) spread over the buckets: no bucket gets more than a
// few times its share.
func TestHashesStayInRangeAndSpread(t *testing.T) {
	for _, size := range []int{primeGte(1000), primeGte(1 << 16), 7} {
		triple := make([]int, size)
		pair := make([]int, size)
		keys := 0
		for level := 0; level < 8; level++ {
			for low := 0; low < 64; low++ {
				for high := 1000; high < 1064; high++ {
					h := _TRIPLE(level, low, high, size)
					p := _PAIR(low+64*level, high, size)
					if h < 0 || h >= size || p < 0 || p >= size {
						t.Fatalf("size %d: _TRIPLE(%d, %d, %d) = %d, _PAIR = %d, out of range", size, level, low, high, h, p)
					}
					triple[h]++
					pair[p]++
					keys++
				}
			}
		}
		share := (keys + size - 1) / size
		for b := range size {
			if triple[b] > 4*share+8 || pair[b] > 4*share+8 {
				t.Fatalf("size %d: bucket %d gets %d (triples) and %d (pairs) of %d keys, share %d", size, b, triple[b], pair[b], keys, share)
			}
		}
	}
}
