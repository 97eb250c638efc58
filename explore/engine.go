package explore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ringcheck/ringcheck/budget"
	"github.com/ringcheck/ringcheck/model"
)

// StateID identifies a visited state: its index in the BFS store, or its
// rank in the full configuration space for Sweep.
type StateID int64

// Visit is what an engine reports of a state it has visited. It is valid
// only during the Monitor call.
type Visit struct {
	ID    StateID
	Depth int
	State *model.State
	// Successors is the number of steps enabled in the state, or -1 if the
	// search stopped before expanding it.
	Successors int
	// Overflow is a step from the state that violates safety by itself (it
	// overflows a channel bound or leaves a variable's domain), or nil.
	Overflow *model.Step
}

// Monitor judges visited states. Engines call Observe from several
// goroutines at once, so implementations must be safe for concurrent use.
// Under a memory budget, BFS may report a state twice (a round that a
// worker's buffers cut short is expanded again), so what a monitor
// concludes must not depend on how often it sees a state.
type Monitor interface {
	Observe(v *Visit)
	// Decided reports whether everything the monitor watches is decided,
	// so the engine may stop.
	Decided() bool
}

// Options bound and shape a search. The zero value is an exhaustive,
// single-worker search.
type Options struct {
	// MaxDepth bounds BFS depth (0: unbounded). States at depth MaxDepth are
	// expanded but their new successors are not kept.
	MaxDepth int
	// MaxStates bounds the number of states kept (0: unbounded).
	MaxStates int64
	// TimeLimit stops the search after this long (0: none).
	TimeLimit time.Duration
	// Workers is the number of goroutines expanding states (<1 means 1,
	// and more than MaxWorkers means MaxWorkers).
	Workers int
	// Start, if non-nil, holds the configurations BFS starts from instead
	// of the system's initial ones (the sweep ignores it).
	Start []*model.State
	// Fingerprints makes BFS keep a 64-bit fingerprint of each visited
	// state instead of the state (with its parent link), and the full
	// states of the two levels it is searching only, on a file read in
	// order (as are the fingerprints and parent links): 9 to 11 bytes a
	// state in memory. Two states with one fingerprint would make the second look
	// visited; Result.CollisionProbability bounds the chance. Paths are
	// rebuilt by replaying from the initial states, following the
	// fingerprints; the reachable graph (liveness) is not kept.
	Fingerprints bool
	// Tree makes BFS keep the visited states tree-compressed: each
	// state's packed words are cut into 32-bit halves, the leaves of a
	// binary tree whose inner nodes are interned as pairs of ids in a
	// table per node, so that the parts states share are stored once and
	// a state costs about its root's 6- to 8-byte key and its index slot;
	// the parent links go to a file as they fill. Ids, counts, paths and
	// the reachable graph are those of the exact store; the merge of a
	// round's new states is sequential, and takes the values of the
	// subtrees the workers found when they looked the states up.
	// Ignored with Fingerprints.
	Tree bool
	// Memory, if not nil, bounds the heap: the search keeps no new state
	// once the budget refuses the store's next growth, and ends with
	// MemoryBound. BFS asks it with its own count of its bytes
	// (budget.Memory.Fits), so that it stops at the same state every
	// time; the sweep asks it about the heap.
	Memory *budget.Memory
	// Symmetry makes BFS store one representative per orbit of the
	// symmetry group the system declares (System.Symmetry): every initial
	// configuration and successor is replaced by its canonical form
	// (model.Canonizer) before it is hashed and stored, monitors see the
	// representatives, and Result.Path replays a path of representatives
	// into concrete steps from the configuration the search started
	// from. BFS refuses it when the system declares no symmetry, and
	// with PartialOrder; the sweep ignores it.
	Symmetry bool
	// PartialOrder, when set, makes BFS expand each state by a stubborn
	// set of its actions (see PartialOrder): fewer states, the same
	// deadlocks and, with PartialOrder.Invariants, the same invariant
	// violations and faulty steps; counterexamples are real paths but
	// may not be shortest. PartialOrderApplies says where it cannot run.
	PartialOrder *PartialOrder
	// treeSample, when positive, is how many states a tree store holds
	// when it plans its shape (the tests' way to make it reshape early).
	treeSample int
	// noHints makes the merge into a tree store look up every subtree of
	// a new state again instead of taking the values the workers found
	// (the tests' way to weigh the hints).
	noHints bool
	// frontierKeep, when positive, is how many segments of a level stay
	// in memory with fingerprints (the tests' way to keep levels in
	// memory; by default every full segment goes to the level's file).
	frontierKeep int
	// Progress, if set, is called about every ProgressEvery from the
	// goroutine that runs the search.
	Progress      func(Progress)
	ProgressEvery time.Duration
}

// Progress is a snapshot of a running search.
type Progress struct {
	States      int64
	Transitions int64
	Depth       int
	Elapsed     time.Duration
}

// StatesPerSecond is the average rate so far.
func (p Progress) StatesPerSecond() float64 {
	if p.Elapsed <= 0 {
		return 0
	}
	return float64(p.States) / p.Elapsed.Seconds()
}

// StopReason says why a search ended.
type StopReason int

// The reasons a search ends.
const (
	// Exhausted: every reachable state was visited.
	Exhausted StopReason = iota
	// Decided: the monitor decided everything before the space was exhausted.
	Decided
	// DepthBound: states beyond MaxDepth were not explored.
	DepthBound
	// StateBound: the store reached MaxStates.
	StateBound
	// TimeBound: the time limit was reached.
	TimeBound
	// Interrupted: the context was cancelled (Ctrl-C).
	Interrupted
	// MemoryBound: the memory budget refused the next growth.
	MemoryBound
)

// String describes the reason.
func (r StopReason) String() string {
	switch r {
	case Exhausted:
		return "exhausted"
	case Decided:
		return "decided"
	case DepthBound:
		return "depth bound reached"
	case StateBound:
		return "state bound reached"
	case TimeBound:
		return "time limit reached"
	case Interrupted:
		return "interrupted"
	case MemoryBound:
		return "memory budget reached"
	}
	return fmt.Sprintf("stop(%d)", int(r))
}

// Result summarises a finished search. Transitions counts the steps
// taken from the states expanded (one per action, choice and set of
// moving processes enabled); DistinctTransitions counts the distinct
// pairs of a state and a successor among them: two steps from a state
// that lead to the same successor count once. It is -1 where they were
// not counted: a sweep of every configuration counts each one's steps
// without building its successors.
type Result struct {
	States              int64
	Transitions         int64
	DistinctTransitions int64
	MaxDepth            int
	Elapsed             time.Duration
	Stop                StopReason
	// StoreBytes is the memory held, at the end of the search, by the
	// state store, the visited set (the tree store's tables, with
	// Tree) and the levels' segments (with Fingerprints). What the
	// search wrote to its files (fingerprints and parent links, the
	// levels' full segments) is not counted; the workers' buffers and
	// the merge's are not either.
	StoreBytes int64
	// Exceeded, when Stop is MemoryBound, is the request the budget
	// refused.
	Exceeded *budget.Exceeded
	// Fingerprints says the search kept fingerprints (Options.Fingerprints),
	// and CollisionProbability bounds the probability that two of its
	// states shared one, so that a state was missed: n(n-1)/2^65 for n
	// states.
	Fingerprints         bool
	CollisionProbability float64
	// PartialOrder says the search ran partial-order reduction
	// (Options.PartialOrder): States counts the states it stored, and a
	// path Path returns is a real path but may not be shortest.
	PartialOrder bool
	// PartialOrderIdle, when positive, is the number of states the search
	// had expanded when it stopped the reduction, at the end of a level,
	// having reduced none of them (PartialOrderTrial): the rest were
	// expanded in full.
	PartialOrderIdle int64
	// Symmetry says the search stored one representative per orbit of
	// the system's symmetry group (Options.Symmetry): States counts the
	// orbits, and a path Path returns is a shortest concrete path.
	Symmetry bool
	paths    pathFinder
}

// Complete reports whether every reachable state was visited and expanded,
// which is what a verdict of "holds" requires.
func (r *Result) Complete() bool { return r.Stop == Exhausted }

// Path returns a path from an initial state to state id: its states and
// the steps between them (len(steps) == len(states)-1). It is a shortest
// one unless the search ran partial-order reduction.
func (r *Result) Path(id StateID) ([]*model.State, []model.Step, error) {
	if r.paths == nil {
		return nil, nil, fmt.Errorf("no path to state %d", id)
	}
	return r.paths.path(id)
}

type pathFinder interface {
	path(id StateID) ([]*model.State, []model.Step, error)
}

// clock tracks the time limit, cancellation and progress reports.
type clock struct {
	ctx       context.Context
	start     time.Time
	limit     time.Duration
	progress  func(Progress)
	every     time.Duration
	lastPrint time.Time
}

func newClock(ctx context.Context, opts Options) *clock {
	every := opts.ProgressEvery
	if every <= 0 {
		every = 2 * time.Second
	}
	now := time.Now()
	return &clock{ctx: ctx, start: now, limit: opts.TimeLimit, progress: opts.Progress, every: every, lastPrint: now}
}

// check returns the reason to stop, if any, and reports progress.
func (c *clock) check(p func() Progress) (StopReason, bool) {
	if r, ok := c.stopReason(); ok {
		return r, true
	}
	now := time.Now()
	if c.progress != nil && now.Sub(c.lastPrint) >= c.every {
		c.lastPrint = now
		pr := p()
		pr.Elapsed = now.Sub(c.start)
		c.progress(pr)
	}
	return 0, false
}

// stopReason returns the reason to stop, if any: the context cancelled
// (Interrupted, or TimeBound at its deadline) or the time limit passed.
func (c *clock) stopReason() (StopReason, bool) {
	if err := c.ctx.Err(); err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return TimeBound, true
		}
		return Interrupted, true
	}
	if c.limit > 0 && time.Since(c.start) >= c.limit {
		return TimeBound, true
	}
	return 0, false
}

// expired reports whether the search must stop: the context cancelled or
// the time limit passed.
func (c *clock) expired() bool {
	_, ok := c.stopReason()
	return ok
}

// MaxWorkers is the most goroutines a search runs to expand states:
// Options.Workers above it is an error where options are validated
// (invariants.Options.Validate), and the engines run MaxWorkers.
const MaxWorkers = 256

// workers is the number of goroutines of a search: Options.Workers, at
// least 1 and at most MaxWorkers.
func workers(opts Options) int {
	return min(max(opts.Workers, 1), MaxWorkers)
}
