package kldhv

import (
	"fmt"
	"strconv"

	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
)

// The values of STATE.
const (
	Out     = 0
	Request = 1
	In      = 2
)

// Spec returns the catalogue entry.
func Spec() *specs.Spec {
	small := map[string]int{"n": 3, "L": 2, "K": 2}
	// Convergence from every configuration needs MaxSeq+1 ≥ n(Cmax+1) = 21
	// (the default Cmax is 2L+2 = 6): see the package comment.
	stab := map[string]int{"n": 3, "L": 2, "K": 2, "MaxSeq": 20}
	return &specs.Spec{
		Name:          "kl-dhv",
		Summary:       "Controller ▷ ℓ-Token-Circulation, self-stabilizing k-out-of-ℓ exclusion on a rooted unidirectional ring (seed 000); sequence numbers bounded by MaxSeq",
		Source:        "Datta, Hadid, Villain, A Self-stabilizing Token-Based k-out-of-ℓ Exclusion Algorithm, Euro-Par 2002, LNCS 2400, §3, Algorithms 2-4 (A_l1..A_l6, A_l10, A_l11 reconstructed from the prose)",
		Communication: "message-passing",
		Params: []specs.Param{
			{Name: "n", Default: 3, Min: 2, Max: 5, Doc: "number of processes on the ring; process 0 is Root"},
			{Name: "L", Default: 2, Min: 1, Max: 4, Doc: "ℓ, the number of resource units (tokens)"},
			{Name: "K", Default: 2, Min: 1, Max: 4, Doc: "largest request NEED, 1 ≤ K ≤ ℓ; T_h and T_d range over 0..K"},
			{Name: "Cmax", Default: 0, Min: 0, Max: 32, Doc: "channel capacity (0: 2ℓ+2, enough that no send of a run from the legitimate initial configuration ever finds its channel full); a send to a full channel is dropped"},
			{Name: "MaxSeq", Default: 1, Min: 1, Max: 63, Doc: "CToken sequence numbers range over 0..MaxSeq (bounded counter). 1 suffices from a legitimate configuration; counter flushing from an arbitrary one needs MaxSeq ≥ n(Cmax+1)-1"},
			{Name: "MaxVc", Default: 0, Min: 0, Max: 4, Doc: "MaxV_c, bound of MyT_c and of Collect's T_c, K ≤ MaxV_c ≤ ℓ (0: ℓ); MyT_a and Allocate's T_a range over 0..min(2·MaxV_c, ℓ)"},
			{Name: "staycs", Default: 0, Min: 0, Max: 1, Doc: "1: leaving the critical section is optional (processes may stay in it forever, Definition 2(b)); 0: critical sections are finite"},
			{Name: "fix", Default: 0, Min: 0, Max: 2, Doc: "0: the paper's protocol; 1: LOCK tests the enabled tokens, 0 < T_h−T_d < NEED; 2: A_l8 re-enables a disabled token before it increments T_h (either repairs the starvation finding)"},
			{Name: "ctop", Default: 0, Min: 0, Max: 1, Doc: "a reading of Root's counters C_e and C_f, whose bound the paper does not give: 0, they saturate at ℓ (an excess of free tokens is never seen); 1, at ℓ+1 (A_c1 sees C_e + C_f > ℓ and disables)"},
		},
		Legitimacy: "exactly one CToken, no Disable, at most one Collect and one Allocate, all Enabled_Token, Collect and Allocate messages ahead of the CToken; MySeq = v up to the CToken's sender and v-1 after it; T_d ≤ T_h, In ⇒ T_h = NEED ∧ T_d = 0, Request ⇒ T_h ≤ NEED; exactly ℓ tokens (Σ(T_h-T_d) + Token messages + Collect.T_c + Allocate.T_a + Root's MyT_c + MyT_a); and C_e + C_f + MyT_c + MyT_a + what Root will still count in this traversal = ℓ",
		Invariants: []string{
			"units-in-use: the units of the processes in their critical section (Σ NEED over STATE = In) never exceed ℓ",
			"cs-holds-k: a process in its critical section holds exactly its k enabled tokens (T_h = NEED, T_d = 0)",
		},
		DefaultChecks: []string{"safety", "deadlock", "starvation"},
		Claims: []specs.Claim{
			{Property: "safety", Verdict: "holds", Params: small, From: "init",
				Source: "Definition 2.1 and §3: any resource unit is used by at most one process at a time"},
			{Property: "deadlock", Verdict: "holds", Params: small, From: "init",
				Source: "§3, Proof Outline: deadlock cannot occur (pre-empting tokens)"},
			{Property: "starvation", Verdict: "holds", Params: small, From: "init", Fairness: "weak", Found: "violated",
				Source: "§3, Proof Outline: the MyOrder construction makes every processor eventually privileged, so no starvation (Definition 2.2(a))"},
			// Closure is decided from the enumeration of L (enumerate.go),
			// on an instance small enough for the catalogue test (n=2,
			// ℓ=K=1, with MaxSeq=9 as counter flushing needs there).
			{Property: "closure", Verdict: "holds", Params: map[string]int{"n": 2, "L": 1, "K": 1, "MaxSeq": 9}, From: "all",
				Source: "§2.2 and §3: Controller ▷ ℓ-Token-Circulation is self-stabilizing (closure)"},
			// Decided from one configuration: the paper's protocol never
			// stabilizes from NoConvergence.
			{Property: "convergence", Verdict: "holds", Params: stab, From: "all", Fairness: "strong", Found: "violated",
				Start:  NoConvergence,
				Source: "§3, Proof Outline: stabilizes from any configuration in at most 5n (five CToken traversals)"},
		},
		StabilizationBound: "5n (five CToken traversals, §3 Proof Outline)",
		RoundsBound:        func(p specs.Values) int { return 5 * p["n"] },
		// The links are reliable once the transient faults end.
		Links: &specs.ReliableLinks{
			Enlarge: func(specs.Values) specs.Values { return specs.Values{"Cmax": 32} },
			Fill:    func(p specs.Values) int { return capacity(p) },
		},
		Build: Build,
	}
}

// Vars are the handles of a built kl-dhv system, for tests and predicates.
type Vars struct {
	// Every process: STATE (Out, Request, In), NEED (1..K), T_h, T_d
	// (0..K), MySeq (0..MaxSeq), MyOrder (0/1).
	State, Need, Th, Td, MySeq, MyOrder model.VarID
	// Root only: C_e, C_f (0..ℓ), MyT_c (0..MaxV_c), MyT_a (0..MaxTa).
	Ce, Cf, MyTc, MyTa model.VarID
	// Message types. CToken's field 0 is Seq; Collect's field 0 is T_c;
	// Allocate's fields are T_a and Order.
	CToken, EnabledToken, Token, Collect, Allocate, Disable model.MsgType
	// Out[i] is the channel from process i to its successor.
	Out []model.ChanID
	// The resolved bounds; CTop is the top of C_e and C_f (ℓ or ℓ+1).
	N, L, K, Cmax, MaxSeq, MaxVc, MaxTa, CTop int
	StayCS                                    bool
	// Fix is the fix parameter: 0 the paper's protocol, 1 LOCK on enabled
	// tokens, 2 A_l8 re-enabling a disabled token first.
	Fix int
}

// Build returns the model for resolved parameters.
func Build(p specs.Values) (*model.System, error) {
	sys, _, err := BuildVars(p)
	return sys, err
}

// cond is one action's guard.
type cond func(c *model.Ctx) bool

// BuildVars is Build, also returning the handles.
func BuildVars(p specs.Values) (*model.System, Vars, error) {
	n, l, k := p["n"], p["L"], p["K"]
	v := Vars{N: n, L: l, K: k, Cmax: p["Cmax"], MaxSeq: p["MaxSeq"], MaxVc: p["MaxVc"], StayCS: p["staycs"] == 1, Fix: p["fix"]}
	if n < 2 || l < 1 || k < 1 || k > l {
		return nil, v, fmt.Errorf("kl-dhv: need n ≥ 2 and 1 ≤ K ≤ L, got n=%d K=%d L=%d", n, k, l)
	}
	if v.Cmax == 0 {
		v.Cmax = 2*l + 2
	}
	if v.MaxVc == 0 {
		v.MaxVc = l
	}
	if v.MaxVc < k || v.MaxVc > l {
		return nil, v, fmt.Errorf("kl-dhv: need K ≤ MaxVc ≤ L, got MaxVc=%d K=%d L=%d", v.MaxVc, k, l)
	}
	if v.MaxSeq < 1 {
		return nil, v, fmt.Errorf("kl-dhv: MaxSeq=%d, need at least 1", v.MaxSeq)
	}
	if v.Cmax < l+1 {
		return nil, v, fmt.Errorf("kl-dhv: Cmax=%d cannot hold the %d Tokens and the CToken of the initial configuration", v.Cmax, l)
	}
	v.MaxTa = min(2*v.MaxVc, l)
	v.CTop = l + p["ctop"]
	b := model.NewBuilder("kl-dhv", model.UniRing, n)
	v.State = b.Var("STATE", model.Enum("Out", "Request", "In"))
	v.Need = b.Var("NEED", model.IntRange(1, k))
	v.Th = b.Var("Th", model.IntRange(0, k))
	v.Td = b.Var("Td", model.IntRange(0, k))
	v.MySeq = b.Var("MySeq", model.IntRange(0, v.MaxSeq))
	v.MyOrder = b.Var("MyOrder", model.IntRange(0, 1))
	v.Ce = b.Var("Ce", model.IntRange(0, v.CTop), 0)
	v.Cf = b.Var("Cf", model.IntRange(0, v.CTop), 0)
	v.MyTc = b.Var("MyTc", model.IntRange(0, v.MaxVc), 0)
	v.MyTa = b.Var("MyTa", model.IntRange(0, v.MaxTa), 0)
	v.CToken = b.Message("CToken", model.Var{Name: "seq", Domain: model.IntRange(0, v.MaxSeq)})
	v.EnabledToken = b.Message("Enabled_Token")
	v.Token = b.Message("Token")
	v.Collect = b.Message("Collect", model.Var{Name: "tc", Domain: model.IntRange(0, v.MaxVc)})
	v.Allocate = b.Message("Allocate", model.Var{Name: "ta", Domain: model.IntRange(0, v.MaxTa)}, model.Var{Name: "order", Domain: model.IntRange(0, 1)})
	v.Disable = b.Message("Disable")
	b.LinkChannels(v.Cmax, model.Drop, v.CToken, v.EnabledToken, v.Token, v.Collect, v.Allocate, v.Disable)
	v.Out = make([]model.ChanID, n)
	for i, lk := range b.Links() {
		v.Out[lk[0]] = model.ChanID(i)
	}
	others := make([]int, 0, n-1)
	for i := 1; i < n; i++ {
		others = append(others, i)
	}
	h := &v // the closures share the handles

	root := []struct {
		name string
		kind model.ActionKind
		cond cond
		eff  func(c *model.Ctx, _ int)
	}{
		{"A_c1", model.Protocol, h.headCTokenIs(true), h.rootStart},
		{"A_c1-stale", model.Protocol, h.headCTokenIs(false), h.discard},
		{"A_c2", model.Protocol, h.headIs(v.EnabledToken), h.countET},
		{"A_c3", model.Timeout, h.noCToken, h.timeout},
		{"A_l1", model.Protocol, h.local, h.localEffect},
		{"A_l2", model.Protocol, h.headIs(v.Token), h.rootToken},
		{"A_l3", model.Protocol, h.headAllocateOrderIs(true), h.rootAllocatePrivileged},
		{"A_l4", model.Protocol, h.headAllocateOrderIs(false), h.rootAllocateOther},
		{"A_l5", model.Protocol, h.headIs(v.Collect), h.rootCollect},
		{"A_l6", model.Protocol, h.headIs(v.Disable), h.rootDisable},
	}
	other := []struct {
		name string
		kind model.ActionKind
		cond cond
		eff  func(c *model.Ctx, _ int)
	}{
		{"A_c4", model.Protocol, h.headCTokenIs(false), h.forwardCToken},
		{"A_c4-dup", model.Protocol, h.headCTokenIs(true), h.discard},
		{"A_c5", model.Protocol, h.headIs(v.EnabledToken), h.forward},
		{"A_l7", model.Protocol, h.local, h.localEffect},
		{"A_l8", model.Protocol, h.headIs(v.Token), h.token},
		{"A_l9", model.Protocol, h.headAllocateOrderIs(false), h.allocatePrivileged},
		{"A_l10", model.Protocol, h.headAllocateOrderIs(true), h.allocateOther},
		{"A_l11", model.Protocol, h.headIs(v.Collect), h.collect},
		{"A_l12", model.Protocol, h.headIs(v.Disable), h.disable},
	}
	for _, a := range root {
		b.Action(model.Action{Name: a.name, Kind: a.kind, Guard: a.cond, Effect: a.eff}, 0)
	}
	for _, a := range other {
		b.Action(model.Action{Name: a.name, Kind: a.kind, Guard: a.cond, Effect: a.eff}, others...)
	}
	// "Only the first enabled action (as per the text of the protocol) is
	// executed": the protocol's actions and the timeout; the application's
	// (environment) actions below stand outside the rule.
	b.FirstEnabledOnly()

	// The application: environment actions, outside the first-enabled rule.
	state, need, th, td := v.State, v.Need, v.Th, v.Td
	b.Action(model.Action{
		Name:        "request",
		Kind:        model.Environment,
		Liveness:    model.Optional,
		Choices:     k,
		ChoiceLabel: func(i int) string { return "k=" + strconv.Itoa(i+1) },
		Guard: func(c *model.Ctx) bool {
			return c.Get(state) == Out && c.Get(th) == 0 && c.Get(td) == 0
		},
		Effect: func(c *model.Ctx, i int) {
			c.Set(state, Request)
			c.Set(need, i+1)
		},
	})
	leaveLive := model.Finite
	if v.StayCS {
		leaveLive = model.Optional
	}
	b.Action(model.Action{
		Name:     "leave",
		Kind:     model.Environment,
		Liveness: leaveLive,
		Guard:    func(c *model.Ctx) bool { return c.Get(state) == In },
		Effect: func(c *model.Ctx, _ int) {
			c.Set(state, Out)
			c.Set(need, 1)
		},
	})

	var sys *model.System
	b.Invariant(model.Predicate{
		Name:  "units-in-use",
		Doc:   "the units of the processes in their critical section (Σ NEED over STATE = In) never exceed ℓ",
		Holds: func(s *model.State) bool { return h.unitsInUse(s) <= l },
	})
	b.Invariant(model.Predicate{
		Name: "cs-holds-k",
		Doc:  "a process in its critical section holds exactly its k enabled tokens (T_h = NEED, T_d = 0)",
		Holds: func(s *model.State) bool {
			for i := 0; i < n; i++ {
				if s.Get(i, state) == In && (s.Get(i, th) != s.Get(i, need) || s.Get(i, td) != 0) {
					return false
				}
			}
			return true
		},
	})
	b.Legitimate(model.Predicate{
		Name:  "L",
		Doc:   "one CToken, ℓ tokens, Root's counters consistent with what it will still count (see the package doc)",
		Holds: func(s *model.State) bool { return Legitimate(sys, *h, s) },
	})
	b.LegitimateConfigurations(func(sys *model.System, yield func(*model.State) bool) {
		h.enumerateLegitimate(sys, yield)
	})
	b.ProcessPredicate(model.ProcessPredicate{
		Name:  "requesting",
		Doc:   "STATE = Request",
		Holds: func(s *model.State, p int) bool { return s.Get(p, state) == Request },
	})
	b.ProcessPredicate(model.ProcessPredicate{
		Name:  "inCS",
		Doc:   "STATE = In",
		Holds: func(s *model.State, p int) bool { return s.Get(p, state) == In },
	})
	b.ProcessPredicate(model.ProcessPredicate{
		Name:  "grantable",
		Doc:   "p ∈ J: STATE = Request and NEED ≤ α = ℓ − Σ NEED over the processes in their critical section",
		Holds: func(s *model.State, p int) bool { return h.grantable(s, p) },
	})
	b.ProcessPredicate(model.ProcessPredicate{
		Name: "klWaiting",
		Doc:  "p ∈ J and every requesting process is in J (no request that fairness could put before J's)",
		Holds: func(s *model.State, p int) bool {
			if !h.grantable(s, p) {
				return false
			}
			for q := 0; q < n; q++ {
				if s.Get(q, state) == Request && !h.grantable(s, q) {
					return false
				}
			}
			return true
		},
	})
	b.ProcessPredicate(model.ProcessPredicate{
		Name: "grantedOrOutgrown",
		Doc:  "p is in its critical section, or no longer in J because α shrank below its NEED (another process entered)",
		Holds: func(s *model.State, p int) bool {
			st := s.Get(p, state)
			return st == In || st == Request && s.Get(p, need) > l-h.unitsInUse(s)
		},
	})
	b.Initial(func(sys *model.System, s *model.State) {
		for i := 0; i < n; i++ {
			s.Set(i, need, 1)
		}
		for range l {
			s.Push(v.Out[n-1], sys.Msg(v.Token))
		}
		s.Push(v.Out[n-1], sys.Msg(v.CToken, 0))
	})
	built, err := b.Build()
	if err != nil {
		return nil, v, err
	}
	sys = built
	return sys, v, nil
}

func (v *Vars) unitsInUse(s *model.State) int {
	used := 0
	for i := 0; i < v.N; i++ {
		if s.Get(i, v.State) == In {
			used += s.Get(i, v.Need)
		}
	}
	return used
}

func (v *Vars) grantable(s *model.State, p int) bool {
	return s.Get(p, v.State) == Request && s.Get(p, v.Need) <= v.L-v.unitsInUse(s)
}

// --- conditions ---

func (v *Vars) in(c *model.Ctx) model.ChanID { return v.Out[(c.P+v.N-1)%v.N] }

func (v *Vars) headIs(t model.MsgType) cond {
	return func(c *model.Ctx) bool { return c.HeadIs(v.in(c), t) }
}

// headCTokenIs: the head is a CToken whose Seq equals MySeq (eq) or not.
func (v *Vars) headCTokenIs(eq bool) cond {
	return func(c *model.Ctx) bool {
		m, ok := c.Head(v.in(c))
		if !ok || c.TypeOf(m) != v.CToken {
			return false
		}
		return (c.Field(m, 0) == c.Get(v.MySeq)) == eq
	}
}

// headAllocateOrderIs: the head is an Allocate whose Order equals MyOrder
// (eq) or not.
func (v *Vars) headAllocateOrderIs(eq bool) cond {
	return func(c *model.Ctx) bool {
		m, ok := c.Head(v.in(c))
		if !ok || c.TypeOf(m) != v.Allocate {
			return false
		}
		return (c.Field(m, 1) == c.Get(v.MyOrder)) == eq
	}
}

// noCToken is the timeout's global predicate: no CToken message anywhere.
func (v *Vars) noCToken(c *model.Ctx) bool {
	s := c.Config()
	for _, ch := range v.Out {
		for i := 0; i < s.Len(ch); i++ {
			if s.TypeOf(s.At(ch, i)) == v.CToken {
				return false
			}
		}
	}
	return true
}

// local is A_l1 / A_l7's guard, restricted to where its statement does
// something: Out with tokens to release, or Request with enough enabled
// tokens to enter.
func (v *Vars) local(c *model.Ctx) bool {
	th, td := c.Get(v.Th), c.Get(v.Td)
	if th+td == 0 {
		return false
	}
	switch c.Get(v.State) {
	case Out:
		return true
	case Request:
		return th-td >= c.Get(v.Need)
	}
	return false
}

// --- effects ---

func (v *Vars) enabled(c *model.Ctx) int { return max(0, c.Get(v.Th)-c.Get(v.Td)) }

func (v *Vars) out(c *model.Ctx) model.ChanID { return v.Out[c.P] }

func (v *Vars) discard(c *model.Ctx, _ int) { c.Receive(v.in(c)) }

func (v *Vars) forward(c *model.Ctx, _ int) {
	m := c.Receive(v.in(c))
	c.Send(v.out(c), m)
}

// rootStart is A_c1: MySeq := MySeq+1; START; send <CToken, MySeq>.
func (v *Vars) rootStart(c *model.Ctx, _ int) {
	c.Receive(v.in(c))
	seq := (c.Get(v.MySeq) + 1) % (v.MaxSeq + 1)
	c.Set(v.MySeq, seq)
	out := v.out(c)
	tc, ta := c.Get(v.MyTc), c.Get(v.MyTa)
	sum := c.Get(v.Ce) + c.Get(v.Cf) + tc + ta
	if sum > v.L { // 00-01
		c.Send(out, c.Msg(v.Disable))
	} else { // 02-03
		for range v.L - sum {
			c.Send(out, c.Msg(v.Token))
		}
	}
	if pool := tc + ta; pool > 0 { // 04-05
		c.Send(out, c.Msg(v.Allocate, min(pool, v.MaxTa), c.Get(v.MyOrder)))
	}
	c.Send(out, c.Msg(v.Collect, 0)) // 06
	c.Set(v.Ce, v.enabled(c))        // 07
	c.Set(v.Cf, 0)
	c.Set(v.MyTc, 0) // 08
	c.Set(v.MyTa, 0)
	c.Send(out, c.Msg(v.CToken, seq))
}

// timeout is A_c3: a new sequence number, and a CToken carrying it.
func (v *Vars) timeout(c *model.Ctx, _ int) {
	seq := (c.Get(v.MySeq) + 1) % (v.MaxSeq + 1)
	c.Set(v.MySeq, seq)
	c.Send(v.out(c), c.Msg(v.CToken, seq))
}

// countET is A_c2: COUNT-ET, counted in C_e (the prose's reading).
func (v *Vars) countET(c *model.Ctx, _ int) {
	c.Receive(v.in(c))
	c.Set(v.Ce, min(c.Get(v.Ce)+1, v.CTop))
}

// forwardCToken is A_c4 with MySeq ≠ Seq.
func (v *Vars) forwardCToken(c *model.Ctx, _ int) {
	m := c.Receive(v.in(c))
	c.Set(v.MySeq, c.Field(m, 0))
	out := v.out(c)
	for range v.enabled(c) {
		c.Send(out, c.Msg(v.EnabledToken))
	}
	c.Send(out, m)
}

// localEffect is A_l1 / A_l7.
func (v *Vars) localEffect(c *model.Ctx, _ int) {
	if c.Get(v.State) == Out {
		out := v.out(c)
		for range v.enabled(c) {
			c.Send(out, c.Msg(v.Token))
		}
		c.Set(v.Td, 0)
		c.Set(v.Th, 0)
		return
	}
	c.Set(v.State, In) // ECS
}

// takeToken is A_l8's statement after the receipt.
func (v *Vars) takeToken(c *model.Ctx) {
	if c.Get(v.State) != Request {
		c.Send(v.out(c), c.Msg(v.Token))
		return
	}
	if td := c.Get(v.Td); v.Fix == 2 && td > 0 {
		c.Set(v.Td, td-1)
	} else if th := c.Get(v.Th); th < c.Get(v.Need) {
		c.Set(v.Th, th+1)
	} else if td := c.Get(v.Td); td > 0 {
		c.Set(v.Td, td-1)
	} else {
		// Unreachable after A_l7's priority (Request with T_h ≥ NEED
		// and T_d = 0 enters first); forward rather than go out of range.
		c.Send(v.out(c), c.Msg(v.Token))
	}
}

// token is A_l8.
func (v *Vars) token(c *model.Ctx, _ int) {
	c.Receive(v.in(c))
	v.takeToken(c)
}

// rootToken is A_l2: A_l8, and the token is counted in C_f.
func (v *Vars) rootToken(c *model.Ctx, _ int) {
	c.Receive(v.in(c))
	c.Set(v.Cf, min(c.Get(v.Cf)+1, v.CTop))
	v.takeToken(c)
}

// grant gives a requesting process NEED enabled tokens from a pool of ta,
// if the pool is enough; it returns the tokens taken and whether it granted.
func (v *Vars) grant(c *model.Ctx, ta int) (taken int, ok bool) {
	missing := max(0, c.Get(v.Need)-v.enabled(c))
	if ta < missing {
		return 0, false
	}
	c.Set(v.Th, c.Get(v.Need))
	c.Set(v.Td, 0)
	return missing, true
}

// absorb gives a requesting process all ta tokens of a pool that is not
// enough: first re-enabling its disabled tokens, then adding to T_h.
func (v *Vars) absorb(c *model.Ctx, ta int) {
	th, td := c.Get(v.Th), c.Get(v.Td)
	if td >= ta {
		c.Set(v.Td, td-ta)
		return
	}
	c.Set(v.Th, min(v.K, max(0, th+ta-td)))
	c.Set(v.Td, 0)
}

// allocatePrivileged is A_l9.
func (v *Vars) allocatePrivileged(c *model.Ctx, _ int) {
	m := c.Receive(v.in(c))
	ta, order := c.Field(m, 0), c.Field(m, 1)
	if c.Get(v.State) != Request {
		c.Set(v.MyOrder, order)
		c.Send(v.out(c), c.Msg(v.Allocate, ta, order))
		return
	}
	if taken, ok := v.grant(c, ta); ok {
		c.Set(v.MyOrder, order)
		if ta-taken > 0 {
			c.Send(v.out(c), c.Msg(v.Allocate, ta-taken, order))
		}
		return
	}
	v.absorb(c, ta)
}

// waiting is "requesting and holding at least one disabled token".
func (v *Vars) waiting(c *model.Ctx) bool { return c.Get(v.State) == Request && c.Get(v.Td) > 0 }

// allocateOther is A_l10 (reconstructed).
func (v *Vars) allocateOther(c *model.Ctx, _ int) {
	m := c.Receive(v.in(c))
	ta, order := c.Field(m, 0), c.Field(m, 1)
	if v.waiting(c) {
		if taken, ok := v.grant(c, ta); ok {
			ta -= taken
		}
	}
	if ta > 0 {
		c.Send(v.out(c), c.Msg(v.Allocate, ta, order))
	}
}

// rootAllocatePrivileged is A_l3 (reconstructed): the Allocate is back
// with Root's own Order, so every other process has MyOrder = Order and
// Root is the privileged processor.
func (v *Vars) rootAllocatePrivileged(c *model.Ctx, _ int) {
	m := c.Receive(v.in(c))
	ta, order := c.Field(m, 0), c.Field(m, 1)
	if c.Get(v.State) != Request {
		c.Set(v.MyOrder, 1-order)
		c.Set(v.MyTa, ta)
		return
	}
	if taken, ok := v.grant(c, ta); ok {
		c.Set(v.MyOrder, 1-order)
		c.Set(v.MyTa, ta-taken)
		c.Set(v.Ce, min(v.CTop, c.Get(v.Ce)+taken))
		return
	}
	v.absorb(c, ta)
	c.Set(v.MyTa, 0)
	c.Set(v.Ce, min(v.CTop, c.Get(v.Ce)+ta))
}

// rootAllocateOther is A_l4 (reconstructed).
func (v *Vars) rootAllocateOther(c *model.Ctx, _ int) {
	m := c.Receive(v.in(c))
	ta := c.Field(m, 0)
	if v.waiting(c) {
		if taken, ok := v.grant(c, ta); ok {
			ta -= taken
			c.Set(v.Ce, min(v.CTop, c.Get(v.Ce)+taken))
		}
	}
	c.Set(v.MyTa, ta)
}

// lock is Function LOCK: STATE = Request ∧ 0 < T_h < NEED (with fix=1,
// 0 < T_h − T_d < NEED).
func (v *Vars) lock(c *model.Ctx) bool {
	th := c.Get(v.Th)
	if v.Fix == 1 {
		th -= c.Get(v.Td)
	}
	return c.Get(v.State) == Request && 0 < th && th < c.Get(v.Need)
}

// collectOwn disables, if LOCK, the enabled tokens that fit in a Collect
// carrying tc, and returns how many.
func (v *Vars) collectOwn(c *model.Ctx, tc int) int {
	if !v.lock(c) {
		return 0
	}
	x := min(v.enabled(c), max(0, v.MaxVc-tc))
	c.Set(v.Td, c.Get(v.Td)+x)
	return x
}

// collect is A_l11 (reconstructed).
func (v *Vars) collect(c *model.Ctx, _ int) {
	m := c.Receive(v.in(c))
	tc := c.Field(m, 0)
	tc += v.collectOwn(c, tc)
	c.Send(v.out(c), c.Msg(v.Collect, tc))
}

// uncount takes x tokens that Root has already counted in this traversal
// (in C_e or C_f) out of its count: they are now counted elsewhere
// (MyT_c) or destroyed.
func (v *Vars) uncount(c *model.Ctx, x int) {
	ce, cf := c.Get(v.Ce), c.Get(v.Cf)
	if x <= ce {
		c.Set(v.Ce, ce-x)
		return
	}
	c.Set(v.Ce, 0)
	c.Set(v.Cf, max(0, cf-(x-ce)))
}

// rootCollect is A_l5 (reconstructed).
func (v *Vars) rootCollect(c *model.Ctx, _ int) {
	m := c.Receive(v.in(c))
	tc := c.Field(m, 0)
	x := v.collectOwn(c, tc)
	c.Set(v.MyTc, tc+x)
	v.uncount(c, x)
}

// disable is A_l12.
func (v *Vars) disable(c *model.Ctx, _ int) {
	c.Receive(v.in(c))
	c.Set(v.Td, c.Get(v.Th))
	c.Send(v.out(c), c.Msg(v.Disable))
}

// rootDisable is A_l6 (reconstructed): Root's own enabled tokens are
// disabled too, and taken out of its count.
func (v *Vars) rootDisable(c *model.Ctx, _ int) {
	c.Receive(v.in(c))
	x := v.enabled(c)
	c.Set(v.Td, c.Get(v.Th))
	v.uncount(c, x)
}

// Legitimate reports whether s satisfies the legitimacy predicate L.
func Legitimate(sys *model.System, v Vars, s *model.State) bool {
	n := v.N
	ctChan, ctPos, cts := -1, -1, 0
	for i, ch := range v.Out {
		for k := 0; k < s.Len(ch); k++ {
			switch s.TypeOf(s.At(ch, k)) {
			case v.CToken:
				cts++
				ctChan, ctPos = i, k
			case v.Disable:
				return false
			}
		}
	}
	if cts != 1 {
		return false
	}
	seq := sys.Field(s.At(v.Out[ctChan], ctPos), 0)
	prev := (seq + v.MaxSeq) % (v.MaxSeq + 1)
	if s.Get(0, v.MySeq) != seq {
		return false
	}
	real := s.Get(0, v.MyTc) + s.Get(0, v.MyTa)
	pending := 0
	for i := 0; i < n; i++ {
		if i > 0 {
			want := seq
			if i > ctChan {
				want = prev
			}
			if s.Get(i, v.MySeq) != want {
				return false
			}
		}
		th, td, need, st := s.Get(i, v.Th), s.Get(i, v.Td), s.Get(i, v.Need), s.Get(i, v.State)
		if td > th || st == In && (th != need || td != 0) || st == Request && th > need {
			return false
		}
		real += th - td
		if i > ctChan {
			pending += th - td
		}
	}
	collects, allocates := 0, 0
	for i, ch := range v.Out {
		for k := 0; k < s.Len(ch); k++ {
			m := s.At(ch, k)
			ahead := i > ctChan || i == ctChan && k < ctPos
			switch s.TypeOf(m) {
			case v.Token:
				real++
				if ahead {
					pending++
				}
			case v.EnabledToken:
				if !ahead {
					return false
				}
				pending++
			case v.Collect:
				if !ahead {
					return false
				}
				collects++
				real += sys.Field(m, 0)
				pending += sys.Field(m, 0)
			case v.Allocate:
				if !ahead {
					return false
				}
				allocates++
				real += sys.Field(m, 0)
				pending += sys.Field(m, 0)
			}
		}
	}
	count := s.Get(0, v.Ce) + s.Get(0, v.Cf) + s.Get(0, v.MyTc) + s.Get(0, v.MyTa) + pending
	return collects <= 1 && allocates <= 1 && real == v.L && count == v.L && v.inRun(sys, s)
}

// inRun reports the conditions every configuration of a legitimate run
// meets that the counts above do not imply (closure, decided over every
// configuration of the counts alone, failed from each of these): no
// Allocate carries zero tokens (no action sends one); no Enabled_Token is
// on Root's own outgoing link (Root never sends one); Root's MyT_c is 0
// while a Collect is in transit, and its MyT_a 0 while an Allocate is (A_l5,
// A_l3 and A_l4 overwrite them); and C_e + C_f counts at least Root's own
// enabled tokens (A_l5 and A_l6 take Root's pre-empted tokens out of them).
func (v Vars) inRun(sys *model.System, s *model.State) bool {
	collects, allocates := 0, 0
	for c, ch := range v.Out {
		for k := 0; k < s.Len(ch); k++ {
			m := s.At(ch, k)
			switch s.TypeOf(m) {
			case v.Collect:
				collects++
			case v.Allocate:
				allocates++
				if sys.Field(m, 0) == 0 {
					return false
				}
			case v.EnabledToken:
				if c == 0 {
					return false
				}
			}
		}
	}
	return (collects == 0 || s.Get(0, v.MyTc) == 0) && (allocates == 0 || s.Get(0, v.MyTa) == 0) &&
		s.Get(0, v.Ce)+s.Get(0, v.Cf) >= s.Get(0, v.Th)-s.Get(0, v.Td)
}

// Render writes a configuration on one line: per process STATE/NEED,
// T_h/T_d, MySeq, MyOrder (and Root's C_e C_f MyT_c MyT_a), then the
// contents of each channel i→i+1, head first.
func Render(sys *model.System, v Vars, s *model.State) string {
	out := ""
	for i := 0; i < v.N; i++ {
		st := [...]string{"O", "R", "I"}[s.Get(i, v.State)]
		out += fmt.Sprintf("p%d[%s%d h%d d%d s%d o%d", i, st, s.Get(i, v.Need), s.Get(i, v.Th), s.Get(i, v.Td), s.Get(i, v.MySeq), s.Get(i, v.MyOrder))
		if i == 0 {
			out += fmt.Sprintf(" Ce%d Cf%d Tc%d Ta%d", s.Get(0, v.Ce), s.Get(0, v.Cf), s.Get(0, v.MyTc), s.Get(0, v.MyTa))
		}
		out += "] "
	}
	for i, ch := range v.Out {
		out += fmt.Sprintf("%d→%d:", i, (i+1)%v.N)
		for k := 0; k < s.Len(ch); k++ {
			m := s.At(ch, k)
			switch sys.TypeOf(m) {
			case v.CToken:
				out += fmt.Sprintf("C%d", sys.Field(m, 0))
			case v.EnabledToken:
				out += "E"
			case v.Token:
				out += "T"
			case v.Collect:
				out += fmt.Sprintf("c%d", sys.Field(m, 0))
			case v.Allocate:
				out += fmt.Sprintf("a%d/%d", sys.Field(m, 0), sys.Field(m, 1))
			case v.Disable:
				out += "D"
			}
			out += "."
		}
		out += " "
	}
	return out
}

// capacity is the channels' capacity for resolved parameters: Cmax, or
// 2ℓ+2 when Cmax is 0.
func capacity(p specs.Values) int {
	if c := p["Cmax"]; c > 0 {
		return c
	}
	return 2*p["L"] + 2
}
