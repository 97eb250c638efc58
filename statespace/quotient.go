package statespace

import (
	"context"
	"fmt"
	"math/bits"

	"github.com/ringcheck/ringcheck/budget"
	"github.com/ringcheck/ringcheck/model"
)

// Quotient is the full configuration space of a system that declares a
// symmetry group, seen modulo the group: its vertices are the orbits,
// numbered 0..Size()-1 in the order of the ranks of their canonical
// representatives (model.Canonizer), and a step from an orbit is a step
// from its representative, leading to the orbit of the successor. Since
// the system's steps commute with the group, every path of the full space
// maps to a path of the quotient and every path of the quotient lifts to
// paths of the full space (Trace builds one).
type Quotient struct {
	sp *Space
	// canon marks the canonical ranks; prefix[i] counts those below
	// 64·i; ranks lists them in increasing order (an orbit's id is its
	// index there).
	canon  Bits
	prefix []uint32
	ranks  []uint32
	// cz is cloned for each walker.
	cz *model.Canonizer
}

// QuotientIndexBytes is what NewQuotient holds for a space of n
// configurations before it knows the number of orbits: a bit and a
// sixteenth of a 4-byte word a configuration. The list of
// representatives takes 4 bytes an orbit more.
func QuotientIndexBytes(n uint64) uint64 { return (n+63)/64*8 + (n+63)/64*4 }

// NewQuotient sweeps the space on workers goroutines for the canonical
// configurations and indexes them. The space's system must declare a
// symmetry. mem is asked for the index (QuotientIndexBytes) and then for
// the list of representatives; its refusal, or ctx's cancellation, stops
// the sweep and is returned.
func NewQuotient(ctx context.Context, sp *Space, workers int, mem *budget.Memory) (*Quotient, error) {
	workers = max(1, workers)
	canonizers := make([]*model.Canonizer, workers)
	for w := range canonizers {
		cz, err := sp.sys.NewCanonizer()
		if err != nil {
			return nil, fmt.Errorf("spec %s: the quotient by its symmetry group: %w", sp.sys.Name, err)
		}
		canonizers[w] = cz
	}
	if err := mem.Grow(QuotientIndexBytes(sp.size)); err != nil {
		return nil, err
	}
	q := &Quotient{sp: sp, canon: NewBits(sp.size), cz: canonizers[0]}
	err := sp.Parallel(ctx, workers, func(w int, _ *Cursor, v uint32, st *model.State) error {
		if canonizers[w].IsCanonical(st) {
			q.canon.Set(v)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	q.prefix = make([]uint32, len(q.canon))
	count := uint64(0)
	for i, word := range q.canon {
		q.prefix[i] = uint32(count)
		count += uint64(bits.OnesCount64(word))
	}
	if err := mem.Grow(4 * count); err != nil {
		return nil, err
	}
	q.ranks = make([]uint32, 0, count)
	for i, word := range q.canon {
		for ; word != 0; word &= word - 1 {
			q.ranks = append(q.ranks, uint32(i*64+bits.TrailingZeros64(word)))
		}
	}
	return q, nil
}

// Size is the number of orbits.
func (q *Quotient) Size() uint64 { return uint64(len(q.ranks)) }

// System is the system whose space this is.
func (q *Quotient) System() *model.System { return q.sp.sys }

// Space is the full configuration space the quotient reduces.
func (q *Quotient) Space() *Space { return q.sp }

// Rank is the rank of the representative of orbit d.
func (q *Quotient) Rank(d uint32) uint32 { return q.ranks[d] }

// ID is the orbit whose representative has rank r (r must be canonical).
func (q *Quotient) ID(r uint32) uint32 {
	return q.prefix[r/64] + uint32(bits.OnesCount64(q.canon[r/64]&(1<<(r%64)-1)))
}

// QuotientWalker loads the representatives of orbits and enumerates
// their steps, each to the orbit of its successor. It is not safe for
// concurrent use: give each goroutine its own.
type QuotientWalker struct {
	q   *Quotient
	cur *Cursor
	cz  *model.Canonizer
	img *model.State
}

// NewQuotientWalker returns a walker over the quotient.
func (q *Quotient) NewQuotientWalker() *QuotientWalker {
	return &QuotientWalker{q: q, cur: q.sp.NewCursor(), cz: q.cz.Clone(), img: q.sp.sys.NewState()}
}

// NewWalker returns a QuotientWalker, as a Walker.
func (q *Quotient) NewWalker() Walker { return q.NewQuotientWalker() }

// Load unranks the representative of orbit d into the walker's scratch
// state and returns it; the state is valid until the next call.
func (w *QuotientWalker) Load(d uint32) (*model.State, error) {
	return w.cur.Load(w.q.ranks[d])
}

// Successors calls fn for every step from st (any configuration, not only
// a representative) with the orbit of the successor and the successor
// itself, both valid only during the call. It returns the number of
// steps.
func (w *QuotientWalker) Successors(st *model.State, fn func(step *model.Step, to uint32, next *model.State)) (int, error) {
	return w.cur.ex.Expand(st, func(step *model.Step, next *model.State) bool {
		fn(step, w.OrbitOf(next), next)
		return true
	})
}

// OrbitOf returns the orbit of st.
func (w *QuotientWalker) OrbitOf(st *model.State) uint32 {
	w.img.CopyFrom(st)
	w.cz.Canonical(w.img)
	return w.q.ID(uint32(w.q.sp.sys.Rank(w.img)))
}

// OrbitSize is the number of configurations in st's orbit.
func (w *QuotientWalker) OrbitSize(st *model.State) int { return w.cz.OrbitSize(st) }

// Cursor is the walker's cursor over the full space, to rank concrete
// successors (Cursor.SuccessorsOf).
func (w *QuotientWalker) Cursor() *Cursor { return w.cur }

// Parallel calls fn for every orbit, on workers goroutines numbered
// 0..workers-1, each with its own walker, with the orbit's id and its
// representative, valid only during the call; orbits come in chunks of
// increasing id. The first error stops the walk and is returned; so does
// ctx's cancellation (as ctx.Err()).
func (q *Quotient) Parallel(ctx context.Context, workers int, fn func(worker int, w *QuotientWalker, d uint32, st *model.State) error) error {
	return parallelChunks(ctx, workers, q.Size(), q.NewQuotientWalker, func(worker int, w *QuotientWalker, lo, hi uint64) error {
		for d := lo; d < hi; d++ {
			st, err := w.Load(uint32(d))
			if err == nil {
				err = fn(worker, w, uint32(d), st)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// Orbit appends to dst the ranks of the configurations of orbit d,
// each once, in no particular order, and returns the extended slice.
func (q *Quotient) Orbit(d uint32, dst []uint32) ([]uint32, error) {
	sys := q.sp.sys
	rep, img := sys.NewState(), sys.NewState()
	if err := sys.Unrank(uint64(q.ranks[d]), rep); err != nil {
		return dst, err
	}
	start := len(dst)
	for g := range sys.GroupSize() {
		sys.Permute(g, rep, img)
		r := uint32(sys.Rank(img))
		seen := false
		for _, x := range dst[start:] {
			if x == r {
				seen = true
				break
			}
		}
		if !seen {
			dst = append(dst, r)
		}
	}
	return dst, nil
}

// Trace lifts the path of orbits ids to an execution of the full space:
// it starts at the representative of ids[0] and goes, from each
// configuration, to the first successor (in expansion order) in the next
// orbit. With closed set, ids is a cycle of the quotient: its lift ends
// in g·x, x its start, for an element g of the group, and the execution
// goes on with the images of the lift under g, g², … until it returns to
// x (at most the group's order times round); the last step leads back to
// the first state.
func (q *Quotient) Trace(ids []uint32, closed bool) ([]*model.State, []model.Step, error) {
	if len(ids) == 0 {
		return nil, nil, nil
	}
	sys := q.sp.sys
	w := q.NewQuotientWalker()
	first, err := w.Load(ids[0])
	if err != nil {
		return nil, nil, err
	}
	states := []*model.State{first.Clone()}
	hops := len(ids) - 1
	if closed {
		hops = len(ids)
	}
	for i := range hops {
		target := ids[(i+1)%len(ids)]
		var next *model.State
		if _, err := w.Successors(states[i], func(_ *model.Step, to uint32, succ *model.State) {
			if next == nil && to == target {
				next = succ.Clone()
			}
		}); err != nil {
			return nil, nil, err
		}
		if next == nil {
			return nil, nil, fmt.Errorf("spec %s: no step from configuration %d of the lift leads to orbit %d", sys.Name, i, target)
		}
		states = append(states, next)
	}
	if closed {
		if states, err = closeLift(sys, states); err != nil {
			return nil, nil, err
		}
	}
	steps, err := sys.StepsThrough(states, closed)
	if err != nil {
		return nil, nil, err
	}
	return states, steps, nil
}

// closeLift turns the lift x_0 … x_k of a cycle of the quotient, where
// x_k = g·x_0, into a cycle of the full space: x_0 … x_{k-1}, then their
// images under g, g², … up to the power that maps x_0 to itself. It
// returns the cycle's states without the repeated x_0.
func closeLift(sys *model.System, lift []*model.State) ([]*model.State, error) {
	k := len(lift) - 1
	x0, end := lift[0], lift[k]
	img := sys.NewState()
	g := -1
	for h := range sys.GroupSize() {
		sys.Permute(h, x0, img)
		if img.Equal(end) {
			g = h
			break
		}
	}
	if g < 0 {
		return nil, fmt.Errorf("spec %s: the lift of a cycle of the quotient ends outside the orbit of its start", sys.Name)
	}
	cycle := lift
	for round := 0; !cycle[len(cycle)-1].Equal(x0); round++ {
		if round >= sys.GroupSize() {
			return nil, fmt.Errorf("spec %s: the lift of a cycle of the quotient does not return to its start", sys.Name)
		}
		prev := cycle[len(cycle)-k:]
		for _, st := range prev {
			next := sys.NewState()
			sys.Permute(g, st, next)
			cycle = append(cycle, next)
		}
	}
	return cycle[:len(cycle)-1], nil
}
