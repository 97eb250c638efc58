package explore

import "github.com/ringcheck/ringcheck/internal/cacheline"

import "math/bits"

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
// then leave memory. With a tree store (newTreeVisited), the set is the
// tree store's tables, and the store keeps the parent links only.
type visited struct {
	shards []shard
	count  int64
	st     *store
	// fingerprints: the store's keys are one word, a state's hash, which
	// is then its own hash.
	fingerprints bool
	// tree, if not nil, holds the states, and add is its cursor for
	// inserts; the tree is reshaped once it holds sample states.
	tree   *treeStore
	add    treeCursor
	sample int64
}

// shard is one open-addressing table of the visited set.
type shard struct {
	slots []uint64
	mask  uint64
	count int64
	// The merge's goroutines write neighbouring shards.
	_ cacheline.Pad
}

// home is the slot at which a state of hash h starts its probe in a
// shard of mask+1 slots: bits from 32 up of h, which its slot's tag keeps
// (a shard never reaches 2^31 slots), so that a grown table places every
// slot again from its tag alone.
func home(h, mask uint64) uint64 { return h >> 32 & mask }

const (
	// shardBits: the visited set has 1<<shardBits shards.
	shardBits = 6
	// tagMask keeps a slot's tag: bits 32..62 of the hash.
	tagMask = 0x7FFFFFFF00000000
	// placeholder marks a slot claimed during a parallel merge.
	placeholder = 1 << 63
)

// initialSlots is the size of a shard's table when the set is made.
const initialSlots = 1 << 6

func newVisited(st *store) *visited {
	v := &visited{shards: make([]shard, 1<<shardBits), st: st}
	for i := range v.shards {
		v.shards[i] = shard{slots: make([]uint64, initialSlots), mask: initialSlots - 1}
	}
	return v
}

// newTreeVisited returns a visited set that keeps the states of words
// words in a tree store, reshaped once it holds sample states, and their
// parents in st, a store of no words.
func newTreeVisited(st *store, words int, sample int64) *visited {
	return &visited{st: st, tree: newTreeStore(words), sample: sample}
}

// shardOf returns the shard of hash h.
func (v *visited) shardOf(h uint64) *shard { return &v.shards[h>>(64-shardBits)] }

// fpLoad is the most load of a shard of fingerprints, in eighths: its
// slots are the fingerprints themselves, so a probe reads no store, and
// the shard grows by an eighth past it, so that it is at least seven
// ninths of that full, 7/8 × 8/9 (a shard of ids doubles past three
// quarters). Growing a shard of fingerprints reads its slots in order
// and writes the new ones nearly in order (fpHome keeps the order of
// the fingerprints), so growing often costs little.
const fpLoad = 7

// fpHome is the first slot of fingerprint slot f in a shard of size
// slots: f's bits below the shard's, scaled to the size.
func fpHome(f uint64, size int) int {
	hi, _ := bits.Mul64(f<<shardBits, uint64(size))
	return int(hi)
}

// fpProbe returns the slot of fingerprint slot f in sh: the one that
// holds it, or the empty one where it goes.
func fpProbe(sh *shard, f uint64) int {
	n := len(sh.slots)
	for i := fpHome(f, n); ; {
		if e := sh.slots[i]; e == 0 || e == f {
			return i
		}
		if i++; i == n {
			i = 0
		}
	}
}

// over reports whether shard sh holding count entries is fuller than it
// may be.
func (v *visited) over(sh *shard, count int64) bool {
	if v.fingerprints {
		return count*8 > int64(len(sh.slots))*fpLoad
	}
	return count*4 > int64(len(sh.slots))*3
}

// grownSize is the size of a shard of size slots grown.
func (v *visited) grownSize(size int) int {
	if v.fingerprints {
		return size + size/8
	}
	return 2 * size
}

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
	i := fpProbe(sh, f)
	if sh.slots[i] == f {
		return 0, false
	}
	if full {
		return -1, false
	}
	id = v.st.add([]uint64{h}, parent)
	sh.slots[i] = f
	sh.count++
	v.count++
	if v.over(sh, sh.count) {
		v.grow(sh)
	}
	return id, true
}

// insert returns the id of the state packed in ws, adding it to the store
// with the given parent if it is new (added is then true). full says the
// store may not grow: a new state is then not added, and id is -1.
func (v *visited) insert(ws []uint64, h uint64, parent uint32, full bool) (id int64, added bool) {
	if v.fingerprints {
		return v.insertFingerprint(h, parent, full)
	}
	if v.tree != nil {
		return v.insertTree(ws, nil, parent, full)
	}
	sh := v.shardOf(h)
	tag := h & tagMask
	for i := home(h, sh.mask); ; i = (i + 1) & sh.mask {
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
				v.grow(sh)
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

// insertTree is insert with a tree store. hint, if not nil, holds the
// values of the state's subtrees that the tree store as it is had
// (treeStore.hint): only the others are looked up.
func (v *visited) insertTree(ws []uint64, hint []uint32, parent uint32, full bool) (id int64, added bool) {
	if full {
		return v.tree.find(ws, &v.add), false
	}
	// The root table and the store both number the states in the order
	// they are added: the ids agree.
	if hint != nil {
		id = int64(v.tree.lookHinted(ws, v.tree.root, hint))
	} else {
		id = v.tree.add(ws, &v.add)
	}
	if id < v.st.n {
		return id, false
	}
	v.st.add(nil, parent)
	v.count++
	if !v.tree.planned && v.tree.n() == v.sample {
		v.tree = v.tree.reshaped()
	}
	return id, true
}

// touch reads the home slot of each hash of hs, and returns their
// exclusive or: the loads do not depend on one another, so the processor
// overlaps their cache misses, and lookups of these hashes that follow
// find their first slots in cache. Without a tree store only.
func (v *visited) touch(hs []uint64) uint64 {
	var sink uint64
	if v.fingerprints {
		for _, h := range hs {
			f := fingerprintSlot(h)
			sh := v.shardOf(f)
			sink ^= sh.slots[fpHome(f, len(sh.slots))]
		}
		return sink
	}
	for _, h := range hs {
		sh := v.shardOf(h)
		sink ^= sh.slots[home(h, sh.mask)]
	}
	return sink
}

// contains reports whether the state packed in ws is in the set. It only
// reads, so workers may call it concurrently while nobody inserts; c, if
// not nil, is the caller's own cursor of the tree store (ignored without
// one).
func (v *visited) contains(ws []uint64, h uint64, c *treeCursor) bool {
	if v.fingerprints {
		f := fingerprintSlot(h)
		sh := v.shardOf(f)
		return sh.slots[fpProbe(sh, f)] == f
	}
	return v.findWith(ws, h, c) >= 0
}

// find returns the id of the state packed in ws, or -1; read-only.
func (v *visited) find(ws []uint64, h uint64) int64 { return v.findWith(ws, h, nil) }

// findWith is find with the caller's own cursor of the tree store, if
// not nil.
func (v *visited) findWith(ws []uint64, h uint64, c *treeCursor) int64 {
	if v.tree != nil {
		return v.tree.find(ws, c)
	}
	sh := v.shardOf(h)
	tag := h & tagMask
	for i := home(h, sh.mask); ; i = (i + 1) & sh.mask {
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

// grow doubles a shard's table, or with fingerprints makes it an eighth
// larger; a placeholder of a parallel merge moves as a slot does.
func (v *visited) grow(sh *shard) {
	slots := make([]uint64, v.grownSize(len(sh.slots)))
	mask := uint64(len(slots) - 1)
	if v.fingerprints {
		for _, e := range sh.slots {
			if e == 0 {
				continue
			}
			i := fpHome(e, len(slots))
			for slots[i] != 0 {
				if i++; i == len(slots) {
					i = 0
				}
			}
			slots[i] = e
		}
		sh.slots, sh.mask = slots, 0
		return
	}
	for _, e := range sh.slots {
		if e == 0 {
			continue
		}
		// A slot's tag holds the bits of the hash its home is taken
		// from: the store is not read.
		i := home(e, mask)
		for slots[i] != 0 {
			i = (i + 1) & mask
		}
		slots[i] = e
	}
	sh.slots, sh.mask = slots, mask
}

// growth is the bytes the next insert of a new state of hash h allocates:
// the store's next chunk, and the grown table of its shard once the
// shard is fuller than it may be (over).
func (v *visited) growth(h uint64) uint64 {
	need := v.st.growth()
	if v.tree != nil {
		need += v.tree.growth()
		if n := v.tree.n() + 1; !v.tree.planned && n == v.sample {
			need += v.tree.reshapeBytes(n)
		}
		return need
	}
	if v.fingerprints {
		h = fingerprintSlot(h)
	}
	if sh := v.shardOf(h); v.over(sh, sh.count+1) {
		need += uint64(v.grownSize(len(sh.slots))) * 8
	}
	return need
}

// bytes is the memory of the tables.
func (v *visited) bytes() int64 {
	var n int64
	for i := range v.shards {
		n += int64(len(v.shards[i].slots)) * 8
	}
	if v.tree != nil {
		n += v.tree.bytes()
	}
	return n
}

// state returns the packed form of state id, which is in memory: from
// the store, or decoded from the tree store into buf (of the state's
// words).
func (v *visited) state(id int64, buf []uint64) []uint64 {
	if v.tree != nil {
		return v.tree.get(id, buf)
	}
	return v.st.get(id)
}

func equalWords(a, b []uint64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
