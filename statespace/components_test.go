package statespace_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/dominikbraun/graph"

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
		succ := func(v uint32, dst []uint32) ([]uint32, error) {
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
		}, nil)
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
