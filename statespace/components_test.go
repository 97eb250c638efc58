package statespace_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/dominikbraun/graph"

	"github.com/ringcheck/ringcheck/budget"
	"github.com/ringcheck/ringcheck/statespace"
)

// TestComponentsAgreeWithGraphLibrary checks Components on random
// directed graphs against the strongly connected components of
// github.com/dominikbraun/graph (Tarjan's algorithm, written
// independently): the same partition of the kept vertices, each
// single-vertex component's successors exactly its kept successors, and
// the components reported in reverse topological order of the quotient
// graph.
func TestComponentsAgreeWithGraphLibrary(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		n := 1 + rng.IntN(60)
		degree := rng.Float64() * 3
		adj := make([][]uint32, n)
		kept := make([]bool, n)
		for v := range n {
			kept[v] = rng.IntN(5) > 0
			for range int(degree) + rng.IntN(2) {
				adj[v] = append(adj[v], uint32(rng.IntN(n)))
			}
		}
		keep := func(v uint32) bool { return kept[v] }
		discovered := make([]int, n) // when succ was first called on v, from 1
		calls := 0
		succ := func(v uint32, dst []uint32) ([]uint32, error) {
			if calls++; discovered[v] == 0 {
				discovered[v] = calls
			}
			for _, w := range adj[v] {
				if kept[w] {
					dst = append(dst, w)
				}
			}
			return dst, nil
		}

		// Components: the component of each vertex, in report order.
		compOf := make([]int, n)
		for v := range compOf {
			compOf[v] = -1
		}
		var ours [][]uint32
		err := statespace.Components(context.Background(), uint64(n), keep, succ, func(members, succs []uint32) error {
			i := len(ours)
			for _, v := range members[1:] {
				if discovered[v] < discovered[members[0]] {
					t.Errorf("trial %d: component %v: %d was discovered before %d, which comes first", trial, members, v, members[0])
				}
			}
			ours = append(ours, slices.Sorted(slices.Values(members)))
			for _, v := range members {
				compOf[v] = i
			}
			if len(members) == 1 {
				want, _ := succ(members[0], nil)
				if !slices.Equal(succs, want) {
					t.Errorf("trial %d: component {%d} reports successors %v, want %v", trial, members[0], succs, want)
				}
			}
			return nil
		}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		for v := range n {
			for _, w := range adj[v] {
				if kept[v] && kept[w] && compOf[w] > compOf[v] {
					t.Errorf("trial %d: edge %d→%d goes to a component reported after its source's", trial, v, w)
				}
			}
		}

		// The library's components of the same kept subgraph.
		// Vertex v is the library's v+1: its algorithms treat the zero
		// value of a vertex type as no vertex.
		g := graph.New(func(v uint32) uint32 { return v }, graph.Directed())
		for v := range n {
			if kept[v] {
				if err := g.AddVertex(uint32(v) + 1); err != nil {
					t.Fatal(err)
				}
			}
		}
		for v := range n {
			for _, w := range adj[v] {
				if kept[v] && kept[w] {
					// Parallel edges repeat; the library keeps one.
					_ = g.AddEdge(uint32(v)+1, w+1)
				}
			}
		}
		sccs, err := graph.StronglyConnectedComponents(g)
		if err != nil {
			t.Fatal(err)
		}
		var theirs [][]uint32
		for _, c := range sccs {
			members := make([]uint32, len(c))
			for i, k := range c {
				members[i] = k - 1
			}
			theirs = append(theirs, slices.Sorted(slices.Values(members)))
		}
		byFirst := func(a, b []uint32) int { return int(a[0]) - int(b[0]) }
		slices.SortFunc(ours, byFirst)
		slices.SortFunc(theirs, byFirst)
		if !slices.EqualFunc(ours, theirs, slices.Equal) {
			t.Fatalf("trial %d (n=%d): Components %v, the library %v", trial, n, ours, theirs)
		}
	}
}

// path is the graph 0 → 1 → … → n-1, all kept: the search's path and
// component stack grow to n.
func path(n uint32) (func(uint32) bool, func(v uint32, dst []uint32) ([]uint32, error)) {
	return func(uint32) bool { return true }, func(v uint32, dst []uint32) ([]uint32, error) {
		if v+1 < n {
			dst = append(dst, v+1)
		}
		return dst, nil
	}
}

// TestComponentsAsksTheBudget: the search's stacks grow with the graph
// and ask the budget first; a budget that refuses ends the search with
// its *budget.Exceeded, and one that grants lets it finish.
func TestComponentsAsksTheBudget(t *testing.T) {
	const n = 10000
	keep, succ := path(n)
	count := 0
	component := func([]uint32, []uint32) error { count++; return nil }
	err := statespace.Components(context.Background(), n, keep, succ, component, nil, budget.New(1))
	var ex *budget.Exceeded
	if !errors.As(err, &ex) || ex.Limit != 1 || ex.Need == 0 {
		t.Fatalf("with a budget of 1 byte: %v (%d components); want a *budget.Exceeded", err, count)
	}
	count = 0
	if err := statespace.Components(context.Background(), n, keep, succ, component, nil, budget.New(1<<40)); err != nil || count != n {
		t.Fatalf("with a budget of 1 TiB: %v, %d components; want %d", err, count, n)
	}
}

// TestComponentsProgressCountsVertices: progress reports the vertices
// visited (those succ was called on), not the components finished, on a
// graph of two-vertex components.
func TestComponentsProgressCountsVertices(t *testing.T) {
	const n = 1 << 17
	visited := uint64(0)
	succ := func(v uint32, dst []uint32) ([]uint32, error) {
		visited++
		return append(dst, v^1), nil
	}
	calls := 0
	progress := func(reported uint64) {
		calls++
		if reported != visited {
			t.Fatalf("progress reports %d vertices visited; %d were", reported, visited)
		}
	}
	err := statespace.Components(context.Background(), n, func(uint32) bool { return true }, succ,
		func(members, _ []uint32) error {
			if len(members) != 2 {
				t.Fatalf("component %v", members)
			}
			return nil
		}, progress, nil)
	if err != nil || calls == 0 {
		t.Fatalf("%v, %d progress reports", err, calls)
	}
}

// TestComponentsMembersOrder: a component's members come first-discovered
// first, then in the reverse of the order the search finished them: for
// 0 → 1 → 0 and 0 → 2 → 0, discovered 0, 1, 2 and finished 1, 2, 0,
// [0 2 1].
func TestComponentsMembersOrder(t *testing.T) {
	adj := [][]uint32{{1, 2}, {0}, {0}}
	var got []uint32
	err := statespace.Components(context.Background(), 3, func(uint32) bool { return true },
		func(v uint32, dst []uint32) ([]uint32, error) { return append(dst, adj[v]...), nil },
		func(members, _ []uint32) error { got = slices.Clone(members); return nil }, nil, nil)
	if err != nil || !slices.Equal(got, []uint32{0, 2, 1}) {
		t.Fatalf("members %v, %v; want [0 2 1]", got, err)
	}
}
