// Package dijkstra encodes Dijkstra's K-state self-stabilizing token ring
// (E. W. Dijkstra, "Self-stabilizing systems in spite of distributed
// control", CACM 17(11), 1974), as ringcheck's design defines it.
//
// The ring is unidirectional with n processes in the state-reading model;
// each process i has one variable x[i] in 0..K-1, and reads its predecessor.
// Process 0 is the root:
//
//	root:    privileged iff x[0] = x[n-1];   move x[0] := (x[0]+1) mod K
//	i > 0:   privileged iff x[i] ≠ x[i-1];   move x[i] := x[i-1]
//
// A configuration is legitimate iff exactly one process is privileged. The
// spec's safety invariant is that legitimacy predicate, so "safety holds
// from init" says that from the all-zero configuration the ring never holds
// more than one privilege. Every configuration has a privileged process (if
// no i>0 is, all x are equal and the root is), so the ring never deadlocks;
// there is no valid end state.
//
// For starvation, requesting(p) is always true and inCS(p) is "p is
// privileged": starvation freedom says every process is privileged
// infinitely often.
//
// Dijkstra's claim: self-stabilizing under the central daemon for K ≥ n (in
// fact K ≥ n-1 suffices); convergence is checked by a later issue.
package dijkstra

import (
	"fmt"

	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
)

// Spec returns the catalogue entry.
func Spec() *specs.Spec {
	return &specs.Spec{
		Name:          "dijkstra",
		Summary:       "Dijkstra's K-state self-stabilizing token ring",
		Source:        "E. W. Dijkstra, Self-stabilizing systems in spite of distributed control, CACM 1974 (K-state machine)",
		Communication: "state-reading",
		Params: []specs.Param{
			{Name: "n", Default: 5, Min: 2, Max: 32, Doc: "number of processes on the ring"},
			{Name: "K", Default: 5, Min: 2, Max: 64, Doc: "number of states of each process's variable x"},
		},
		Legitimacy:    "exactly one process is privileged",
		Invariants:    []string{"one-privilege: exactly one process is privileged"},
		DefaultChecks: []string{"safety", "deadlock"},
		Claims: []specs.Claim{
			{Property: "safety", Verdict: "holds", Params: map[string]int{"n": 5, "K": 5}, From: "init",
				Source: "from the all-zero configuration a single privilege circulates"},
			{Property: "deadlock", Verdict: "holds", Params: map[string]int{"n": 5, "K": 5}, From: "all",
				Source: "every configuration has a privileged process"},
		},
		Build: Build,
	}
}

// Build returns the model of the ring for parameters n and K.
func Build(p specs.Values) (*model.System, error) {
	n, k := p["n"], p["K"]
	if n < 2 || k < 2 {
		return nil, fmt.Errorf("dijkstra: need n ≥ 2 and K ≥ 2, got n=%d K=%d", n, k)
	}
	b := model.NewBuilder("dijkstra", model.UniRing, n)
	x := b.Var("x", model.IntRange(0, k-1))
	b.Action(model.Action{
		Name:  "A",
		Guard: func(c *model.Ctx) bool { return c.Get(x) == c.Read(c.Pred(), x) },
		Effect: func(c *model.Ctx, _ int) {
			c.Set(x, (c.Get(x)+1)%k)
		},
	}, 0)
	others := make([]int, 0, n-1)
	for i := 1; i < n; i++ {
		others = append(others, i)
	}
	b.Action(model.Action{
		Name:   "A",
		Guard:  func(c *model.Ctx) bool { return c.Get(x) != c.Read(c.Pred(), x) },
		Effect: func(c *model.Ctx, _ int) { c.Set(x, c.Read(c.Pred(), x)) },
	}, others...)
	onePrivilege := model.Predicate{
		Name: "one-privilege",
		Doc:  "exactly one process is privileged",
		Holds: func(s *model.State) bool {
			return Privileged(s, n, x) == 1
		},
	}
	// For starvation: every process always wants the privilege, and is
	// served when it holds it.
	b.ProcessPredicate(model.ProcessPredicate{
		Name:  "requesting",
		Doc:   "always true: every process wants the privilege",
		Holds: func(*model.State, int) bool { return true },
	})
	b.ProcessPredicate(model.ProcessPredicate{
		Name: "inCS",
		Doc:  "the process is privileged",
		Holds: func(s *model.State, p int) bool {
			if p == 0 {
				return s.Get(0, x) == s.Get(n-1, x)
			}
			return s.Get(p, x) != s.Get(p-1, x)
		},
	})
	b.Invariant(onePrivilege)
	b.Legitimate(onePrivilege)
	b.Initial(func(*model.System, *model.State) {}) // every x is 0
	return b.Build()
}

// Privileged counts the privileged processes of configuration s.
func Privileged(s *model.State, n int, x model.VarID) int {
	count := 0
	if s.Get(0, x) == s.Get(n-1, x) {
		count++
	}
	for i := 1; i < n; i++ {
		if s.Get(i, x) != s.Get(i-1, x) {
			count++
		}
	}
	return count
}
