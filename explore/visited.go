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

// visited is a set of state ids keyed by the hash of their packed form:
// shards of open-addressing (linear probing) tables, chosen by the hash's
// top bits, so that a round's new states can be inserted by several
// goroutines at once, each owning some shards (mergeParallel). Each slot
// holds 31 bits of the hash as a tag and the id plus one, so most
// mismatches are rejected without touching the store; while a round is
// merged in parallel, a slot may instead hold a placeholder (placeholder
// bit set) for the round's candidate of that index plus one.
type visited struct {
	shards []shard
	count  int64
	st     *store
	// fingerprints: the store's keys are one word, a state's hash, which
	// is then its own hash.
	fingerprints bool
}

// shard is one open-addressing table of the visited set.
type shard struct {
	slots []uint64
	mask  uint64
	count int64
}

const (
	// shardBits: the visited set has 1<<shardBits shards.
	shardBits = 6
	// tagMask keeps a slot's tag: bits 32..62 of the hash.
	tagMask = 0x7FFFFFFF00000000
	// placeholder marks a slot claimed during a parallel merge.
	placeholder = 1 << 63
)

func newVisited(st *store) *visited {
	const initial = 1 << 6 // slots a shard
	v := &visited{shards: make([]shard, 1<<shardBits), st: st}
	for i := range v.shards {
		v.shards[i] = shard{slots: make([]uint64, initial), mask: initial - 1}
	}
	return v
}

// shardOf returns the shard of hash h.
func (v *visited) shardOf(h uint64) *shard { return &v.shards[h>>(64-shardBits)] }

// insert returns the id of the state packed in ws, adding it to the store
// with the given parent if it is new (added is then true). full says the
// store may not grow: a new state is then not added, and id is -1.
func (v *visited) insert(ws []uint64, h uint64, parent uint32, full bool) (id int64, added bool) {
	sh := v.shardOf(h)
	tag := h & tagMask
	for i := h & sh.mask; ; i = (i + 1) & sh.mask {
		e := sh.slots[i]
		if e == 0 {
			if full {
				return -1, false
			}
			id = v.st.add(ws, parent)
			sh.slots[i] = tag | uint64(id+1)
			sh.count++
			v.count++
			if sh.count*4 > int64(len(sh.slots))*3 {
				v.grow(sh, nil)
			}
			return id, true
		}
		if e&tagMask == tag {
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
	return v.find(ws, h) >= 0
}

// find returns the id of the state packed in ws, or -1; read-only.
func (v *visited) find(ws []uint64, h uint64) int64 {
	sh := v.shardOf(h)
	tag := h & tagMask
	for i := h & sh.mask; ; i = (i + 1) & sh.mask {
		e := sh.slots[i]
		if e == 0 {
			return -1
		}
		if e&tagMask == tag {
			if id := int64(e&0xFFFFFFFF) - 1; equalWords(v.st.get(id), ws) {
				return id
			}
		}
	}
}

// grow doubles a shard's table. pending, during a parallel merge, gives
// the hash of the candidate a placeholder stands for.
func (v *visited) grow(sh *shard, pending func(cand int) uint64) {
	slots := make([]uint64, 2*len(sh.slots))
	mask := uint64(len(slots) - 1)
	for _, e := range sh.slots {
		if e == 0 {
			continue
		}
		var h uint64
		if e&placeholder != 0 {
			h = pending(int(e&0xFFFFFFFF) - 1)
		} else {
			h = v.hashOf(v.st.get(int64(e&0xFFFFFFFF) - 1))
		}
		i := h & mask
		for slots[i] != 0 {
			i = (i + 1) & mask
		}
		slots[i] = e
	}
	sh.slots, sh.mask = slots, mask
}

// growth is the bytes the next insert of a new state of hash h allocates:
// the store's next chunk, and the doubled table of its shard once the
// shard's load passes three quarters.
func (v *visited) growth(h uint64) uint64 {
	need := v.st.growth()
	if sh := v.shardOf(h); (sh.count+1)*4 > int64(len(sh.slots))*3 {
		need += uint64(len(sh.slots)) * 2 * 8
	}
	return need
}

// bytes is the memory of the tables.
func (v *visited) bytes() int64 {
	var n int64
	for i := range v.shards {
		n += int64(len(v.shards[i].slots)) * 8
	}
	return n
}

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
