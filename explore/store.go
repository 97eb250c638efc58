package explore

import (
	"encoding/binary"
	"fmt"
	"os"
)

// store is an append-only sequence of packed states (or, with
// fingerprints, of fingerprints) with parent links, kept in fixed-size
// chunks so that growing it never copies what is stored. With a spill
// file, every full chunk goes to the file and leaves memory: only paths
// read the store then, and they read it back from there.
type store struct {
	words   int
	chunks  [][]uint64
	parents [][]uint32
	n       int64
	// spill is the file full chunks go to (nil: they stay in memory);
	// scratch holds a key read back from it.
	spill   *os.File
	scratch []uint64
	// mem is the bytes of the chunks in memory.
	mem int64
}

const chunkBits = 16 // states per chunk: 65536

func newStore(words int) *store { return &store{words: words} }

// spillTo makes full chunks go to f, a file of the store's own.
func (s *store) spillTo(f *os.File) {
	s.spill = f
	s.scratch = make([]uint64, s.words)
}

func (s *store) add(packed []uint64, parent uint32) int64 {
	c, i := s.n>>chunkBits, s.n&(1<<chunkBits-1)
	if int(c) == len(s.chunks) {
		s.chunks = append(s.chunks, make([]uint64, s.words<<chunkBits))
		s.parents = append(s.parents, make([]uint32, 1<<chunkBits))
		s.mem += s.chunkBytes()
	}
	copy(s.chunks[c][int(i)*s.words:], packed)
	s.parents[c][i] = parent
	s.n++
	if s.spill != nil && i == 1<<chunkBits-1 {
		s.flush(int(c))
	}
	return s.n - 1
}

// chunkBytes is the size of a chunk in the spill file: its keys, then its
// parents.
func (s *store) chunkBytes() int64 { return int64(s.words*8+4) << chunkBits }

// flush writes full chunk c to the spill file and frees it; a chunk the
// file does not take stays in memory.
func (s *store) flush(c int) {
	off := int64(c) * s.chunkBytes()
	if writeWords(s.spill, s.chunks[c], off) != nil || writeWords(s.spill, s.parents[c], off+int64(s.words*8)<<chunkBits) != nil {
		return
	}
	s.chunks[c], s.parents[c] = nil, nil
	s.mem -= s.chunkBytes()
}

// growth is the bytes the next add allocates (a new chunk), or 0.
func (s *store) growth() uint64 {
	if s.n&(1<<chunkBits-1) != 0 || int(s.n>>chunkBits) < len(s.chunks) {
		return 0
	}
	return uint64(s.words*8+4) << chunkBits
}

// get returns the key of id, which is in memory.
func (s *store) get(id int64) []uint64 {
	c, i := id>>chunkBits, int(id&(1<<chunkBits-1))
	return s.chunks[c][i*s.words : (i+1)*s.words]
}

// parent returns the parent of id, which is in memory.
func (s *store) parent(id int64) uint32 {
	return s.parents[id>>chunkBits][id&(1<<chunkBits-1)]
}

// keyOf is get for an id that may be in the spill file. A key read back
// is valid until the next call; one goroutine at a time may read.
func (s *store) keyOf(id int64) ([]uint64, error) {
	c, i := id>>chunkBits, int(id&(1<<chunkBits-1))
	if s.chunks[c] != nil {
		return s.get(id), nil
	}
	buf := make([]byte, 8*s.words)
	if _, err := s.spill.ReadAt(buf, c*s.chunkBytes()+int64(i*s.words*8)); err != nil {
		return nil, fmt.Errorf("reading state %d back from the store's file: %w", id, err)
	}
	for k := range s.scratch {
		s.scratch[k] = binary.LittleEndian.Uint64(buf[8*k:])
	}
	return s.scratch, nil
}

// parentOf is parent for an id that may be in the spill file.
func (s *store) parentOf(id int64) (uint32, error) {
	c, i := id>>chunkBits, id&(1<<chunkBits-1)
	if s.parents[c] != nil {
		return s.parent(id), nil
	}
	var buf [4]byte
	off := c*s.chunkBytes() + int64(s.words*8)<<chunkBits + i*4
	if _, err := s.spill.ReadAt(buf[:], off); err != nil {
		return 0, fmt.Errorf("reading the parent of state %d back from the store's file: %w", id, err)
	}
	return binary.LittleEndian.Uint32(buf[:]), nil
}

// bytes is the memory the store holds (spilled chunks not counted).
func (s *store) bytes() int64 { return s.mem }
