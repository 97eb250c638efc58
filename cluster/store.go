package cluster

import (
	"math"

	"github.com/ringcheck/ringcheck/explore"
)

const (
	// noID marks a stored state without a global id yet (found in the
	// chunk being expanded) or dropped (past the state bound).
	noID = math.MaxUint32
	// dropped is the global id of a state the state bound refused: it
	// stays in the set, so that it is not found again, but is never
	// expanded.
	dropped = math.MaxUint32 - 1
)

// segmentStates is how many states' packed words a segment of the store
// holds: the store grows a segment at a time, never copying the states
// it holds (a copy of a large store in one piece would double its memory
// for a while and stall the process, heartbeats included).
const segmentStates = 1 << 14

// store is one worker's share of the visited states: their packed words
// in an open-addressing hash set, and for each its global id, its
// parent's global id and owner, and the step of the parent it came by.
type store struct {
	words int
	// segments hold the packed states, words each, in the order stored,
	// segmentStates a segment.
	segments [][]uint64
	hashes   []uint64
	table    []int32 // index+1 into states; 0: empty
	mask     uint64
	gid      []uint32
	parent   []uint32
	owner    []uint16
	step     []uint32
}

func newStore(words int) *store {
	s := &store{words: words}
	s.resize(1 << 10)
	return s
}

func (s *store) len() int { return len(s.gid) }

// state returns the packed words of local state i.
func (s *store) state(i int) []uint64 {
	seg, j := s.segments[i/segmentStates], i%segmentStates
	return seg[j*s.words : (j+1)*s.words]
}

func (s *store) resize(n int) {
	s.table = make([]int32, n)
	s.mask = uint64(n - 1)
	for i, h := range s.hashes {
		j := h & s.mask
		for s.table[j] != 0 {
			j = (j + 1) & s.mask
		}
		s.table[j] = int32(i + 1)
	}
}

// find returns the local index of the state ws of hash h, or -1.
func (s *store) find(ws []uint64, h uint64) int {
	for j := h & s.mask; ; j = (j + 1) & s.mask {
		k := s.table[j]
		if k == 0 {
			return -1
		}
		i := int(k - 1)
		if s.hashes[i] == h && equal(s.state(i), ws) {
			return i
		}
	}
}

// add stores ws (not stored yet) of hash h and returns its local index.
func (s *store) add(ws []uint64, h uint64, gid, parent uint32, owner uint16, step uint32) int {
	if 2*(len(s.hashes)+1) > len(s.table) {
		s.resize(2 * len(s.table))
	}
	i := len(s.hashes)
	if i%segmentStates == 0 {
		s.segments = append(s.segments, make([]uint64, 0, segmentStates*s.words))
	}
	last := len(s.segments) - 1
	s.segments[last] = append(s.segments[last], ws...)
	s.hashes = append(s.hashes, h)
	s.gid = append(s.gid, gid)
	s.parent = append(s.parent, parent)
	s.owner = append(s.owner, owner)
	s.step = append(s.step, step)
	j := h & s.mask
	for s.table[j] != 0 {
		j = (j + 1) & s.mask
	}
	s.table[j] = int32(i + 1)
	return i
}

// bytes is the memory the store holds.
func (s *store) bytes() int64 {
	return int64(len(s.segments))*segmentStates*int64(s.words)*8 + int64(cap(s.hashes))*8 + int64(cap(s.table))*4 +
		int64(cap(s.gid)+cap(s.parent)+cap(s.step))*4 + int64(cap(s.owner))*2
}

func equal(a, b []uint64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// hashWords is the hash the single-process search gives a packed state.
func hashWords(ws []uint64) uint64 { return explore.HashWords(ws) }

// ownerOf is the worker, of n, that owns the state of hash h.
func ownerOf(h uint64, n int) int {
	return int((h >> 32) % uint64(n))
}
