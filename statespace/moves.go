package statespace

import (
	"context"
	"fmt"

	"github.com/ringcheck/ringcheck/model"
)

// movesOpen marks, in WorstMoves, a vertex on the search's path.
const movesOpen = ^uint32(0)

// WorstMoves returns the most moves an execution from a kept vertex takes
// before it reaches a vertex that is not kept, in a kept subgraph that has
// no cycle: the longest path where each step weighs the moves it makes
// (the processes that act in it, len(step.Moves): one under the central
// daemon, up to every enabled process under the distributed and
// synchronous ones). m, of one entry per vertex and all zero, is the
// search's scratch: each kept vertex ends with its greatest weight plus
// one. It runs one iterative
// depth-first search, expanding each kept vertex once with its own
// cursor; a cycle among kept vertices is an error (ErrCyclic), as is a
// cancelled ctx (its error).
func (sp *Space) WorstMoves(ctx context.Context, keep func(v uint32) bool, m []uint32) (worst uint64, err error) {
	if uint64(len(m)) != sp.size {
		return 0, fmt.Errorf("%d weights for %d configurations", len(m), sp.size)
	}
	c := sp.NewCursor()
	type edge struct{ to, moves uint32 }
	type frame struct {
		v      uint32
		lo, hi int // its steps in buf
		i      int // the next to look at
		best   uint32
	}
	var (
		stack []frame
		buf   []edge
		steps int
	)
	begin := func(v uint32) error {
		st, err := c.Load(v)
		if err != nil {
			return err
		}
		lo := len(buf)
		if _, err = c.Successors(st, func(step *model.Step, to uint32, _ *model.State) {
			buf = append(buf, edge{to: to, moves: uint32(len(step.Moves))})
		}); err != nil {
			return err
		}
		m[v] = movesOpen
		stack = append(stack, frame{v: v, lo: lo, hi: len(buf), i: lo})
		return nil
	}
	for r := uint64(0); r < sp.size; r++ {
		v := uint32(r)
		if m[v] != 0 || !keep(v) {
			continue
		}
		if err := begin(v); err != nil {
			return 0, err
		}
		for len(stack) > 0 {
			if steps++; steps&0xFFFF == 0 {
				if err := ctx.Err(); err != nil {
					return 0, err
				}
			}
			f := &stack[len(stack)-1]
			descended := false
			for ; f.i < f.hi; f.i++ {
				e := buf[f.i]
				if !keep(e.to) {
					f.best = max(f.best, e.moves)
					continue
				}
				switch m[e.to] {
				case movesOpen:
					return 0, ErrCyclic
				case 0:
					if err := begin(e.to); err != nil {
						return 0, err
					}
					descended = true
				default:
					f.best = max(f.best, e.moves+m[e.to]-1)
					continue
				}
				break
			}
			if descended {
				continue
			}
			f = &stack[len(stack)-1]
			if f.best >= movesOpen-1 {
				return 0, fmt.Errorf("a path of more than %d moves", movesOpen-2)
			}
			m[f.v] = f.best + 1
			worst = max(worst, uint64(f.best))
			buf = buf[:f.lo]
			stack = stack[:len(stack)-1]
		}
	}
	return worst, nil
}
