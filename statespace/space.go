package statespace

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/ringcheck/ringcheck/budget"
	"github.com/ringcheck/ringcheck/model"
)

// chunk is how many consecutive ranks a worker of Parallel claims at a
// time.
const chunk = 1 << 14

// Space is a system's full configuration space seen as a graph whose
// vertices are ranks (model.System.Rank) and whose edges are regenerated on
// demand, never stored. Analyses of self-stabilization (closure,
// convergence, stabilization time) work on it with flat arrays indexed by
// rank: a bit per configuration for a predicate, a few bytes for a depth.
type Space struct {
	sys  *model.System
	size uint64
}

// MaxSpace is the largest full configuration space the graph analyses
// handle: vertex ids are 32-bit.
const MaxSpace = math.MaxUint32 - 1

// NewSpace returns the full configuration space of sys, which must have
// at most MaxSpace configurations.
func NewSpace(sys *model.System) (*Space, error) {
	n, ok := sys.Configurations()
	if !ok || n > MaxSpace {
		return nil, fmt.Errorf("spec %s: the full configuration space has %s configurations, more than the %d the graph analyses index", sys.Name, sizeString(n, ok), uint64(MaxSpace))
	}
	return &Space{sys: sys, size: n}, nil
}

func sizeString(n uint64, ok bool) string {
	if !ok {
		return "over 2^63"
	}
	return fmt.Sprint(n)
}

// Size is the number of configurations.
func (sp *Space) Size() uint64 { return sp.size }

// System is the system whose space this is.
func (sp *Space) System() *model.System { return sp.sys }

// Cursor expands configurations of a space by rank. It is not safe for
// concurrent use: give each goroutine its own.
type Cursor struct {
	sp  *Space
	ex  *model.Expander
	cur *model.State
	// rank of cur when it was loaded by Load, for incremental ranking
	curRank uint64
	loaded  bool
}

// NewCursor returns a cursor over the space.
func (sp *Space) NewCursor() *Cursor {
	return &Cursor{sp: sp, ex: sp.sys.NewExpander(), cur: sp.sys.NewState()}
}

// Load unranks v into the cursor's scratch state and returns it; the state
// is valid until the next call on the cursor.
func (c *Cursor) Load(v uint32) (*model.State, error) {
	if err := c.sp.sys.Unrank(uint64(v), c.cur); err != nil {
		return nil, err
	}
	c.curRank, c.loaded = uint64(v), true
	return c.cur, nil
}

// Successors calls fn for every step from configuration st (for example
// the one Load returned), with the successor's rank and state, which are
// valid only during the call. It returns the number of steps.
func (c *Cursor) Successors(st *model.State, fn func(step *model.Step, to uint32, next *model.State)) (int, error) {
	sys := c.sp.sys
	if c.loaded && st == c.cur {
		// st is the state Load unranked: rank successors by difference.
		base := c.curRank
		return c.ex.Expand(st, func(step *model.Step, next *model.State) bool {
			fn(step, uint32(sys.RankFrom(base, st, next)), next)
			return true
		})
	}
	return c.ex.Expand(st, func(step *model.Step, next *model.State) bool {
		fn(step, uint32(sys.Rank(next)), next)
		return true
	})
}

// Count returns the number of steps enabled in st, and whether one of
// them is faulty (see model.Expander.Count).
func (c *Cursor) Count(st *model.State) (n int, faulty bool, err error) {
	n, step, err := c.ex.Count(st)
	return n, step != nil, err
}

// Enabled returns the processes with an enabled step in st, as a bit mask.
func (c *Cursor) Enabled(st *model.State) (uint64, error) { return c.ex.Enabled(st) }

// Parallel calls fn for every configuration of the space, on workers
// goroutines numbered 0..workers-1, each with its own cursor;
// configurations come in chunks of increasing rank. The state passed to fn
// is valid only during the call. The first error stops the walk and is
// returned; so does ctx's cancellation (as ctx.Err()).
func (sp *Space) Parallel(ctx context.Context, workers int, fn func(worker int, c *Cursor, v uint32, st *model.State) error) error {
	type scratch struct {
		c  *Cursor
		st *model.State
	}
	return parallelChunks(ctx, workers, sp.size, func() scratch {
		return scratch{c: sp.NewCursor(), st: sp.sys.NewState()}
	}, func(w int, s scratch, lo, hi uint64) error {
		if err := sp.sys.Unrank(lo, s.st); err != nil {
			return err
		}
		for v := lo; v < hi; v++ {
			if err := fn(w, s.c, uint32(v), s.st); err != nil {
				return err
			}
			sp.sys.NextRank(s.st)
		}
		return nil
	})
}

// parallelChunks runs body over 0..n-1 cut in chunks of chunk
// consecutive indexes, on workers goroutines (at least one) numbered
// 0..workers-1; each goroutine makes its scratch with newScratch once,
// then claims the next chunk [lo, hi) in increasing order until none is
// left. The first error body returns stops every goroutine before its
// next chunk and is returned; so is ctx.Err() once ctx is cancelled,
// checked before each chunk.
func parallelChunks[S any](ctx context.Context, workers int, n uint64, newScratch func() S, body func(worker int, s S, lo, hi uint64) error) error {
	workers = max(1, workers)
	var (
		next     atomic.Uint64
		failed   atomic.Bool
		firstErr error
		once     sync.Once
		wg       sync.WaitGroup
	)
	chunks := (n + chunk - 1) / chunk
	fail := func(err error) {
		once.Do(func() { firstErr = err })
		failed.Store(true)
	}
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := newScratch()
			for !failed.Load() {
				if err := ctx.Err(); err != nil {
					fail(err)
					return
				}
				k := next.Add(1) - 1
				if k >= chunks {
					return
				}
				if err := body(w, s, k*chunk, min(n, (k+1)*chunk)); err != nil {
					fail(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	return firstErr
}

// Bits is a fixed-size bit set indexed by rank, safe for concurrent Set
// of distinct or equal bits.
type Bits []uint64

// NewBits returns a set of n bits, all clear.
func NewBits(n uint64) Bits { return make(Bits, (n+63)/64) }

// Set sets bit i; it may be called concurrently.
func (b Bits) Set(i uint32) {
	w := &b[i/64]
	mask := uint64(1) << (i % 64)
	for {
		old := atomic.LoadUint64(w)
		if old&mask != 0 || atomic.CompareAndSwapUint64(w, old, old|mask) {
			return
		}
	}
}

// Has reports whether bit i is set.
func (b Bits) Has(i uint32) bool { return b[i/64]&(1<<(i%64)) != 0 }

// Count is the number of bits set.
func (b Bits) Count() uint64 {
	var n uint64
	for _, w := range b {
		for ; w != 0; w &= w - 1 {
			n++
		}
	}
	return n
}

// ErrStop, returned by a Components callback, ends the traversal without
// an error.
var ErrStop = errors.New("stop")

// Graph is a state graph whose vertices are numbered 0..Size()-1 and whose
// edges are regenerated on demand: the full configuration space (Space)
// or the states a breadth-first search reached (ReachGraph).
type Graph interface {
	Size() uint64
	System() *model.System
	// NewWalker returns a walker for one goroutine.
	NewWalker() Walker
	// Trace rebuilds the execution through the vertices ids (closed: and
	// back from the last to the first).
	Trace(ids []uint32, closed bool) ([]*model.State, []model.Step, error)
}

// Walker loads vertices and enumerates their steps; one per goroutine.
type Walker interface {
	Load(v uint32) (*model.State, error)
	Successors(st *model.State, fn func(step *model.Step, to uint32, next *model.State)) (int, error)
}

// NewWalker returns a cursor, as a Walker.
func (sp *Space) NewWalker() Walker { return sp.NewCursor() }

// Components finds the strongly connected components of the subgraph of
// the space induced by the vertices keep reports, with Pearce's
// space-efficient iterative algorithm (one 32-bit word per vertex, no
// recursion). succ appends to dst the successors of v that are kept (it
// decides what an edge is) and returns the extended slice. component is
// called once per component, in reverse topological order: when it is
// called, every component reachable from this one has been reported. Its
// members come first-discovered first (the component's root), then the
// others in the reverse of the order in which the search finished them;
// the slice is valid only during the call. For a single-vertex component,
// succs are its kept successors (so selfLoop is whether it contains v);
// for larger ones succs is nil. Returning ErrStop ends the traversal
// early.
//
// progress, if not nil, is called with the number of vertices visited so
// far about every 65536 visits.
//
// mem, if not nil, is asked before each growth of the search's stacks
// (the path, the successors along it, the vertices awaiting their
// component, a component's members), which grow with the graph; its
// refusal, a *budget.Exceeded, ends the search and is returned. The
// arrays of a word and a bit per vertex are the caller's to reserve.
func (sp *Space) Components(ctx context.Context, keep func(v uint32) bool,
	succ func(v uint32, dst []uint32) ([]uint32, error),
	component func(members []uint32, succs []uint32) error,
	progress func(visited uint64), mem *budget.Memory) error {
	return Components(ctx, sp.size, keep, succ, component, progress, mem)
}

// minRoom is the fewest elements a stack of Components makes room for.
const minRoom = 64

// reserve returns s with room for extra more elements of elemBytes each,
// asking mem first when that takes a new array: twice the old one, or
// more if extra needs it.
func reserve[T any](s []T, extra int, elemBytes uint64, mem *budget.Memory) ([]T, error) {
	if len(s)+extra <= cap(s) {
		return s, nil
	}
	c := max(2*cap(s), len(s)+extra, minRoom)
	if err := mem.Grow(uint64(c) * elemBytes); err != nil {
		return s, err
	}
	return slices.Grow(s, c-len(s)), nil
}

// Components is Space.Components over any graph of n vertices numbered
// 0..n-1 (n at most MaxSpace).
func Components(ctx context.Context, n uint64, keep func(v uint32) bool,
	succ func(v uint32, dst []uint32) ([]uint32, error),
	component func(members []uint32, succs []uint32) error,
	progress func(visited uint64), mem *budget.Memory) error {
	if n > MaxSpace {
		return fmt.Errorf("%d vertices are more than the %d the components search indexes", n, uint64(MaxSpace))
	}
	// rindex: 0 unvisited; 1..index while on the DFS path or the component
	// stack; a component number, counting down from n, once assigned.
	// Index values and component numbers never meet: index < c always.
	rindex := make([]uint32, n)
	root := NewBits(n)
	type frame struct {
		v      uint32
		lo, hi int // its successors in buf
		i      int // next successor to look at
	}
	const frameBytes = uint64(unsafe.Sizeof(frame{}))
	var (
		stack   []frame
		buf     []uint32
		comp    []uint32 // Pearce's S
		members []uint32
		index   = uint32(1)
		c       = uint32(n) // next component number (n is never an index)
		visits  int
		// finished counts the vertices assigned to a component; with
		// the index-1 on the path or the component stack, the vertices
		// visited.
		finished uint64
		// degree is the most successors a vertex has had: buf keeps
		// room for as many more before each call of succ, so that succ
		// seldom grows it unasked.
		degree = 16
	)
	begin := func(v uint32) error {
		var err error
		if buf, err = reserve(buf, degree, 4, mem); err != nil {
			return err
		}
		lo, room := len(buf), cap(buf)
		if buf, err = succ(v, buf); err != nil {
			return err
		}
		if d := len(buf) - lo; d > degree {
			degree = d
		}
		if cap(buf) != room {
			// succ grew buf, past the most successors seen so far: ask
			// whether the heap still fits, with the new array.
			if err := mem.Check(); err != nil {
				return err
			}
		}
		if stack, err = reserve(stack, 1, frameBytes, mem); err != nil {
			return err
		}
		rindex[v] = index
		index++
		root.Set(v)
		stack = append(stack, frame{v: v, lo: lo, hi: len(buf), i: lo})
		return nil
	}
	finishEdge := func(v, w uint32) {
		if rindex[w] < rindex[v] {
			rindex[v] = rindex[w]
			root[v/64] &^= 1 << (v % 64)
		}
	}
	for start := uint64(0); start < n; start++ {
		s := uint32(start)
		if rindex[s] != 0 || !keep(s) {
			continue
		}
		if err := begin(s); err != nil {
			return err
		}
		for len(stack) > 0 {
			if visits++; visits&0xFFFF == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
				if progress != nil {
					progress(uint64(index-1) + finished)
				}
			}
			f := &stack[len(stack)-1]
			descended := false
			for f.i < f.hi {
				w := buf[f.i]
				if rindex[w] == 0 {
					if err := begin(w); err != nil {
						return err
					}
					descended = true
					break
				}
				finishEdge(f.v, w)
				f.i++
			}
			if descended {
				continue
			}
			// Finish v.
			v := f.v
			succs := buf[f.lo:f.hi]
			if root.Has(v) {
				index--
				var err error
				if members, err = reserve(members[:0], 1, 4, mem); err != nil {
					return err
				}
				members = append(members, v)
				for len(comp) > 0 && rindex[v] <= rindex[comp[len(comp)-1]] {
					w := comp[len(comp)-1]
					comp = comp[:len(comp)-1]
					rindex[w] = c
					index--
					if members, err = reserve(members, 1, 4, mem); err != nil {
						return err
					}
					members = append(members, w)
				}
				rindex[v] = c
				c--
				finished += uint64(len(members))
				if len(members) == 1 {
					err = component(members, succs)
				} else {
					err = component(members, nil)
				}
				if errors.Is(err, ErrStop) {
					return nil
				}
				if err != nil {
					return err
				}
			} else {
				var err error
				if comp, err = reserve(comp, 1, 4, mem); err != nil {
					return err
				}
				comp = append(comp, v)
			}
			buf = buf[:f.lo]
			stack = stack[:len(stack)-1]
			if len(stack) > 0 {
				p := &stack[len(stack)-1]
				finishEdge(p.v, v)
				p.i++
			}
		}
	}
	return nil
}

// Trace rebuilds an execution through the configurations ranks: their
// states and the first step, in expansion order, between each consecutive
// pair; with closed set, also the step from the last back to the first (a
// cycle).
func (sp *Space) Trace(ranks []uint32, closed bool) ([]*model.State, []model.Step, error) {
	states := make([]*model.State, len(ranks))
	for i, r := range ranks {
		st := sp.sys.NewState()
		if err := sp.sys.Unrank(uint64(r), st); err != nil {
			return nil, nil, err
		}
		states[i] = st
	}
	steps, err := sp.sys.StepsThrough(states, closed)
	if err != nil {
		return nil, nil, err
	}
	return states, steps, nil
}
