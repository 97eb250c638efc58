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

// visited is a set of state ids keyed by the hash of their packed form:
// shards of open-addressing (linear probing) tables, chosen by the hash's
// top bits, so that a round's new states can be inserted by several
// goroutines at once, each owning some shards (mergeParallel). Each slot
// holds 31 bits of the hash as a tag and the id plus one, so most
// mismatches are rejected without touching the store; while a round is
// merged in parallel, a slot may instead hold a placeholder (placeholder
// bit set) for the round's candidate of that index plus one. With
// fingerprints, a slot holds the fingerprint itself (made non-zero,
// fingerprintSlot) and no id: the set never reads the store, which may
// then leave memory.
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

// fingerprintSlot is the slot, and the hash, of a state of fingerprint h:
// h, but never the empty slot's 0.
func fingerprintSlot(h uint64) uint64 {
	if h == 0 {
		return 1
	}
	return h
}

// insertFingerprint is insert with fingerprints: a state already visited
// has id 0, since the set keeps no ids.
func (v *visited) insertFingerprint(h uint64, parent uint32, full bool) (id int64, added bool) {
	f := fingerprintSlot(h)
	sh := v.shardOf(f)
	for i := f & sh.mask; ; i = (i + 1) & sh.mask {
		switch sh.slots[i] {
		case 0:
			if full {
				return -1, false
			}
			id = v.st.add([]uint64{h}, parent)
			sh.slots[i] = f
			sh.count++
			v.count++
			if sh.count*4 > int64(len(sh.slots))*3 {
				v.grow(sh, nil)
			}
			return id, true
		case f:
			return 0, false
		}
	}
}

// insert returns the id of the state packed in ws, adding it to the store
// with the given parent if it is new (added is then true). full says the
// store may not grow: a new state is then not added, and id is -1.
func (v *visited) insert(ws []uint64, h uint64, parent uint32, full bool) (id int64, added bool) {
	if v.fingerprints {
		return v.insertFingerprint(h, parent, full)
	}
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
	if v.fingerprints {
		f := fingerprintSlot(h)
		sh := v.shardOf(f)
		for i := f & sh.mask; ; i = (i + 1) & sh.mask {
			switch sh.slots[i] {
			case 0:
				return false
			case f:
				return true
			}
		}
	}
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
		if v.fingerprints {
			h = e
		} else if e&placeholder != 0 {
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
	if v.fingerprints {
		h = fingerprintSlot(h)
	}
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
