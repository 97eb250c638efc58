package cluster

import (
	"context"
	"errors"
	"sync"
)

// Local is an in-process network of a coordinator and workers: each
// node's messages wait in an unbounded queue until it receives them.
type Local struct {
	n      int
	queues []*queue // workers 0..n-1, then the coordinator
	// Duplicate, when set, delivers every batch (KindBatch, KindEdges,
	// KindDecrements) twice, the copy (a retried batch) after the next 16
	// messages to its receiver, in a later chunk of the search as often
	// as not.
	Duplicate bool
	// Lose, when positive, drops the first delivery of every Lose-th
	// batch, which its sender sends again after WorkerOptions.RetryAfter.
	Lose int
	// mu guards batches.
	mu      sync.Mutex
	batches int
	lost    map[[3]int64]bool
}

// NewLocal returns an in-process network of n workers and a coordinator.
func NewLocal(n int) *Local {
	l := &Local{n: n, queues: make([]*queue, n+1), lost: map[[3]int64]bool{}}
	for i := range l.queues {
		l.queues[i] = &queue{ready: make(chan struct{}, 1)}
	}
	return l
}

// Node returns the transport of node id (a worker, or Coordinator).
func (l *Local) Node(id int) Transport { return &localNode{l: l, id: id} }

// Close makes every Recv fail.
func (l *Local) Close() {
	for _, q := range l.queues {
		q.close()
	}
}

func (l *Local) queue(id int) *queue {
	if id == Coordinator {
		return l.queues[l.n]
	}
	return l.queues[id]
}

type localNode struct {
	l  *Local
	id int
}

func (t *localNode) Workers() int { return t.l.n }

func (t *localNode) Send(_ context.Context, to int, m *Message) error {
	if to != Coordinator && (to < 0 || to >= t.l.n) {
		return errors.New("no such worker")
	}
	q := t.l.queue(to)
	if t.l.Lose > 0 && m.Kind.batch() {
		t.l.mu.Lock()
		t.l.batches++
		k := [3]int64{int64(m.From), int64(to), int64(m.Seq)}
		lose := t.l.batches%t.l.Lose == 0 && !t.l.lost[k]
		if lose {
			t.l.lost[k] = true
		}
		t.l.mu.Unlock()
		if lose {
			return nil
		}
	}
	q.put(m)
	if t.l.Duplicate {
		q.mu.Lock()
		var due []*Message
		for len(q.delayed) > 0 && q.sent-q.delayed[0].at >= 16 {
			due = append(due, q.delayed[0].m)
			q.delayed = q.delayed[1:]
		}
		if m.Kind.batch() {
			c := *m
			q.delayed = append(q.delayed, delayed{m: &c, at: q.sent})
		}
		q.sent++
		q.mu.Unlock()
		for _, c := range due {
			q.put(c)
		}
	}
	return nil
}

func (t *localNode) Recv(ctx context.Context) (*Message, error) {
	return t.l.queue(t.id).get(ctx)
}

// delayed is a copy of a message to deliver later, sent when the queue's
// sender count was at.
type delayed struct {
	m  *Message
	at int
}

type queue struct {
	mu      sync.Mutex
	delayed []delayed
	sent    int
	items   []*Message
	closed  bool
	ready   chan struct{}
}

func (q *queue) put(m *Message) {
	q.mu.Lock()
	q.items = append(q.items, m)
	q.mu.Unlock()
	select {
	case q.ready <- struct{}{}:
	default:
	}
}

func (q *queue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	select {
	case q.ready <- struct{}{}:
	default:
	}
}

var errClosed = errors.New("transport closed")

func (q *queue) get(ctx context.Context) (*Message, error) {
	for {
		q.mu.Lock()
		if len(q.items) > 0 {
			m := q.items[0]
			q.items[0] = nil
			q.items = q.items[1:]
			more := len(q.items) > 0
			q.mu.Unlock()
			if more {
				select {
				case q.ready <- struct{}{}:
				default:
				}
			}
			return m, nil
		}
		if q.closed {
			q.mu.Unlock()
			return nil, errClosed
		}
		q.mu.Unlock()
		select {
		case <-q.ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}
