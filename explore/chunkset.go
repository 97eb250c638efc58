package explore

// chunkSet is a worker's set of the candidates it keeps from the chunk of
// states it is expanding: an open-addressing table of their indices in
// the worker's buffers, so that a successor found twice in a chunk is
// kept once, and the merge compares only what different chunks found. A
// slot holds the chunk's generation in its high half and the index plus
// one in its low half, so a new chunk empties the set by starting a new
// generation.
type chunkSet struct {
	slots []uint64
	mask  uint64
	gen   uint64
	count int
}

// chunkSetInitial is the size of a chunk set's table when it is made.
const chunkSetInitial = 1 << 10

// reset empties the set for a new chunk.
func (r *chunkSet) reset() {
	if r.slots == nil {
		r.slots, r.mask = make([]uint64, chunkSetInitial), chunkSetInitial-1
	}
	r.gen++
	r.count = 0
	if r.gen == 1<<32 {
		clear(r.slots)
		r.gen = 1
	}
}

// probe returns the first slot of a candidate of hash h.
func (r *chunkSet) probe(h uint64) uint64 { return h & r.mask }

// entry returns the index held in slot j, and whether it holds one of
// this chunk's.
func (r *chunkSet) entry(j uint64) (int, bool) {
	s := r.slots[j]
	if s>>32 != r.gen {
		return 0, false
	}
	return int(s&0xFFFFFFFF) - 1, true
}

// put stores index i in the empty slot j, growing the table past three
// quarters full; hash gives the hash of each index the set holds.
func (r *chunkSet) put(j uint64, i int, hash []uint64) {
	r.slots[j] = r.gen<<32 | uint64(i+1)
	if r.count++; r.count*4 > len(r.slots)*3 {
		r.grow(hash)
	}
}

// grow doubles the table, placing this chunk's entries again.
func (r *chunkSet) grow(hash []uint64) {
	old := r.slots
	r.slots = make([]uint64, 2*len(old))
	r.mask = uint64(len(r.slots) - 1)
	for _, s := range old {
		if s>>32 != r.gen {
			continue
		}
		j := r.probe(hash[int(s&0xFFFFFFFF)-1])
		for r.slots[j] != 0 {
			j = (j + 1) & r.mask
		}
		r.slots[j] = s
	}
}

// bytes is the memory of the table.
func (r *chunkSet) bytes() int64 { return int64(cap(r.slots)) * 8 }

// chunkSetBytes is the memory of a chunk set's table once it has held n
// candidates.
func chunkSetBytes(n int64) int64 {
	size := int64(chunkSetInitial)
	for n*4 > size*3 {
		size *= 2
	}
	return size * 8
}
