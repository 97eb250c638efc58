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
	// for lost, provided the node watching it was running for at least
	// half of that time (its own heartbeats ticked): a pause of the
	// watcher itself (a long collection of a large heap, a machine short
	// of processors) does not make its peers look lost. A worker process
	// that ends on the machine of a check --procs started it is lost at
	// once.
	LostAfter = 8 * time.Second
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
	// beats receives the heartbeats sent to the node, on a subject of
	// their own handled as they arrive: a node busy between two Recv
	// calls, or a queue of batches ahead of them, does not make a live
	// peer look silent.
	beats *nats.Subscription
	// watch are the nodes whose silence ends the run: the workers for
	// the coordinator, the coordinator for a worker.
	watch     []int
	lostAfter time.Duration

	// ticks counts the node's own heartbeat ticks; a tick missed while
	// the process was paused is not counted.
	ticks atomic.Int64

	mu       sync.Mutex
	lastSeen map[int]time.Time
	// seenTick is ticks when each watched node was last heard from.
	seenTick map[int]int64
	// beatsDue are the heartbeats the coordinator heard and Recv has not
	// returned yet (they carry the workers' heaps).
	beatsDue []*cluster.Message
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
		lastSeen: map[int]time.Time{}, seenTick: map[int]int64{}, heaps: map[int]int64{}, frags: map[[2]uint64]*fragment{},
		max: int(nc.MaxPayload()) - 64, stop: make(chan struct{})}
	now := time.Now()
	for _, k := range watch {
		t.lastSeen[k] = now
	}
	t.beats, err = nc.Subscribe(beatSubject(run, id), t.heartbeat)
	if err != nil {
		sub.Unsubscribe()
		return nil, fmt.Errorf("subscribing to %s: %w", beatSubject(run, id), err)
	}
	go t.heartbeats()
	return t, nil
}

// beatSubject is the subject of the heartbeats sent to node.
func beatSubject(run string, node int) string { return subject(run, node) + ".hb" }

// heartbeat records a heartbeat as it arrives.
func (t *Node) heartbeat(msg *nats.Msg) {
	m, err := decode(msg.Data)
	if err != nil || m.Kind != cluster.KindHeartbeat {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.heard(m.From)
	t.heaps[m.From] = m.Counts.Heap
	if t.id == cluster.Coordinator {
		t.beatsDue = append(t.beatsDue, m)
	}
}

// dueBeat returns, on the coordinator, a heartbeat heard since the last
// call, for Recv to hand on (nil: none).
func (t *Node) dueBeat() *cluster.Message {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.beatsDue) == 0 {
		return nil
	}
	m := t.beatsDue[0]
	t.beatsDue = t.beatsDue[1:]
	return m
}

// heard records that node k was heard from now; t.mu is held.
func (t *Node) heard(k int) {
	if _, ok := t.lastSeen[k]; ok {
		t.lastSeen[k], t.seenTick[k] = time.Now(), t.ticks.Load()
	}
}

// silent returns how long watched node k has been silent, if that makes
// it lost; t.mu is held.
func (t *Node) silent(k int) (time.Duration, bool) {
	since := time.Since(t.lastSeen[k])
	alive := time.Duration(t.ticks.Load()-t.seenTick[k]) * HeartbeatEvery
	return since, since > t.lostAfter && 2*alive >= t.lostAfter
}

// Close stops the node's heartbeats and subscription.
func (t *Node) Close() {
	t.stopOnce.Do(func() {
		close(t.stop)
		t.beats.Unsubscribe()
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
		t.ticks.Add(1)
		beat := encode(&cluster.Message{Kind: cluster.KindHeartbeat, From: t.id, Counts: cluster.Counts{Heap: int64(budget.Heap())}})
		for _, k := range t.watch {
			t.nc.Publish(beatSubject(t.run, k), beat)
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
		if m := t.dueBeat(); m != nil {
			return m, nil
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
		t.heard(m.From)
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
	if _, watched := t.lastSeen[cluster.Coordinator]; !watched {
		return nil
	}
	if since, lost := t.silent(cluster.Coordinator); lost {
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
		if since, lost := t.silent(k); lost {
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
