// Package klpusher encodes the naive token-collection k-out-of-ℓ exclusion
// protocol of Datta, Devismes, Horn and Larmore, "K-parmi-L exclusion
// auto-stabilisante" (AlgoTel 2008), section 2, extended with the
// pusher token ("jeton pousseur") that the paper adds to break the deadlock
// of its Figure 1, and whose starvation scenario is its Figure 2.
//
// The naive protocol is exactly the one of specs/klnaive, declared by its
// own functions (klnaive.Declare and the Vars methods): L resource tokens
// (messages of type Token) circulate on a unidirectional ring of n
// processes with FIFO channels; each process has Need (0..K) and Cnt (0..K).
// One more message, of type Pusher, circulates forever and is not a
// resource unit. In the paper's words: when process i receives the pusher,
// if it holds resource tokens without being in its critical section
// (0 < Cnt_i < Need_i) it immediately sends them to its successor i+1; in
// all cases it then sends the pusher on.
//
// Actions of process i (all atomic, central daemon, interleaving):
//
//	request(k)  environment  Need = 0 ∧ Cnt = 0            → Need := k        (k in 1..K)
//	collect     protocol     head(in) = Token ∧ Cnt < Need  → receive; Cnt := Cnt+1
//	forward     protocol     head(in) = Token ∧ Cnt ≥ Need  → receive; send Token to i+1
//	push        protocol     head(in) = Pusher              → receive; if 0 < Cnt < Need:
//	                                                          send Cnt Tokens to i+1, Cnt := 0;
//	                                                          then send Pusher to i+1
//	leave       environment  Need > 0 ∧ Cnt = Need          → send Cnt Tokens to i+1; Need, Cnt := 0, 0
//
// Choices the paper leaves open, pinned by tests:
//   - Receiving the pusher is one atomic step: the receipt, the release of
//     the tokens (all Cnt of them, Cnt := 0, Need unchanged so the process
//     stays requesting) and the send of the pusher, in that order, so the
//     released tokens travel ahead of the pusher on the link to i+1.
//   - The initial configuration has every process idle, the L tokens dealt
//     round-robin onto the links as in kl-naive (token j in the channel
//     into process j mod n), and the pusher at the tail of the channel into
//     process 0, behind the tokens there. For n = L = 3 that is one token
//     per link and the pusher in transit from 2 to 0 behind a token, the
//     placement of Figure 2's configuration (a); the requests of (a)
//     (processes 0 and 1 request one unit, process 2 two) are made by the
//     request action, so (a) is reachable rather than initial.
//   - Channels carry both Token and Pusher. Cmax defaults to L+1, so a
//     channel can hold every token and the pusher: since tokens and the
//     pusher are conserved, at most L+1 messages are ever in transit and no
//     send ever finds its channel full. The overflow policy is block (the
//     CLI can override it): with the default capacity it never applies in
//     an execution from init, and with a smaller Cmax a full channel delays
//     the sender instead of destroying a token or the pusher, which would
//     break the conservation the protocol relies on.
//   - "In critical section" is Need > 0 ∧ Cnt = Need; the safety invariants
//     are that the units in use, the sum of Need over processes in their
//     critical section, never exceed L, and that exactly one Pusher message
//     is in the system.
//   - Requesting is optional (model.Optional) and leaving the critical
//     section is finite (model.Finite), as in kl-naive; "requesting" is
//     0 < Need ∧ Cnt < Need and "inCS" is 0 < Need = Cnt.
//   - No state is a valid end state. The pusher is always in some channel
//     and receiving it is always enabled (with Cmax ≥ L+1 its sends cannot
//     block), so no state reachable from init is a deadlock: the pusher
//     turns Figure 1's deadlock into configurations from which it pushes
//     the held tokens on until some process enters its critical section.
package klpusher

import (
	"fmt"

	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/klnaive"
)

// Spec returns the catalogue entry.
func Spec() *specs.Spec {
	fig2 := map[string]int{"n": 3, "L": 3, "K": 2}
	return &specs.Spec{
		Name:          "kl-pusher",
		Summary:       "naive k-out-of-L exclusion plus the pusher token (seed 001: no deadlock, Figure 2: starvation)",
		Source:        "Datta, Devismes, Horn, Larmore, K-parmi-L exclusion auto-stabilisante, AlgoTel 2008, §2 (jeton pousseur) and Figure 2",
		Communication: "message-passing",
		Params: []specs.Param{
			{Name: "n", Default: 3, Min: 2, Max: 6, Doc: "number of processes on the ring"},
			{Name: "L", Default: 3, Min: 1, Max: 6, Doc: "number of resource units (tokens)"},
			{Name: "K", Default: 2, Min: 1, Max: 6, Doc: "largest request, 1 ≤ K ≤ L"},
			{Name: "Cmax", Default: 0, Min: 0, Max: 16, Doc: "channel capacity (0: L+1, every token and the pusher, so no send ever blocks)"},
		},
		Invariants: []string{
			"units-in-use: the units held by processes in their critical section never exceed L",
			"one-pusher: exactly one Pusher message is in the system",
		},
		DefaultChecks: []string{"safety", "deadlock", "starvation"},
		Claims: []specs.Claim{
			{Property: "deadlock", Verdict: "holds", Params: fig2, From: "init",
				Source: "§2: the pusher prevents the global deadlock of Figure 1"},
			{Property: "safety", Verdict: "holds", Params: fig2, From: "init",
				Source: "tokens and the pusher are conserved, so at most L units are in use"},
			{Property: "starvation", Verdict: "violated", Params: fig2, From: "init", Fairness: "weak",
				Source: "Figure 2: processes 0 and 1 need one token, process 2 two; the pusher makes 2 release its token forever"},
		},
		Build: Build,
	}
}

// Vars are the variable and message handles of a built kl-pusher system,
// for tests and predicates.
type Vars struct {
	klnaive.Vars
	Pusher model.MsgType
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
		return nil, v, fmt.Errorf("kl-pusher: need 1 ≤ K ≤ L, got K=%d L=%d", k, l)
	}
	if cmax == 0 {
		cmax = l + 1
	}
	// The channel into process 0 holds ⌈L/n⌉ tokens and the pusher.
	if first := (l+n-1)/n + 1; cmax < first {
		return nil, v, fmt.Errorf("kl-pusher: Cmax=%d cannot hold the %d tokens and the pusher the initial configuration puts on the link into process 0", cmax, first-1)
	}
	b := model.NewBuilder("kl-pusher", model.UniRing, n)
	v.Vars = klnaive.Declare(b, k)
	v.Pusher = b.Message("Pusher")
	b.LinkChannels(cmax, model.Block, v.Token, v.Pusher)
	need, cnt, token, pusher := v.Need, v.Cnt, v.Token, v.Pusher

	// The naive protocol's actions, in its order, with push before leave.
	v.AddRequest(b, k)
	v.AddTokenHandling(b)
	b.Action(model.Action{
		Name:  "push",
		Guard: func(c *model.Ctx) bool { return c.HeadIs(c.In(c.Pred()), pusher) },
		Effect: func(c *model.Ctx, _ int) {
			c.Receive(c.In(c.Pred()))
			out := c.Out(c.Succ())
			if held := c.Get(cnt); 0 < held && held < c.Get(need) {
				for range held {
					c.Send(out, c.Msg(token))
				}
				c.Set(cnt, 0)
			}
			c.Send(out, c.Msg(pusher))
		},
	})
	v.AddLeave(b)
	v.AddPredicates(b, n, l)
	b.Invariant(model.Predicate{
		Name: "one-pusher",
		Doc:  "exactly one Pusher message is in the system",
		Holds: func(s *model.State) bool {
			count := 0
			for c := range s.Lens {
				for i := 0; i < s.Len(model.ChanID(c)); i++ {
					if s.TypeOf(s.At(model.ChanID(c), i)) == pusher {
						count++
					}
				}
			}
			return count == 1
		},
	})
	b.Initial(func(sys *model.System, s *model.State) {
		v.DealTokens(sys, s, n, l)
		s.Push(sys.ChanBetween(n-1, 0), sys.Msg(pusher))
	})
	sys, err := b.Build()
	return sys, v, err
}
