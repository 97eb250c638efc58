// Package counterflush encodes Varghese's counter flushing (G. Varghese,
// "Self-stabilization by counter flushing", SIAM J. Comput. 30(2), 2000) as
// Datta, Devismes, Horn and Larmore describe it (AlgoTel 2008, the
// paragraph "Le protocole du jeton privilège"): a single privilege token
// simulated by messages that carry a counter value.
//
// The ring is unidirectional with n processes and one FIFO channel of
// capacity Cmax from each process to its successor. Each process i has a
// counter C in 0..M-1 with M = n(Cmax+1), the paper's "valeurs variant de 0
// à n(Cmax+1)-1": the n-1 non-root counters and the n·Cmax channel slots
// hold at most M-1 values, so at least one value is absent from an
// arbitrary configuration, which is what makes the root's counter flush the
// ring. Messages are Token(c), c in 0..M-1. Process 0 is the root.
//
// Actions (atomic, central daemon, interleaving; in declaration order):
//
//	root:    accept   head(in) = Token(c) ∧ c = C      → receive; C := (C+1) mod M; send Token(C+1 mod M)
//	         ignore   head(in) = Token(c) ∧ c ≠ C      → receive
//	         timeout  every channel is empty (Timeout) → C := (C+1) mod M; send Token(C+1 mod M)
//	i > 0:   accept   head(in) = Token(c) ∧ c ≠ C      → receive; C := c; send Token(c)
//	         ignore   head(in) = Token(c) ∧ c = C      → receive
//
// Choices the paper leaves open, pinned by tests:
//
//   - "Each process periodically sends C_i to its successor" is encoded as
//     token passing, the usual way to model-check counter flushing: a
//     process sends exactly when it accepts a valid message (it holds the
//     privilege, uses it atomically, and passes it on), and the root's
//     periodic retransmission is a Timeout action. Sending C_i at any time
//     (the literal reading) would let the holder of the privilege duplicate
//     the message in transit, so no configuration would have "exactly one
//     privilege" in a sense that every step preserves, and the state space
//     would be dominated by retransmissions that change nothing.
//   - The timeout's guard is the global predicate "every channel is empty":
//     a perfect timer, which fires only once every message has been
//     delivered or lost. A premature timeout (one that may fire while the
//     token is in transit) would be a transient fault: it duplicates the
//     token and leaves the legitimate set, so closure could not hold.
//   - On timeout the root increments C before sending it, as on an accept:
//     every message the root initiates carries a new counter value, as
//     Datta, Hadid and Villain (Euro-Par 2002) say of their Controller ("Every time Root initiates a CToken,
//     it uses a new sequence number", actions A_c1 and A_c3). A timeout that
//     resends the current C_0 unchanged livelocks: with every channel empty
//     and C_1 = C_0, process 1 ignores the resent message and the ring is
//     back where it was, forever, under any fairness (only processes 0
//     and 1 are ever enabled, and both move).
//   - A send to a full channel is dropped (message loss, a fault counter
//     flushing tolerates: the root's timeout regenerates the token). In a
//     legitimate configuration a single message is in transit, so no send
//     ever finds its channel full. Under block, a ring of full channels whose
//     heads are all valid for their receivers deadlocks (every accept must
//     send into a full channel); error would report those sends as
//     violations. The CLI's --overflow overrides the policy.
//   - A configuration is legitimate iff exactly one message is in transit
//     and, for some value v and process j, C_0 = … = C_j = v,
//     C_{j+1} = … = C_{n-1} = v-1 mod M, and the message is Token(v) in the
//     channel from j to j+1 mod n. Its receiver is the one process holding
//     the privilege: Token(v) is valid for it (v ≠ v-1 for j < n-1; v = C_0
//     for j = n-1), and nothing else is in transit. Every legitimate
//     configuration has exactly one successor, the pattern for (v, j+1), or
//     (v+1, 0) after the root accepts, which is legitimate: the n·M
//     legitimate configurations form a single cycle, so the set is closed.
//   - The spec's safety invariant is that legitimacy predicate, so "safety
//     holds from init" says the ring never leaves the legitimate cycle.
//     No configuration is a valid end state; none has no enabled step (a
//     message can always be received, and with every channel empty the
//     timeout is enabled), so deadlock holds even from every configuration.
//   - The initial configuration is the legitimate one with every counter 0
//     and Token(0) in the channel from n-1 to the root: the root is about to
//     accept. From it exactly the n·M legitimate configurations are
//     reachable.
//
// The paper's claims: from every configuration the ring reaches the
// legitimate set (convergence, with no fairness assumption: every infinite
// execution has the root increment its counter infinitely often, and the
// first value it sends that was absent from the ring flushes it) and stays
// in it (closure). Both hold for n=3, Cmax=1, with a worst case of 11
// steps. Seed 001 also cites a bound of 2n rounds from [Var00]; that bound
// is not pinned: in asynchronous rounds as ringcheck counts them (Dolev),
// where each receipt of a stale message and each timeout takes a round, the
// worst case is 5 rounds for n=2, Cmax=1 and 8 for n=3, Cmax=1, and it grows
// with Cmax, whereas [Var00]'s rounds are presumably message delays and
// timeout periods.
package counterflush

import (
	"fmt"

	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
)

// Spec returns the catalogue entry.
func Spec() *specs.Spec {
	return &specs.Spec{
		Name:          "counterflush",
		Summary:       "Varghese's counter flushing: one privilege token from any configuration (seed 001)",
		Source:        "G. Varghese, Self-stabilization by counter flushing, SIAM J. Comput. 30(2), 2000, as described by Datta, Devismes, Horn, Larmore, AlgoTel 2008, \"Le protocole du jeton privilège\"",
		Communication: "message-passing",
		Params: []specs.Param{
			{Name: "n", Default: 3, Min: 2, Max: 6, Doc: "number of processes on the ring"},
			{Name: "Cmax", Default: 1, Min: 1, Max: 3, Doc: "channel capacity; counters range over 0..n(Cmax+1)-1"},
		},
		Legitimacy: "exactly one message in transit, Token(v) from j to j+1, with C_0..C_j = v and C_{j+1}..C_{n-1} = v-1 mod n(Cmax+1)",
		Invariants: []string{"one-privilege: the configuration is legitimate (exactly one valid privilege)"},
		// closure,convergence are left out of the default checks: they need
		// --from all, while the default checks run from init.
		DefaultChecks: []string{"deadlock", "closure", "convergence"},
		Claims: []specs.Claim{
			{Property: "safety", Verdict: "holds", Params: map[string]int{"n": 3, "Cmax": 1}, From: "init",
				Source: "from a legitimate configuration a single privilege circulates"},
			{Property: "deadlock", Verdict: "holds", Params: map[string]int{"n": 3, "Cmax": 1}, From: "all",
				Source: "a message can always be received, and with every channel empty the root's timeout fires"},
			{Property: "closure", Verdict: "holds", Params: map[string]int{"n": 3, "Cmax": 1}, From: "all",
				Source: "every step from a legitimate configuration leads to a legitimate one (they form one cycle)"},
			{Property: "convergence", Verdict: "holds", Params: map[string]int{"n": 3, "Cmax": 1}, From: "all",
				Source: "[Var00] via seed 001: from any configuration the ring reaches a single circulating privilege"},
		},
		StabilizationBound: "about 2n rounds ([Var00], cited by seed 001)",
		Build:              Build,
	}
}

// Vars are the handles of a built counterflush system, for tests and
// predicates.
type Vars struct {
	// C is every process's counter.
	C model.VarID
	// Token is the only message type; its field 0 is the counter value.
	Token model.MsgType
	// Out[i] is the channel from process i to its successor.
	Out []model.ChanID
	// M is the counter domain's size, n(Cmax+1).
	M int
}

// Build returns the model for parameters n and Cmax. Counters and message
// values range over 0..M-1 with M = n(Cmax+1).
func Build(p specs.Values) (*model.System, error) {
	sys, _, err := BuildVars(p)
	return sys, err
}

// BuildVars is Build, also returning the handles.
func BuildVars(p specs.Values) (*model.System, Vars, error) {
	n, cmax := p["n"], p["Cmax"]
	var v Vars
	if n < 2 || cmax < 1 {
		return nil, v, fmt.Errorf("counterflush: need n ≥ 2 and Cmax ≥ 1, got n=%d Cmax=%d", n, cmax)
	}
	m := n * (cmax + 1)
	v.M = m
	b := model.NewBuilder("counterflush", model.UniRing, n)
	v.C = b.Var("C", model.IntRange(0, m-1))
	v.Token = b.Message("Token", model.Var{Name: "c", Domain: model.IntRange(0, m-1)})
	b.LinkChannels(cmax, model.Drop, v.Token)
	v.Out = make([]model.ChanID, n)
	for i, l := range b.Links() {
		v.Out[l[0]] = model.ChanID(i)
	}
	cv, token, out := v.C, v.Token, v.Out

	// head returns the value carried by the head of the executing process's
	// incoming channel.
	head := func(c *model.Ctx) (int, bool) {
		msg, ok := c.Head(c.In(c.Pred()))
		if !ok {
			return 0, false
		}
		return c.Field(msg, 0), true
	}
	others := make([]int, 0, n-1)
	for i := 1; i < n; i++ {
		others = append(others, i)
	}

	b.Action(model.Action{
		Name: "accept",
		Guard: func(c *model.Ctx) bool {
			val, ok := head(c)
			return ok && val == c.Get(cv)
		},
		Effect: func(c *model.Ctx, _ int) {
			c.Receive(c.In(c.Pred()))
			next := (c.Get(cv) + 1) % m
			c.Set(cv, next)
			c.Send(c.Out(c.Succ()), c.Msg(token, next))
		},
	}, 0)
	b.Action(model.Action{
		Name: "ignore",
		Guard: func(c *model.Ctx) bool {
			val, ok := head(c)
			return ok && val != c.Get(cv)
		},
		Effect: func(c *model.Ctx, _ int) { c.Receive(c.In(c.Pred())) },
	}, 0)
	b.Action(model.Action{
		Name: "timeout",
		Kind: model.Timeout,
		Guard: func(c *model.Ctx) bool {
			s := c.Config()
			for _, ch := range out {
				if s.Len(ch) != 0 {
					return false
				}
			}
			return true
		},
		Effect: func(c *model.Ctx, _ int) {
			next := (c.Get(cv) + 1) % m
			c.Set(cv, next)
			c.Send(c.Out(c.Succ()), c.Msg(token, next))
		},
	}, 0)
	b.Action(model.Action{
		Name: "accept",
		Guard: func(c *model.Ctx) bool {
			val, ok := head(c)
			return ok && val != c.Get(cv)
		},
		Effect: func(c *model.Ctx, _ int) {
			msg := c.Receive(c.In(c.Pred()))
			c.Set(cv, c.Field(msg, 0))
			c.Send(c.Out(c.Succ()), msg)
		},
	}, others...)
	b.Action(model.Action{
		Name: "ignore",
		Guard: func(c *model.Ctx) bool {
			val, ok := head(c)
			return ok && val == c.Get(cv)
		},
		Effect: func(c *model.Ctx, _ int) { c.Receive(c.In(c.Pred())) },
	}, others...)

	// The predicate reads message fields through the built system, which
	// exists by the time any engine evaluates it.
	var sys *model.System
	onePrivilege := model.Predicate{
		Name: "one-privilege",
		Doc:  "the configuration is legitimate (exactly one valid privilege)",
		Holds: func(s *model.State) bool {
			return legitimate(sys, v, s)
		},
	}
	b.Invariant(onePrivilege)
	b.Legitimate(onePrivilege)
	b.Initial(func(sys *model.System, s *model.State) {
		// Every counter 0, Token(0) on its way to the root.
		s.Push(out[n-1], sys.Msg(token, 0))
	})
	built, err := b.Build()
	if err != nil {
		return nil, v, err
	}
	sys = built
	return sys, v, nil
}

// Legitimate reports whether s is legitimate: exactly one message in
// transit, Token(v) in the channel from some j to j+1, with C_0..C_j = v and
// C_{j+1}..C_{n-1} = v-1 mod M.
func Legitimate(sys *model.System, v Vars, s *model.State) bool {
	return legitimate(sys, v, s)
}

func legitimate(sys *model.System, v Vars, s *model.State) bool {
	j, total := -1, 0
	for i, ch := range v.Out {
		if l := s.Len(ch); l > 0 {
			j, total = i, total+l
		}
	}
	if total != 1 {
		return false
	}
	val := sys.Field(s.At(v.Out[j], 0), 0)
	prev := (val + v.M - 1) % v.M
	for i := range v.Out {
		want := val
		if i > j {
			want = prev
		}
		if s.Get(i, v.C) != want {
			return false
		}
	}
	return true
}
