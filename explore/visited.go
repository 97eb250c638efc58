package explore

// hashWords hashes a packed state. It is a multiply-xorshift mix over the
// words, inlined on the hot path; BenchmarkHash compares it with xxh3.
func hashWords(ws []uint64) uint64 {
	h := uint64(0x9E3779B97F4A7C15) ^ uint64(len(ws))
	for _, w := range ws {
		h ^= w
		h *= 0xbf58476d1ce4e5b9
		h ^= h >> 31
	}
	h ^= h >> 29
	h *= 0x94d049bb133111eb
	h ^= h >> 32
	return h
}

// store is an append-only sequence of packed states with parent links, kept
// in fixed-size chunks so that growing it never copies what is stored.
type store struct {
	words   int
	chunks  [][]uint64
	parents [][]uint32
	n       int64
}

const chunkBits = 16 // states per chunk: 65536

func newStore(words int) *store { return &store{words: words} }

func (s *store) add(packed []uint64, parent uint32) int64 {
	c, i := s.n>>chunkBits, s.n&(1<<chunkBits-1)
	if int(c) == len(s.chunks) {
		s.chunks = append(s.chunks, make([]uint64, s.words<<chunkBits))
		s.parents = append(s.parents, make([]uint32, 1<<chunkBits))
	}
	copy(s.chunks[c][int(i)*s.words:], packed)
	s.parents[c][i] = parent
	s.n++
	return s.n - 1
}

// growth is the bytes the next add allocates (a new chunk), or 0.
func (s *store) growth() uint64 {
	if s.n&(1<<chunkBits-1) != 0 || int(s.n>>chunkBits) < len(s.chunks) {
		return 0
	}
	return uint64(s.words*8+4) << chunkBits
}

func (s *store) get(id int64) []uint64 {
	c, i := id>>chunkBits, int(id&(1<<chunkBits-1))
	return s.chunks[c][i*s.words : (i+1)*s.words]
}

func (s *store) parent(id int64) uint32 {
	return s.parents[id>>chunkBits][id&(1<<chunkBits-1)]
}

func (s *store) bytes() int64 {
	return int64(len(s.chunks)) * (int64(s.words)*8 + 4) << chunkBits
}

// visited is an open-addressing (linear probing) set of state ids keyed by
// the hash of their packed form. Each slot holds 32 bits of the hash as a
// tag and the id plus one, so most mismatches are rejected without touching
// the store.
type visited struct {
	slots []uint64
	mask  uint64
	count int64
	st    *store
	// fingerprints: the store's keys are one word, a state's hash, which
	// is then its own hash.
	fingerprints bool
}

func newVisited(st *store) *visited {
	const initial = 1 << 12
	return &visited{slots: make([]uint64, initial), mask: initial - 1, st: st}
}

// insert returns the id of the state packed in ws, adding it to the store
// with the given parent if it is new (added is then true). full says the
// store may not grow: a new state is then not added, and id is -1.
func (v *visited) insert(ws []uint64, h uint64, parent uint32, full bool) (id int64, added bool) {
	tag := h &^ 0xFFFFFFFF
	for i := h & v.mask; ; i = (i + 1) & v.mask {
		e := v.slots[i]
		if e == 0 {
			if full {
				return -1, false
			}
			id = v.st.add(ws, parent)
			v.slots[i] = tag | uint64(id+1)
			v.count++
			if v.count*4 > int64(len(v.slots))*3 {
				v.grow()
			}
			return id, true
		}
		if e&^0xFFFFFFFF == tag {
			cand := int64(e&0xFFFFFFFF) - 1
			if equalWords(v.st.get(cand), ws) {
				return cand, false
			}
		}
	}
}

// contains reports whether the state packed in ws is in the set. It only
// reads, so workers may call it concurrently while nobody inserts.
func (v *visited) contains(ws []uint64, h uint64) bool {
	tag := h &^ 0xFFFFFFFF
	for i := h & v.mask; ; i = (i + 1) & v.mask {
		e := v.slots[i]
		if e == 0 {
			return false
		}
		if e&^0xFFFFFFFF == tag && equalWords(v.st.get(int64(e&0xFFFFFFFF)-1), ws) {
			return true
		}
	}
}

// find returns the id of the state packed in ws, or -1; read-only.
func (v *visited) find(ws []uint64, h uint64) int64 {
	tag := h &^ 0xFFFFFFFF
	for i := h & v.mask; ; i = (i + 1) & v.mask {
		e := v.slots[i]
		if e == 0 {
			return -1
		}
		if e&^0xFFFFFFFF == tag {
			if id := int64(e&0xFFFFFFFF) - 1; equalWords(v.st.get(id), ws) {
				return id
			}
		}
	}
}

// growth is the bytes the next insert of a new state allocates: the
// store's next chunk, and the doubled table once the load passes three quarters.
func (v *visited) growth() uint64 {
	need := v.st.growth()
	if (v.count+1)*4 > int64(len(v.slots))*3 {
		need += uint64(len(v.slots)) * 2 * 8
	}
	return need
}

func (v *visited) grow() {
	slots := make([]uint64, 2*len(v.slots))
	mask := uint64(len(slots) - 1)
	for _, e := range v.slots {
		if e == 0 {
			continue
		}
		h := v.hashOf(v.st.get(int64(e&0xFFFFFFFF) - 1))
		i := h & mask
		for slots[i] != 0 {
			i = (i + 1) & mask
		}
		slots[i] = e
	}
	v.slots, v.mask = slots, mask
}

func (v *visited) bytes() int64 { return int64(len(v.slots)) * 8 }

// hashOf is the hash of a stored key: the key itself for a fingerprint.
func (v *visited) hashOf(key []uint64) uint64 {
	if v.fingerprints {
		return key[0]
	}
	return hashWords(key)
}

func equalWords(a, b []uint64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
