package invariants

import (
	"context"
	"errors"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/ringcheck/ringcheck/budget"
	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/model"
)

// randomGraph draws a small graph whose edges carry the classes of the
// processes that move on them (2 processes, scheduled or finite classes).
func randomGraph(t *rapid.T) *localGraph {
	m := rapid.IntRange(1, 5).Draw(t, "vertices")
	e := rapid.IntRange(0, 9).Draw(t, "edges")
	lg := &localGraph{
		ids:     make([]uint32, m),
		enabled: make([]classSet, m),
		out:     make([][]localEdge, m),
		stepsOf: make([]int, m),
	}
	for i := range lg.ids {
		lg.ids[i] = uint32(i)
	}
	for range e {
		from := rapid.IntRange(0, m-1).Draw(t, "from")
		to := rapid.IntRange(0, m-1).Draw(t, "to")
		var c classSet
		switch rapid.IntRange(0, 4).Draw(t, "class") {
		case 0:
			c = single(0) // process 0's scheduled actions
		case 1:
			c = single(3) // process 1's
		case 2:
			c = single(1) // process 0's finite actions
		case 3:
			c = single(4) // process 1's
		} // 4: an optional action, in no class
		lg.out[from] = append(lg.out[from], localEdge{to: int32(to), taken: c})
		lg.enabled[from] = lg.enabled[from].or(c)
		lg.stepsOf[from]++
	}
	return lg
}

// fairSet reports whether an execution that visits exactly the vertices
// of set S infinitely often and takes exactly the edges of F infinitely
// often is fair under rule.
func fairSet(lg *localGraph, inS []bool, taken classSet, rule fairnessRule) bool {
	var some classSet
	every := allClasses()
	for v, ok := range inS {
		if ok {
			some = some.or(lg.enabled[v])
			every = every.and(lg.enabled[v])
		}
	}
	return some.and(rule.strong).andNot(taken).empty() && every.and(rule.weak).andNot(taken).empty()
}

// oracleFairCycle decides by brute force whether a fair cycle exists: an
// infinite execution eventually visits a set S of vertices and takes a set
// F of edges infinitely often, where (S, F) is strongly connected; so try
// every set of edges F, and take S as the vertices F touches.
func oracleFairCycle(lg *localGraph, rule fairnessRule) bool {
	type edge struct {
		from, to int
		taken    classSet
	}
	var edges []edge
	for v, out := range lg.out {
		for _, e := range out {
			edges = append(edges, edge{v, int(e.to), e.taken})
		}
	}
	m := len(lg.ids)
	for mask := 1; mask < 1<<len(edges); mask++ {
		inS := make([]bool, m)
		adj := make([][]int, m)
		var taken classSet
		for i, e := range edges {
			if mask&(1<<i) != 0 {
				inS[e.from], inS[e.to] = true, true
				adj[e.from] = append(adj[e.from], e.to)
				taken = taken.or(e.taken)
			}
		}
		if stronglyConnected(inS, adj) && fairSet(lg, inS, taken, rule) {
			return true
		}
	}
	return false
}

func stronglyConnected(inS []bool, adj [][]int) bool {
	start := -1
	for v, ok := range inS {
		if ok {
			start = v
			break
		}
	}
	reach := func(adj [][]int) []bool {
		seen := make([]bool, len(inS))
		stack := []int{start}
		seen[start] = true
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, w := range adj[v] {
				if !seen[w] {
					seen[w] = true
					stack = append(stack, w)
				}
			}
		}
		return seen
	}
	rev := make([][]int, len(adj))
	for v, out := range adj {
		for _, w := range out {
			rev[w] = append(rev[w], v)
		}
	}
	fwd, bwd := reach(adj), reach(rev)
	for v, ok := range inS {
		if ok && (!fwd[v] || !bwd[v]) {
			return false
		}
	}
	return true
}

// TestFairPartMatchesOracle compares the components-based fairness analysis
// with the brute-force one on random graphs, for every fairness, and checks
// that every cycle fairCycle builds is a real cycle of the graph and fair.
func TestFairPartMatchesOracle(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		lg := randomGraph(t)
		for _, f := range []Fairness{NoFairness, WeakFairness, StrongFairness} {
			rule := processRule(f, 2)
			part := lg.fairPart(rule)
			if want := oracleFairCycle(lg, rule); (part != nil) != want {
				t.Fatalf("%s fairness: fairPart found %v, oracle says %v", f, part, want)
			}
			if part == nil {
				continue
			}
			start := part[0]
			cycle, wants := lg.fairCycle(part, start, rule)
			if len(cycle) == 0 || cycle[0] != start {
				t.Fatalf("%s fairness: cycle %v does not start at %d", f, cycle, start)
			}
			inS := make([]bool, len(lg.ids))
			var taken classSet
			for i, v := range cycle {
				inS[v] = true
				next := cycle[(i+1)%len(cycle)]
				ok := false
				for _, e := range lg.out[v] {
					if e.to == next {
						ok = true
					}
				}
				if !ok {
					t.Fatalf("%s fairness: no edge %d→%d in cycle %v", f, v, next, cycle)
				}
			}
			// The edges taken: for each step, the first edge between the
			// two vertices of the class the step wants, as the lasso does.
			if len(wants) != len(cycle) {
				t.Fatalf("%d wants for a cycle of %d", len(wants), len(cycle))
			}
			for i, v := range cycle {
				next := cycle[(i+1)%len(cycle)]
				for _, e := range lg.out[v] {
					if e.to == int32(next) && wants[i].andNot(e.taken).empty() {
						taken = taken.or(e.taken)
						break
					}
				}
			}
			if !fairSet(lg, inS, taken, rule) {
				t.Fatalf("%s fairness: cycle %v is not fair", f, cycle)
			}
		}
	})
}

// TestLivenessAsksTheBudget: the liveness analyses of a complete search
// ask the memory budget for their arrays first, and are unknown, with the
// budget's figures, when it refuses; the refusal is recorded, for the
// report to say the check was cut.
func TestLivenessAsksTheBudget(t *testing.T) {
	b := model.NewBuilder("loop", model.UniRing, 1)
	x := b.Var("x", model.IntRange(0, 3))
	b.Action(model.Action{Name: "next", Guard: func(*model.Ctx) bool { return true }, Effect: func(c *model.Ctx, _ int) { c.Set(x, (c.Get(x)+1)%4) }})
	b.ProcessPredicate(model.ProcessPredicate{Name: "requesting", Holds: func(s *model.State, p int) bool { return s.Get(p, x) == 1 }})
	b.ProcessPredicate(model.ProcessPredicate{Name: "inCS", Holds: func(s *model.State, p int) bool { return s.Get(p, x) == 2 }})
	b.Initial(func(*model.System, *model.State) {})
	sys, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	res, err := explore.BFS(context.Background(), sys, neverDecided{}, explore.Options{})
	if err != nil || !res.Complete() {
		t.Fatalf("BFS: %v, complete %v", err, res.Complete())
	}
	for _, p := range []Property{Starvation, LeadsToProperty} {
		opts := Options{Search: explore.Options{Memory: budget.New(1)}, LeadsTo: LeadsTo{From: "requesting", To: "inCS"}}
		var cut analysisStop
		o, err := livenessOutcome(context.Background(), res, p, opts, &cut)
		if err != nil || o.Verdict != Unknown || !strings.Contains(o.Reason, "memory budget of 1 B reached") {
			t.Errorf("%s: %s (%s), %v", p, o.Verdict, o.Reason, err)
		}
		if cut.why != explore.MemoryBound || cut.exceeded() == nil {
			t.Errorf("%s: the refusal was not recorded: %+v", p, cut)
		}
		o, err = livenessOutcome(context.Background(), res, p, Options{LeadsTo: opts.LeadsTo}, nil)
		if err != nil || o.Verdict != Holds {
			t.Errorf("%s without a budget: %s (%s), %v", p, o.Verdict, o.Reason, err)
		}
	}
}

// counter: one process counts x up to size-1 and stops there, a valid end
// state; L and inCS are x = size-1, requesting is x = requestAt. Its
// graph has size states, more than the 2^16 after which the analyses first
// look at their context.
func counter(t *testing.T, size, requestAt int) *model.System {
	t.Helper()
	b := model.NewBuilder("counter", model.UniRing, 1)
	x := b.Var("x", model.IntRange(0, size-1))
	b.Action(model.Action{Name: "inc", Guard: func(c *model.Ctx) bool { return c.Get(x) < size-1 }, Effect: func(c *model.Ctx, _ int) { c.Set(x, c.Get(x)+1) }})
	done := model.Predicate{Name: "done", Holds: func(s *model.State) bool { return s.Get(0, x) == size-1 }}
	b.Legitimate(done)
	b.ValidEnd(done)
	b.ProcessPredicate(model.ProcessPredicate{Name: "requesting", Holds: func(s *model.State, p int) bool { return s.Get(p, x) == requestAt }})
	b.ProcessPredicate(model.ProcessPredicate{Name: "inCS", Holds: func(s *model.State, p int) bool { return s.Get(p, x) == size-1 }})
	b.Initial(func(*model.System, *model.State) {})
	sys, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// TestLeadsToStops: leads-to asks the memory budget for each process's
// arrays, and looks at its context while it marks the states that avoid
// To and searches them, as well as in the components search after: a
// refusal or a cancelled context is returned (which livenessOutcome turns
// into unknown), whether the states from which an execution may avoid To
// are none (no From state: nothing for the components search to visit) or
// all of them.
func TestLeadsToStops(t *testing.T) {
	const size = 1 << 17
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name      string
		requestAt int
		ctx       context.Context
		mem       *budget.Memory
		want      func(error) bool
	}{
		{"no From state, budget", -1, context.Background(), budget.New(1), isExceeded},
		{"no From state, cancelled", -1, cancelled, nil, isCanceled},
		{"From at the start, budget", 0, context.Background(), budget.New(1), isExceeded},
		{"From at the start, cancelled", 0, cancelled, nil, isCanceled},
		{"From at the start, neither", 0, context.Background(), nil, func(err error) bool { return err == nil }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := explore.BFS(context.Background(), counter(t, size, tc.requestAt), neverDecided{}, explore.Options{})
			if err != nil || !res.Complete() {
				t.Fatalf("BFS: %v, complete %v", err, res.Complete())
			}
			g, err := res.Graph()
			if err != nil {
				t.Fatal(err)
			}
			o, err := checkLeadsTo(tc.ctx, g, NoFairness, LeadsTo{From: "requesting", To: "inCS"}, tc.mem, nil)
			if !tc.want(err) {
				t.Fatalf("%s (%s), error %v", o.Verdict, o.Reason, err)
			}
			if err == nil && o.Verdict != Holds {
				t.Fatalf("%s (%s), want holds", o.Verdict, o.Reason)
			}
		})
	}
}

func isExceeded(err error) bool {
	var ex *budget.Exceeded
	return errors.As(err, &ex)
}

func isCanceled(err error) bool { return errors.Is(err, context.Canceled) }

// TestConvergenceFromGivenAsksTheBudget: the analysis after a complete
// search from given configurations asks the memory budget first, as the
// liveness analyses do; when it refuses, convergence is unknown with the
// budget's figures, and the refusal is recorded for the report to say the
// check was cut.
func TestConvergenceFromGivenAsksTheBudget(t *testing.T) {
	sys := counter(t, 100, -1)
	start := sys.NewState()
	res, err := explore.BFS(context.Background(), sys, neverDecided{}, explore.Options{Start: []*model.State{start}})
	if err != nil || !res.Complete() {
		t.Fatalf("BFS: %v, complete %v", err, res.Complete())
	}
	opts := Options{Start: []*model.State{start}, Search: explore.Options{Memory: budget.New(1)}}
	var cut analysisStop
	o, err := convergenceFromGiven(context.Background(), res, opts, nil, &cut)
	if err != nil || o.Verdict != Unknown || !strings.Contains(o.Reason, "memory budget of 1 B reached") {
		t.Errorf("%s (%s), %v", o.Verdict, o.Reason, err)
	}
	if cut.why != explore.MemoryBound || cut.exceeded() == nil {
		t.Errorf("the refusal was not recorded: %+v", cut)
	}
	opts.Search.Memory = nil
	o, err = convergenceFromGiven(context.Background(), res, opts, nil, nil)
	if err != nil || o.Verdict != Unknown || !strings.Contains(o.Reason, "every execution") {
		t.Errorf("without a budget: %s (%s), %v", o.Verdict, o.Reason, err)
	}
}
