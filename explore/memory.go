package explore

import (
	"errors"
	"sync"
	"time"

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
