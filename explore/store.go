package explore

import (
	"encoding/binary"
	"fmt"
	"os"
)

// store is an append-only sequence of packed states (or, with
// fingerprints, of fingerprints) with parent links, kept in fixed-size
// chunks so that growing it never copies what is stored. With a spill
// file, only the last states added (fewer than tailStates) stay in
// memory: every tailStates states go to the file, where chunk c of the
// file holds the keys of ids c<<chunkBits on, then their parents. Only
// paths read the store then, and they read it back from there.
type store struct {
	words   int
	chunks  [][]uint64
	parents [][]uint32
	n       int64
	// spill is the file the states go to (nil: they stay in memory);
	// with it, tail and tailParents hold the states from id flushed on,
	// and scratch holds a key read back from the file.
	spill       *os.File
	tail        []uint64
	tailParents []uint32
	flushed     int64
	scratch     []uint64
	// mem is the bytes of the chunks (or the tail) in memory.
	mem int64
}

const chunkBits = 16 // states per chunk: 65536

// tailBits: with a spill file, the store writes its states to the file
// every 1<<tailBits states (a part of a chunk).
const tailBits = 12

func newStore(words int) *store { return &store{words: words} }

// spillTo makes the states go to f, a file of the store's own, from the
// next one added on; it is called before the first.
func (s *store) spillTo(f *os.File) {
	s.spill = f
	s.scratch = make([]uint64, s.words)
	s.flushed = s.n
}

func (s *store) add(packed []uint64, parent uint32) int64 {
	if s.spill != nil {
		return s.addTail(packed, parent)
	}
	c, i := s.n>>chunkBits, s.n&(1<<chunkBits-1)
	if int(c) == len(s.chunks) {
		s.chunks = append(s.chunks, make([]uint64, s.words<<chunkBits))
		s.parents = append(s.parents, make([]uint32, 1<<chunkBits))
		s.mem += s.chunkBytes()
	}
	copy(s.chunks[c][int(i)*s.words:], packed)
	s.parents[c][i] = parent
	s.n++
	return s.n - 1
}

// addTail is add with a spill file: the state goes to the tail, and a
// full tail to the file. A tail the file does not take stays in memory
// and grows.
func (s *store) addTail(packed []uint64, parent uint32) int64 {
	if s.tail == nil {
		s.tail = make([]uint64, 0, s.words<<tailBits)
		s.tailParents = make([]uint32, 0, 1<<tailBits)
		s.mem += s.tailBytes()
	}
	before := s.tailBytes()
	s.tail = append(s.tail, packed[:s.words]...)
	s.tailParents = append(s.tailParents, parent)
	s.mem += s.tailBytes() - before
	s.n++
	if s.n&(1<<tailBits-1) == 0 && s.n-s.flushed == 1<<tailBits {
		s.flushTail()
	}
	return s.n - 1
}

// tailBytes is the memory of the tail.
func (s *store) tailBytes() int64 { return int64(cap(s.tail))*8 + int64(cap(s.tailParents))*4 }

// chunkBytes is the size of a chunk in memory and in the spill file: its
// keys, then its parents.
func (s *store) chunkBytes() int64 { return int64(s.words*8+4) << chunkBits }

// keyOffset and parentOffset are where the key and the parent of id lie
// in the spill file.
func (s *store) keyOffset(id int64) int64 {
	return id>>chunkBits*s.chunkBytes() + id&(1<<chunkBits-1)*int64(s.words*8)
}

func (s *store) parentOffset(id int64) int64 {
	return id>>chunkBits*s.chunkBytes() + int64(s.words*8)<<chunkBits + id&(1<<chunkBits-1)*4
}

// flushTail writes the tail, 1<<tailBits states within one chunk, to the
// spill file and empties it; a tail the file does not take stays.
func (s *store) flushTail() {
	if writeWords(s.spill, s.tail, s.keyOffset(s.flushed)) != nil || writeWords(s.spill, s.tailParents, s.parentOffset(s.flushed)) != nil {
		return
	}
	s.tail, s.tailParents = s.tail[:0], s.tailParents[:0]
	s.flushed = s.n
}

// growth is the bytes the next add allocates (a new chunk, or the
// tail), or 0.
func (s *store) growth() uint64 {
	if s.spill != nil {
		if s.tail == nil || len(s.tailParents) == cap(s.tailParents) && s.n-s.flushed != 0 {
			return uint64(max(s.tailBytes(), int64(s.words*8+4)<<tailBits))
		}
		return 0
	}
	if s.n&(1<<chunkBits-1) != 0 || int(s.n>>chunkBits) < len(s.chunks) {
		return 0
	}
	return uint64(s.chunkBytes())
}

// get returns the key of id, which is in memory.
func (s *store) get(id int64) []uint64 {
	if s.spill != nil {
		i := int(id - s.flushed)
		return s.tail[i*s.words : (i+1)*s.words]
	}
	c, i := id>>chunkBits, int(id&(1<<chunkBits-1))
	return s.chunks[c][i*s.words : (i+1)*s.words]
}

// parent returns the parent of id, which is in memory.
func (s *store) parent(id int64) uint32 {
	if s.spill != nil {
		return s.tailParents[id-s.flushed]
	}
	return s.parents[id>>chunkBits][id&(1<<chunkBits-1)]
}

// inMemory reports whether id is in memory.
func (s *store) inMemory(id int64) bool { return s.spill == nil || id >= s.flushed }

// keyOf is get for an id that may be in the spill file. A key read back
// is valid until the next call; one goroutine at a time may read.
func (s *store) keyOf(id int64) ([]uint64, error) {
	if s.inMemory(id) {
		return s.get(id), nil
	}
	buf := make([]byte, 8*s.words)
	if _, err := s.spill.ReadAt(buf, s.keyOffset(id)); err != nil {
		return nil, fmt.Errorf("reading state %d back from the store's file: %w", id, err)
	}
	for k := range s.scratch {
		s.scratch[k] = binary.LittleEndian.Uint64(buf[8*k:])
	}
	return s.scratch, nil
}

// parentOf is parent for an id that may be in the spill file.
func (s *store) parentOf(id int64) (uint32, error) {
	if s.inMemory(id) {
		return s.parent(id), nil
	}
	var buf [4]byte
	if _, err := s.spill.ReadAt(buf[:], s.parentOffset(id)); err != nil {
		return 0, fmt.Errorf("reading the parent of state %d back from the store's file: %w", id, err)
	}
	return binary.LittleEndian.Uint32(buf[:]), nil
}

// bytes is the memory the store holds (what is on its file not
// counted).
func (s *store) bytes() int64 { return s.mem }
