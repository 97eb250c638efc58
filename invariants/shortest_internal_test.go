package invariants

import (
	"math"
	"testing"

	"pgregory.net/rapid"
)

// girth is the length of a shortest cycle through the vertices of part,
// by Floyd–Warshall: the oracle of shortestCycle (0: no cycle).
func girth(lg *localGraph, part []int32) int {
	m := len(lg.ids)
	in := make([]bool, m)
	for _, v := range part {
		in[v] = true
	}
	const inf = math.MaxInt / 4
	d := make([][]int, m)
	for i := range d {
		d[i] = make([]int, m)
		for j := range d[i] {
			d[i][j] = inf
		}
		if !in[i] {
			continue
		}
		for _, e := range lg.out[i] {
			if in[e.to] {
				d[i][e.to] = 1
			}
		}
	}
	for k := range m {
		for i := range m {
			for j := range m {
				d[i][j] = min(d[i][j], d[i][k]+d[k][j])
			}
		}
	}
	best := inf
	for _, v := range part {
		best = min(best, d[v][v])
	}
	if best == inf {
		return 0
	}
	return best
}

// TestShortestCycleIsShortest checks shortestCycle against the oracle on
// random graphs: the cycle is one, its steps are edges, no cycle is
// shorter, and none that is as short starts at an earlier vertex.
func TestShortestCycleIsShortest(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		lg := randomGraph(t)
		part := make([]int32, len(lg.ids))
		for i := range part {
			part[i] = int32(i)
		}
		work := int64(math.MaxInt64)
		cycle, complete := lg.shortestCycle(part, math.MaxInt, &work)
		if !complete {
			t.Fatal("the search ran out of unbounded work")
		}
		want := girth(lg, part)
		if len(cycle) != want {
			t.Fatalf("cycle %v of %d steps, the oracle's shortest has %d", cycle, len(cycle), want)
		}
		for i, v := range cycle {
			next, ok := cycle[(i+1)%len(cycle)], false
			for _, e := range lg.out[v] {
				ok = ok || e.to == next
			}
			if !ok {
				t.Fatalf("cycle %v: no edge %d→%d", cycle, v, next)
			}
		}
		if want > 0 {
			// No vertex before the first closes a cycle as short.
			for _, s := range part[:cycle[0]] {
				if shortestThrough(lg, s) == want {
					t.Fatalf("cycle %v starts at %d, but %d has one of %d steps", cycle, cycle[0], s, want)
				}
			}
			// A bound at the girth finds nothing shorter.
			work = math.MaxInt64
			if c, _ := lg.shortestCycle(part, want, &work); c != nil {
				t.Fatalf("bound %d: found %v", want, c)
			}
		}
		// Work runs out: incomplete.
		if want > 0 {
			work = 0
			if _, complete := lg.shortestCycle(part, math.MaxInt, &work); complete {
				t.Fatal("no work left, and the search says it is complete")
			}
		}
	})
}

// shortestThrough is the length of a shortest cycle through s (0: none),
// by breadth-first search.
func shortestThrough(lg *localGraph, s int32) int {
	dist := map[int32]int{s: 0}
	queue := []int32{s}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, e := range lg.out[v] {
			if e.to == s {
				return dist[v] + 1
			}
			if _, ok := dist[e.to]; !ok {
				dist[e.to] = dist[v] + 1
				queue = append(queue, e.to)
			}
		}
	}
	return 0
}
