package cluster

import (
	"context"

	"github.com/ringcheck/ringcheck/invariants"
)

// Coordinator is the node number of the coordinator; workers are 0 to
// n-1.
const Coordinator = -1

// Kind is what a Message says.
type Kind uint8

// The kinds of messages.
const (
	// KindBatch carries successors from their expander (From) to their
	// owner: Words (packed states), Parents (their parents' global ids)
	// and Steps (the index of the step from the parent); Seq numbers the
	// sender's batches to that owner.
	KindBatch Kind = iota + 1
	// KindAck acknowledges batch Seq.
	KindAck
	// KindEnd tells an owner that the sender sent Count batches in chunk
	// Chunk (to it).
	KindEnd
	// KindInit gives a worker the initial states it owns: Words, with
	// their global ids in Parents.
	KindInit
	// KindExpand asks a worker to expand its states of global ids [Lo,
	// Hi) at depth Depth, as chunk Chunk; Last: keep no new state (the
	// depth bound).
	KindExpand
	// KindKeys is a worker's answer to KindExpand, once its share of the
	// chunk's successors is in: the keys of its new states, sorted
	// (Parents, Steps), and Counts and Findings.
	KindKeys
	// KindRanks gives a worker the global ids of its new states, in the
	// order of its keys (Parents); dropped, for those past the state
	// bound.
	KindRanks
	// KindRanked acknowledges KindRanks.
	KindRanked
	// KindPath asks the owner of state Lo (a global id) for it.
	KindPath
	// KindPathState answers KindPath: Words, the state, Parents[0] its
	// parent's global id (noID: initial) and Count its parent's owner.
	KindPathState
	// KindStop ends a worker's part in the run.
	KindStop
	// KindFailed says the sender failed, or was lost: Text says why.
	KindFailed
	// KindHeartbeat says the sender is alive, with its Counts.
	KindHeartbeat
	// KindSweep asks a worker to sweep the configurations it owns (of
	// ranks [Lo, Hi)) for closure and convergence from every
	// configuration; Last: keep the reverse edges the elimination needs
	// (convergence is checked).
	KindSweep
	// KindEdges carries reverse edges of the configurations outside L to
	// the owner of their targets: Parents[i], a successor outside L of
	// Steps[i]; Seq numbers the sender's batches to that owner, as for
	// KindBatch.
	KindEdges
	// KindSwept is a worker's answer to KindSweep, once its edges are all
	// acknowledged: Counts (Transitions, Distinct, States: configurations
	// swept, StoreBytes, Budget), Findings (Invariant: the least closure
	// violation, its source's rank as ID and its target's as Detail;
	// Deadlock: the least-ranked configuration outside L with no step),
	// and Words: the configurations in L, outside L with a faulty step,
	// outside L, and dead.
	KindSwept
	// KindLevel asks a worker to remove the configurations of level
	// Depth of the elimination.
	KindLevel
	// KindDecrements tells the owner of the configurations Parents that
	// a successor of each, removed at level Depth, is gone; Seq numbers
	// the batches as for KindBatch.
	KindDecrements
	// KindLevelDone is a worker's answer to KindLevel, once its
	// decrements are all acknowledged: Count, the configurations it
	// removed at level Depth, Lo the least rank among them (-1: none),
	// and Counts.
	KindLevelDone
	// KindHeight asks the owner of configuration Lo (a rank) for its
	// level.
	KindHeight
	// KindHeightIs answers KindHeight: Count is the level at which the
	// configuration was removed, 0 in L, -1 remaining and not dead, -2
	// dead.
	KindHeightIs
	// KindRemaining asks a worker for the least-ranked configuration it
	// owns that remains and is not dead; Last: and for every remaining
	// and every dead one.
	KindRemaining
	// KindRemainingIs answers KindRemaining: Lo (-1: none), and with
	// Last the ranks of the remaining configurations (Parents) and of
	// the dead ones (Steps).
	KindRemainingIs
)

// batch reports whether messages of kind k are batches between
// workers, numbered by Seq, acknowledged and sent again until they are.
func (k Kind) batch() bool {
	return k == KindBatch || k == KindEdges || k == KindDecrements
}

// Counts are what a worker reports with its keys: the steps it took, the
// distinct successors among them, the successors the depth bound refused
// and the memory it holds.
type Counts struct {
	Transitions, Distinct, Refused int64
	StoreBytes                     int64
	States                         int64
	// Heap is the worker's heap, in bytes (heartbeats carry it).
	Heap int64
	// Budget is what the worker's memory budget refused, when it did.
	Budget BudgetRefusal
}

// BudgetRefusal is a refusal of a worker's memory budget (all zero:
// none): its limit, what the worker held and what it needed more.
type BudgetRefusal struct {
	Limit, Held, Need int64
}

// Message is what nodes send each other.
type Message struct {
	Kind     Kind
	From     int
	Run      uint64
	Seq      uint64
	Chunk    uint64
	Depth    int
	Lo, Hi   int64
	Last     bool
	Count    int64
	Words    []uint64
	Parents  []uint32
	Steps    []uint32
	Counts   Counts
	Findings invariants.Findings
	Text     string
}

// Transport carries messages between the nodes of a run: the coordinator
// and workers 0 to Workers()-1. A node sends with Send and receives what
// was sent to it, in the order each sender sent it, with Recv.
type Transport interface {
	// Workers is the number of workers.
	Workers() int
	// Send delivers m to node to (a worker, or Coordinator). The
	// transport owns m once sent.
	Send(ctx context.Context, to int, m *Message) error
	// Recv returns the next message for this node; it returns an error
	// once ctx is done or the transport is closed.
	Recv(ctx context.Context) (*Message, error)
}

// copy returns a copy of m that shares its slices (which no node
// changes once sent).
func (m *Message) copy() *Message {
	c := *m
	return &c
}
