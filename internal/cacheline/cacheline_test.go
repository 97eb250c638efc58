package cacheline

import (
	"testing"
	"unsafe"
)

// TestAloneIsPadded: Alone's slice has n elements and capacity n, and
// Size bytes before its first element and after its last belong to its
// allocation (the race detector's pointer checks fail the test when they
// do not).
func TestAloneIsPadded(t *testing.T) {
	for _, n := range []int{1, 5, 64} {
		s := Alone[uint32](n)
		if len(s) != n || cap(s) != n {
			t.Fatalf("Alone(%d): len %d, cap %d", n, len(s), cap(s))
		}
		// The whole padded array, from Size bytes before the first
		// element to Size bytes after the last.
		whole := unsafe.Slice((*uint32)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(s)), -Size)), n+2*Size/4)
		for i := range whole {
			whole[i] = 7
		}
		if s[0] != 7 || s[n-1] != 7 {
			t.Fatalf("Alone(%d): the slice is not inside its padding", n)
		}
	}
}
