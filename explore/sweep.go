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

// sweepChunk is how many consecutive ranks a worker claims at a time.
const sweepChunk = 1 << 14

// Sweep visits every configuration of sys's full configuration space (see
// model.System.Configurations), each once, as an initial state at depth 0.
// Since every configuration is initial, the set reachable from them is the
// whole space: Sweep keeps no store and no visited set, only counters. The
// state ids it reports are ranks (model.System.Unrank). Workers claim chunks
// of ranks in increasing order, and a monitor that keeps the least violating
// rank therefore gets the same answer for any number of workers.
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
	var (
		nextChunk  atomic.Uint64
		done       atomic.Int64
		trans      atomic.Int64
		halt       atomic.Int32 // a StopReason + 1 once the search must stop
		firstErr   error
		errOnce    sync.Once
		wg         sync.WaitGroup
		chunkCount = (limit + sweepChunk - 1) / sweepChunk
	)
	work := func() {
		defer wg.Done()
		ex := sys.NewExpander()
		st := sys.NewState()
		var v Visit
		for halt.Load() == 0 {
			if err := ctx.Err(); err != nil {
				reason := Interrupted
				if errors.Is(err, context.DeadlineExceeded) {
					reason = TimeBound
				}
				halt.CompareAndSwap(0, int32(reason)+1)
				return
			}
			c := nextChunk.Add(1) - 1
			if c >= chunkCount {
				return
			}
			lo, hi := c*sweepChunk, min(limit, (c+1)*sweepChunk)
			if err := sys.Unrank(lo, st); err != nil {
				errOnce.Do(func() { firstErr = err })
				halt.Store(int32(Interrupted) + 1)
				return
			}
			var t int64
			for r := lo; r < hi; r++ {
				n, overflow, err := ex.Count(st)
				if err != nil {
					errOnce.Do(func() { firstErr = fmt.Errorf("expanding configuration %d: %w", r, err) })
					halt.Store(int32(Interrupted) + 1)
					return
				}
				t += int64(n)
				v = Visit{ID: StateID(r), State: st, Successors: n, Overflow: overflow}
				mon.Observe(&v)
				sys.NextRank(st)
			}
			trans.Add(t)
			done.Add(int64(hi - lo))
			if mon.Decided() {
				halt.CompareAndSwap(0, int32(Decided)+1)
			}
		}
	}
	nw := workers(opts)
	wg.Add(nw)
	for range nw {
		go work()
	}
	var exceeded *budget.Exceeded
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()
	progress := func() Progress { return Progress{States: done.Load(), Transitions: trans.Load()} }
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
wait:
	for {
		select {
		case <-finished:
			break wait
		case <-tick.C:
			if r, ok := clk.check(progress); ok {
				halt.CompareAndSwap(0, int32(r)+1)
			}
			// The sweep keeps nothing per configuration, but what the
			// monitors hold counts.
			if err := opts.Memory.Check(); err != nil && exceeded == nil {
				exceeded = asExceeded(err)
				halt.CompareAndSwap(0, int32(MemoryBound)+1)
			}
		}
	}
	if firstErr != nil {
		return nil, fmt.Errorf("spec %s: %w", sys.Name, firstErr)
	}
	switch {
	case halt.Load() != 0:
		stop = StopReason(halt.Load() - 1)
		if stop == Decided && uint64(done.Load()) == total {
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
		States:      done.Load(),
		Transitions: trans.Load(),
		Elapsed:     time.Since(clk.start),
		Stop:        stop,
		Exceeded:    exceeded,
		paths:       sweepPaths{sys: sys, limit: limit},
	}, nil
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
