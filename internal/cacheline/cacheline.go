// Package cacheline keeps the small buffers that different goroutines
// write at a high rate off each other's cache lines. Two workers' small
// buffers allocated one after the other share a 64-byte line (Go puts
// objects of one size class side by side), and every write by one
// invalidates the other's copy: the search's workers then ran no faster
// on two cores than on one.
package cacheline

import "unsafe"

// Size is the cache line size the padding assumes, in bytes.
const Size = 64

// Alone returns a slice of n zero elements that shares no cache line
// with any other object: its backing array has Size bytes of padding on
// either side, which nothing else uses. Its capacity is n.
func Alone[T any](n int) []T {
	var zero T
	pad := Size / max(1, int(unsafe.Sizeof(zero)))
	return make([]T, n+2*pad)[pad : pad+n : pad+n]
}

// Pad is Size bytes that a struct written by one goroutine puts first
// and last, so that no other object shares a cache line with its fields.
type Pad [Size]byte
