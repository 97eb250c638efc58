package model

import "fmt"

// TopologyKind names the shape of the communication graph.
type TopologyKind int

// The topologies ringcheck models.
const (
	// UniRing: process i reads from, or receives from, i-1 and sends to i+1 (mod n).
	UniRing TopologyKind = iota
	// BiRing: process i is linked with i-1 and i+1 (mod n) in both directions.
	BiRing
	// Complete: every process is linked with every other in both directions.
	Complete
	// Line: process i is linked with i-1 and i+1 in both directions where
	// they exist; process 0 (the bottom) has no predecessor and process
	// N-1 (the top) no successor.
	Line
)

// String returns the topology's name as used in reports.
func (k TopologyKind) String() string {
	switch k {
	case UniRing:
		return "unidirectional-ring"
	case BiRing:
		return "bidirectional-ring"
	case Complete:
		return "complete-graph"
	case Line:
		return "line"
	}
	return fmt.Sprintf("topology(%d)", int(k))
}

// Topology is a communication graph over N processes numbered 0..N-1.
type Topology struct {
	Kind TopologyKind
	N    int
}

// Succ is process p's successor on a ring: (p+1) mod N (on a line, the
// top's Succ is the bottom, to which it has no link).
func (t Topology) Succ(p int) int { return (p + 1) % t.N }

// Pred is process p's predecessor on a ring: (p-1) mod N (on a line, the
// bottom's Pred is the top, to which it has no link).
func (t Topology) Pred(p int) int { return (p + t.N - 1) % t.N }

// Linked reports whether the topology has a directed link from p to q, the
// direction in which q may read p's variables and p may send to q.
func (t Topology) Linked(p, q int) bool {
	if p == q || p < 0 || q < 0 || p >= t.N || q >= t.N {
		return false
	}
	switch t.Kind {
	case UniRing:
		return q == t.Succ(p)
	case BiRing:
		return q == t.Succ(p) || q == t.Pred(p)
	case Complete:
		return true
	case Line:
		return q == p+1 || q == p-1
	}
	return false
}

// Links lists every directed link (from, to) in a deterministic order: by
// sender, then by receiver.
func (t Topology) Links() [][2]int {
	var out [][2]int
	for p := 0; p < t.N; p++ {
		for q := 0; q < t.N; q++ {
			if t.Linked(p, q) {
				out = append(out, [2]int{p, q})
			}
		}
	}
	return out
}
