package explore

import (
	"errors"
	"runtime/metrics"
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

// HeapSampler records the peak of the live heap (bytes in heap objects,
// as runtime/metrics reports it) while a search runs, by sampling it.
type HeapSampler struct {
	stop chan struct{}
	done sync.WaitGroup
	peak uint64
}

const heapMetric = "/memory/classes/heap/objects:bytes"

// StartHeapSampler starts sampling every interval.
func StartHeapSampler(interval time.Duration) *HeapSampler {
	h := &HeapSampler{stop: make(chan struct{})}
	h.done.Add(1)
	go func() {
		defer h.done.Done()
		sample := []metrics.Sample{{Name: heapMetric}}
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			metrics.Read(sample)
			if sample[0].Value.Kind() == metrics.KindUint64 {
				h.peak = max(h.peak, sample[0].Value.Uint64())
			}
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
