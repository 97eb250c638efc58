package reports

import (
	"strconv"

	"github.com/ringcheck/ringcheck/model"
)

// The tests of this package render checks, traces and state graphs of two
// of the catalogue's specs, dijkstra and kl-naive. Being package reports,
// they cannot import the catalogue (which imports this package, through
// the ring language); they build the two models here, with model.Builder,
// as the specs' Go encodings built them before the .ring files replaced
// them: the same variables, messages, channels, actions in the same order
// and invariants, so the same states and transitions in the same order,
// and the goldens of testdata hold. Their names are the Go encodings'
// (the invariant one-privilege; the files spell it one_privilege).
// TestFixturesAreTheCatalogues (fixture_external_test.go) proves each the
// same model as the catalogue's spec.

// DijkstraFixture returns Dijkstra's K-state ring of n processes, each
// with a variable x in 0..K-1: the root moves when it equals its
// predecessor, another process when it differs from its predecessor;
// legitimate, and safe, when exactly one process is privileged; initially
// every x is 0.
func DijkstraFixture(n, k int) (*model.System, error) {
	b := model.NewBuilder("dijkstra", model.UniRing, n)
	x := b.Var("x", model.IntRange(0, k-1))
	b.Action(model.Action{
		Name:   "A",
		Guard:  func(c *model.Ctx) bool { return c.Get(x) == c.Read(c.Pred(), x) },
		Effect: func(c *model.Ctx, _ int) { c.Set(x, (c.Get(x)+1)%k) },
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
			count := 0
			if s.Get(0, x) == s.Get(n-1, x) {
				count++
			}
			for i := 1; i < n; i++ {
				if s.Get(i, x) != s.Get(i-1, x) {
					count++
				}
			}
			return count == 1
		},
	}
	b.Invariant(onePrivilege)
	b.Legitimate(onePrivilege)
	b.Initial(func(*model.System, *model.State) {}) // every x is 0
	return b.Build()
}

// KLNaiveFixture returns the naive token-collection k-out-of-ℓ exclusion
// ring of n processes sharing l tokens, requests of 1..k units, channels
// of capacity cmax (0: l) that block when full: each process has need
// and cnt in 0..k; an idle process may request (optional), a requester
// collects the tokens it receives, any other forwards them, a process
// with all it needs leaves (finite), sending its tokens on; safe while
// the units in use do not exceed l; initially token j is in the channel
// into process j mod n.
func KLNaiveFixture(n, l, k, cmax int) (*model.System, error) {
	if cmax == 0 {
		cmax = l
	}
	b := model.NewBuilder("kl-naive", model.UniRing, n)
	need := b.Var("need", model.IntRange(0, k))
	cnt := b.Var("cnt", model.IntRange(0, k))
	token := b.Message("Token")
	b.LinkChannels(cmax, model.Block)
	b.Action(model.Action{
		Name:        "request",
		Kind:        model.Environment,
		Liveness:    model.Optional,
		Choices:     k,
		ChoiceLabel: func(i int) string { return "k=" + strconv.Itoa(i+1) },
		Guard:       func(c *model.Ctx) bool { return c.Get(need) == 0 && c.Get(cnt) == 0 },
		Effect:      func(c *model.Ctx, i int) { c.Set(need, i+1) },
	})
	b.Action(model.Action{
		Name:  "collect",
		Guard: func(c *model.Ctx) bool { return c.HeadIs(c.In(c.Pred()), token) && c.Get(cnt) < c.Get(need) },
		Effect: func(c *model.Ctx, _ int) {
			c.Receive(c.In(c.Pred()))
			c.Set(cnt, c.Get(cnt)+1)
		},
	})
	b.Action(model.Action{
		Name:  "forward",
		Guard: func(c *model.Ctx) bool { return c.HeadIs(c.In(c.Pred()), token) && c.Get(cnt) >= c.Get(need) },
		Effect: func(c *model.Ctx, _ int) {
			c.Receive(c.In(c.Pred()))
			c.Send(c.Out(c.Succ()), c.Msg(token))
		},
	})
	b.Action(model.Action{
		Name:     "leave",
		Kind:     model.Environment,
		Liveness: model.Finite,
		Guard:    func(c *model.Ctx) bool { return c.Get(need) > 0 && c.Get(cnt) == c.Get(need) },
		Effect: func(c *model.Ctx, _ int) {
			out := c.Out(c.Succ())
			for range c.Get(cnt) {
				c.Send(out, c.Msg(token))
			}
			c.Set(need, 0)
			c.Set(cnt, 0)
		},
	})
	b.Invariant(model.Predicate{
		Name: "units-in-use",
		Doc:  "the units held by processes in their critical section never exceed L",
		Holds: func(s *model.State) bool {
			used := 0
			for i := range n {
				if nd := s.Get(i, need); nd > 0 && s.Get(i, cnt) == nd {
					used += nd
				}
			}
			return used <= l
		},
	})
	b.Initial(func(sys *model.System, s *model.State) {
		for j := range l {
			to := j % n
			s.Push(sys.ChanBetween((to+n-1)%n, to), sys.Msg(token))
		}
	})
	return b.Build()
}
