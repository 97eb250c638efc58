package statespace

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
)

// ErrCyclic is returned by Heights when the kept subgraph is not acyclic
// (or when the workers could not rule it out); the caller then needs the
// strongly-connected-components search.
var ErrCyclic = errors.New("the subgraph has a cycle")

// MaxHeight is the greatest height Heights records.
const MaxHeight = 0xFFFE

// Heights computes, on workers goroutines, the height of every kept vertex
// of a subgraph of the space that should be acyclic: h(v) = 1 + the
// greatest height of v's kept successors, or 1 if it has none (its steps
// all leave the subgraph). succ appends v's kept successors to dst, using
// the worker's cursor. Heights are written to h.
//
// Each worker runs an iterative depth-first search from its own roots,
// claiming a vertex before expanding it. A worker that meets a vertex
// another worker is expanding waits for it; in an acyclic graph waits never
// form a cycle (two workers waiting on each other's vertices would witness a
// cycle). A worker meeting a vertex on its own path, or a wait that closes a
// cycle, stops every worker with ErrCyclic: the subgraph has a cycle, or
// the workers could not tell, and the caller must fall back to Components,
// which is exact in every case.
func (sp *Space) Heights(ctx context.Context, workers int, keep func(v uint32) bool,
	succ func(c *Cursor, v uint32, dst []uint32) ([]uint32, error), h []uint16,
	progress func(done uint64)) error {
	if workers < 1 {
		workers = 1
	}
	if workers > 1<<16 {
		return fmt.Errorf("%d workers are too many", workers)
	}
	n := sp.size
	w32 := uint32(workers)
	// state: 0 unvisited; 1..workers being expanded by that worker;
	// workers+1 done (the height is in h).
	state := make([]uint32, n)
	done := w32 + 1
	waiting := make([]atomic.Uint32, workers+1) // worker → the worker it waits for, 0 none
	var (
		abort    atomic.Bool
		nextRoot atomic.Uint64
		finished atomic.Uint64
		once     sync.Once
		firstErr error
		wg       sync.WaitGroup
	)
	fail := func(err error) {
		once.Do(func() { firstErr = err })
		abort.Store(true)
	}
	// deadlocked reports whether the waits starting at me come back to me.
	deadlocked := func(me uint32) bool {
		x := waiting[me].Load()
		for range workers {
			if x == 0 {
				return false
			}
			if x == me {
				return true
			}
			x = waiting[x].Load()
		}
		return false
	}
	type frame struct {
		v      uint32
		lo, hi int
		i      int
		best   uint32
	}
	const rootChunk = 4096
	for wi := range workers {
		me := uint32(wi) + 1
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := sp.NewCursor()
			var (
				stack []frame
				buf   []uint32
				local uint64
				steps int
			)
			begin := func(v uint32) bool {
				lo := len(buf)
				var err error
				if buf, err = succ(c, v, buf); err != nil {
					fail(err)
					return false
				}
				stack = append(stack, frame{v: v, lo: lo, hi: len(buf), i: lo})
				return true
			}
			for !abort.Load() {
				if err := ctx.Err(); err != nil {
					fail(err)
					return
				}
				lo := nextRoot.Add(rootChunk) - rootChunk
				if lo >= n {
					return
				}
				for r := lo; r < min(n, lo+rootChunk) && !abort.Load(); r++ {
					v := uint32(r)
					if !keep(v) || !atomic.CompareAndSwapUint32(&state[v], 0, me) {
						continue
					}
					if !begin(v) {
						return
					}
					for len(stack) > 0 {
						if abort.Load() {
							return
						}
						// A search from one root may cover most of the
						// subgraph: the context is polled along it.
						if steps++; steps&0xFF == 0 {
							if err := ctx.Err(); err != nil {
								fail(err)
								return
							}
						}
						f := &stack[len(stack)-1]
						descended := false
						for f.i < f.hi {
							w := buf[f.i]
							s := atomic.LoadUint32(&state[w])
							switch {
							case s == done:
								f.best = max(f.best, uint32(h[w]))
								f.i++
								continue
							case s == 0:
								if !atomic.CompareAndSwapUint32(&state[w], 0, me) {
									continue // someone claimed it: look again
								}
								if !begin(w) {
									return
								}
								descended = true
							case s == me:
								fail(ErrCyclic) // w is on this worker's own path
								return
							default:
								// Another worker is expanding w: wait for it.
								waiting[me].Store(s)
								for atomic.LoadUint32(&state[w]) == s {
									if abort.Load() {
										return
									}
									if deadlocked(me) {
										fail(ErrCyclic)
										return
									}
									runtime.Gosched()
								}
								waiting[me].Store(0)
								continue
							}
							break
						}
						if descended {
							continue
						}
						f = &stack[len(stack)-1]
						if f.best+1 > MaxHeight {
							fail(fmt.Errorf("a path of more than %d steps", MaxHeight))
							return
						}
						h[f.v] = uint16(f.best + 1)
						atomic.StoreUint32(&state[f.v], done)
						buf = buf[:f.lo]
						stack = stack[:len(stack)-1]
						if local++; local&0xFFFF == 0 {
							if progress != nil && wi == 0 {
								progress(finished.Add(local))
							} else {
								finished.Add(local)
							}
							local = 0
						}
					}
				}
			}
		}()
	}
	wg.Wait()
	return firstErr
}
