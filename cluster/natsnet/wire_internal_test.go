package natsnet

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/ringcheck/ringcheck/cluster"
	"github.com/ringcheck/ringcheck/invariants"
)

func sample() *cluster.Message {
	return &cluster.Message{Kind: cluster.KindKeys, From: 3, Run: 9, Seq: 1 << 40, Chunk: 17, Depth: 12, Lo: -1, Hi: 1 << 33, Last: true, Count: 5,
		Words: []uint64{0, 1, 1<<64 - 1}, Parents: []uint32{4, 1<<32 - 1}, Steps: []uint32{0, 7},
		Counts:   cluster.Counts{Transitions: 10, Distinct: 9, Refused: 1, StoreBytes: 1 << 20, States: 77, Heap: 1 << 30, Budget: cluster.BudgetRefusal{Limit: 4 << 20, Held: 3 << 20, Need: 40}},
		Findings: invariants.Findings{Invariant: invariants.Finding{Found: true, ID: 1 << 35, Detail: 2}, Deadlock: invariants.Finding{Found: true, ID: 3}},
		Text:     "why"}
}

// TestWire decodes what encode writes, and refuses it cut short.
func TestWire(t *testing.T) {
	m := sample()
	b := encode(m)
	got, err := decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, m) {
		t.Errorf("decoded\n%+v\nwant\n%+v", got, m)
	}
	for _, n := range []int{0, 1, 5, len(b) / 2, len(b) - 1} {
		if _, err := decode(b[:n]); err == nil {
			t.Errorf("%d of %d bytes decoded", n, len(b))
		}
	}
}

// TestFragments sends a message larger than the server takes: it
// arrives whole, in fragments.
func TestFragments(t *testing.T) {
	s, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: server.RANDOM_PORT, NoLog: true, NoSigs: true, MaxPayload: 1024})
	if err != nil {
		t.Fatal(err)
	}
	go s.Start()
	defer s.Shutdown()
	if !s.ReadyForConnections(10 * time.Second) {
		t.Fatal("server not ready")
	}
	nc, err := nats.Connect(s.ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	a, err := newNode(nc, "r", 0, 2, nil, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := newNode(nc, "r", 1, 2, nil, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	m := sample()
	m.From = 0
	m.Words = make([]uint64, 2000)
	for i := range m.Words {
		m.Words[i] = uint64(i) * 0x9e3779b97f4a7c15
	}
	if len(encode(m)) < 10*1024 {
		t.Fatal("the message fits in one NATS message")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for range 2 {
		if err := a.Send(ctx, 1, m); err != nil {
			t.Fatal(err)
		}
	}
	for range 2 {
		got, err := b.Recv(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, m) {
			t.Fatal("the message arrived changed")
		}
	}
}

// TestSilenceNeedsTheWatcherRunning: a watched node silent for longer
// than lostAfter is lost only if the watcher's own heartbeats ticked
// for at least half of that time, so that a pause of the watcher (a long
// garbage collection, a machine short of processors) loses no peer;
// heartbeats, on their own subject, are heard while the watcher is busy
// away from Recv.
func TestSilenceNeedsTheWatcherRunning(t *testing.T) {
	s, url, err := StartServer()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Shutdown()
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	const lostAfter = 4 * HeartbeatEvery
	w, err := newNode(nc, "s", 0, 2, []int{cluster.Coordinator}, lostAfter)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.mu.Lock()
	w.lastSeen[cluster.Coordinator], w.seenTick[cluster.Coordinator] = time.Now().Add(-time.Minute), w.ticks.Load()
	w.mu.Unlock()
	if err := w.checkLost(); err != nil {
		t.Fatalf("a watcher that did not run took its peer for lost: %v", err)
	}
	w.ticks.Add(2)
	if err := w.checkLost(); err == nil {
		t.Fatal("a peer silent while the watcher ran for half of lostAfter was not lost")
	}
	c, err := newNode(nc, "s", cluster.Coordinator, 2, []int{0}, lostAfter)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	deadline := time.Now().Add(10 * time.Second)
	for w.checkLost() != nil {
		if time.Now().After(deadline) {
			t.Fatal("the coordinator's heartbeats were not heard without a call to Recv")
		}
		time.Sleep(50 * time.Millisecond)
	}
}
