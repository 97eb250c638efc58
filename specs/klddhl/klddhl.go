// Package klddhl encodes the full self-stabilizing k-out-of-ℓ exclusion
// protocol of Datta, Devismes, Horn and Larmore, "K-parmi-L exclusion
// auto-stabilisante" (AlgoTel 2008): the naive token collection of
// specs/klnaive, the pusher token of specs/klpusher, the priority token, and
// the self-stabilizing regulator built on Varghese's counter flushing
// (specs/counterflush).
//
// The ring is unidirectional with n processes, process 0 the root, one FIFO
// channel of capacity Cmax from each process to its successor. Messages:
//
//	Token                     a resource unit (L of them)
//	Pusher                    the pusher token ("jeton pousseur")
//	Priority                  the priority token ("jeton priorité")
//	Priv(c, tok, pri, mark)   the privilege of counter flushing: counter c in
//	                          0..M-1 with M = n(Cmax+1), the numbers of resource
//	                          tokens (0..L+1) and priority tokens (0..2) it
//	                          overtook, and the reset mark
//
// Every process has need (0..K+1: K+1 stands for any corrupted request above
// K), cnt (0..K, the tokens it reserved), prio (it holds the priority
// token) and C (its counter-flushing value). The root also has tok (0..L+1),
// pri (0..2) and push (0..2), the resource, priority and pusher tokens it
// counted since the privilege last left it, and reset (it is flushing the
// ring). Counts saturate at their top value, which means "too many".
//
// Actions of process i (atomic, central daemon, interleaving):
//
//	cancel     protocol     need > K ∨ cnt > need ∨ (prio ∧ ¬waiting)
//	                        → if need > K ∨ cnt > need: send cnt Tokens, need, cnt := 0, 0;
//	                          if prio is not needed any more: send Priority, prio := false
//	request(k) environment  need = 0 ∧ cnt = 0 → need := k (k in 1..K)
//	collect    protocol     head = Token ∧ waiting → receive; cnt := cnt+1;
//	                        on entering the CS (cnt = need) with prio: send Priority, prio := false
//	forward    protocol     head = Token ∧ ¬waiting → receive; send Token
//	push       protocol     head = Pusher → receive; if 0 < cnt < need ∧ ¬prio: send cnt Tokens,
//	                        cnt := 0; send Pusher
//	priority   protocol     head = Priority → receive; if waiting ∧ ¬prio: prio := true
//	                        else send Priority
//	leave      environment  0 < need = cnt → send cnt Tokens; need, cnt := 0, 0
//	accept     protocol     head = Priv(c,…) valid (root: c = C; others: c ≠ C) → see below
//	ignore     protocol     head = Priv(c,…) not valid → receive
//	flush      protocol     root only: reset ∧ head is a Token, Pusher or Priority → receive (delete)
//	resend     timeout      resend ≥ 1 only: the successor misses the privilege the process
//	                        last sent → send it again (see "resend" below)
//	timeout    timeout      root only, unless notimeout=1: no Priv message anywhere → start a new tour
//
// where waiting is 0 < need ≤ K ∧ cnt < need. The root also counts what it
// receives: every Token it collects or forwards adds one to tok, the Pusher
// one to push, the Priority one to pri.
//
// A non-root process accepting Priv(c, tok, pri, mark) sets C := c; if the
// privilege is marked it destroys its reserved tokens and the priority
// token (cnt := 0, prio := false) and forwards the privilege unchanged;
// otherwise it keeps its tokens and forwards Priv(c, tok+cnt, pri+prio, 0)
// ("le processeur met à jour le champ « nombre de jetons doublés »").
//
// The root accepting Priv(c, tok', pri', mark) ends a tour: C := C+1 mod M,
// and
//   - if reset (its marked privilege is back, the ring is empty): it creates
//     exactly L Tokens, one Pusher and one Priority, reset := false;
//   - otherwise it adds the counts the privilege carries to its own,
//     tok+tok', pri+pri', push: if one of them is too high (above L, 1, 1) it
//     starts a reset: reset := true, it destroys its reserved tokens and the
//     priority token, and the privilege it sends is marked; if some are too
//     low it creates the missing Tokens, Pusher or Priority;
//
// then starts a new tour: tok := cnt, pri := prio, push := 0 (it counts
// what it holds), and sends the messages it created, then
// Priv(C, 0, 0, mark). The timeout starts a tour the same way without
// judging the incomplete counts and clears reset.
//
// Choices the paper leaves open, pinned by tests:
//   - The paper counts "each kind of token" and, for too many, marks the
//     privilege to reset; it does not say whether a reset is per kind. Here
//     one mark resets the whole ring: the root recreates L Tokens, the
//     Pusher and the Priority. A reset never happens in a legitimate
//     execution, so the choice only affects recovery.
//   - Created messages are sent before the new privilege, so they travel
//     ahead of it and are counted during the next tour (sent behind it, they
//     would be missed, and the root would create them again).
//   - The pusher is never held (it is forwarded in the step that receives
//     it), so the privilege never overtakes it and carries no pusher count.
//   - The priority token is kept by a process with an unsatisfied request
//     ("conservé par le processeur jusqu'à satisfaction de la demande") and
//     sent on in the step in which that process enters its critical section
//     ("il ne sera relâché que lorsque le processeur entrera en section
//     critique"). A second priority token reaching a holder is forwarded.
//   - "Requests above K are cancelled": need ranges over 0..K+1, K+1
//     standing for every corrupted value above K. cancel also repairs the
//     other local states no execution from a correct state produces (more
//     tokens reserved than needed, the priority token held without an
//     unsatisfied request): the tokens go on as after a critical section.
//     "Le processeur annule alors cette demande" (§2), "en au plus 1
//     ronde": the repair comes before anything else the process does, so
//     while cancel is enabled no other protocol action of the process is
//     (TestCancelComesFirst). Without that precedence, weak fairness per
//     process lets a corrupted process keep forwarding messages and never
//     cancel, and convergence fails from configurations where a request
//     above K is never cancelled (a lasso check --start finds from a random
//     configuration); no execution from a correct configuration is
//     affected, since cancel is never enabled there.
//   - A marked privilege makes a process in its critical section lose its
//     tokens (cnt := 0): they are "jetons réservés" like any other, and
//     keeping them would leave more than L tokens after the root recreates L.
//   - The privilege is token passing and the root's periodic
//     retransmission a Timeout action whose guard is "no Priv message is in
//     any channel", a perfect timer, as in specs/counterflush (which
//     explains why). Like every timeout it is weakly fair on its own: while
//     no privilege exists it fires, however busy the root is forwarding
//     tokens (per-process fairness alone let the root defer it forever, a
//     lasso outside L that check --from random found).
//   - The parameter resend chooses who retransmits. The paper's counter
//     flushing has every processor send its C_i to its successor
//     "périodiquement"; it does not say what a privilege sent again
//     carries in its counting fields (tok, pri, mark). With resend=0 (the
//     default) only the root's timeout above retransmits. With resend=1
//     or 2 every process also has a resend action, a Timeout, that sends
//     again the privilege it last sent, with its current counter C_i:
//     resend=1 a copy of that privilege, counts and mark included (each
//     process other than the root keeps the fields it last sent in sentTok,
//     sentPri and sentMark; a count carried twice is what the root's "too
//     many" test treats as an excess); resend=2 Priv(C_i, 0, 0, 0), the
//     counter alone, with no counts and no mark. The root's privileges
//     carry no counts and its mark is its reset flag, so the root resends
//     Priv(C_0, 0, 0, reset) under both readings.
//     The timer is periodic, but only the resends that can change anything
//     are modelled: the guard is "the successor misses my privilege", no
//     Priv message is on the process's own link and the successor would
//     accept C_i (C_{i+1} ≠ C_i, or C_0 = C_{n-1} for the root as
//     successor). A resend while a privilege is still on the link arrives
//     behind it and is ignored, as is one whose counter the successor
//     already took; leaving them out keeps every legitimate configuration's
//     one privilege (the resend is never enabled in L: the process whose
//     successor misses its counter is the one whose link carries the
//     privilege) and bounds the resends to one per link in flight, where
//     an unconditionally enabled resend would fill every channel with
//     stale privileges. So L, closure and every check from init are those
//     of resend=0: the resend only acts after a privilege is lost, the
//     perfect timer per link that the root's timeout is for the whole
//     ring. In rounds (one resend per process action, "a timer expires
//     once") it is a resend every round by each process whose last
//     privilege was lost. The root's resend is declared before its
//     timeout, so in rounds a root whose privilege was lost on its own
//     link resends it rather than starting a new tour.
//   - The parameter notimeout=1 (with resend=1 or 2 only) removes the
//     root's timeout, leaving every processor's periodic send and nothing
//     else, counter flushing as the paper describes it, where the root
//     increments its counter only on receiving its own value. The resends
//     suffice: with no Priv message anywhere and no corrupt state to
//     cancel, either some process i < n-1 has C_{i+1} ≠ C_i, or every
//     counter is equal and process n-1's resend is accepted by the root.
//     The root's timeout is a perfect timer that fires at the root's next
//     step once no privilege exists, so with it, in rounds, the root
//     restarts the tour (discarding its counts) whenever it acts before
//     the process that lost the privilege resends it; notimeout=1 measures
//     the resends without that race. The timeout is never enabled in L,
//     so L, closure and the checks from init are unchanged.
//   - Channels are FIFO, and a send to a full channel is lost (drop). Cmax
//     defaults to L+3, so every message of a legitimate configuration (L
//     Tokens, the Pusher, the Priority and the privilege) fits in any one
//     channel: no send from a legitimate configuration ever finds its
//     channel full, and the policy only matters after a fault. There, block
//     deadlocks: with every channel full and every head a message whose
//     receipt sends (a valid privilege, a token to forward), no process can
//     move (ringcheck simulate finds such configurations at once; the
//     test TestBlockingDeadlocksAfterAFault keeps one). Loss is what counter
//     flushing tolerates (the root's timeout regenerates the privilege, and
//     the regulator recreates lost tokens). The counter domain is
//     n(Cmax+1), as the paper says, unless the parameter counters sets it:
//     on reliable links (channels enlarged so that no send is lost) the
//     paper's Cmax is no longer the channels' capacity, and counters =
//     n(L+4) keeps the domain of the smallest capacity that holds a
//     legitimate configuration.
//   - The initial configuration is the one the root produces at the end of
//     a reset: every process idle, all counters C_i = M-1 except C_0 = 0, and
//     in the channel from 0 to 1 the L Tokens, the Pusher, the Priority and
//     Priv(0, 0, 0, 0), in that order; the root's counts are 0.
//   - A configuration is legitimate when: exactly one Priv message is in
//     transit and the counters form counter flushing's legitimate pattern
//     (see specs/counterflush); the privilege is unmarked and the root is not
//     resetting; every process's local state is one the protocol produces
//     (need ≤ K, cnt ≤ need, prio only while waiting); the ring holds exactly
//     L Tokens (in channels or reserved), one Pusher and one Priority; and
//     the root's counts are exact: its counts plus the privilege's plus
//     everything still ahead of the privilege (messages before it in its
//     channel, the channels after it up to the root, the tokens held by the
//     processes it has yet to visit) are exactly L, 1 and 1. From such a
//     configuration the root finds the right numbers at the end of every
//     tour, so it never creates nor destroys a token.
//   - The legitimate configurations are enumerated (enumerate.go), so that
//     closure is decided over every one of them although the full space
//     (about 10^49 configurations for n=3, L=K=2) cannot be swept: each
//     process's consistent local state, every arrangement of the messages
//     left in transit over the channels, every counter value and privilege
//     count, with the root's counts solved from the equations above. Tests
//     check that each is legitimate, none comes twice, every configuration
//     reachable from init is among them, and no legitimate configuration
//     one edit away from one of them is missing. Convergence needs the
//     whole space and stays out of reach.
//   - Requesting is optional (model.Optional) and leaving the critical
//     section finite (model.Finite), except with staycs=1, where leaving is
//     optional too: processes may stay in their critical section forever,
//     the assumption under which Datta, Hadid and Villain (Euro-Par 2002)
//     define (k,ℓ)-liveness.
//   - No configuration is a valid end state.
package klddhl

import (
	"fmt"
	"strconv"

	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
)

// Spec returns the catalogue entry.
func Spec() *specs.Spec {
	small := map[string]int{"n": 3, "L": 2, "K": 2}
	return &specs.Spec{
		Name:          "kl-ddhl",
		Summary:       "self-stabilizing k-out-of-L exclusion: pusher, priority and a counter-flushing regulator (seed 001)",
		Source:        "Datta, Devismes, Horn, Larmore, K-parmi-L exclusion auto-stabilisante, AlgoTel 2008, §2 (full protocol)",
		Communication: "message-passing",
		Params: []specs.Param{
			{Name: "n", Default: 3, Min: 2, Max: 6, Doc: "number of processes on the ring"},
			{Name: "L", Default: 2, Min: 1, Max: 6, Doc: "number of resource units (tokens)"},
			{Name: "K", Default: 2, Min: 1, Max: 6, Doc: "largest request, 1 ≤ K ≤ L"},
			{Name: "Cmax", Default: 0, Min: 0, Max: 32, Doc: "channel capacity (0: L+3, every message of a legitimate configuration fits); counters range over 0..n(Cmax+1)-1 unless counters says otherwise"},
			{Name: "counters", Default: 0, Min: 0, Max: 198, Doc: "the counter domain: counters range over 0..counters-1 (0: n(Cmax+1), the paper's; with reliable links, whose channels are enlarged, counters=n(L+4) keeps the domain of the smallest capacity)"},
			{Name: "staycs", Default: 0, Min: 0, Max: 1, Doc: "1: processes may stay in their critical section forever (leaving is optional), for (k,L)-liveness"},
			{Name: "notimeout", Default: 0, Min: 0, Max: 1, Doc: "0: the root's timeout starts a new tour when no privilege exists anywhere; 1: the root has no timeout, the resends alone regenerate a lost privilege, as in Varghese's counter flushing where the root increments only on receiving its own value (needs resend=1 or 2)"},
			{Name: "resend", Default: 0, Min: 0, Max: 2, Doc: "who retransmits the privilege: 0 the root's timeout alone; 1 also every process whose successor misses the privilege it last sent (none on its link, the successor would accept C_i) resends a copy, counts and mark included; 2 the same, resending Priv(C_i, 0, 0, 0) (the root resends Priv(C_0, 0, 0, reset) under both)"},
		},
		Legitimacy: "one privilege in counter flushing's legitimate pattern, unmarked, root not resetting; local states consistent; exactly L Tokens, one Pusher, one Priority; the root's counts plus those still ahead of the privilege exactly L, 1, 1",
		Invariants: []string{
			"units-in-use: the units held by processes in their critical section never exceed L",
			"legitimate: the configuration is legitimate, so exactly L tokens exist and a process in its critical section holds exactly its k (cnt = need ≤ K)",
		},
		DefaultChecks: []string{"safety", "deadlock", "starvation"},
		Claims: []specs.Claim{
			{Property: "safety", Verdict: "holds", Params: small, From: "init",
				Source: "§1: each unit used by at most one process, at most L units at once"},
			{Property: "deadlock", Verdict: "holds", Params: small, From: "init",
				Source: "§2: the pusher token prevents global deadlock"},
			{Property: "starvation", Verdict: "holds", Params: small, From: "init", Fairness: "weak",
				Source: "§1 vivacité and §2: the priority token cancels the pusher's starvation (Figure 2)"},
			{Property: "closure", Verdict: "holds", Params: small, From: "all",
				Source: "§2: once the counts are right the system is stabilized"},
			{Property: "convergence", Verdict: "holds", Params: small, From: "all", Found: specs.OutOfReach,
				Source: "§2: stabilizes from any configuration in at most 4n rounds"},
		},
		StabilizationBound: "4n rounds (seed 001, §2)",
		RoundsBound:        func(p specs.Values) int { return 4 * p["n"] },
		// §2: the links are reliable once the transient faults end.
		Links: &specs.ReliableLinks{
			Enlarge: func(specs.Values) specs.Values { return specs.Values{"Cmax": 32} },
			Fill:    func(p specs.Values) int { return capacity(p) },
		},
		Build: Build,
	}
}

// Vars are the handles of a built kl-ddhl system, for tests and predicates.
type Vars struct {
	// Need, Cnt, Prio and C are every process's variables.
	Need, Cnt, Prio, C model.VarID
	// Tok, Pri, Push and Reset are the root's.
	Tok, Pri, Push, Reset model.VarID
	// SentTok, SentPri and SentMark are the tok, pri and mark fields of the
	// privilege a process other than the root last sent; they are declared
	// (on processes 1..n-1) only with Resend = 1, and are -1 otherwise.
	SentTok, SentPri, SentMark model.VarID
	// Resend is the resend parameter: 0 the root's timeout alone; 1 every
	// process also resends a copy of the privilege it last sent; 2 every
	// process also resends its counter alone.
	Resend int
	// RootTimer: the root has its timeout (notimeout = 0, the default).
	RootTimer bool
	// The message types. Priv's fields are c, tok, pri, mark.
	Token, Pusher, Priority, Priv model.MsgType
	// Out[i] is the channel from process i to its successor.
	Out []model.ChanID
	// N, L, K, M (the counter domain's size) of the instance.
	N, L, K, M int
}

// Build returns the model for parameters n, L, K, Cmax, counters, staycs,
// resend and notimeout.
func Build(p specs.Values) (*model.System, error) {
	sys, _, err := BuildVars(p)
	return sys, err
}

// BuildVars is Build, also returning the handles.
func BuildVars(p specs.Values) (*model.System, Vars, error) {
	n, l, k, cmax := p["n"], p["L"], p["K"], p["Cmax"]
	var v Vars
	if n < 2 {
		return nil, v, fmt.Errorf("kl-ddhl: need n ≥ 2, got n=%d", n)
	}
	if k < 1 || k > l {
		return nil, v, fmt.Errorf("kl-ddhl: need 1 ≤ K ≤ L, got K=%d L=%d", k, l)
	}
	if cmax == 0 {
		cmax = l + 3
	}
	if cmax < l+3 {
		return nil, v, fmt.Errorf("kl-ddhl: Cmax=%d cannot hold the initial configuration's L+3=%d messages on the link from the root", cmax, l+3)
	}
	if r := p["resend"]; r < 0 || r > 2 {
		return nil, v, fmt.Errorf("kl-ddhl: need resend in 0..2, got resend=%d", r)
	}
	if p["notimeout"] == 1 && p["resend"] == 0 {
		return nil, v, fmt.Errorf("kl-ddhl: notimeout=1 needs resend=1 or 2 (without the root's timeout only the resends regenerate a lost privilege), got resend=0")
	}
	m := n * (cmax + 1)
	if c := p["counters"]; c > 0 {
		if c < 2 {
			return nil, v, fmt.Errorf("kl-ddhl: need counters ≥ 2 (or 0 for n(Cmax+1)), got counters=%d", c)
		}
		m = c
	}
	v.N, v.L, v.K, v.M, v.Resend = n, l, k, m, p["resend"]
	v.RootTimer = p["notimeout"] == 0

	b := model.NewBuilder("kl-ddhl", model.UniRing, n)
	v.Need = b.Var("need", model.IntRange(0, k+1))
	v.Cnt = b.Var("cnt", model.IntRange(0, k))
	v.Prio = b.Var("prio", model.Bool())
	v.C = b.Var("C", model.IntRange(0, m-1))
	v.Tok = b.Var("tok", model.IntRange(0, l+1), 0)
	v.Pri = b.Var("pri", model.IntRange(0, 2), 0)
	v.Push = b.Var("push", model.IntRange(0, 2), 0)
	v.Reset = b.Var("reset", model.Bool(), 0)
	v.SentTok, v.SentPri, v.SentMark = -1, -1, -1
	if v.Resend == 1 {
		others := make([]int, 0, n-1)
		for i := 1; i < n; i++ {
			others = append(others, i)
		}
		v.SentTok = b.Var("sentTok", model.IntRange(0, l+1), others...)
		v.SentPri = b.Var("sentPri", model.IntRange(0, 2), others...)
		v.SentMark = b.Var("sentMark", model.IntRange(0, 1), others...)
	}
	v.Token = b.Message("Token")
	v.Pusher = b.Message("Pusher")
	v.Priority = b.Message("Priority")
	v.Priv = b.Message("Priv",
		model.Var{Name: "c", Domain: model.IntRange(0, m-1)},
		model.Var{Name: "tok", Domain: model.IntRange(0, l+1)},
		model.Var{Name: "pri", Domain: model.IntRange(0, 2)},
		model.Var{Name: "mark", Domain: model.IntRange(0, 1)},
	)
	b.LinkChannels(cmax, model.Drop, v.Token, v.Pusher, v.Priority, v.Priv)
	v.Out = make([]model.ChanID, n)
	for i, link := range b.Links() {
		v.Out[link[0]] = model.ChanID(i)
	}
	leaving := model.Finite
	if p["staycs"] == 1 {
		leaving = model.Optional
	}
	v.declareActions(b, leaving)
	v.declarePredicates(b)

	var sys *model.System
	legit := model.Predicate{
		Name:  "legitimate",
		Doc:   "one privilege, exactly L Tokens, one Pusher, one Priority, exact counts at the root",
		Holds: func(s *model.State) bool { return v.legitimate(sys, s) },
	}
	b.Invariant(legit)
	b.Legitimate(legit)
	b.LegitimateConfigurations(func(sys *model.System, yield func(*model.State) bool) {
		v.enumerateLegitimate(sys, yield)
	})
	b.Initial(func(sys *model.System, s *model.State) {
		for i := 1; i < n; i++ {
			s.Set(i, v.C, m-1)
		}
		out := v.Out[0]
		for range l {
			s.Push(out, sys.Msg(v.Token))
		}
		s.Push(out, sys.Msg(v.Pusher))
		s.Push(out, sys.Msg(v.Priority))
		s.Push(out, sys.Msg(v.Priv, 0, 0, 0, 0))
	})
	built, err := b.Build()
	if err != nil {
		return nil, v, err
	}
	sys = built
	return sys, v, nil
}

// waiting reports whether the executing process has an unsatisfied
// request it may collect tokens for: 0 < need ≤ K ∧ cnt < need.
func (v Vars) waiting(c *model.Ctx) bool {
	need := c.Get(v.Need)
	return need > 0 && need <= v.K && c.Get(v.Cnt) < need
}

// resetting reports whether the executing process is the root flushing the
// ring.
func (v Vars) resetting(c *model.Ctx) bool { return c.P == 0 && c.Get(v.Reset) == 1 }

// corrupt reports whether the executing process's local state is one that
// no execution from a correct configuration produces (a request above K,
// more tokens reserved than needed, the priority token held without an
// unsatisfied request); cancel repairs it, before anything else.
func (v Vars) corrupt(c *model.Ctx) bool {
	nd, ct := c.Get(v.Need), c.Get(v.Cnt)
	return nd > v.K || ct > nd || (c.Get(v.Prio) == 1 && !v.waiting(c))
}

// free reports whether the executing process may act on its messages and
// timer: it is not the root flushing the ring, and it has no corrupt state
// for cancel to repair first.
func (v Vars) free(c *model.Ctx) bool { return !v.resetting(c) && !v.corrupt(c) }

// sendTokens sends count Tokens to the successor.
func (v Vars) sendTokens(c *model.Ctx, count int) {
	out := c.Out(c.Succ())
	for range count {
		c.Send(out, c.Msg(v.Token))
	}
}

// count adds one to the root's count in variable of a message it received
// (saturating at the variable's top value top).
func count(c *model.Ctx, variable model.VarID, top int) {
	if c.P == 0 {
		c.Set(variable, min(c.Get(variable)+1, top))
	}
}

func (v Vars) declareActions(b *model.Builder, leaving model.Liveness) {
	k, l, m := v.K, v.L, v.M
	need, cnt, prio, cv := v.Need, v.Cnt, v.Prio, v.C
	token, pusher, priority, priv := v.Token, v.Pusher, v.Priority, v.Priv
	in := func(c *model.Ctx) model.ChanID { return c.In(c.Pred()) }
	headIs := func(c *model.Ctx, t model.MsgType) bool { return c.HeadIs(in(c), t) }

	b.Action(model.Action{
		Name:  "cancel",
		Guard: v.corrupt,
		Effect: func(c *model.Ctx, _ int) {
			nd, ct := c.Get(need), c.Get(cnt)
			waiting := nd > 0 && nd <= k && ct < nd
			if nd > k || ct > nd {
				v.sendTokens(c, ct)
				c.Set(need, 0)
				c.Set(cnt, 0)
				waiting = false
			}
			if c.Get(prio) == 1 && !waiting {
				c.Send(c.Out(c.Succ()), c.Msg(priority))
				c.Set(prio, 0)
			}
		},
	})
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
		Guard: func(c *model.Ctx) bool { return headIs(c, token) && v.free(c) && v.waiting(c) },
		Effect: func(c *model.Ctx, _ int) {
			c.Receive(in(c))
			count(c, v.Tok, l+1)
			got := c.Get(cnt) + 1
			c.Set(cnt, got)
			if got == c.Get(need) && c.Get(prio) == 1 {
				c.Send(c.Out(c.Succ()), c.Msg(priority))
				c.Set(prio, 0)
			}
		},
	})
	b.Action(model.Action{
		Name:  "forward",
		Guard: func(c *model.Ctx) bool { return headIs(c, token) && v.free(c) && !v.waiting(c) },
		Effect: func(c *model.Ctx, _ int) {
			c.Receive(in(c))
			count(c, v.Tok, l+1)
			c.Send(c.Out(c.Succ()), c.Msg(token))
		},
	})
	b.Action(model.Action{
		Name:  "push",
		Guard: func(c *model.Ctx) bool { return headIs(c, pusher) && v.free(c) },
		Effect: func(c *model.Ctx, _ int) {
			c.Receive(in(c))
			count(c, v.Push, 2)
			if held := c.Get(cnt); 0 < held && held < c.Get(need) && c.Get(prio) == 0 {
				v.sendTokens(c, held)
				c.Set(cnt, 0)
			}
			c.Send(c.Out(c.Succ()), c.Msg(pusher))
		},
	})
	b.Action(model.Action{
		Name:  "priority",
		Guard: func(c *model.Ctx) bool { return headIs(c, priority) && v.free(c) },
		Effect: func(c *model.Ctx, _ int) {
			c.Receive(in(c))
			count(c, v.Pri, 2)
			if v.waiting(c) && c.Get(prio) == 0 {
				c.Set(prio, 1)
				return
			}
			c.Send(c.Out(c.Succ()), c.Msg(priority))
		},
	})
	b.Action(model.Action{
		Name:     "leave",
		Kind:     model.Environment,
		Liveness: leaving,
		Guard:    func(c *model.Ctx) bool { nd := c.Get(need); return nd > 0 && c.Get(cnt) == nd },
		Effect: func(c *model.Ctx, _ int) {
			v.sendTokens(c, c.Get(cnt))
			c.Set(need, 0)
			c.Set(cnt, 0)
		},
	})

	// The privilege: counter flushing, root first.
	// privHead is the privilege at the head of the input channel, for the
	// guards: none while the process has a corrupt state to cancel.
	privHead := func(c *model.Ctx) (model.Msg, bool) {
		msg, ok := c.Head(in(c))
		return msg, ok && c.TypeOf(msg) == priv && !v.corrupt(c)
	}
	b.Action(model.Action{
		Name: "accept",
		Guard: func(c *model.Ctx) bool {
			msg, ok := privHead(c)
			return ok && c.Field(msg, 0) == c.Get(cv)
		},
		Effect: func(c *model.Ctx, _ int) {
			msg := c.Receive(in(c))
			next := (c.Get(cv) + 1) % m
			c.Set(cv, next)
			out := c.Out(c.Succ())
			mark, held, heldPrio := 0, c.Get(cnt), c.Get(prio)
			var tokens, pushers, priorities int
			if c.Get(v.Reset) == 1 {
				tokens, pushers, priorities = l, 1, 1
				c.Set(v.Reset, 0)
			} else {
				tok := min(c.Get(v.Tok)+c.Field(msg, 1), l+1)
				pri := min(c.Get(v.Pri)+c.Field(msg, 2), 2)
				push := c.Get(v.Push)
				if tok > l || pri > 1 || push > 1 {
					mark = 1
					c.Set(v.Reset, 1)
					c.Set(cnt, 0)
					c.Set(prio, 0)
					held, heldPrio = 0, 0
				} else {
					tokens, pushers, priorities = l-tok, 1-push, 1-pri
				}
			}
			for range tokens {
				c.Send(out, c.Msg(token))
			}
			if pushers > 0 {
				c.Send(out, c.Msg(pusher))
			}
			if priorities > 0 {
				c.Send(out, c.Msg(priority))
			}
			v.startTour(c, next, held, heldPrio, mark)
		},
	}, 0)
	b.Action(model.Action{
		Name: "ignore",
		Guard: func(c *model.Ctx) bool {
			msg, ok := privHead(c)
			return ok && c.Field(msg, 0) != c.Get(cv)
		},
		Effect: func(c *model.Ctx, _ int) { c.Receive(in(c)) },
	}, 0)
	b.Action(model.Action{
		Name: "flush",
		Guard: func(c *model.Ctx) bool {
			msg, ok := c.Head(in(c))
			return ok && c.Get(v.Reset) == 1 && c.TypeOf(msg) != priv && !v.corrupt(c)
		},
		Effect: func(c *model.Ctx, _ int) { c.Receive(in(c)) },
	}, 0)
	if v.Resend > 0 {
		// The root's privileges carry no counts, and its mark is its
		// reset flag.
		b.Action(v.resendAction(func(c *model.Ctx) (int, int, int) { return 0, 0, c.Get(v.Reset) }), 0)
	}
	if v.RootTimer {
		v.declareTimeout(b)
	}

	others := make([]int, 0, v.N-1)
	for i := 1; i < v.N; i++ {
		others = append(others, i)
	}
	b.Action(model.Action{
		Name: "accept",
		Guard: func(c *model.Ctx) bool {
			msg, ok := privHead(c)
			return ok && c.Field(msg, 0) != c.Get(cv)
		},
		Effect: func(c *model.Ctx, _ int) {
			msg := c.Receive(in(c))
			val, mark := c.Field(msg, 0), c.Field(msg, 3)
			c.Set(cv, val)
			tok, pri := c.Field(msg, 1), c.Field(msg, 2)
			if mark == 1 {
				c.Set(cnt, 0)
				c.Set(prio, 0)
			} else {
				tok = min(tok+c.Get(cnt), l+1)
				pri = min(pri+c.Get(prio), 2)
			}
			c.Send(c.Out(c.Succ()), c.Msg(priv, val, tok, pri, mark))
			if v.Resend == 1 {
				c.Set(v.SentTok, tok)
				c.Set(v.SentPri, pri)
				c.Set(v.SentMark, mark)
			}
		},
	}, others...)
	b.Action(model.Action{
		Name: "ignore",
		Guard: func(c *model.Ctx) bool {
			msg, ok := privHead(c)
			return ok && c.Field(msg, 0) == c.Get(cv)
		},
		Effect: func(c *model.Ctx, _ int) { c.Receive(in(c)) },
	}, others...)
	if v.Resend > 0 {
		b.Action(v.resendAction(func(c *model.Ctx) (int, int, int) {
			if v.Resend == 1 {
				return c.Get(v.SentTok), c.Get(v.SentPri), c.Get(v.SentMark)
			}
			return 0, 0, 0
		}), others...)
	}
}

// resendAction is a process's resend: a Timeout that, while its successor
// misses its privilege (successorMisses), sends Priv(C_i, tok, pri, mark)
// again, with the counting fields and the mark that fields reads.
func (v Vars) resendAction(fields func(c *model.Ctx) (tok, pri, mark int)) model.Action {
	return model.Action{
		Name:  "resend",
		Kind:  model.Timeout,
		Guard: v.successorMisses,
		Effect: func(c *model.Ctx, _ int) {
			tok, pri, mark := fields(c)
			c.Send(c.Out(c.Succ()), c.Msg(v.Priv, c.Get(v.C), tok, pri, mark))
		},
	}
}

// declareTimeout declares the root's timeout: with no Priv message in any
// channel, it starts a new tour (a perfect timer).
func (v Vars) declareTimeout(b *model.Builder) {
	m := v.M
	cv := v.C
	cnt, prio, priv := v.Cnt, v.Prio, v.Priv
	b.Action(model.Action{
		Name: "timeout",
		Kind: model.Timeout,
		Guard: func(c *model.Ctx) bool {
			if v.corrupt(c) {
				return false
			}
			s := c.Config()
			for _, ch := range v.Out {
				for i := 0; i < s.Len(ch); i++ {
					if s.TypeOf(s.At(ch, i)) == priv {
						return false
					}
				}
			}
			return true
		},
		Effect: func(c *model.Ctx, _ int) {
			next := (c.Get(cv) + 1) % m
			c.Set(cv, next)
			c.Set(v.Reset, 0)
			v.startTour(c, next, c.Get(cnt), c.Get(prio), 0)
		},
	}, 0)
}

// successorMisses is the resend's guard: the executing process has no
// corrupt state to cancel first, no Priv message is in the channel to its
// successor, and the successor would accept the process's counter C_i
// (a process other than the root accepts a value different from its own
// counter, the root its own counter), so the privilege the process last
// sent is lost.
func (v Vars) successorMisses(c *model.Ctx) bool {
	if v.corrupt(c) {
		return false
	}
	s := c.Config()
	out := v.Out[c.P]
	for i := 0; i < s.Len(out); i++ {
		if s.TypeOf(s.At(out, i)) == v.Priv {
			return false
		}
	}
	succ, mine := c.Succ(), c.Get(v.C)
	if succ == 0 {
		return s.Get(0, v.C) == mine
	}
	return s.Get(succ, v.C) != mine
}

// startTour is the root starting a tour of the privilege with counter
// value counter: it counts the tokens and the priority token it holds after
// the step (reads see the configuration before it, so the caller passes
// them) and sends Priv(counter, 0, 0, mark).
func (v Vars) startTour(c *model.Ctx, counter, held, heldPrio, mark int) {
	c.Set(v.Tok, held)
	c.Set(v.Pri, heldPrio)
	c.Set(v.Push, 0)
	c.Send(c.Out(c.Succ()), c.Msg(v.Priv, counter, 0, 0, mark))
}

// capacity is the channels' capacity for resolved parameters: Cmax, or
// L+3 when Cmax is 0.
func capacity(p specs.Values) int {
	if c := p["Cmax"]; c > 0 {
		return c
	}
	return p["L"] + 3
}
