package cluster

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/ringcheck/ringcheck/budget"
	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/statespace"
)

// ranges partitions the ranks 0..size-1 of a full configuration space
// over n workers in contiguous ranges of span ranks (the last may be
// shorter): the owner of a rank is computed, never looked up.
type ranges struct {
	size, span uint64
}

func newRanges(size uint64, n int) ranges {
	return ranges{size: size, span: max(1, (size+uint64(n)-1)/uint64(n))}
}

// owner is the worker that owns rank r.
func (p ranges) owner(r uint32) int { return int(uint64(r) / p.span) }

// of is the range [lo, hi) of ranks worker k owns.
func (p ranges) of(k int) (lo, hi uint64) {
	lo = min(p.size, uint64(k)*p.span)
	return lo, min(p.size, lo+p.span)
}

// maxLevel is the deepest level of the elimination: the single process
// records heights in 16 bits, one value of which marks the unbounded.
const maxLevel = math.MaxUint16 - 1

// stabilityWorker is one worker's part in an analysis of closure and
// convergence from every configuration: the configurations of its range
// of ranks, swept, and the elimination of those outside L level by level.
type stabilityWorker struct {
	sys   *model.System
	sp    *statespace.Space
	tr    Transport
	id, n int
	opts  WorkerOptions
	links *links
	part  ranges
	lo    uint64

	// mu guards what follows: the loop applies the peers' batches while
	// the job (a sweep, a level) runs.
	mu sync.Mutex
	// inL and dead mark the worker's configurations in L and outside L
	// with no step, by index (rank - lo).
	inL, dead statespace.Bits
	// deg is, for each configuration outside L, its distinct successors
	// outside L not removed yet; level the level it was removed at (0:
	// not removed).
	deg   []uint32
	level []uint16
	// edges are the reverse edges received, target index << 32 | source
	// rank, in segments of edgeSegment (so that they grow without a copy),
	// nedges of them, until the first level sorts them into off and src:
	// the predecessors of index i are src[off[i]:off[i+1]].
	edges    [][]uint64
	nedges   uint64
	off, src []uint32
	// due[k] are the indices removed at level k: at level 1 those whose
	// successors are all in L, at level k > 1 those whose last successor
	// outside L was removed at level k-1.
	due map[int][]uint32
	// held is the bytes counted against the budget; memErr its refusal.
	held   uint64
	memErr *budget.Exceeded
	counts Counts
}

// serveStability runs worker id of an analysis of every configuration
// of sys over tr, until the coordinator stops it.
func serveStability(ctx context.Context, sys *model.System, id int, tr Transport, opts WorkerOptions) error {
	sp, err := stabilitySpace(sys)
	if err != nil {
		tr.Send(ctx, Coordinator, &Message{Kind: KindFailed, From: id, Text: err.Error()})
		return err
	}
	n := tr.Workers()
	w := &stabilityWorker{sys: sys, sp: sp, tr: tr, id: id, n: n, opts: opts, links: newLinks(tr, id, opts),
		part: newRanges(sp.Size(), n), due: map[int][]uint32{}}
	lo, hi := w.part.of(id)
	// The arrays are there before the sweep: a peer's edges may come
	// first.
	local := hi - lo
	w.lo, w.inL, w.dead = lo, statespace.NewBits(local), statespace.NewBits(local)
	w.deg, w.level = make([]uint32, local), make([]uint16, local)
	w.grow(2*((local+63)/64*8) + 6*local)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	msgs := make(chan *Message, 64)
	recvErr := make(chan error, 1)
	go func() {
		for {
			m, err := tr.Recv(ctx)
			if err != nil {
				recvErr <- err
				return
			}
			select {
			case msgs <- m:
			case <-ctx.Done():
				return
			}
		}
	}()
	done := make(chan error, 1)
	retry := time.NewTicker(opts.RetryAfter / 2)
	defer retry.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-retry.C:
			if err := w.links.resend(ctx); err != nil {
				return err
			}
		case err := <-recvErr:
			return err
		case err := <-done:
			if err != nil {
				return w.fail(ctx, err)
			}
		case m := <-msgs:
			switch m.Kind {
			case KindStop:
				return nil
			case KindFailed:
				return errors.New(m.Text)
			case KindSweep:
				if uint64(m.Lo) != lo || uint64(m.Hi) != hi {
					return w.fail(ctx, fmt.Errorf("worker %d: the coordinator gives ranks [%d, %d), the worker owns [%d, %d) of a space of %d: another model", id, m.Lo, m.Hi, lo, hi, sp.Size()))
				}
				go func() { done <- w.sweep(ctx, hi, m.Last) }()
			case KindLevel:
				go func() { done <- w.remove(ctx, m.Depth) }()
			default:
				if err := w.handle(ctx, m); err != nil {
					return w.fail(ctx, err)
				}
			}
		}
	}
}

// stabilitySpace is the full space of sys, for an analysis of closure
// and convergence from every configuration.
func stabilitySpace(sys *model.System) (*statespace.Space, error) {
	if sys.Legitimate == nil {
		return nil, fmt.Errorf("spec %s declares no legitimacy predicate, so closure and convergence mean nothing for it", sys.Name)
	}
	return statespace.NewSpace(sys)
}

// fail tells the coordinator why the worker stops, and returns err.
func (w *stabilityWorker) fail(ctx context.Context, err error) error {
	w.tr.Send(ctx, Coordinator, &Message{Kind: KindFailed, From: w.id, Text: err.Error()})
	return err
}

// handle applies a peer's batch or answers the coordinator's question.
func (w *stabilityWorker) handle(ctx context.Context, m *Message) error {
	switch m.Kind {
	case KindAck:
		w.links.acked(m.From, m.Seq)
	case KindEdges, KindDecrements:
		if m.From < 0 || m.From >= w.n {
			return fmt.Errorf("a batch from unknown worker %d", m.From)
		}
		if w.links.fresh(m.From, m.Seq) {
			w.mu.Lock()
			var err error
			if m.Kind == KindEdges {
				err = w.addEdges(m.Parents, m.Steps)
			} else {
				err = w.decrement(m.Parents, m.Depth)
			}
			w.mu.Unlock()
			if err != nil {
				return err
			}
		}
		return w.tr.Send(ctx, m.From, &Message{Kind: KindAck, From: w.id, Seq: m.Seq})
	case KindHeight:
		w.mu.Lock()
		h, err := w.height(m.Lo)
		w.mu.Unlock()
		if err != nil {
			return err
		}
		return w.tr.Send(ctx, Coordinator, &Message{Kind: KindHeightIs, From: w.id, Lo: m.Lo, Count: h})
	case KindRemaining:
		w.mu.Lock()
		r := &Message{Kind: KindRemainingIs, From: w.id, Lo: -1}
		for i := range w.deg {
			if w.inL.Has(uint32(i)) || w.level[i] != 0 {
				continue
			}
			dead := w.dead.Has(uint32(i))
			if !dead && r.Lo < 0 {
				r.Lo = int64(w.lo) + int64(i)
			}
			if m.Last {
				r.Parents = append(r.Parents, uint32(w.lo)+uint32(i))
				if dead {
					r.Steps = append(r.Steps, uint32(w.lo)+uint32(i))
				}
			}
		}
		w.mu.Unlock()
		return w.tr.Send(ctx, Coordinator, r)
	}
	return nil
}

// height is the level of configuration rank (owned here): the level it
// was removed at, 0 in L, -1 remaining, -2 dead. w.mu is held.
func (w *stabilityWorker) height(rank int64) (int64, error) {
	i := rank - int64(w.lo)
	if i < 0 || i >= int64(len(w.deg)) {
		return 0, fmt.Errorf("worker %d: configuration %d is not its own", w.id, rank)
	}
	switch v := uint32(i); {
	case w.inL.Has(v):
		return 0, nil
	case w.level[v] != 0:
		return int64(w.level[v]), nil
	case w.dead.Has(v):
		return -2, nil
	}
	return -1, nil
}

// grow counts need more bytes against the budget; a refusal is kept, and
// what needed the bytes is not kept. w.mu is held.
func (w *stabilityWorker) grow(need uint64) bool {
	if w.memErr != nil {
		return false
	}
	if err := w.opts.Memory.Fits(w.held, need); err != nil {
		w.memErr = &budget.Exceeded{}
		errors.As(err, &w.memErr)
		w.memErr.Detail = fmt.Sprintf("worker %d keeps the reverse edges of its configurations outside L", w.id)
		return false
	}
	w.held += need
	return true
}

// addEdges stores the reverse edges source → target (targets owned
// here). w.mu is held.
func (w *stabilityWorker) addEdges(targets, sources []uint32) error {
	if len(targets) != len(sources) {
		return fmt.Errorf("a batch of %d edges with %d sources", len(targets), len(sources))
	}
	if !w.grow(8 * uint64(len(targets))) {
		return nil
	}
	for k, t := range targets {
		i := uint64(t) - w.lo
		if uint64(t) < w.lo || i >= uint64(len(w.deg)) {
			return fmt.Errorf("worker %d: an edge to configuration %d, not its own", w.id, t)
		}
		if w.nedges%edgeSegment == 0 {
			w.edges = append(w.edges, make([]uint64, 0, edgeSegment))
		}
		last := len(w.edges) - 1
		w.edges[last] = append(w.edges[last], i<<32|uint64(sources[k]))
		w.nedges++
	}
	return nil
}

// edgeSegment is how many reverse edges a segment holds.
const edgeSegment = 1 << 16

// decrement removes a successor from each of the configurations ranks
// (owned here), removed at level k: those left with none are removed at
// level k+1. w.mu is held.
func (w *stabilityWorker) decrement(ranks []uint32, k int) error {
	for _, r := range ranks {
		i := uint64(r) - w.lo
		if uint64(r) < w.lo || i >= uint64(len(w.deg)) || w.deg[i] == 0 {
			return fmt.Errorf("worker %d: a decrement of configuration %d, not its own or with no successor left", w.id, r)
		}
		w.deg[i]--
		if w.deg[i] == 0 {
			w.due[k+1] = append(w.due[k+1], uint32(i))
		}
	}
	return nil
}

// sweep sweeps the configurations [w.lo, hi): L, closure, the dead ones,
// the faulty steps and the counts, and with edges the out-degree of each
// configuration outside L and its reverse edges, sent to the owners of
// their targets. It reports KindSwept once its edges are acknowledged.
func (w *stabilityWorker) sweep(ctx context.Context, hi uint64, edges bool) error {
	sys, local := w.sys, hi-w.lo
	legit, closesFrom := sys.Legitimate.Holds, invariants.ClosureFrom(sys)
	c := w.sp.NewCursor()
	st := sys.NewState()
	var closure, dead invariants.Finding
	var legitimate, faulty, outside, deadCount uint64
	var ranks, out []uint32
	batches := make([]Message, w.n)
	flush := func(p int) error {
		b := &batches[p]
		if len(b.Parents) == 0 {
			return nil
		}
		m := &Message{Kind: KindEdges, Parents: b.Parents, Steps: b.Steps}
		*b = Message{}
		return w.links.send(ctx, p, m)
	}
	if local > 0 {
		if err := sys.Unrank(w.lo, st); err != nil {
			return err
		}
	}
	for i := range local {
		if i&(1<<14-1) == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		r := uint32(w.lo + i)
		ranks = ranks[:0]
		if legit(st) {
			w.mu.Lock()
			w.inL.Set(uint32(i))
			w.mu.Unlock()
			legitimate++
			closes := closesFrom(st)
			n, err := c.SuccessorsOf(st, r, func(_ *model.Step, to uint32, next *model.State) {
				ranks = append(ranks, to)
				if closes && !legit(next) && (!closure.Found || r < uint32(closure.ID) || r == uint32(closure.ID) && int(to) < closure.Detail) {
					closure = invariants.Finding{Found: true, ID: explore.StateID(r), Detail: int(to)}
				}
			})
			if err != nil {
				return err
			}
			w.counts.Transitions += int64(n)
			w.counts.Distinct += int64(explore.CountDistinct(ranks))
		} else {
			outside++
			out = out[:0]
			isFaulty := false
			n, err := c.SuccessorsOf(st, r, func(step *model.Step, to uint32, next *model.State) {
				ranks = append(ranks, to)
				isFaulty = isFaulty || step.Faulty()
				if edges && !legit(next) {
					out = append(out, to)
				}
			})
			if err != nil {
				return err
			}
			w.counts.Transitions += int64(n)
			w.counts.Distinct += int64(explore.CountDistinct(ranks))
			if isFaulty {
				faulty++
			}
			if n == 0 {
				deadCount++
				w.mu.Lock()
				w.dead.Set(uint32(i))
				w.mu.Unlock()
				if !dead.Found {
					dead = invariants.Finding{Found: true, ID: explore.StateID(r)}
				}
			}
			slices.Sort(out)
			out = slices.Compact(out)
			w.mu.Lock()
			w.deg[i] = uint32(len(out))
			var err2 error
			for _, t := range out {
				if p := w.part.owner(t); p == w.id {
					err2 = w.addEdges([]uint32{t}, []uint32{r})
				} else {
					batches[p].Parents = append(batches[p].Parents, t)
					batches[p].Steps = append(batches[p].Steps, r)
				}
			}
			w.mu.Unlock()
			if err2 != nil {
				return err2
			}
			for _, t := range out {
				if p := w.part.owner(t); p != w.id && len(batches[p].Parents) >= w.opts.Batch {
					if err := flush(p); err != nil {
						return err
					}
				}
			}
		}
		w.counts.States++
		sys.NextRank(st)
	}
	for p := range w.n {
		if err := flush(p); err != nil {
			return err
		}
	}
	if err := w.links.drain(ctx); err != nil {
		return err
	}
	if edges {
		// Level 1: the configurations outside L with a step, every one
		// to L; fixed now, before any decrement (a peer may start level
		// 1 before this worker is asked to).
		w.mu.Lock()
		for i, d := range w.deg {
			if d == 0 && !w.inL.Has(uint32(i)) && !w.dead.Has(uint32(i)) {
				w.due[1] = append(w.due[1], uint32(i))
			}
		}
		w.mu.Unlock()
	}
	m := &Message{Kind: KindSwept, From: w.id, Findings: invariants.Findings{Invariant: closure, Deadlock: dead},
		Words: []uint64{legitimate, faulty, outside, deadCount}}
	w.mu.Lock()
	m.Counts = w.countsNow()
	w.mu.Unlock()
	return w.tr.Send(ctx, Coordinator, m)
}

// countsNow is what the worker reports: its counts, the bytes it holds
// and the budget's refusal. w.mu is held.
func (w *stabilityWorker) countsNow() Counts {
	c := w.counts
	c.StoreBytes = int64(w.held)
	if e := w.memErr; e != nil {
		c.Budget = BudgetRefusal{Limit: int64(e.Limit), Held: int64(e.Heap), Need: int64(e.Need)}
	}
	return c
}

// index sorts the reverse edges into off and src by target (a counting
// sort, each segment freed once sorted), once.
func (w *stabilityWorker) index() {
	w.off = make([]uint32, len(w.deg)+1)
	w.src = make([]uint32, w.nedges)
	for _, seg := range w.edges {
		for _, e := range seg {
			w.off[e>>32+1]++
		}
	}
	for i := range len(w.deg) {
		w.off[i+1] += w.off[i]
	}
	next := slices.Clone(w.off[:len(w.deg)])
	for k, seg := range w.edges {
		for _, e := range seg {
			t := e >> 32
			w.src[next[t]] = uint32(e)
			next[t]++
		}
		w.edges[k] = nil
	}
	w.edges, w.nedges = nil, 0
}

// remove removes the configurations of level k: at level 1, those
// outside L, not dead, whose successors are all in L; at level k > 1,
// those whose last successor outside L was removed at level k-1. Each
// removed configuration's predecessors lose a successor, by a decrement
// sent to their owner. It reports KindLevelDone once the decrements are
// acknowledged.
//
// A configuration v removed at level k has h(v) = k, where h(v) = 1 +
// the greatest h of v's successors outside L (0 when there are none),
// the single process's worst case in steps: by induction on k, level 1
// removes exactly the configurations outside L with a step and every
// successor in L (h = 1); a configuration is removed at level k+1 when
// the last of its successors outside L is removed, at level k, the
// others at levels at most k, so the greatest h of its successors is k
// and h(v) = k+1. A configuration from which a path outside L reaches a
// cycle or a dead configuration never loses its last successor, and is
// never removed.
func (w *stabilityWorker) remove(ctx context.Context, k int) error {
	w.mu.Lock()
	if k > maxLevel {
		w.mu.Unlock()
		return fmt.Errorf("configurations that need more than %d steps to reach L, more than ringcheck records", maxLevel)
	}
	if w.off == nil && w.nedges > math.MaxUint32 {
		w.mu.Unlock()
		return fmt.Errorf("worker %d: %d reverse edges, more than an index of 32 bits holds", w.id, w.nedges)
	}
	if w.off == nil && w.grow(8*uint64(len(w.deg)+1)+4*w.nedges) {
		w.held -= 8*w.nedges + 4*uint64(len(w.deg)) // the edges, once sorted into src, and the cursors
		w.index()
	}
	if w.memErr != nil {
		// An edge was refused (here or on receipt): the elimination
		// would be wrong, and the coordinator ends the run.
		m := &Message{Kind: KindLevelDone, From: w.id, Depth: k, Lo: -1, Counts: w.countsNow()}
		w.mu.Unlock()
		return w.tr.Send(ctx, Coordinator, m)
	}
	level := w.due[k]
	delete(w.due, k)
	least := int64(-1)
	for _, i := range level {
		w.level[i] = uint16(k)
		if r := int64(w.lo) + int64(i); least < 0 || r < least {
			least = r
		}
	}
	w.mu.Unlock()
	batches := make([][]uint32, w.n)
	for _, i := range level {
		w.mu.Lock()
		preds := w.src[w.off[i]:w.off[i+1]]
		var err error
		for _, p := range preds {
			if o := w.part.owner(p); o == w.id {
				if err = w.decrement([]uint32{p}, k); err != nil {
					break
				}
			} else {
				batches[o] = append(batches[o], p)
			}
		}
		w.mu.Unlock()
		if err != nil {
			return err
		}
		for o := range w.n {
			if len(batches[o]) >= w.opts.Batch {
				if err := w.links.send(ctx, o, &Message{Kind: KindDecrements, Depth: k, Parents: batches[o]}); err != nil {
					return err
				}
				batches[o] = nil
			}
		}
	}
	for o := range w.n {
		if len(batches[o]) > 0 {
			if err := w.links.send(ctx, o, &Message{Kind: KindDecrements, Depth: k, Parents: batches[o]}); err != nil {
				return err
			}
		}
	}
	if err := w.links.drain(ctx); err != nil {
		return err
	}
	w.mu.Lock()
	m := &Message{Kind: KindLevelDone, From: w.id, Depth: k, Count: int64(len(level)), Lo: least, Counts: w.countsNow()}
	w.mu.Unlock()
	return w.tr.Send(ctx, Coordinator, m)
}
