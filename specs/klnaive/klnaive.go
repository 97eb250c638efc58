// Package klnaive encodes the naive token-collection k-out-of-ℓ exclusion
// protocol of Datta, Devismes, Horn and Larmore, "K-parmi-L exclusion
// auto-stabilisante" (AlgoTel 2008), section 2, "Une solution
// simple non auto-stabilisante", whose Figure 1 shows it deadlocking.
//
// L resource tokens (messages of type Token, no fields) circulate on a
// unidirectional ring of n processes with FIFO channels. Each process has
// Need (0..K, the units it requests, 0 when idle) and Cnt (0..K, the tokens
// it has reserved). In the paper's words: while Cnt < Need, the process
// collects the tokens it receives, incrementing Cnt; when Cnt = Need it is in
// its critical section; when the critical section ends it sends the tokens
// it holds to its successor and resets Cnt and Need to 0; a process that is
// not requesting forwards the tokens it receives.
//
// Actions of process i (all atomic, central daemon, interleaving):
//
//	request(k)  environment  Need = 0 ∧ Cnt = 0        → Need := k        (k in 1..K)
//	collect     protocol     head(in) = Token ∧ Cnt < Need → receive; Cnt := Cnt+1
//	forward     protocol     head(in) = Token ∧ Cnt ≥ Need → receive; send Token to i+1
//	leave       environment  Need > 0 ∧ Cnt = Need     → send Cnt Tokens to i+1; Need, Cnt := 0, 0
//
// Choices the paper leaves open, pinned by tests:
//   - The initial configuration has every process idle and the L tokens
//     dealt round-robin onto the links: token j is in the channel into
//     process j mod n. For n = L = 5 that is one token per link, the left
//     half of Figure 1.
//   - Channel capacity Cmax defaults to L, so a channel can hold every
//     token and no send ever finds it full; the overflow policy is block
//     (the CLI can override it).
//   - "In critical section" is Need > 0 ∧ Cnt = Need; the safety invariant
//     is that the units in use, the sum of Need over processes in their
//     critical section, never exceed L.
//   - Requesting is optional (an idle process may stay idle forever) and
//     leaving the critical section is finite (always weakly fair), as
//     model.Optional and model.Finite; "requesting" is 0 < Need ∧ Cnt <
//     Need and "inCS" is 0 < Need = Cnt, the predicates of starvation.
//   - No state is a valid end state: a reachable state where nothing is
//     enabled is a deadlock. An idle process can always request, so a
//     deadlock has every process requesting and waiting.
package klnaive

import (
	"fmt"
	"strconv"

	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
)

// Spec returns the catalogue entry.
func Spec() *specs.Spec {
	return &specs.Spec{
		Name:          "kl-naive",
		Summary:       "naive token-collection k-out-of-L exclusion (seed 001, Figure 1: deadlocks)",
		Source:        "Datta, Devismes, Horn, Larmore, K-parmi-L exclusion auto-stabilisante, AlgoTel 2008, §2 and Figure 1",
		Communication: "message-passing",
		Params: []specs.Param{
			{Name: "n", Default: 5, Min: 2, Max: 8, Doc: "number of processes on the ring"},
			{Name: "L", Default: 5, Min: 1, Max: 8, Doc: "number of resource units (tokens)"},
			{Name: "K", Default: 3, Min: 1, Max: 8, Doc: "largest request, 1 ≤ K ≤ L"},
			{Name: "Cmax", Default: 0, Min: 0, Max: 16, Doc: "channel capacity (0: L, so no send ever blocks)"},
		},
		Invariants:    []string{"units-in-use: the units held by processes in their critical section never exceed L"},
		DefaultChecks: []string{"safety", "deadlock"},
		Claims: []specs.Claim{
			{Property: "deadlock", Verdict: "violated", Params: map[string]int{"n": 5, "L": 5, "K": 3}, From: "init",
				Source: "Figure 1: each token on its own link, every process requesting 2, each keeps one and waits"},
			{Property: "safety", Verdict: "holds", Params: map[string]int{"n": 5, "L": 5, "K": 3}, From: "init",
				Source: "tokens are conserved, so at most L units are in use"},
		},
		Build: Build,
	}
}

// Vars are the variable handles of a built kl-naive system, for tests and
// predicates. Its methods declare the naive protocol on a builder, for the
// specs that extend it (kl-pusher): the same variables, actions,
// invariant and predicates, so the extension encodes exactly this
// protocol.
type Vars struct {
	Need, Cnt model.VarID
	Token     model.MsgType
}

// Declare declares the variables need and cnt (0..K) in every process and
// the message type Token.
func Declare(b *model.Builder, k int) Vars {
	return Vars{
		Need:  b.Var("need", model.IntRange(0, k)),
		Cnt:   b.Var("cnt", model.IntRange(0, k)),
		Token: b.Message("Token"),
	}
}

// AddRequest adds the environment action request(k), k in 1..K: an idle
// process may request (optional: it may also stay idle forever).
func (v Vars) AddRequest(b *model.Builder, k int) {
	need, cnt := v.Need, v.Cnt
	b.Action(model.Action{
		Name:        "request",
		Kind:        model.Environment,
		Liveness:    model.Optional,
		Choices:     k,
		ChoiceLabel: func(i int) string { return "k=" + strconv.Itoa(i+1) },
		Guard:       func(c *model.Ctx) bool { return c.Get(need) == 0 && c.Get(cnt) == 0 },
		Effect:      func(c *model.Ctx, i int) { c.Set(need, i+1) },
	})
}

// AddTokenHandling adds collect (a requester keeps a token it receives)
// and forward (anyone else passes it on).
func (v Vars) AddTokenHandling(b *model.Builder) {
	need, cnt, token := v.Need, v.Cnt, v.Token
	b.Action(model.Action{
		Name: "collect",
		Guard: func(c *model.Ctx) bool {
			return c.HeadIs(c.In(c.Pred()), token) && c.Get(cnt) < c.Get(need)
		},
		Effect: func(c *model.Ctx, _ int) {
			c.Receive(c.In(c.Pred()))
			c.Set(cnt, c.Get(cnt)+1)
		},
	})
	b.Action(model.Action{
		Name: "forward",
		Guard: func(c *model.Ctx) bool {
			return c.HeadIs(c.In(c.Pred()), token) && c.Get(cnt) >= c.Get(need)
		},
		Effect: func(c *model.Ctx, _ int) {
			c.Receive(c.In(c.Pred()))
			c.Send(c.Out(c.Succ()), c.Msg(token))
		},
	})
}

// AddLeave adds the environment action leave: a process in its critical
// section sends its tokens on and becomes idle (finite: always weakly
// fair).
func (v Vars) AddLeave(b *model.Builder) {
	need, cnt, token := v.Need, v.Cnt, v.Token
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
}

// AddPredicates adds the units-in-use invariant and the requesting and
// inCS predicates of n processes sharing l units.
func (v Vars) AddPredicates(b *model.Builder, n, l int) {
	need, cnt := v.Need, v.Cnt
	b.Invariant(model.Predicate{
		Name: "units-in-use",
		Doc:  "the units held by processes in their critical section never exceed L",
		Holds: func(s *model.State) bool {
			used := 0
			for i := 0; i < n; i++ {
				if nd := s.Get(i, need); nd > 0 && s.Get(i, cnt) == nd {
					used += nd
				}
			}
			return used <= l
		},
	})
	b.ProcessPredicate(model.ProcessPredicate{
		Name:  "requesting",
		Doc:   "the process has requested units and is not yet in its critical section (0 < need, cnt < need)",
		Holds: func(s *model.State, p int) bool { return s.Get(p, need) > 0 && s.Get(p, cnt) < s.Get(p, need) },
	})
	b.ProcessPredicate(model.ProcessPredicate{
		Name:  "inCS",
		Doc:   "the process is in its critical section (0 < need = cnt)",
		Holds: func(s *model.State, p int) bool { return s.Get(p, need) > 0 && s.Get(p, cnt) == s.Get(p, need) },
	})
}

// DealTokens puts the l tokens round-robin on the links of a ring of n
// processes: token j in the channel into process j mod n.
func (v Vars) DealTokens(sys *model.System, s *model.State, n, l int) {
	for j := 0; j < l; j++ {
		to := j % n
		s.Push(sys.ChanBetween((to+n-1)%n, to), sys.Msg(v.Token))
	}
}

// Build returns the model for parameters n, L, K and Cmax.
func Build(p specs.Values) (*model.System, error) {
	sys, _, err := BuildVars(p)
	return sys, err
}

// BuildVars is Build, also returning the variable handles.
func BuildVars(p specs.Values) (*model.System, Vars, error) {
	n, l, k, cmax := p["n"], p["L"], p["K"], p["Cmax"]
	var v Vars
	if k < 1 || k > l {
		return nil, v, fmt.Errorf("kl-naive: need 1 ≤ K ≤ L, got K=%d L=%d", k, l)
	}
	if cmax == 0 {
		cmax = l
	}
	if perLink := (l + n - 1) / n; cmax < perLink {
		return nil, v, fmt.Errorf("kl-naive: Cmax=%d cannot hold the %d tokens the initial configuration puts on a link", cmax, perLink)
	}
	b := model.NewBuilder("kl-naive", model.UniRing, n)
	v = Declare(b, k)
	b.LinkChannels(cmax, model.Block)
	v.AddRequest(b, k)
	v.AddTokenHandling(b)
	v.AddLeave(b)
	v.AddPredicates(b, n, l)
	b.Initial(func(sys *model.System, s *model.State) { v.DealTokens(sys, s, n, l) })
	sys, err := b.Build()
	return sys, v, err
}
