package invariants

import "slices"

// shortestCycle returns a shortest cycle inside the part, as local
// vertices from its first one, among the cycles shorter than bound, or
// nil if there is none. Of the shortest cycles it returns the one whose
// first vertex comes first in the part's order. Each step it follows
// costs one unit of *work; once *work is spent it stops and reports
// complete false, with the shortest cycle found by then (or nil).
//
// It runs a breadth-first search from each vertex in turn, cut at the
// depth of the shortest cycle found so far: the first step back to the
// vertex closes the shortest cycle through it.
func (lg *localGraph) shortestCycle(part []int32, bound int, work *int64) (cycle []int32, complete bool) {
	in := make([]bool, len(lg.ids))
	for _, v := range part {
		in[v] = true
	}
	parent := make([]int32, len(lg.ids))
	depth := make([]int32, len(lg.ids))
	for i := range parent {
		parent[i] = -1
	}
	var queue []int32
	for _, s := range part {
		queue = append(queue[:0], s)
		parent[s], depth[s] = s, 0
		closed := false
		for head := 0; head < len(queue) && !closed; head++ {
			v := queue[head]
			if int(depth[v])+1 >= bound {
				break // every cycle closed from here is no shorter
			}
			for _, e := range lg.out[v] {
				if !in[e.to] {
					continue
				}
				if *work--; *work < 0 {
					reset(parent, queue)
					return cycle, false
				}
				if e.to == s {
					cycle = cycle[:0]
					for u := v; u != s; u = parent[u] {
						cycle = append(cycle, u)
					}
					cycle = append(cycle, s)
					slices.Reverse(cycle)
					bound, closed = len(cycle), true
					break
				}
				if parent[e.to] < 0 {
					parent[e.to], depth[e.to] = v, depth[v]+1
					queue = append(queue, e.to)
				}
			}
		}
		reset(parent, queue)
		if bound == 1 {
			break // no cycle is shorter than a step to itself
		}
	}
	return cycle, true
}

// reset forgets the parents of the vertices a search reached.
func reset(parent []int32, reached []int32) {
	for _, v := range reached {
		parent[v] = -1
	}
}
