package invariants

import (
	"context"
	"fmt"
	"slices"

	"github.com/ringcheck/ringcheck/budget"
	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/statespace"
)

// LeadsTo names the two per-process predicates of a leads-to property
// From ~> To: for every process p, whenever From(p) holds, To(p) holds then
// or later, on every execution fair under the chosen fairness.
type LeadsTo struct {
	From, To string
}

// String renders the property as "requesting ~> inCS".
func (l LeadsTo) String() string { return l.From + " ~> " + l.To }

// noParent marks a vertex with no breadth-first parent.
const noParent = ^uint32(0)

// checkLeadsTo decides From(p) ~> To(p) for every process p over the
// reachable graph. A violation is a reachable state where From(p) holds and
// To(p) does not, followed by a fair execution that avoids To(p) forever: it
// reaches a state with no step, or a fair cycle, through states where To(p)
// is false. The states from which such an execution may start are found by
// a breadth-first search inside ¬To(p) from every From(p) ∧ ¬To(p) state;
// the rest is findWaiting's.
//
// For each process it asks mem for its arrays, and it looks at ctx every
// 2^16 states it marks or visits: the budget's refusal (a
// *budget.Exceeded) or ctx's error is returned, which stopReason tells
// from a failure.
func checkLeadsTo(ctx context.Context, g *explore.ReachGraph, fairness Fairness, lt LeadsTo, mem *budget.Memory, progress func(uint64)) (Outcome, error) {
	o := Outcome{Property: LeadsToProperty, Verdict: Holds}
	sys := g.System()
	from, ok1 := sys.ProcessPredicateByName(lt.From)
	to, ok2 := sys.ProcessPredicateByName(lt.To)
	if !ok1 || !ok2 {
		return o, fmt.Errorf("spec %s has no per-process predicates %q and %q", sys.Name, lt.From, lt.To)
	}
	rule, err := ruleFor(sys, fairness)
	if err != nil {
		return o, err
	}
	n := g.Size()
	// visit counts the states the marking looks at and the breadth-first
	// search visits, and looks at ctx every 2^16 of them.
	visits := 0
	visit := func() error {
		if visits++; visits&0xFFFF == 0 {
			return ctx.Err()
		}
		return nil
	}
	for p := 0; p < sys.N(); p++ {
		// A process's arrays: the parents (4 bytes a state), the queue (at
		// most 4 bytes a state, and as much again while it grows), the
		// marks and avoid's cache (3 bits).
		if err := mem.Grow(12*n + n/2); err != nil {
			return o, err
		}
		w := g.NewWalker()
		avoid := cachedPredicate(n, func(v uint32) bool {
			st, err := w.Load(v)
			return err == nil && !to.Holds(st, p)
		})
		// The states an execution avoiding To(p) since a From(p) state
		// can be in, with a breadth-first parent toward such a start.
		marked := statespace.NewBits(n)
		// parent[v] is v's breadth-first parent, or noParent for a start
		// state and the states not marked.
		parent := make([]uint32, n)
		for i := range parent {
			parent[i] = noParent
		}
		var queue []uint32
		for v := uint32(0); uint64(v) < n; v++ {
			if err := visit(); err != nil {
				return o, err
			}
			if !avoid(v) {
				continue
			}
			st, err := w.Load(v)
			if err != nil {
				return o, err
			}
			if from.Holds(st, p) {
				marked.Set(v)
				queue = append(queue, v)
			}
		}
		for len(queue) > 0 {
			if err := visit(); err != nil {
				return o, err
			}
			v := queue[0]
			queue = queue[1:]
			st, err := w.Load(v)
			if err != nil {
				return o, err
			}
			var next []uint32
			if _, err := w.Successors(st, func(_ *model.Step, id uint32, _ *model.State) {
				next = append(next, id)
			}); err != nil {
				return o, err
			}
			for _, u := range next {
				if !marked.Has(u) && avoid(u) {
					marked.Set(u)
					parent[u] = v
					queue = append(queue, u)
				}
			}
		}
		viol, err := findWaiting(ctx, g, rule, marked.Has, sys.ValidEnd, mem, progress)
		if err != nil {
			return o, err
		}
		if viol == nil {
			continue
		}
		// Re-route the prefix through the From(p) state the avoiding
		// stretch starts from.
		entry := viol.prefix[len(viol.prefix)-1]
		inside := []uint32{entry}
		for u := parent[entry]; u != noParent; u = parent[u] {
			inside = append(inside, u)
		}
		slices.Reverse(inside)
		prefix, err := g.PathTo(inside[0])
		if err != nil {
			return o, err
		}
		viol.prefix = append(prefix, inside[1:]...)
		ce, err := viol.counterexample(g)
		if err != nil {
			return o, err
		}
		ce.Process = &p
		o.Verdict, o.Counterexample = Violated, ce
		o.Reason = fmt.Sprintf("process %d: %s holds, and %s never does after it (fairness %s)", p, lt.From, lt.To, fairness)
		return o, nil
	}
	return o, nil
}
