package explore

import (
	"github.com/ringcheck/ringcheck/internal/cacheline"
	"sort"
	"sync"
	"sync/atomic"
)

// numShards is the number of shards of the visited set.
const numShards = 1 << shardBits

// stopPoll is how many candidates a merge goroutine claims between two
// looks at whether the search must stop.
const stopPoll = 1 << 10

// merger inserts one round's candidates (the workers' successors, in
// worker order) into the visited set and the store in parallel, shard by
// shard of the visited set: at most numShards goroutines, whatever the
// number of workers, goroutine g of G owning the shards whose index is g
// modulo G. A sequential pass first lists the candidates shard by shard
// (in candidate order within a shard), so each goroutine visits only its
// own shards' candidates: the merge's work is proportional to the
// candidates, not to the candidates times the workers. Ids are those the
// sequential merge gives: in three phases, the goroutines first find the
// candidates new to the set and claim a slot for each (a placeholder: two
// workers may find the same new state in one round, and only the first
// of them is new); then the new ones get ids in candidate order and go to
// the store; then the goroutines write the ids into the slots they
// claimed. A shard grows, if it must, before its candidates are claimed,
// so the claimed slots stay where they are until the ids are written.
type merger struct {
	e *bfs
	// ws hold the round's candidates in order (views of the workers'
	// buffers, a chunk each), found by workers workers.
	ws      []*worker
	workers int
	// base[w] is the index of worker w's first candidate.
	base  []int
	isNew []bool
	// fresh lists, shard by shard, the candidates the first phase found
	// new: each goroutine writes its own shards' lists, and isNew is
	// written from them once the phase is done (neighbouring candidates
	// belong to different goroutines' shards).
	fresh [numShards]freshList
	ids   []int64
	// sink keeps, shard by shard, the values of the loads that bring
	// claim's slots into cache.
	sink [numShards]uint64
	// byShard lists the candidates shard by shard: those of shard s are
	// byShard[from[s]:from[s+1]], in candidate order.
	byShard []candidate
	from    [numShards + 1]int
	// stop reports that the search must stop (the context is cancelled
	// or the time limit passed); stopped records that a phase saw it.
	stop    func() bool
	stopped atomic.Bool
	// The merges' work, which the tests measure: the candidates merged,
	// the phases run, the goroutines they started, the candidates the
	// first phase looked at and the new ones the last phase settled.
	candidates, phases, goroutines, visits, settled atomic.Int64
}

// freshList is a shard's new candidates, and the slots claimed for them,
// alone on its cache lines.
type freshList struct {
	c    []int
	slot []int
	_    cacheline.Pad
}

// markFresh sets isNew for the candidates the first phase found new.
func (m *merger) markFresh() {
	for s := range m.fresh {
		for _, c := range m.fresh[s].c {
			m.isNew[c] = true
		}
	}
}

// candidate is the i-th successor found by worker w.
type candidate struct {
	w, i uint32
}

// mergeGoroutines is the number of goroutines a merge of a round found
// by workers runs: one per worker, and at most one per shard.
func mergeGoroutines(workers int) int {
	return min(workers, numShards)
}

// mergeParallel merges the round's candidates, and reports whether it
// did: a merge that m.stop interrupts (in its first phase, before any
// state is stored) keeps none of them, and the search must stop. The
// caller makes sure no bound can stop the round: every new candidate is
// kept.
func (e *bfs) mergeParallel(ws []*worker, workers int) bool {
	m := &e.merge
	m.e, m.ws, m.workers = e, ws, workers
	m.base = append(m.base[:0], 0)
	for i, w := range ws {
		m.base = append(m.base, m.base[i]+len(w.parents))
	}
	total := m.base[len(ws)]
	if total == 0 {
		return true
	}
	// The buffers serve round after round.
	m.isNew = resize(m.isNew, total)
	m.ids = resize(m.ids, total)
	m.byShard = resize(m.byShard, total)
	// A counting sort of the candidates by shard, stable: candidate order
	// within each shard. (A fingerprint's slot, fingerprintSlot, is in
	// the shard of its hash.)
	var count [numShards]int
	for _, w := range ws {
		for _, h := range w.hash {
			count[h>>(64-shardBits)]++
		}
	}
	m.from[0] = 0
	for s := range numShards {
		m.from[s+1] = m.from[s] + count[s]
	}
	next := m.from
	for wi, w := range ws {
		for i, h := range w.hash {
			s := h >> (64 - shardBits)
			m.byShard[next[s]] = candidate{w: uint32(wi), i: uint32(i)}
			next[s]++
		}
	}
	m.candidates.Add(int64(total))
	m.stopped.Store(false)
	for i := range m.fresh {
		m.fresh[i].c, m.fresh[i].slot = m.fresh[i].c[:0], m.fresh[i].slot[:0]
	}
	if e.fp {
		// A fingerprint is its own slot: claimed, it is final.
		if !m.parallel(m.claimFingerprints) {
			return false
		}
		m.markFresh()
		m.assign()
		return true
	}
	if !m.parallel(m.claim) {
		return false
	}
	m.markFresh()
	m.assign()
	m.parallel(m.settle)
	return true
}

// parallel runs phase on every shard, the shards shared among
// mergeGoroutines goroutines, and reports whether no phase saw m.stop.
func (m *merger) parallel(phase func(shard int)) bool {
	g := mergeGoroutines(m.workers)
	m.phases.Add(1)
	m.goroutines.Add(int64(g))
	var wg sync.WaitGroup
	for k := range g {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := k; s < numShards && !m.stopped.Load(); s += g {
				phase(s)
			}
		}()
	}
	wg.Wait()
	return !m.stopped.Load()
}

// shardCandidates returns the candidates of shard s, and counts them as
// visited.
func (m *merger) shardCandidates(s int) []candidate {
	cs := m.byShard[m.from[s]:m.from[s+1]]
	m.visits.Add(int64(len(cs)))
	return cs
}

// interrupted reports, at the first of every stopPoll candidates of a
// shard, whether the search must stop, and records it.
func (m *merger) interrupted(k int) bool {
	if k%stopPoll != 0 || m.stop == nil || !m.stop() {
		return false
	}
	m.stopped.Store(true)
	return true
}

// claimFingerprints is phase 1 with fingerprints: the slot of each
// candidate of shard s that is new.
func (m *merger) claimFingerprints(s int) {
	v := m.e.seen
	sh := &v.shards[s]
	for k, cd := range m.shardCandidates(s) {
		if m.interrupted(k) {
			return
		}
		f := fingerprintSlot(m.ws[cd.w].hash[cd.i])
		if j := fpProbe(sh, f); sh.slots[j] == 0 {
			sh.slots[j] = f
			sh.count++
			m.fresh[s].c = append(m.fresh[s].c, m.base[cd.w]+int(cd.i))
			if v.over(sh, sh.count) {
				v.grow(sh)
			}
		}
	}
}

// locate returns the worker holding candidate c and its index there.
func (m *merger) locate(c int) (*worker, int) {
	w := sort.Search(len(m.ws), func(i int) bool { return m.base[i+1] > c })
	return m.ws[w], c - m.base[w]
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

// claim is phase 1 for shard s: a placeholder for each of its candidates
// that is neither visited nor found earlier in the round. The shard first
// grows until all its candidates would fit, so no slot moves while the
// round is merged; then the candidates are claimed claimBatch at a time,
// their home slots read first (the loads overlap their cache misses).
func (m *merger) claim(s int) {
	var kb, ob [1]uint64
	v := m.e.seen
	sh := &v.shards[s]
	cs := m.shardCandidates(s)
	for v.over(sh, sh.count+int64(len(cs))) {
		v.grow(sh)
	}
	fresh := &m.fresh[s]
	var sink uint64
	for k, cd := range cs {
		if m.interrupted(k) {
			return
		}
		if k%claimBatch == 0 {
			for _, cd := range cs[k:min(len(cs), k+claimBatch)] {
				sink ^= sh.slots[home(m.ws[cd.w].hash[cd.i], sh.mask)]
			}
		}
		w, i := m.ws[cd.w], int(cd.i)
		h := w.hash[i]
		c := m.base[cd.w] + i
		key := m.key(w, i, &kb)
		tag := h & tagMask
		for j := home(h, sh.mask); ; j = (j + 1) & sh.mask {
			slot := sh.slots[j]
			if slot == 0 {
				sh.slots[j] = tag | placeholder | uint64(c+1)
				sh.count++
				fresh.c = append(fresh.c, c)
				fresh.slot = append(fresh.slot, int(j))
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
			if equalWords(other, key) {
				break
			}
		}
	}
	m.sink[s] = sink
}

// claimBatch is how many candidates claim reads the home slots of ahead.
const claimBatch = 32

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

// settle is phase 3 for shard s: the ids into the slots claim took.
func (m *merger) settle(s int) {
	sh := &m.e.seen.shards[s]
	fresh := &m.fresh[s]
	m.settled.Add(int64(len(fresh.c)))
	for k, c := range fresh.c {
		j := fresh.slot[k]
		sh.slots[j] = sh.slots[j]&tagMask | uint64(m.ids[c]+1)
	}
}

// mergeGrowth bounds the bytes a parallel merge of candidates may
// allocate: the store's chunks for all of them, and the shards' tables
// grown to hold them (a shard grows by doubling past three quarters
// full, so its table ends below 8/3 slots per state, or at its initial
// size).
func (e *bfs) mergeGrowth(candidates int) uint64 {
	chunks := uint64(candidates)>>chunkBits + 1
	slots := uint64(e.seen.count+int64(candidates))*8/3 + numShards*initialSlots
	return chunks*(uint64(e.store.words*8+4)<<chunkBits) + max(2*uint64(e.seen.bytes()), slots*8)
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
