package cluster

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/ringcheck/ringcheck/budget"
	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
)

// Defaults of WorkerOptions.
const (
	// DefaultBatch is how many successors a batch carries at most.
	DefaultBatch = 1024
	// DefaultCredit is how many batches a worker sends a peer before it
	// waits for the first to be acknowledged.
	DefaultCredit = 8
	// DefaultRetryAfter is how long a batch waits for its
	// acknowledgement before it is sent again.
	DefaultRetryAfter = 5 * time.Second
)

// WorkerOptions shape a worker.
type WorkerOptions struct {
	// Batch is the most successors a batch carries (0: DefaultBatch).
	Batch int
	// Credit bounds the batches sent to a peer and not yet acknowledged
	// (0: DefaultCredit).
	Credit int
	// RetryAfter is how long a batch waits for its acknowledgement
	// before it is sent again (0: DefaultRetryAfter); the owner drops a
	// batch it has received before.
	RetryAfter time.Duration
	// Memory, if not nil, bounds the worker's heap: the worker stops and
	// reports the budget's refusal once its store would pass it.
	Memory *budget.Memory
}

// Serve runs worker id of a partitioned search of sys for props (safety
// and deadlock; or closure and convergence, an analysis of every
// configuration) over tr, until the coordinator stops it, ctx is done or
// the transport fails.
func Serve(ctx context.Context, sys *model.System, props []invariants.Property, id int, tr Transport, opts WorkerOptions) error {
	if opts.Batch <= 0 {
		opts.Batch = DefaultBatch
	}
	if opts.Credit <= 0 {
		opts.Credit = DefaultCredit
	}
	if opts.RetryAfter <= 0 {
		opts.RetryAfter = DefaultRetryAfter
	}
	if stab, err := stabilityProperties(props); err != nil || stab {
		if err != nil {
			return err
		}
		return serveStability(ctx, sys, id, tr, opts)
	}
	judge, err := invariants.NewJudge(sys, props)
	if err != nil {
		return err
	}
	n := tr.Workers()
	w := &worker{
		sys: sys, tr: tr, id: id, n: n, judge: judge, opts: opts,
		st: newStore(sys.Words()), depth: -1, links: newLinks(tr, id, opts),
		sent: make([]int64, n), recvd: make([]int64, n), ends: make([]int64, n),
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	return w.loop(ctx)
}

type worker struct {
	sys   *model.System
	tr    Transport
	id, n int
	judge *invariants.Judge
	opts  WorkerOptions

	// mu guards st and the chunk's pending states: the loop inserts what
	// peers send while the expander inserts what it owns.
	mu sync.Mutex
	st *store
	// pending are the local indices of the states new in the chunk.
	pending []int32
	refused int64
	memErr  *budget.Exceeded

	// level are the local indices of the level being expanded, in the
	// order of their global ids; next those of the next level; pos the
	// first of level not expanded yet.
	level, next []int32
	pos         int
	depth       int

	// links number, acknowledge and send again the batches to and from
	// peers; sent[p] counts the batches sent to p in the chunk.
	links *links
	sent  []int64
	// recvd[p] counts p's batches of the chunk received; ends[p] is the
	// count p said it sent (-1: not said yet).
	recvd, ends []int64

	chunk     uint64
	expanding bool
	expanded  bool
	counts    Counts
}

// expansion is what the expander reports when it is done.
type expansion struct {
	trans, distinct int64
	err             error
}

func (w *worker) loop(ctx context.Context) error {
	msgs := make(chan *Message, 64)
	recvErr := make(chan error, 1)
	go func() {
		for {
			m, err := w.tr.Recv(ctx)
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
	for p := range w.ends {
		w.ends[p] = -1
	}
	done := make(chan expansion, 1)
	retry := time.NewTicker(w.opts.RetryAfter / 2)
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
		case x := <-done:
			w.expanding, w.expanded = false, true
			if x.err != nil {
				return w.fail(ctx, x.err)
			}
			w.counts.Transitions += x.trans
			w.counts.Distinct += x.distinct
			if err := w.maybeFinish(ctx); err != nil {
				return err
			}
		case m := <-msgs:
			stop, err := w.handle(ctx, m, done)
			if err != nil {
				return w.fail(ctx, err)
			}
			if stop {
				return nil
			}
		}
	}
}

// fail tells the coordinator why the worker stops, and returns err.
func (w *worker) fail(ctx context.Context, err error) error {
	w.tr.Send(ctx, Coordinator, &Message{Kind: KindFailed, From: w.id, Text: err.Error()})
	return err
}

func (w *worker) handle(ctx context.Context, m *Message, done chan expansion) (bool, error) {
	switch m.Kind {
	case KindBatch:
		p := m.From
		if p < 0 || p >= w.n {
			return false, fmt.Errorf("batch from unknown worker %d", p)
		}
		dup := !w.links.fresh(p, m.Seq)
		if !dup {
			w.mu.Lock()
			words := w.sys.Words()
			for i := range m.Parents {
				w.insert(m.Words[i*words:(i+1)*words], m.Parents[i], uint16(p), m.Steps[i], m.Last)
			}
			w.mu.Unlock()
			w.recvd[p]++
		}
		if err := w.tr.Send(ctx, p, &Message{Kind: KindAck, From: w.id, Seq: m.Seq}); err != nil {
			return false, err
		}
		if !dup {
			return false, w.maybeFinish(ctx)
		}
	case KindAck:
		if m.From < 0 || m.From >= w.n {
			return false, fmt.Errorf("ack from unknown worker %d", m.From)
		}
		w.links.acked(m.From, m.Seq)
	case KindEnd:
		w.ends[m.From] = m.Count
		return false, w.maybeFinish(ctx)
	case KindInit:
		words := w.sys.Words()
		w.mu.Lock()
		for i, g := range m.Parents {
			ws := m.Words[i*words : (i+1)*words]
			h := hashWords(ws)
			if w.st.find(ws, h) >= 0 {
				continue
			}
			w.next = append(w.next, int32(w.st.add(ws, h, g, noID, 0, 0)))
		}
		w.mu.Unlock()
	case KindExpand:
		if m.Depth != w.depth {
			w.level, w.next, w.pos, w.depth = w.next, nil, 0, m.Depth
		}
		w.chunk, w.expanding, w.expanded = m.Chunk, true, false
		go func() { done <- w.expand(ctx, m) }()
	case KindRanks:
		w.mu.Lock()
		if len(m.Parents) != len(w.pending) {
			w.mu.Unlock()
			return false, fmt.Errorf("chunk %d: %d ranks for %d new states", m.Chunk, len(m.Parents), len(w.pending))
		}
		for k, i := range w.pending {
			w.st.gid[i] = m.Parents[k]
			if m.Parents[k] != dropped {
				w.next = append(w.next, i)
			}
		}
		w.pending = w.pending[:0]
		w.mu.Unlock()
		return false, w.tr.Send(ctx, Coordinator, &Message{Kind: KindRanked, From: w.id, Chunk: m.Chunk})
	case KindPath:
		w.mu.Lock()
		i := slices.Index(w.st.gid, uint32(m.Lo))
		var r *Message
		if i < 0 {
			r = &Message{Kind: KindPathState, From: w.id, Count: -1}
		} else {
			r = &Message{Kind: KindPathState, From: w.id, Words: slices.Clone(w.st.state(i)), Parents: []uint32{w.st.parent[i]}, Count: int64(w.st.owner[i])}
		}
		w.mu.Unlock()
		return false, w.tr.Send(ctx, Coordinator, r)
	case KindStop:
		return true, nil
	case KindFailed:
		return false, errors.New(m.Text)
	}
	return false, nil
}

// insert offers the successor ws of state parent (owned by owner),
// reached by its step-th step, to the store: a new state is kept as
// pending in the chunk, with its least (parent, step); under the depth
// bound (last) it is refused. w.mu is held.
func (w *worker) insert(ws []uint64, parent uint32, owner uint16, step uint32, last bool) {
	if w.memErr != nil {
		return
	}
	h := hashWords(ws)
	i := w.st.find(ws, h)
	if i < 0 {
		if last {
			w.refused++
			return
		}
		if err := w.opts.Memory.Fits(uint64(w.st.bytes()), uint64(w.sys.Words()*8+40)); err != nil {
			w.memErr = &budget.Exceeded{}
			errors.As(err, &w.memErr)
			return
		}
		w.pending = append(w.pending, int32(w.st.add(ws, h, noID, parent, owner, step)))
		return
	}
	if w.st.gid[i] == noID && (parent < w.st.parent[i] || parent == w.st.parent[i] && step < w.st.step[i]) {
		w.st.parent[i], w.st.owner[i], w.st.step[i] = parent, owner, step
	}
}

// maybeFinish sends the chunk's keys to the coordinator once the worker
// has expanded its share and every peer's batches are in.
func (w *worker) maybeFinish(ctx context.Context) error {
	if !w.expanded {
		return nil
	}
	for p := range w.n {
		if p != w.id && (w.ends[p] < 0 || w.recvd[p] < w.ends[p]) {
			return nil
		}
	}
	w.expanded = false
	for p := range w.n {
		w.recvd[p], w.ends[p] = 0, -1
	}
	w.mu.Lock()
	st := w.st
	slices.SortFunc(w.pending, func(a, b int32) int {
		return cmp.Or(cmp.Compare(st.parent[a], st.parent[b]), cmp.Compare(st.step[a], st.step[b]))
	})
	m := &Message{Kind: KindKeys, From: w.id, Chunk: w.chunk, Parents: make([]uint32, len(w.pending)), Steps: make([]uint32, len(w.pending))}
	for k, i := range w.pending {
		m.Parents[k], m.Steps[k] = st.parent[i], st.step[i]
	}
	w.counts.Refused += w.refused
	w.refused = 0
	w.counts.StoreBytes = st.bytes()
	w.counts.States = int64(st.len())
	m.Counts = w.counts
	if e := w.memErr; e != nil {
		m.Counts.Budget = BudgetRefusal{Limit: int64(e.Limit), Held: int64(e.Heap), Need: int64(e.Need)}
	}
	w.mu.Unlock()
	m.Findings = w.judge.Findings()
	return w.tr.Send(ctx, Coordinator, m)
}

// expand expands the worker's states of global ids [m.Lo, m.Hi) and
// sends their successors to their owners.
func (w *worker) expand(ctx context.Context, m *Message) expansion {
	sys := w.sys
	words := sys.Words()
	ex := sys.NewExpander()
	cur := sys.NewState()
	packed := make([]uint64, words)
	out := make([]Message, w.n)
	var x expansion
	for p := range w.n {
		w.sent[p] = 0
	}
	flush := func(p int) error {
		b := &out[p]
		if len(b.Parents) == 0 {
			return nil
		}
		w.sent[p]++
		msg := &Message{Kind: KindBatch, Chunk: m.Chunk, Last: m.Last, Words: b.Words, Parents: b.Parents, Steps: b.Steps}
		*b = Message{}
		return w.links.send(ctx, p, msg)
	}
	var succ []uint64
	var hashes []uint64
	var sendErr error
	var parent uint32
	var step uint32
	var overflow model.Step
	hasOverflow := false
	yield := func(st *model.Step, next *model.State) bool {
		if st.Faulty() && !hasOverflow {
			overflow, hasOverflow = st.Clone(), true
		}
		sys.Pack(next, packed)
		h := hashWords(packed)
		succ = append(succ, packed...)
		hashes = append(hashes, h)
		p := ownerOf(h, w.n)
		if p == w.id {
			w.mu.Lock()
			w.insert(packed, parent, uint16(w.id), step, m.Last)
			w.mu.Unlock()
		} else {
			b := &out[p]
			b.Words = append(b.Words, packed...)
			b.Parents = append(b.Parents, parent)
			b.Steps = append(b.Steps, step)
			if len(b.Parents) >= w.opts.Batch {
				if err := flush(p); err != nil {
					sendErr = err
					return false
				}
			}
		}
		step++
		return true
	}
	for ; w.pos < len(w.level); w.pos++ {
		w.mu.Lock()
		i := w.level[w.pos]
		gid := w.st.gid[i]
		if int64(gid) >= m.Hi {
			w.mu.Unlock()
			break
		}
		sys.Unpack(w.st.state(int(i)), cur)
		w.mu.Unlock()
		parent, step, hasOverflow = gid, 0, false
		succ, hashes = succ[:0], hashes[:0]
		n, err := ex.Expand(cur, yield)
		if sendErr != nil {
			x.err = sendErr
			return x
		}
		if err != nil {
			x.err = fmt.Errorf("expanding state %d: %w", gid, err)
			return x
		}
		x.trans += int64(n)
		x.distinct += distinct(succ, hashes, words)
		v := explore.Visit{ID: explore.StateID(gid), Depth: m.Depth, State: cur, Successors: n}
		if hasOverflow {
			v.Overflow = &overflow
		}
		w.judge.Observe(&v)
	}
	for p := range w.n {
		if p == w.id {
			continue
		}
		if err := flush(p); err != nil {
			x.err = err
			return x
		}
		if err := w.tr.Send(ctx, p, &Message{Kind: KindEnd, From: w.id, Chunk: m.Chunk, Count: w.sent[p]}); err != nil {
			x.err = err
			return x
		}
	}
	return x
}

// distinct counts the distinct states among the packed states succ, of
// hashes hashes.
func distinct(succ, hashes []uint64, words int) int64 {
	idx := make([]int, len(hashes))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(hashes[a], hashes[b]) })
	var n int64
	for k, i := range idx {
		dup := false
		for j := k - 1; j >= 0 && hashes[idx[j]] == hashes[i]; j-- {
			if equal(succ[idx[j]*words:(idx[j]+1)*words], succ[i*words:(i+1)*words]) {
				dup = true
				break
			}
		}
		if !dup {
			n++
		}
	}
	return n
}
