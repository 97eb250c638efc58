package explore

import (
	"errors"
	"sync"
	"time"
	"unsafe"

	"github.com/ringcheck/ringcheck/budget"
)

// asExceeded returns the refusal err carries, or one with no figures.
func asExceeded(err error) *budget.Exceeded {
	var ex *budget.Exceeded
	if errors.As(err, &ex) {
		return ex
	}
	return &budget.Exceeded{}
}

// HeapSampler records the peak of the heap (budget.Heap: bytes in heap
// objects) while a search runs, by sampling it.
type HeapSampler struct {
	stop chan struct{}
	done sync.WaitGroup
	peak uint64
}

// StartHeapSampler starts sampling every interval.
func StartHeapSampler(interval time.Duration) *HeapSampler {
	h := &HeapSampler{stop: make(chan struct{})}
	h.done.Add(1)
	go func() {
		defer h.done.Done()
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			h.peak = max(h.peak, budget.Heap())
			select {
			case <-h.stop:
				return
			case <-t.C:
			}
		}
	}()
	return h
}

// Stop ends the sampling and returns the peak seen, in bytes.
func (h *HeapSampler) Stop() uint64 {
	close(h.stop)
	h.done.Wait()
	return h.peak
}

// candidateBytes is what a candidate of a round holds besides its packed
// state: its parent and hash in the worker's buffers, and its entries in
// the parallel merge's (whether it is new, its id, its place by shard,
// and if new, the slot it claimed).
const candidateBytes = 4 + 8 + 1 + 8 + 8 + 8

// held is the memory the search counts as its own: the store's chunks in
// memory, the visited set's tables, the levels' segments in memory, the
// workers' buffers and the merge's. It depends on the states the search
// has found and the rounds it has run, not on the collector, so the
// budget's answers (budget.Memory.Fits) are the same from run to run.
func (e *bfs) held() uint64 {
	n := e.store.bytes() + e.seen.bytes() + e.level.bytes() + e.next.bytes() + e.merge.bytes()
	// The workers' buffers are counted as holding the most candidates a
	// round kept, and each worker's cache as holding a block of a level
	// on file (with fingerprints) and a state: what each holds depends on
	// the chunks it took.
	words := int64(e.sys.Words())
	n += e.roundHigh * (words*8 + 4 + 8 + int64(e.hintBytes()))
	if e.seen.tree == nil {
		n += int64(len(e.ws)) * chunkSetBytes(e.chunkHigh)
	}
	perCache := words * 8
	if e.fp {
		perCache += words * blockStates * 8
	}
	n += int64(len(e.ws)) * perCache
	return uint64(n)
}

// bytes is the memory of the merge's buffers.
func (m *merger) bytes() int64 {
	n := int64(cap(m.base))*8 + int64(cap(m.isNew)) + int64(cap(m.ids))*8 + int64(cap(m.byShard))*int64(unsafe.Sizeof(candidate{}))
	for i := range m.fresh {
		n += int64(cap(m.fresh[i].c))*8 + int64(cap(m.fresh[i].slot))*8
	}
	return n
}

// roomFor returns s with room for n more elements: twice its capacity,
// but not past soft elements, and an eighth more at a time past them, so
// that a buffer a budget bounds to about soft elements (its holder stops
// filling it there, but not in the middle of a state's successors) does
// not double past it.
func roomFor[T any](s []T, n, soft int) []T {
	if len(s)+n <= cap(s) {
		return s
	}
	c := max(2*cap(s), 64)
	if cap(s) < soft {
		c = min(c, soft)
	} else {
		c = cap(s) + max(cap(s)/8, 64)
	}
	grown := make([]T, len(s), max(c, len(s)+n))
	copy(grown, s)
	return grown
}
