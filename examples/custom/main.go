// Command custom is a Go module of its own that defines a spec with
// ringcheck's model.Builder and runs the whole ringcheck command line over
// it: `go run . check three-state-go -p n=5 --check closure,convergence`.
// The spec is Dijkstra's three-state machines (EWD396), the algorithm of
// ../three-state.ring, written in Go.
package main

import (
	"fmt"

	"github.com/ringcheck/ringcheck/cmd/ringcheck/cli"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
)

func main() { cli.Main(threeState()) }

// threeState is the catalogue entry of the three-state machines.
func threeState() *specs.Spec {
	return &specs.Spec{
		Name:          "three-state-go",
		Summary:       "Dijkstra's three-state machines, written in Go",
		Source:        "E. W. Dijkstra, EWD396, Self-stabilization with three-state machines",
		Communication: "state-reading",
		Params:        []specs.Param{{Name: "n", Default: 4, Min: 3, Max: 8, Doc: "number of machines"}},
		Legitimacy:    "exactly one privilege",
		DefaultChecks: []string{"closure", "convergence"},
		Build:         build,
	}
}

// build returns the ring of n machines: 0 the bottom, n-1 the top, each
// reading both neighbours.
func build(p specs.Values) (*model.System, error) {
	n := p["n"]
	if n < 3 {
		return nil, fmt.Errorf("three-state: need n ≥ 3, got %d", n)
	}
	b := model.NewBuilder("three-state-go", model.BiRing, n)
	s := b.Var("s", model.IntRange(0, 2))
	inc := func(v int) int { return (v + 1) % 3 }
	b.Action(model.Action{
		Name:   "down",
		Guard:  func(c *model.Ctx) bool { return inc(c.Get(s)) == c.Read(c.Succ(), s) },
		Effect: func(c *model.Ctx, _ int) { c.Set(s, (c.Get(s)+2)%3) },
	}, 0)
	normal := make([]int, 0, n-2)
	for i := 1; i < n-1; i++ {
		normal = append(normal, i)
	}
	b.Action(model.Action{
		Name:   "left",
		Guard:  func(c *model.Ctx) bool { return inc(c.Get(s)) == c.Read(c.Pred(), s) },
		Effect: func(c *model.Ctx, _ int) { c.Set(s, c.Read(c.Pred(), s)) },
	}, normal...)
	b.Action(model.Action{
		Name:   "right",
		Guard:  func(c *model.Ctx) bool { return inc(c.Get(s)) == c.Read(c.Succ(), s) },
		Effect: func(c *model.Ctx, _ int) { c.Set(s, c.Read(c.Succ(), s)) },
	}, normal...)
	b.Action(model.Action{
		Name: "up",
		Guard: func(c *model.Ctx) bool {
			l, r := c.Read(c.Pred(), s), c.Read(c.Succ(), s)
			return l == r && c.Get(s) != inc(l)
		},
		Effect: func(c *model.Ctx, _ int) { c.Set(s, inc(c.Read(c.Pred(), s))) },
	}, n-1)
	// privileges counts the privileges of configuration st: one at most
	// for the bottom and the top, up to two for a normal machine.
	privileges := func(st *model.State) int {
		count := 0
		for i := range n {
			v := st.Get(i, s)
			l, r := st.Get((i+n-1)%n, s), st.Get((i+1)%n, s)
			switch {
			case i == 0:
				if inc(v) == r {
					count++
				}
			case i == n-1:
				if l == r && v != inc(l) {
					count++
				}
			default:
				if inc(v) == l {
					count++
				}
				if inc(v) == r {
					count++
				}
			}
		}
		return count
	}
	b.Legitimate(model.Predicate{Name: "one-privilege", Doc: "exactly one privilege", Holds: func(st *model.State) bool { return privileges(st) == 1 }})
	b.Initial(func(*model.System, *model.State) {})
	return b.Build()
}
