package cluster

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/ringcheck/ringcheck/budget"
	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
)

// LostError is the error of a run that lost a worker: the worker stopped
// answering or failed. Name is the worker's name, when known.
type LostError struct {
	Worker int
	Name   string
	Why    string
}

// Error names the worker and says why it was lost.
func (e *LostError) Error() string {
	if e.Name != "" {
		return fmt.Sprintf("worker %d (%s) was lost: %s", e.Worker, e.Name, e.Why)
	}
	return fmt.Sprintf("worker %d was lost: %s", e.Worker, e.Why)
}

// WorkerProgress is one worker's share of a running search.
type WorkerProgress struct {
	Worker      int
	States      int64
	Transitions int64
	// StoreBytes is the memory of its store; Heap its heap, as its last
	// heartbeat said, and PeakHeap the largest a heartbeat said (0: none
	// yet, or a transport without heartbeats).
	StoreBytes, Heap, PeakHeap int64
}

// Options bound and shape a partitioned search.
type Options struct {
	// Properties are safety and deadlock (from init), or closure and
	// convergence (from every configuration), in the report's order.
	Properties []invariants.Property
	// Fairness is convergence's fairness ("": none).
	Fairness invariants.Fairness
	// Search bounds the search as it bounds explore.BFS: MaxDepth,
	// MaxStates, TimeLimit, Start and Progress (ProgressEvery) apply; the
	// memory budget applies per worker (WorkerOptions.Memory).
	Search explore.Options
	// WorkerProgress, if set, is called with each worker's share when
	// Search.Progress is.
	WorkerProgress func([]WorkerProgress)
	// Names are the workers' names, for the report of a lost one.
	Names []string
}

// Check runs the coordinator of a partitioned breadth-first search of
// sys over tr, whose workers run Serve, and returns the report that
// invariants.Check gives on one process: the same counts, verdicts and
// counterexamples. A worker lost or failed, or a cancelled ctx, ends the
// search with a partial report: every property unknown, the reason
// naming the worker lost (a *LostError's text). The workers are stopped
// when Check returns.
//
// With closure and convergence as the properties, it runs instead the
// coordinator of an analysis of every configuration (workers partitioned
// by ranges of ranks; see checkStability), whose report is the one
// invariants.Check gives from every configuration on one process, but
// for the worst case in rounds (RoundsNote) and, under another daemon
// than the central one, in moves, neither computed; a stop (the time
// limit, ctx, a lost worker, a worker's memory budget) leaves every
// property unknown.
func Check(ctx context.Context, sys *model.System, tr Transport, opts Options) (*invariants.Report, error) {
	stab, err := stabilityProperties(opts.Properties)
	if err != nil {
		return nil, err
	}
	for _, p := range opts.Properties {
		if !stab && p != invariants.Safety && p != invariants.Deadlock {
			return nil, fmt.Errorf("property %s: a partitioned search decides safety and deadlock from init, closure and convergence from every configuration", p)
		}
	}
	if opts.Search.TimeLimit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Search.TimeLimit)
		defer cancel()
	}
	c := &coordinator{sys: sys, tr: tr, n: tr.Workers(), opts: opts, start: time.Now(), perWorker: make([]WorkerProgress, tr.Workers()), found: make([]invariants.Findings, tr.Workers())}
	defer c.stopWorkers()
	if stab {
		return c.checkStability(ctx)
	}
	res, err := c.search(ctx)
	var lost *LostError
	switch {
	case errors.As(err, &lost):
		if lost.Worker >= 0 && lost.Worker < len(opts.Names) {
			lost.Name = opts.Names[lost.Worker]
		}
		return c.partial(explore.Interrupted, lost.Error()), nil
	case err != nil && ctx.Err() != nil:
		// Stopped in the middle of a chunk: what the chunks done found
		// stands, its paths asked of the workers after the stop.
		why := stopReason(ctx.Err())
		partial := c.res
		partial.Stop, partial.Elapsed = why, time.Since(c.start)
		after, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		partial.SetPaths(func(id explore.StateID) ([]*model.State, []model.Step, error) { return c.path(after, id) })
		if rep, err := invariants.JudgedReport(sys, opts.Properties, &partial, c.findings); err == nil {
			return rep, nil
		}
		return c.partial(why, why.String()), nil
	case err != nil:
		return nil, err
	}
	res.SetPaths(func(id explore.StateID) ([]*model.State, []model.Step, error) { return c.path(ctx, id) })
	return invariants.JudgedReport(sys, opts.Properties, res, c.findings)
}

// partial is the report of a search stopped by why before it ended:
// the counts so far, and every property unknown for reason.
func (c *coordinator) partial(why explore.StopReason, reason string) *invariants.Report {
	res := c.res
	res.Stop, res.Elapsed = why, time.Since(c.start)
	rep := &invariants.Report{Search: &res}
	for _, p := range c.opts.Properties {
		rep.Outcomes = append(rep.Outcomes, invariants.Outcome{Property: p, Verdict: invariants.Unknown, Reason: reason})
	}
	return rep
}

type coordinator struct {
	// res holds the counts of the chunks done.
	res   explore.Result
	sys   *model.System
	tr    Transport
	n     int
	opts  Options
	start time.Time
	// findings merges the workers'; found[k] are worker k's.
	findings  invariants.Findings
	found     []invariants.Findings
	perWorker []WorkerProgress
	lastPrint time.Time
}

// stopWorkers ends every worker's part.
func (c *coordinator) stopWorkers() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	for k := range c.n {
		c.tr.Send(ctx, k, &Message{Kind: KindStop, From: Coordinator})
	}
}

// recv returns the next message of kind want, failing on a worker's
// failure or loss.
func (c *coordinator) recv(ctx context.Context, want Kind) (*Message, error) {
	for {
		m, err := c.tr.Recv(ctx)
		if err != nil {
			return nil, err
		}
		switch m.Kind {
		case want:
			return m, nil
		case KindFailed:
			return nil, &LostError{Worker: m.From, Why: m.Text}
		case KindHeartbeat:
			if m.From >= 0 && m.From < c.n {
				w := &c.perWorker[m.From]
				w.Heap, w.PeakHeap = m.Counts.Heap, max(w.PeakHeap, m.Counts.Heap)
			}
		}
	}
}

// key is a new state's smallest parent and step; from is its owner, at
// index in the owner's sorted keys.
type key struct {
	parent, step uint32
	from, index  int
}

type keyHeap []key

func (h keyHeap) Len() int { return len(h) }
func (h keyHeap) Less(i, j int) bool {
	return h[i].parent < h[j].parent || h[i].parent == h[j].parent && h[i].step < h[j].step
}
func (h keyHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *keyHeap) Push(x any)   { *h = append(*h, x.(key)) }
func (h *keyHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

func (c *coordinator) search(ctx context.Context) (*explore.Result, error) {
	sys := c.sys
	words := sys.Words()
	maxStates := int64(math.MaxUint32 - 2)
	if m := c.opts.Search.MaxStates; m > 0 && m < maxStates {
		maxStates = m
	}
	starts := c.opts.Search.Start
	if starts == nil {
		starts = sys.Initial()
	}
	// The initial configurations, numbered in order, each once.
	inits := make([]Message, c.n)
	seen := map[string]bool{}
	var states int64
	truncStates, truncDepth := false, false
	packed := make([]uint64, words)
	for _, st := range starts {
		sys.Pack(st, packed)
		k := fmt.Sprint(packed)
		if seen[k] {
			continue
		}
		if states >= maxStates {
			truncStates = true
			continue
		}
		seen[k] = true
		o := ownerOf(hashWords(packed), c.n)
		inits[o].Words = append(inits[o].Words, packed...)
		inits[o].Parents = append(inits[o].Parents, uint32(states))
		states++
	}
	for k := range c.n {
		m := inits[k]
		m.Kind, m.From = KindInit, Coordinator
		if err := c.tr.Send(ctx, k, &m); err != nil {
			return nil, err
		}
	}
	res := &explore.Result{}
	var stop explore.StopReason
	var exceeded *budget.Exceeded
	stopped := false
	depth := 0
	var chunk uint64
	lo, hi := int64(0), states
	for lo < hi && !stopped {
		last := c.opts.Search.MaxDepth > 0 && depth >= c.opts.Search.MaxDepth
		for clo := lo; clo < hi; {
			chi := min(hi, clo+explore.DecideEvery)
			chunk++
			for k := range c.n {
				if err := c.tr.Send(ctx, k, &Message{Kind: KindExpand, From: Coordinator, Chunk: chunk, Depth: depth, Lo: clo, Hi: chi, Last: last}); err != nil {
					return nil, c.stopErr(ctx, err)
				}
			}
			keys := make([]*Message, c.n)
			var counts Counts
			var refused *budget.Exceeded
			for range c.n {
				m, err := c.recv(ctx, KindKeys)
				if err != nil {
					return nil, c.stopErr(ctx, err)
				}
				if m.From < 0 || m.From >= c.n || keys[m.From] != nil {
					return nil, fmt.Errorf("chunk %d: keys from worker %d twice or unknown", chunk, m.From)
				}
				keys[m.From] = m
				c.found[m.From] = m.Findings
				c.perWorker[m.From] = WorkerProgress{Worker: m.From, States: m.Counts.States, Transitions: m.Counts.Transitions, StoreBytes: m.Counts.StoreBytes, Heap: c.perWorker[m.From].Heap, PeakHeap: c.perWorker[m.From].PeakHeap}
				counts.Transitions += m.Counts.Transitions
				counts.Distinct += m.Counts.Distinct
				counts.Refused += m.Counts.Refused
				counts.StoreBytes += m.Counts.StoreBytes
				if b := m.Counts.Budget; b != (BudgetRefusal{}) && refused == nil {
					refused = &budget.Exceeded{Limit: uint64(b.Limit), Heap: uint64(b.Held), Need: uint64(b.Need),
						Detail: fmt.Sprintf("worker %d%s keeps no new state", m.From, c.name(m.From))}
				}
			}
			// Number the chunk's new states in the order of their keys.
			ranks := make([]Message, c.n)
			h := keyHeap{}
			for k, m := range keys {
				ranks[k].Parents = make([]uint32, len(m.Parents))
				if len(m.Parents) > 0 {
					h = append(h, key{parent: m.Parents[0], step: m.Steps[0], from: k})
				}
			}
			heap.Init(&h)
			for h.Len() > 0 {
				top := h[0]
				g := uint32(dropped)
				if states < maxStates {
					g = uint32(states)
					states++
				} else {
					truncStates = true
				}
				ranks[top.from].Parents[top.index] = g
				m := keys[top.from]
				if i := top.index + 1; i < len(m.Parents) {
					h[0] = key{parent: m.Parents[i], step: m.Steps[i], from: top.from, index: i}
					heap.Fix(&h, 0)
				} else {
					heap.Pop(&h)
				}
			}
			for k := range c.n {
				m := ranks[k]
				m.Kind, m.From, m.Chunk = KindRanks, Coordinator, chunk
				if err := c.tr.Send(ctx, k, &m); err != nil {
					return nil, c.stopErr(ctx, err)
				}
			}
			for range c.n {
				if _, err := c.recv(ctx, KindRanked); err != nil {
					return nil, c.stopErr(ctx, err)
				}
			}
			res.Transitions, res.DistinctTransitions, res.StoreBytes = counts.Transitions, counts.Distinct, counts.StoreBytes
			if counts.Refused > 0 {
				truncDepth = true
			}
			c.findings = invariants.Findings{}
			for _, f := range c.found {
				c.findings.Merge(f)
			}
			res.States, res.MaxDepth = states, depth
			c.res = *res
			clo = chi
			c.progress(res, depth, false)
			if refused != nil {
				stop, stopped, exceeded = explore.MemoryBound, true, refused
				break
			}
			if c.findings.Decided(c.opts.Properties) {
				stop, stopped = explore.Decided, true
				break
			}
			if err := ctx.Err(); err != nil {
				stop, stopped = stopReason(err), true
				break
			}
		}
		if !stopped {
			lo, hi = hi, states
			if lo < hi {
				depth++
			}
		}
	}
	if !stopped {
		switch {
		case truncStates:
			stop = explore.StateBound
		case truncDepth:
			stop = explore.DepthBound
		default:
			stop = explore.Exhausted
		}
	}
	res.MaxDepth, res.Stop, res.Exceeded = depth, stop, exceeded
	res.Elapsed = time.Since(c.start)
	c.progress(res, depth, true)
	return res, nil
}

// name is " (NAME)" for worker k of a known name, or "".
func (c *coordinator) name(k int) string {
	if k >= 0 && k < len(c.opts.Names) {
		return " (" + c.opts.Names[k] + ")"
	}
	return ""
}

// stopErr is err, or the context's error when ctx is done (the transport
// fails then too).
func (c *coordinator) stopErr(ctx context.Context, err error) error {
	var lost *LostError
	if errors.As(err, &lost) {
		return err
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

func stopReason(err error) explore.StopReason {
	if errors.Is(err, context.DeadlineExceeded) {
		return explore.TimeBound
	}
	return explore.Interrupted
}

// progress reports the search's progress, at most every ProgressEvery
// unless final.
func (c *coordinator) progress(res *explore.Result, depth int, final bool) {
	p := c.opts.Search.Progress
	if p == nil {
		return
	}
	every := c.opts.Search.ProgressEvery
	if every <= 0 {
		every = 2 * time.Second
	}
	now := time.Now()
	if !final && now.Sub(c.lastPrint) < every {
		return
	}
	c.lastPrint = now
	p(explore.Progress{States: res.States, Transitions: res.Transitions, Depth: depth, Elapsed: now.Sub(c.start)})
	if c.opts.WorkerProgress != nil {
		c.opts.WorkerProgress(append([]WorkerProgress(nil), c.perWorker...))
	}
}

// path rebuilds the path to state id by walking its parents owner by
// owner, and replays it on the model.
func (c *coordinator) path(ctx context.Context, id explore.StateID) ([]*model.State, []model.Step, error) {
	owner := -1
	for k, f := range c.found {
		for _, g := range []invariants.Finding{f.Invariant, f.Overflow, f.Deadlock} {
			if g.Found && g.ID == id {
				owner = k
			}
		}
	}
	if owner < 0 {
		return nil, nil, fmt.Errorf("state %d: no worker reported it", id)
	}
	var rev []*model.State
	for g := uint32(id); ; {
		if err := c.tr.Send(ctx, owner, &Message{Kind: KindPath, From: Coordinator, Lo: int64(g)}); err != nil {
			return nil, nil, err
		}
		m, err := c.recv(ctx, KindPathState)
		if err != nil {
			return nil, nil, err
		}
		if m.Count < 0 || len(m.Words) != c.sys.Words() || len(m.Parents) != 1 {
			return nil, nil, fmt.Errorf("state %d: worker %d does not hold it", g, owner)
		}
		st := c.sys.NewState()
		c.sys.Unpack(m.Words, st)
		rev = append(rev, st)
		if m.Parents[0] == noID {
			break
		}
		g, owner = m.Parents[0], int(m.Count)
		if owner >= c.n || len(rev) > 1<<24 {
			return nil, nil, fmt.Errorf("state %d: a broken parent link", id)
		}
	}
	states := make([]*model.State, len(rev))
	for i, st := range rev {
		states[len(rev)-1-i] = st
	}
	steps, err := c.sys.StepsThrough(states, false)
	if err != nil {
		return nil, nil, err
	}
	return states, steps, nil
}
