package cluster

import (
	"context"
	"sync"
	"time"
)

// links are a worker's batches to and from its peers: each batch sent to a peer takes a credit (at most
// WorkerOptions.Credit unacknowledged per peer), is numbered by Seq and
// sent again until the peer acknowledges it; a batch received twice is
// seen once.
type links struct {
	tr    Transport
	id, n int
	retry time.Duration

	// credit[p] holds a token per batch sent to p and not acknowledged.
	credit []chan struct{}
	mu     sync.Mutex
	// seq[p] is the last batch number sent to p; unacked[p] the batches
	// sent to p and not acknowledged; outstanding counts them all.
	seq         []uint64
	unacked     []map[uint64]*unacked
	outstanding int
	// drained is signalled when outstanding drops to 0.
	drained chan struct{}
	// nextSeq[p] is the first batch number of p not received, ahead[p]
	// those received past it.
	nextSeq []uint64
	ahead   []map[uint64]bool
}

// unacked is a batch sent and not acknowledged, last sent at at.
type unacked struct {
	m  *Message
	at time.Time
}

func newLinks(tr Transport, id int, opts WorkerOptions) *links {
	n := tr.Workers()
	l := &links{tr: tr, id: id, n: n, retry: opts.RetryAfter, credit: make([]chan struct{}, n), seq: make([]uint64, n),
		unacked: make([]map[uint64]*unacked, n), drained: make(chan struct{}, 1), nextSeq: make([]uint64, n), ahead: make([]map[uint64]bool, n)}
	for p := range n {
		l.credit[p] = make(chan struct{}, opts.Credit)
		l.unacked[p] = map[uint64]*unacked{}
		l.nextSeq[p] = 1
		l.ahead[p] = map[uint64]bool{}
	}
	return l
}

// send numbers the batch m and sends it to peer p once a credit for p is
// free (it waits for one).
func (l *links) send(ctx context.Context, p int, m *Message) error {
	select {
	case l.credit[p] <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	l.mu.Lock()
	l.seq[p]++
	m.From, m.Seq = l.id, l.seq[p]
	l.unacked[p][m.Seq] = &unacked{m: m, at: time.Now()}
	l.outstanding++
	l.mu.Unlock()
	return l.tr.Send(ctx, p, m.copy())
}

// acked records peer p's acknowledgement of batch seq.
func (l *links) acked(p int, seq uint64) {
	if p < 0 || p >= l.n {
		return
	}
	l.mu.Lock()
	_, out := l.unacked[p][seq]
	if out {
		delete(l.unacked[p], seq)
		l.outstanding--
		if l.outstanding == 0 {
			select {
			case l.drained <- struct{}{}:
			default:
			}
		}
	}
	l.mu.Unlock()
	if out {
		<-l.credit[p]
	}
}

// fresh reports whether batch seq of peer p is received for the first
// time, and records it.
func (l *links) fresh(p int, seq uint64) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if seq < l.nextSeq[p] || l.ahead[p][seq] {
		return false
	}
	if seq != l.nextSeq[p] {
		l.ahead[p][seq] = true
		return true
	}
	l.nextSeq[p]++
	for l.ahead[p][l.nextSeq[p]] {
		delete(l.ahead[p], l.nextSeq[p])
		l.nextSeq[p]++
	}
	return true
}

// drain waits until every batch sent is acknowledged.
func (l *links) drain(ctx context.Context) error {
	for {
		l.mu.Lock()
		done := l.outstanding == 0
		l.mu.Unlock()
		if done {
			return nil
		}
		select {
		case <-l.drained:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// resend sends again the batches that waited longer than the retry
// delay for their acknowledgement.
func (l *links) resend(ctx context.Context) error {
	now := time.Now()
	var again []*Message
	var to []int
	l.mu.Lock()
	for p, out := range l.unacked {
		for _, u := range out {
			if now.Sub(u.at) >= l.retry {
				u.at = now
				again, to = append(again, u.m.copy()), append(to, p)
			}
		}
	}
	l.mu.Unlock()
	for i, m := range again {
		if err := l.tr.Send(ctx, to[i], m); err != nil {
			return err
		}
	}
	return nil
}
