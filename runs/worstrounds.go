package runs

import (
	"context"
	"fmt"
	"math/bits"

	"github.com/ringcheck/ringcheck/budget"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/statespace"
)

// DefaultRoundsLimit bounds the worst-case rounds computation when there
// is no memory budget: the number of (configuration, pending set) states
// it may need to index, at 2 bytes each.
const DefaultRoundsLimit = 1 << 28

// WorstRounds computes the worst case, over every configuration outside L
// and every schedule, of the number of asynchronous rounds before L is
// reached. A round (Dolev, Self-Stabilization, 2000, §2) is the shortest
// stretch of an execution in which every process enabled at its start
// either moves or is disabled (neutralized) at some configuration of it;
// the next round starts where it ends. The rounds an execution takes to
// reach L count the round during which L is first reached.
//
// It works on the product of configurations and pending sets (the
// processes of the current round that have neither moved nor been
// neutralized), which is acyclic when the configurations outside L are (the
// only case it is called for):
//
//	R(v, P) = max over steps v→w with movers M of
//	          1                  if w ∈ L
//	          1 + R(w, En(w))    if P' = P ∖ M ∖ {p disabled in w} is empty
//	          R(w, P')           otherwise
//
// The pending set of v is a subset of v's enabled processes En(v), so the
// memo is a flat array of 2^|En(v)| entries per configuration outside L,
// and the search an iterative depth-first search. When that array would
// exceed limit entries (limit > 0), or the memory budget mem refuses what
// the computation needs, it gives up and says why; with neither a limit
// nor a budget, the limit is DefaultRoundsLimit.
func WorstRounds(ctx context.Context, sp *statespace.Space, inL statespace.Bits, workers, limit int, mem *budget.Memory) (worst int, at uint32, note string, err error) {
	n := sp.System().N()
	if n > 31 {
		return 0, 0, "more than 31 processes", nil
	}
	if limit <= 0 && mem == nil {
		limit = DefaultRoundsLimit
	}
	size := sp.Size()
	// First pass: the size of the memo, before allocating anything.
	totals := make([]struct {
		n uint64
		_ [56]byte
	}, max(1, workers))
	err = sp.Parallel(ctx, workers, func(w int, c *statespace.Cursor, v uint32, st *model.State) error {
		if inL.Has(v) {
			return nil
		}
		m, err := c.Enabled(st)
		totals[w].n += 1 << bits.OnesCount64(m)
		return err
	})
	if err != nil {
		return 0, 0, "", err
	}
	var total uint64
	for _, t := range totals {
		total += t.n
	}
	if limit > 0 && total > uint64(limit) {
		return 0, 0, fmt.Sprintf("the (configuration, pending processes) product has %d states, over the limit of %d", total, limit), nil
	}
	// The memo (2 bytes a product state), the enabled sets and offsets
	// (12 bytes a configuration).
	need := 2*total + 12*size
	if err := mem.Grow(need); err != nil {
		return 0, 0, fmt.Sprintf("the (configuration, pending processes) product has %d states and needs %s, over the memory budget of %s", total, budget.Size(need), budget.Size(mem.Limit())), nil
	}
	en := make([]uint32, size)
	err = sp.Parallel(ctx, workers, func(_ int, c *statespace.Cursor, v uint32, st *model.State) error {
		m, err := c.Enabled(st)
		en[v] = uint32(m)
		return err
	})
	if err != nil {
		return 0, 0, "", err
	}
	off := make([]uint64, size)
	var next uint64
	for v := range off {
		off[v] = next
		if !inL.Has(uint32(v)) {
			next += 1 << bits.OnesCount32(en[v])
		}
	}
	const unknown = 0xFFFF
	memo := make([]uint16, total)
	for lo := 0; lo < len(memo); lo += 1 << 24 {
		// Gigabytes to fill: the context is polled between pieces.
		if err := ctx.Err(); err != nil {
			return 0, 0, "", err
		}
		piece := memo[lo:min(len(memo), lo+1<<24)]
		for i := range piece {
			piece[i] = unknown
		}
	}
	// index of (v, p): p's bits compressed to the positions of En(v).
	index := func(v uint32, p uint32) uint64 {
		var idx uint64
		j := 0
		for e := en[v]; e != 0; e &= e - 1 {
			if p&(e&-e) != 0 {
				idx |= 1 << j
			}
			j++
		}
		return off[v] + idx
	}
	type frame struct {
		v      uint32
		p      uint32
		lo, hi int
		i      int
		best   int
	}
	type succ struct {
		to     uint32
		movers uint32
	}
	cur := sp.NewCursor()
	var (
		buf    []succ
		stack  []frame
		pushes int
	)
	push := func(v, p uint32) error {
		// A search from one configuration may cover most of the
		// product: the context is polled along it.
		if pushes++; pushes&0xFF == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		st, err := cur.Load(v)
		if err != nil {
			return err
		}
		lo := len(buf)
		_, err = cur.Successors(st, func(step *model.Step, to uint32, _ *model.State) {
			buf = append(buf, succ{to: to, movers: uint32(moverMask(step))})
		})
		stack = append(stack, frame{v: v, p: p, lo: lo, hi: len(buf), i: lo})
		return err
	}
	for s := uint64(0); s < size; s++ {
		v := uint32(s)
		if inL.Has(v) {
			continue
		}
		if s&0xFFF == 0 {
			if err := ctx.Err(); err != nil {
				return 0, 0, "", err
			}
		}
		if memo[index(v, en[v])] == unknown {
			if err := push(v, en[v]); err != nil {
				return 0, 0, "", err
			}
		}
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			descended := false
			for ; f.i < f.hi; f.i++ {
				e := buf[f.i]
				r := 1
				if !inL.Has(e.to) {
					rest := f.p &^ e.movers & en[e.to]
					nextP, add := rest, 0
					if rest == 0 {
						nextP, add = en[e.to], 1
					}
					got := memo[index(e.to, nextP)]
					if got == unknown {
						if err := push(e.to, nextP); err != nil {
							return 0, 0, "", err
						}
						descended = true
						break
					}
					r = add + int(got)
				}
				f.best = max(f.best, r)
			}
			if descended {
				continue
			}
			done := stack[len(stack)-1]
			if done.best >= unknown {
				return 0, 0, "", fmt.Errorf("more than %d rounds", unknown-1)
			}
			memo[index(done.v, done.p)] = uint16(done.best)
			buf = buf[:done.lo]
			stack = stack[:len(stack)-1]
		}
		if r := int(memo[index(v, en[v])]); r > worst {
			worst, at = r, v
		}
	}
	return worst, at, "", nil
}
