package explore

import (
	"sort"
	"sync"
)

// merger inserts one round's candidates (the workers' successors, in
// worker order) into the visited set and the store with one goroutine per
// worker, each owning the shards of the visited set whose index it is
// modulo the number of workers. Ids are those the sequential merge gives:
// in three phases, the goroutines first find the candidates new to the set
// and claim a slot for each (a placeholder: two workers may find the same
// new state in one round, and only the first of them is new); then the new
// ones get ids in candidate order and go to the store; then the goroutines
// write the ids into the slots they claimed.
type merger struct {
	e  *bfs
	ws []*worker
	// base[w] is the index of worker w's first candidate.
	base  []int
	isNew []bool
	ids   []int64
}

// mergeParallel merges the round's candidates. The caller makes sure no
// bound can stop the round: every new candidate is kept.
func (e *bfs) mergeParallel(ws []*worker) {
	m := &e.merge
	m.e, m.ws = e, ws
	m.base = append(m.base[:0], 0)
	for i, w := range ws {
		m.base = append(m.base, m.base[i]+len(w.parents))
	}
	total := m.base[len(ws)]
	if total == 0 {
		return
	}
	// The buffers serve round after round.
	m.isNew = resize(m.isNew, total)
	m.ids = resize(m.ids, total)
	if e.fp {
		// A fingerprint is its own slot: claimed, it is final.
		m.parallel(m.claimFingerprints)
		m.assign()
		return
	}
	m.parallel(m.claim)
	m.assign()
	m.parallel(m.settle)
}

// claimFingerprints is phase 1 with fingerprints: the slot of each
// candidate of goroutine g's shards that is new.
func (m *merger) claimFingerprints(g int) {
	v := m.e.seen
	for wi, w := range m.ws {
		for i, h := range w.hash {
			f := fingerprintSlot(h)
			if !m.owns(g, f) {
				continue
			}
			sh := v.shardOf(f)
			for s := f & sh.mask; ; s = (s + 1) & sh.mask {
				slot := sh.slots[s]
				if slot == f {
					break
				}
				if slot == 0 {
					sh.slots[s] = f
					sh.count++
					m.isNew[m.base[wi]+i] = true
					if sh.count*4 > int64(len(sh.slots))*3 {
						v.grow(sh, nil)
					}
					break
				}
			}
		}
	}
}

// parallel runs phase once per worker, as goroutine g of len(ws).
func (m *merger) parallel(phase func(g int)) {
	var wg sync.WaitGroup
	for g := range m.ws {
		wg.Add(1)
		go func() {
			defer wg.Done()
			phase(g)
		}()
	}
	wg.Wait()
}

// owns reports whether goroutine g owns the shard of hash h.
func (m *merger) owns(g int, h uint64) bool {
	return int((h>>(64-shardBits))%uint64(len(m.ws))) == g
}

// locate returns the worker holding candidate c and its index there.
func (m *merger) locate(c int) (*worker, int) {
	w := sort.Search(len(m.ws), func(i int) bool { return m.base[i+1] > c })
	return m.ws[w], c - m.base[w]
}

// hashOf is candidate c's hash.
func (m *merger) hashOf(c int) uint64 {
	w, i := m.locate(c)
	return w.hash[i]
}

// key is the visited set's key of the i-th candidate of w: its packed
// state, or with fingerprints its hash (in buf).
func (m *merger) key(w *worker, i int, buf *[1]uint64) []uint64 {
	if m.e.fp {
		buf[0] = w.hash[i]
		return buf[:]
	}
	words := m.e.sys.Words()
	return w.succ[i*words : (i+1)*words]
}

// claim is phase 1 for goroutine g: a placeholder for each candidate of
// its shards that is neither visited nor found earlier in the round.
func (m *merger) claim(g int) {
	var kb, ob [1]uint64
	v := m.e.seen
	for wi, w := range m.ws {
		for i, h := range w.hash {
			if !m.owns(g, h) {
				continue
			}
			c := m.base[wi] + i
			k := m.key(w, i, &kb)
			sh := v.shardOf(h)
			tag := h & tagMask
			for s := h & sh.mask; ; s = (s + 1) & sh.mask {
				slot := sh.slots[s]
				if slot == 0 {
					sh.slots[s] = tag | placeholder | uint64(c+1)
					sh.count++
					m.isNew[c] = true
					if sh.count*4 > int64(len(sh.slots))*3 {
						v.grow(sh, m.hashOf)
					}
					break
				}
				if slot&tagMask != tag {
					continue
				}
				var other []uint64
				if slot&placeholder != 0 {
					ow, oi := m.locate(int(slot&0xFFFFFFFF) - 1)
					other = m.key(ow, oi, &ob)
				} else {
					other = m.e.store.get(int64(slot&0xFFFFFFFF) - 1)
				}
				if equalWords(other, k) {
					break
				}
			}
		}
	}
}

// assign is phase 2: ids in candidate order, and the states (or their
// fingerprints, and then the next level's states) to the store.
func (m *merger) assign() {
	e := m.e
	words := e.sys.Words()
	var kb [1]uint64
	for wi, w := range m.ws {
		for i, p := range w.parents {
			c := m.base[wi] + i
			if !m.isNew[c] {
				continue
			}
			m.ids[c] = e.store.add(m.key(w, i, &kb), p)
			e.seen.count++
			if e.fp {
				e.next.add(w.succ[i*words : (i+1)*words])
			}
		}
	}
}

// settle is phase 3 for goroutine g: the ids into its placeholders.
func (m *merger) settle(g int) {
	for wi, w := range m.ws {
		for i, h := range w.hash {
			c := m.base[wi] + i
			if !m.isNew[c] || !m.owns(g, h) {
				continue
			}
			sh := m.e.seen.shardOf(h)
			want := h&tagMask | placeholder | uint64(c+1)
			for s := h & sh.mask; ; s = (s + 1) & sh.mask {
				if sh.slots[s] == want {
					sh.slots[s] = h&tagMask | uint64(m.ids[c]+1)
					break
				}
			}
		}
	}
}

// mergeGrowth bounds the bytes a parallel merge of candidates may
// allocate: the store's chunks for all of them, and every shard's table
// doubled.
func (e *bfs) mergeGrowth(candidates int) uint64 {
	chunks := uint64(candidates)>>chunkBits + 1
	return chunks*(uint64(e.store.words*8+4)<<chunkBits) + 2*uint64(e.seen.bytes())
}

// resize returns buf with n zero elements, reusing its storage when it
// is large enough.
func resize[T any](buf []T, n int) []T {
	if cap(buf) < n {
		return make([]T, n)
	}
	buf = buf[:n]
	clear(buf)
	return buf
}
