package natsnet

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/ringcheck/ringcheck/budget"
	"github.com/ringcheck/ringcheck/cluster"
)

// Timing of heartbeats.
const (
	// HeartbeatEvery is how often a node says it is alive.
	HeartbeatEvery = 500 * time.Millisecond
	// LostAfter is how long a node may stay silent before it is taken
	// for lost.
	LostAfter = 3 * time.Second
)

// fragMark starts a fragment of a message too large for one NATS
// message (the wire format starts with wireVersion).
const fragMark = 0xff

// Node is one node's transport over a NATS connection.
type Node struct {
	nc    *nats.Conn
	run   string
	id, n int
	sub   *nats.Subscription
	// watch are the nodes whose silence ends the run: the workers for
	// the coordinator, the coordinator for a worker.
	watch     []int
	lostAfter time.Duration

	mu       sync.Mutex
	lastSeen map[int]time.Time
	heaps    map[int]int64
	frags    map[[2]uint64]*fragment
	nextID   atomic.Uint64
	max      int
	stop     chan struct{}
	stopOnce sync.Once
}

// fragment is a message being reassembled.
type fragment struct {
	parts [][]byte
	got   int
}

func subject(run string, node int) string {
	if node == cluster.Coordinator {
		return "ringcheck.run." + run + ".c"
	}
	return fmt.Sprintf("ringcheck.run.%s.w.%d", run, node)
}

// newNode subscribes node id of run (of n workers) to its subject and
// starts its heartbeats to the nodes it watches.
func newNode(nc *nats.Conn, run string, id, n int, watch []int, lostAfter time.Duration) (*Node, error) {
	sub, err := nc.SubscribeSync(subject(run, id))
	if err != nil {
		return nil, fmt.Errorf("subscribing to %s: %w", subject(run, id), err)
	}
	if err := sub.SetPendingLimits(-1, -1); err != nil {
		sub.Unsubscribe()
		return nil, err
	}
	if lostAfter <= 0 {
		lostAfter = LostAfter
	}
	t := &Node{nc: nc, run: run, id: id, n: n, sub: sub, watch: watch, lostAfter: lostAfter,
		lastSeen: map[int]time.Time{}, heaps: map[int]int64{}, frags: map[[2]uint64]*fragment{},
		max: int(nc.MaxPayload()) - 64, stop: make(chan struct{})}
	now := time.Now()
	for _, k := range watch {
		t.lastSeen[k] = now
	}
	go t.heartbeats()
	return t, nil
}

// Close stops the node's heartbeats and subscription.
func (t *Node) Close() {
	t.stopOnce.Do(func() {
		close(t.stop)
		t.sub.Unsubscribe()
	})
}

func (t *Node) heartbeats() {
	tick := time.NewTicker(HeartbeatEvery)
	defer tick.Stop()
	for {
		select {
		case <-t.stop:
			return
		case <-tick.C:
		}
		for _, k := range t.watch {
			t.Send(context.Background(), k, &cluster.Message{Kind: cluster.KindHeartbeat, From: t.id, Counts: cluster.Counts{Heap: int64(budget.Heap())}})
		}
	}
}

// Workers is the number of workers of the run.
func (t *Node) Workers() int { return t.n }

// Heaps returns the heap of each worker as its last heartbeat said.
func (t *Node) Heaps() map[int]int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make(map[int]int64, len(t.heaps))
	for k, v := range t.heaps {
		out[k] = v
	}
	return out
}

// Send publishes m to node to, in fragments if it is larger than the
// server takes.
func (t *Node) Send(_ context.Context, to int, m *cluster.Message) error {
	data := encode(m)
	subj := subject(t.run, to)
	if len(data) <= t.max {
		return t.nc.Publish(subj, data)
	}
	id := t.nextID.Add(1)
	chunk := t.max - 32
	parts := (len(data) + chunk - 1) / chunk
	for i := range parts {
		f := []byte{fragMark}
		f = binary.AppendVarint(f, int64(t.id))
		f = binary.AppendUvarint(f, id)
		f = binary.AppendUvarint(f, uint64(i))
		f = binary.AppendUvarint(f, uint64(parts))
		f = append(f, data[i*chunk:min(len(data), (i+1)*chunk)]...)
		if err := t.nc.Publish(subj, f); err != nil {
			return err
		}
	}
	return nil
}

// Recv returns the next message for the node. On the coordinator, a
// worker silent for LostAfter comes as a KindFailed message from it; on
// a worker, a silent coordinator is an error. Heartbeats reach the
// coordinator only.
func (t *Node) Recv(ctx context.Context) (*cluster.Message, error) {
	for {
		if err := t.checkLost(); err != nil {
			return nil, err
		}
		wait, cancel := context.WithTimeout(ctx, 250*time.Millisecond)
		msg, err := t.sub.NextMsgWithContext(wait)
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if errors.Is(err, context.DeadlineExceeded) {
				if lost := t.lostMessage(); lost != nil {
					return lost, nil
				}
				continue
			}
			return nil, fmt.Errorf("receiving: %w", err)
		}
		data := msg.Data
		if len(data) > 0 && data[0] == fragMark {
			if data, err = t.reassemble(data); err != nil {
				return nil, err
			}
			if data == nil {
				continue
			}
		}
		m, err := decode(data)
		if err != nil {
			return nil, err
		}
		t.mu.Lock()
		if _, ok := t.lastSeen[m.From]; ok {
			t.lastSeen[m.From] = time.Now()
		}
		if m.Kind == cluster.KindHeartbeat {
			t.heaps[m.From] = m.Counts.Heap
		}
		t.mu.Unlock()
		if m.Kind == cluster.KindHeartbeat && t.id != cluster.Coordinator {
			continue
		}
		if lost := t.lostMessage(); lost != nil {
			return lost, nil
		}
		return m, nil
	}
}

// checkLost fails a worker whose coordinator went silent.
func (t *Node) checkLost() error {
	if t.id == cluster.Coordinator {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	seen, watched := t.lastSeen[cluster.Coordinator]
	if since := time.Since(seen); watched && since > t.lostAfter {
		return fmt.Errorf("the coordinator was lost: nothing from it for %s", since.Round(time.Millisecond))
	}
	return nil
}

// lostMessage is, on the coordinator, a KindFailed message from the first
// worker silent for lostAfter, or nil.
func (t *Node) lostMessage() *cluster.Message {
	if t.id != cluster.Coordinator {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, k := range t.watch {
		if since := time.Since(t.lastSeen[k]); since > t.lostAfter {
			return &cluster.Message{Kind: cluster.KindFailed, From: k,
				Text: fmt.Sprintf("nothing from it for %s (its process ended, or the network cut it off)", since.Round(time.Millisecond))}
		}
	}
	return nil
}

// reassemble adds a fragment and returns the whole message once its last
// fragment is in (nil before).
func (t *Node) reassemble(f []byte) ([]byte, error) {
	r := &reader{b: f[1:]}
	from := r.varint()
	id, i, parts := r.uvarint(), r.uvarint(), r.uvarint()
	if r.err != nil || parts == 0 || i >= parts || parts > 1<<20 {
		return nil, errors.New("decoding a fragment: bad header")
	}
	key := [2]uint64{uint64(from), id}
	t.mu.Lock()
	defer t.mu.Unlock()
	fr := t.frags[key]
	if fr == nil {
		fr = &fragment{parts: make([][]byte, parts)}
		t.frags[key] = fr
	}
	if int(parts) != len(fr.parts) {
		return nil, errors.New("decoding a fragment: part count changed")
	}
	if fr.parts[i] == nil {
		fr.parts[i] = r.b
		fr.got++
	}
	if fr.got < len(fr.parts) {
		return nil, nil
	}
	delete(t.frags, key)
	var whole []byte
	for _, p := range fr.parts {
		whole = append(whole, p...)
	}
	return whole, nil
}
