package explore

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ringcheck/ringcheck/budget"
	"github.com/ringcheck/ringcheck/model"
)

// sweepChunk is how many consecutive ranks a worker claims at a time
// (fewer at the end of a round, so that the workers end it together).
const sweepChunk = 1 << 14

// sweepPiece is the fewest ranks a worker claims at a time.
const sweepPiece = 1 << 9

// sweepRoundMax is the most ranks a round of the sweep holds: rounds
// double from one chunk up to this, then stay so.
const sweepRoundMax = 1 << 20

// sweepTick is how often the sweep checks the clock, reports progress
// and asks the budget whether what the monitors hold still fits.
const sweepTick = 50 * time.Millisecond

// nextRoundEnd is where the round of the sweep that starts at rank lo
// ends (before limit): rounds of 2^14, 2^14, 2^15, ... 2^19 ranks (each
// ending at a power of two), then of 2^20. The ends depend on nothing but
// lo, so neither do the ranks a sweep that stops at one has visited.
func nextRoundEnd(lo, limit uint64) uint64 {
	end := lo + sweepRoundMax
	if lo < sweepRoundMax {
		end = max(sweepChunk, 2*lo)
	}
	return min(limit, end)
}

// Sweep visits every configuration of sys's full configuration space (see
// model.System.Configurations), each once, as an initial state at depth 0.
// Since every configuration is initial, the set reachable from them is the
// whole space: Sweep keeps no store and no visited set, only counters. The
// state ids it reports are ranks (model.System.Unrank). It goes in rounds
// of consecutive ranks (see nextRoundEnd), in which the workers claim
// chunks in increasing order; the monitor is asked whether it has decided
// at the end of a round only. A monitor that keeps the least violating
// rank therefore gets the same answer for any number of workers, and a
// sweep that stops because the monitor has decided has visited the same
// configurations.
func Sweep(ctx context.Context, sys *model.System, mon Monitor, opts Options) (*Result, error) {
	total, ok := sys.Configurations()
	if !ok {
		return nil, fmt.Errorf("spec %s: the full configuration space has more than 2^63 configurations", sys.Name)
	}
	if err := opts.Memory.Check(); err != nil {
		return &Result{Stop: MemoryBound, Exceeded: asExceeded(err), paths: sweepPaths{sys: sys}}, nil
	}
	limit, stop := total, Exhausted
	if opts.MaxStates > 0 && uint64(opts.MaxStates) < total {
		limit = uint64(opts.MaxStates)
	}
	clk := newClock(ctx, opts)
	sw := &sweep{ctx: ctx, sys: sys, mon: mon, nw: uint64(workers(opts))}
	sw.start()
	defer sw.stop()
	progress := func() Progress { return Progress{States: sw.done.Load(), Transitions: sw.trans.Load()} }
	var exceeded *budget.Exceeded
	tick := time.NewTicker(sweepTick)
	defer tick.Stop()
	for lo := uint64(0); lo < limit && sw.halt.Load() == 0; {
		hi := nextRoundEnd(lo, limit)
		finished := sw.round(lo, hi)
	wait:
		for {
			select {
			case <-finished:
				break wait
			case <-tick.C:
				if r, ok := clk.check(progress); ok {
					sw.halt.CompareAndSwap(0, int32(r)+1)
				}
				// The sweep keeps nothing per configuration, but what
				// the monitors hold counts.
				if err := opts.Memory.Check(); err != nil && exceeded == nil {
					exceeded = asExceeded(err)
					sw.halt.CompareAndSwap(0, int32(MemoryBound)+1)
				}
			}
		}
		if sw.firstErr != nil {
			return nil, fmt.Errorf("spec %s: %w", sys.Name, sw.firstErr)
		}
		if sw.halt.Load() != 0 {
			break
		}
		lo = hi
		if mon.Decided() {
			sw.halt.Store(int32(Decided) + 1)
		}
	}
	switch {
	case sw.halt.Load() != 0:
		stop = StopReason(sw.halt.Load() - 1)
		if stop == Decided && uint64(sw.done.Load()) == total {
			stop = Exhausted
		}
	case limit < total:
		stop = StateBound
	}
	if opts.Progress != nil {
		pr := progress()
		pr.Elapsed = time.Since(clk.start)
		opts.Progress(pr)
	}
	return &Result{
		States:              sw.done.Load(),
		Transitions:         sw.trans.Load(),
		DistinctTransitions: -1,
		Elapsed:             time.Since(clk.start),
		Stop:                stop,
		Exceeded:            exceeded,
		paths:               sweepPaths{sys: sys, limit: limit},
	}, nil
}

// sweep is what the workers of a sweep share.
type sweep struct {
	ctx context.Context
	sys *model.System
	mon Monitor
	nw  uint64
	// rounds passes each worker the end of the next round.
	rounds []chan uint64
	ended  sync.WaitGroup
	// next is the first rank of the round not claimed yet.
	next        atomic.Uint64
	done, trans atomic.Int64
	// halt is a StopReason + 1 once the sweep must stop; the workers
	// claim no more ranks then.
	halt     atomic.Int32
	firstErr error
	errOnce  sync.Once
}

// sweeper is a worker's expander and state for a round. The worker
// allocates them, and its visit, at the start of each round, from the
// goroutine that works: two workers that run at once run on different
// processors (Ps) and allocate from different spans, so what one writes
// for every configuration never shares a cache line with what the other
// does. (Allocated together, two states of a few words did, and the
// sweep ran at two thirds of its speed.)
type sweeper struct {
	ex *model.Expander
	st *model.State
}

// start starts the workers, which wait for rounds.
func (sw *sweep) start() {
	sw.rounds = make([]chan uint64, sw.nw)
	for i := range sw.rounds {
		ch := make(chan uint64)
		sw.rounds[i] = ch
		go func() {
			for hi := range ch {
				sw.work(&sweeper{ex: sw.sys.NewExpander(), st: sw.sys.NewState()}, hi)
				sw.ended.Done()
			}
		}()
	}
}

// stop ends the workers, between rounds.
func (sw *sweep) stop() {
	for _, ch := range sw.rounds {
		close(ch)
	}
}

// round has the workers visit ranks [lo, hi) and returns a channel closed
// once they have ended.
func (sw *sweep) round(lo, hi uint64) <-chan struct{} {
	sw.next.Store(lo)
	sw.ended.Add(len(sw.rounds))
	for _, ch := range sw.rounds {
		ch <- hi
	}
	finished := make(chan struct{})
	go func() { sw.ended.Wait(); close(finished) }()
	return finished
}

// work claims ranks of the round ending at hi, in increasing order, and
// visits them, until none is left or the sweep must stop.
func (sw *sweep) work(w *sweeper, hi uint64) {
	var v Visit
	for sw.halt.Load() == 0 {
		if err := sw.ctx.Err(); err != nil {
			reason := Interrupted
			if errors.Is(err, context.DeadlineExceeded) {
				reason = TimeBound
			}
			sw.halt.CompareAndSwap(0, int32(reason)+1)
			return
		}
		lo := sw.next.Load()
		if lo >= hi {
			return
		}
		// A chunk, or at the end of the round a share of what is left
		// small enough for the workers to end together.
		n := min(sweepChunk, max(sweepPiece, (hi-lo)/(2*sw.nw)), hi-lo)
		if !sw.next.CompareAndSwap(lo, lo+n) {
			continue
		}
		if err := sw.visit(w, &v, lo, lo+n); err != nil {
			sw.errOnce.Do(func() { sw.firstErr = err })
			sw.halt.Store(int32(Interrupted) + 1)
			return
		}
	}
}

// visit visits ranks [lo, hi), reporting each in v. It counts each
// configuration's steps without building its successors, so it does not
// count distinct pairs.
func (sw *sweep) visit(w *sweeper, v *Visit, lo, hi uint64) error {
	sys, st := sw.sys, w.st
	if err := sys.Unrank(lo, st); err != nil {
		return err
	}
	var t int64
	for r := lo; r < hi; r++ {
		n, overflow, err := w.ex.Count(st)
		if err != nil {
			return fmt.Errorf("expanding configuration %d: %w", r, err)
		}
		t += int64(n)
		*v = Visit{ID: StateID(r), State: st, Successors: n, Overflow: overflow}
		sw.mon.Observe(v)
		sys.NextRank(st)
	}
	sw.trans.Add(t)
	sw.done.Add(int64(hi - lo))
	return nil
}

type sweepPaths struct {
	sys   *model.System
	limit uint64
}

// path of a configuration of the sweep is the configuration alone: every
// configuration is initial.
func (p sweepPaths) path(id StateID) ([]*model.State, []model.Step, error) {
	if id < 0 || uint64(id) >= p.limit {
		return nil, nil, fmt.Errorf("configuration %d was not visited", id)
	}
	st := p.sys.NewState()
	if err := p.sys.Unrank(uint64(id), st); err != nil {
		return nil, nil, err
	}
	return []*model.State{st}, nil, nil
}
