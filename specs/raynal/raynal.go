// Package raynal encodes Raynal's permission-based k-out-of-M resource
// allocation algorithm (M. Raynal, "A distributed solution to the k-out
// of-M resources allocation problem", INRIA RR-1342 / IRISA PI 559, 1990,
// seed 003), §3, which generalizes Ricart and Agrawala's mutual exclusion,
// and, with parameter asked=1, its reduced-message variant of §5.1.
//
// n processes on a complete graph share M identical resources; channels are
// reliable and FIFO, one per ordered pair (i, j). Process i has the paper's
// local context: scdem_i, ok_i (booleans), h_i and maxh_i (its request's
// Lamport timestamp and the highest timestamp it has received), k_i (the
// units it requests or uses, 0 when idle: see below), used_i[j] for j ≠ i
// (its over-estimate of the units P_j uses), delayed_i (as one boolean
// delayed_i[j] per j ≠ i), with asked=1 also asked_i[j], and a counter reqs_i
// of the requests it has made. Messages are req(h) and free(y); the sender j
// of req(h, j) is the channel the message arrives on. Timestamps (h, i) are
// ordered lexicographically, "(h_i, i) < (h, j) ≡ (h_i < h or (h_i = h and
// i < j))", process ids 0..n-1 for the paper's 1..n.
//
// Actions of process i (each atomic; central daemon, interleaving):
//
//	request(k)  environment, optional   ¬scdem ∧ ¬ok ∧ reqs < R  → "when requesting resources", k in 1..K; reqs++
//	leave       environment, finite     ok                        → "when releasing the resources"
//	recvReq(j)  protocol                head(j→i) = req(h)        → "when receiving req(h, j) from P_j"
//	recvFree(j) protocol                head(j→i) = free(y)       → "when receiving free(y) from P_j"
//
// The bodies are the paper's, statement by statement (§3 for asked=0, §5.1
// for asked=1). The "wait (ok_i)" ending the request statement is the state
// scdem_i ∧ ¬ok_i: the process is requesting; it is in its critical section
// (using its k_i resources) while ok_i.
//
// Bounds. Timestamps are unbounded in the paper; here every process makes
// at most R requests (parameter requests) and stays idle for ever after,
// so every result holds "for at most R requests per process". The clock
// domain is then 0..nR, the smallest sound one: a request's timestamp is 1
// plus the largest timestamp its process has received, which is that of an
// earlier request, so the m-th request of the whole execution has a
// timestamp of at most m ≤ nR; and nR is reached (processes 0, 1, ..., n-1,
// 0, ... request in turn, each after receiving the previous request), which
// TestClockBoundIsReached pins. used_i[j] is raised by M at most once per
// request of P_i, so at most R times, and lowered only by the frees P_j
// sends in answer to P_i's requests, which total M per request, so it
// stays within [-RM, RM]; its domain is that, so a violation of the paper's proposition
// P1 (used_i[j] ≥ 0) is a reachable state (the invariant used-nonnegative)
// rather than a crash of the model. Each channel i→j carries at most R
// requests and 2R frees in a whole execution, so its capacity defaults to
// 3R (parameter Cmax, 0 for that), with which no send can find it full; the
// overflow policy is error, so a smaller Cmax shows up as a safety violation
// instead of silently changing the algorithm.
//
// With R bounded, every step either makes a request, ends a critical
// section or consumes a message, and each request causes finitely many
// messages: every execution is finite. Deadlock and starvation freedom
// therefore say that every maximal execution ends with every process idle,
// its R requests made, and every channel empty. That is the valid end
// state (b.ValidEnd); any other state with no enabled step is a deadlock,
// in particular one where a process waits for ever, and the starvation
// check (requesting(p) ~> inCS(p), requesting = scdem, inCS = ok) reports it
// whatever the fairness.
//
// Choices the paper leaves open, pinned by tests:
//   - maxh_i is updated only on receiving a request, as the paper writes
//     it ("maxh_i represents the highest logical clock value ever
//     received"); a process's own request does not raise it, so two
//     consecutive requests of a process that has received nothing in
//     between carry the same timestamp (TestActionSemantics).
//   - k_i and h_i are set to 0 on release (the paper leaves them as they
//     are). Both are read only while scdem_i ∨ ok_i (in prio_i, in the
//     release's free(k_i) before the reset, and in §5.1's late req(h_i,
//     i), which needs scdem_i), so the reset changes no behaviour and only
//     merges states; it makes k_i = 0 mean idle in traces.
//   - The paper's k_i has no initial value; it is 0 here, with h_i =
//     maxh_i = 0, used_i = 0, delayed_i = ∅, every channel empty: the
//     paper's "init" clauses.
//   - A request asks for k in 1..K resources, K ≤ M (parameter K, 0 for
//     K = M, the paper's 1 ≤ k_i ≤ M). Requesting is model.Optional (an
//     idle process is never obliged to request), leaving the critical
//     section is model.Finite ("the allocated resources are eventually
//     released").
//   - In §5.1's free handler, "asked_i[j] = true" is read as the assignment
//     asked_i[j] := true. §5.1's request statement may grant the request at
//     once (ok_i := Σ used_i[x] + k_i ≤ M); its receive-request statement
//     has no (XX) branch, as the paper says ("the statement noted XX in the
//     algorithm can be removed").
//   - The safety invariants are the problem's safety property, the units
//     allocated (Σ k_i over processes with ok_i) never exceed M
//     (units-allocated), and the paper's proposition P1, used_i[j] ≥ 0
//     (used-nonnegative), on which its safety proof rests.
//
// Messages per critical section. With count=1 a ghost variable msgs_i and
// a ghost field of free messages measure the paper's "number of messages
// per use of a set of resources": the req messages a request sends plus
// every free sent in answer to them, including a delayed free(k_j) sent
// when P_j releases. Whoever answers a req knows at once how many frees
// the answer will take (1, or 2 when it sends free(M-k_j) now and free(k_j)
// later), and the first free of each answer carries that number as its
// ghost field (later ones carry 0); msgs_i is set to the number of reqs
// sent at the request, incremented for each late req of §5.1 and by the
// ghost field of each free received. The first free of every answer
// arrives before P_i can enter (its used_i[j] stays ≥ M until then), which
// the invariant count-sound checks, so msgs_i while ok_i is the exact
// count for that use. The ghost changes no behaviour (TestGhostIsInert).
//
// Results (exhaustive from init, for at most R requests per process):
//   - §3 is safe (units-allocated and used-nonnegative), deadlock-free and
//     starvation-free (weak fairness) for n=3, M=2, R=2 (1,096,552
//     states, the done criterion), n=4, M=1, R=1 (1,405,161
//     states) and the smaller instances of TestBasicAlgorithmHolds;
//     n=4, M=2, R=1 exceeds 43 million states and was not decided.
//   - Finding: §5.1 is NOT safe. Its premise "At the time P_i sends a
//     request it knows already the number of resources used by some P_j
//     if used_i[j] ≠ 0" is false: used_i[j] ≠ 0 may be what remains of
//     the answer to an older request of P_i (a free(k_j) still in
//     transit) while P_j, having released, has made a new request P_i has
//     not received. P_i then enters on that stale count without asking
//     P_j and, in its critical section with the lower priority, answers
//     P_j's request free(M), so P_j enters too. The shortest violation
//     (n=2, M=2, R=2, 13 steps) is TestVariantUnsafe's; n=3, M=2, R=2
//     fails as well. With M = 1 or R = 1 the variant holds on the
//     instances tried, and deadlock and starvation freedom hold wherever
//     tried. As §5.1 says, its receive-request statement never meets a req
//     from a process in delayed_i, the case (XX) handled (TestXXCase).
//   - Messages per use (exact min..max over every execution, count=1):
//     §3 reaches exactly the paper's 2(n-1)..3(n-1) when M ≥ 2 (n=2: 2..3,
//     n=3: 4..6, also for n=3, M=2, R=2 over 2,115,098 ghost states), and
//     is always 2(n-1) when M = 1 (Ricart–Agrawala: an answer with
//     priority is a single delayed free(M); n=4, M=1, R=1: 6..6). §5.1
//     reaches its claimed bounds 0..3(n-1) only where it is unsafe (n=2,
//     M=2, R=3: 0..3; n=3, M=3, R=2: 0..6); for n=3, M=2, R=2 it is 2..6,
//     and with M = 1 it saves nothing (2(n-1)).
package raynal

import (
	"fmt"
	"strconv"

	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
)

// MaxN is the largest number of processes the spec builds.
const MaxN = 5

// Spec returns the catalogue entry.
func Spec() *specs.Spec {
	base := map[string]int{"n": 3, "M": 2, "K": 2, "requests": 2, "asked": 0}
	variant := map[string]int{"n": 3, "M": 2, "K": 2, "requests": 2, "asked": 1}
	return &specs.Spec{
		Name:          "raynal",
		Summary:       "Raynal's k-out-of-M permission algorithm (seed 003, §3; §5.1 with asked=1), for at most R requests per process",
		Source:        "M. Raynal, A distributed solution to the k-out of-M resources allocation problem, INRIA RR-1342 (IRISA PI 559), 1990, §3 and §5.1",
		Communication: "message-passing",
		Params: []specs.Param{
			{Name: "n", Default: 3, Min: 2, Max: MaxN, Doc: "number of processes (complete graph, one FIFO channel per ordered pair)"},
			{Name: "M", Default: 2, Min: 1, Max: 4, Doc: "number of identical resources"},
			{Name: "K", Default: 0, Min: 0, Max: 4, Doc: "largest request k, 1 ≤ K ≤ M (0: K = M, any k in 1..M as the paper allows)"},
			{Name: "requests", Default: 2, Min: 1, Max: 4, Doc: "R, the number of requests each process makes, after which it stays idle for ever; every result holds for at most R requests per process, and timestamps range over 0..nR"},
			{Name: "asked", Default: 0, Min: 0, Max: 1, Doc: "1: the reduced-message variant of §5.1 (asked_i), unsafe for M ≥ 2 and R ≥ 2 (see the package comment); 0: the algorithm of §3"},
			{Name: "count", Default: 0, Min: 0, Max: 1, Doc: "1: add the ghost counter of messages per critical-section use (msgs_i, and a ghost field in free)"},
			{Name: "Cmax", Default: 0, Min: 0, Max: 64, Doc: "channel capacity (0: 3R, R requests and 2R frees, so no send ever finds a channel full)"},
		},
		Invariants: []string{
			"units-allocated: the units allocated, Σ k_i over processes with ok_i, never exceed M",
			"used-nonnegative: used_i[j] ≥ 0 for every i ≠ j (the paper's proposition P1)",
		},
		DefaultChecks: []string{"safety", "deadlock", "starvation"},
		// §5.1 also implies the variant is safe; ringcheck refutes that
		// (TestVariantUnsafe, see the package comment), so that claim is not
		// listed here, where every claim must agree with the checker.
		Claims: []specs.Claim{
			{Property: "safety", Verdict: "holds", Params: base, From: "init",
				Source: "§4.3 (P3): at most M resources are used simultaneously; §4.1 (P1): used_i[j] ≥ 0"},
			{Property: "deadlock", Verdict: "holds", Params: base, From: "init",
				Source: "§4.5 (P5): each request is satisfied within finite time, so no process waits for ever"},
			{Property: "starvation", Verdict: "holds", Params: base, From: "init", Fairness: "weak",
				Source: "§4.5 (P5): each request will be satisfied within finite time"},
			{Property: "safety", Verdict: "holds", Params: variant, From: "init", Found: "violated",
				Source: "§5.1: P_i \"knows already the number of resources used by P_j if used_i[j] ≠ 0\", so it need not ask P_j"},
			{Property: "deadlock", Verdict: "holds", Params: variant, From: "init",
				Source: "§5.1: the variant keeps the algorithm's properties (waiting may be longer)"},
			{Property: "starvation", Verdict: "holds", Params: variant, From: "init", Fairness: "weak",
				Source: "§5.1: the variant keeps the algorithm's properties (waiting may be longer)"},
		},
		Build: Build,
	}
}

// Vars are the handles of a built raynal system, for tests and predicates.
// Per-peer arrays are indexed by the peer j; entry j is declared in every
// process but j.
type Vars struct {
	Scdem, Ok, K, H, MaxH, Reqs model.VarID
	Used, Delayed               []model.VarID
	// Asked is nil unless asked=1.
	Asked []model.VarID
	// Msgs is the ghost counter (count=1), or -1.
	Msgs model.VarID
	// Req carries field 0, h. Free carries field 0, y, and with count=1
	// field 1, the ghost count of its answer (0 for a later free).
	Req, Free model.MsgType
	// N, M, KMax, R, Clock are n, M, K (resolved), R and nR.
	N, M, KMax, R, Clock int
	Variant, Count       bool
}

// Build returns the model for parameters n, M, K, requests, asked, count
// and Cmax.
func Build(p specs.Values, opts specs.BuildOptions) (*model.System, error) {
	sys, _, err := BuildVars(p, opts)
	return sys, err
}

// BuildVars is Build, also returning the handles.
func BuildVars(p specs.Values, opts specs.BuildOptions) (*model.System, Vars, error) {
	n, m, kmax, r, cmax := p["n"], p["M"], p["K"], p["requests"], p["Cmax"]
	var v Vars
	if kmax == 0 {
		kmax = m
	}
	if n < 2 || n > MaxN || m < 1 || r < 1 || kmax < 1 || kmax > m {
		return nil, v, fmt.Errorf("raynal: need 2 ≤ n ≤ %d, M ≥ 1, 1 ≤ K ≤ M, requests ≥ 1; got n=%d M=%d K=%d requests=%d", MaxN, n, m, kmax, r)
	}
	if cmax == 0 {
		cmax = 3 * r
	}
	v.N, v.M, v.KMax, v.R, v.Clock = n, m, kmax, r, n*r
	v.Variant, v.Count = p["asked"] == 1, p["count"] == 1
	clock := v.Clock

	b := model.NewBuilder("raynal", model.Complete, n)
	b.Daemon(opts.Daemon)
	v.Scdem = b.Var("scdem", model.Bool())
	v.Ok = b.Var("ok", model.Bool())
	v.K = b.Var("k", model.IntRange(0, kmax))
	v.H = b.Var("h", model.IntRange(0, clock))
	v.MaxH = b.Var("maxh", model.IntRange(0, clock))
	v.Reqs = b.Var("reqs", model.IntRange(0, r))
	v.Used = make([]model.VarID, n)
	v.Delayed = make([]model.VarID, n)
	if v.Variant {
		v.Asked = make([]model.VarID, n)
	}
	for j := 0; j < n; j++ {
		others := othersThan(n, j)
		v.Used[j] = b.Var("used["+strconv.Itoa(j)+"]", model.IntRange(-r*m, r*m), others...)
		v.Delayed[j] = b.Var("delayed["+strconv.Itoa(j)+"]", model.Bool(), others...)
		if v.Variant {
			v.Asked[j] = b.Var("asked["+strconv.Itoa(j)+"]", model.Bool(), others...)
		}
	}
	v.Msgs = -1
	if v.Count {
		v.Msgs = b.Var("msgs", model.IntRange(0, 3*(n-1)))
	}
	v.Req = b.Message("req", model.Var{Name: "h", Domain: model.IntRange(1, clock)})
	if v.Count {
		v.Free = b.Message("free", model.Var{Name: "y", Domain: model.IntRange(1, m)},
			model.Var{Name: "answer", Domain: model.IntRange(0, 2)})
	} else {
		v.Free = b.Message("free", model.Var{Name: "y", Domain: model.IntRange(1, m)})
	}
	overflow := model.Error
	if opts.Overflow != nil {
		overflow = *opts.Overflow
	}
	b.LinkChannels(cmax, overflow, v.Req, v.Free)

	a := &algo{Vars: v}
	b.Action(model.Action{
		Name:        "request",
		Kind:        model.Environment,
		Liveness:    model.Optional,
		Choices:     kmax,
		ChoiceLabel: func(c int) string { return "k=" + strconv.Itoa(c+1) },
		Guard:       a.canRequest,
		Effect:      a.request,
	})
	b.Action(model.Action{
		Name:     "leave",
		Kind:     model.Environment,
		Liveness: model.Finite,
		Guard:    a.inCS,
		Effect:   a.release,
	})
	for j := 0; j < n; j++ {
		j := j
		others := othersThan(n, j)
		b.Action(model.Action{
			Name:   "recvReq(" + strconv.Itoa(j) + ")",
			Guard:  func(c *model.Ctx) bool { return c.HeadIs(c.In(j), a.Req) },
			Effect: func(c *model.Ctx, _ int) { a.receiveReq(c, j) },
		}, others...)
		b.Action(model.Action{
			Name:   "recvFree(" + strconv.Itoa(j) + ")",
			Guard:  func(c *model.Ctx) bool { return c.HeadIs(c.In(j), a.Free) },
			Effect: func(c *model.Ctx, _ int) { a.receiveFree(c, j) },
		}, others...)
	}

	var sys *model.System
	b.Invariant(model.Predicate{
		Name:  "units-allocated",
		Doc:   "the units allocated, Σ k_i over processes with ok_i, never exceed M",
		Holds: func(s *model.State) bool { return Allocated(v, s) <= m },
	})
	b.Invariant(model.Predicate{
		Name: "used-nonnegative",
		Doc:  "used_i[j] ≥ 0 for every i ≠ j (proposition P1)",
		Holds: func(s *model.State) bool {
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					if j != i && s.Get(i, v.Used[j]) < 0 {
						return false
					}
				}
			}
			return true
		},
	})
	if v.Count {
		b.Invariant(model.Predicate{
			Name: "count-sound",
			Doc:  "ghost: no process that is idle or in its critical section has the first free of an answer in transit to it",
			Holds: func(s *model.State) bool {
				return countSound(sys, v, s)
			},
		})
	}
	b.ValidEnd(model.Predicate{
		Name:  "all-requests-served",
		Doc:   "every process has made its R requests and is idle, and every channel is empty",
		Holds: func(s *model.State) bool { return AllServed(v, s) },
	})
	b.ProcessPredicate(model.ProcessPredicate{
		Name:  "requesting",
		Doc:   "scdem_i: the process waits for its k_i resources",
		Holds: func(s *model.State, p int) bool { return s.Get(p, v.Scdem) == 1 },
	})
	b.ProcessPredicate(model.ProcessPredicate{
		Name:  "inCS",
		Doc:   "ok_i: the process uses its k_i resources",
		Holds: func(s *model.State, p int) bool { return s.Get(p, v.Ok) == 1 },
	})
	b.Initial(func(_ *model.System, s *model.State) {
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if j != i {
					s.Set(i, v.Used[j], 0)
				}
			}
		}
	})
	built, err := b.Build()
	if err != nil {
		return nil, v, err
	}
	sys = built
	return sys, v, nil
}

// othersThan lists 0..n-1 without j.
func othersThan(n, j int) []int {
	out := make([]int, 0, n-1)
	for i := 0; i < n; i++ {
		if i != j {
			out = append(out, i)
		}
	}
	return out
}

// Allocated is the number of units allocated in s: Σ k_i over the
// processes with ok_i.
func Allocated(v Vars, s *model.State) int {
	sum := 0
	for i := 0; i < v.N; i++ {
		if s.Get(i, v.Ok) == 1 {
			sum += s.Get(i, v.K)
		}
	}
	return sum
}

// AllServed reports whether s is a valid end state: every process idle
// with its R requests made, every channel empty.
func AllServed(v Vars, s *model.State) bool {
	for i := 0; i < v.N; i++ {
		if s.Get(i, v.Reqs) != v.R || s.Get(i, v.Scdem) == 1 || s.Get(i, v.Ok) == 1 {
			return false
		}
	}
	for c := range s.Lens {
		if s.Lens[c] != 0 {
			return false
		}
	}
	return true
}

func countSound(sys *model.System, v Vars, s *model.State) bool {
	for i := 0; i < v.N; i++ {
		if s.Get(i, v.Scdem) == 1 {
			continue
		}
		for j := 0; j < v.N; j++ {
			if j == i {
				continue
			}
			ch := sys.ChanBetween(j, i)
			for x := 0; x < s.Len(ch); x++ {
				msg := s.At(ch, x)
				if s.TypeOf(msg) == v.Free && sys.Field(msg, 1) != 0 {
					return false
				}
			}
		}
	}
	return true
}

// algo holds the handles the actions use; its methods are the paper's
// statements.
type algo struct{ Vars }

func (a *algo) canRequest(c *model.Ctx) bool {
	return c.Get(a.Scdem) == 0 && c.Get(a.Ok) == 0 && c.Get(a.Reqs) < a.R
}

func (a *algo) inCS(c *model.Ctx) bool { return c.Get(a.Ok) == 1 }

// request is "when requesting resources" (§3, or §5.1 with asked=1).
func (a *algo) request(c *model.Ctx, choice int) {
	i, k := c.P, choice+1
	h := c.Get(a.MaxH) + 1
	c.Set(a.K, k)
	c.Set(a.H, h)
	c.Set(a.Reqs, c.Get(a.Reqs)+1)
	req := c.Msg(a.Req, h)
	if !a.Variant {
		c.Set(a.Scdem, 1)
		c.Set(a.Ok, 0)
		for j := 0; j < a.N; j++ {
			if j != i {
				c.Set(a.Used[j], c.Get(a.Used[j])+a.M)
				c.Send(c.Out(j), req)
			}
		}
		if a.Count {
			c.Set(a.Msgs, a.N-1)
		}
		return
	}
	sum, sent := 0, 0
	for j := 0; j < a.N; j++ {
		if j == i {
			continue
		}
		u := c.Get(a.Used[j])
		if u == 0 {
			u = a.M
			c.Set(a.Used[j], u)
			c.Set(a.Asked[j], 1)
			c.Send(c.Out(j), req)
			sent++
		} else {
			c.Set(a.Asked[j], 0)
		}
		sum += u
	}
	ok := sum+k <= a.M
	c.Set(a.Ok, b2i(ok))
	c.Set(a.Scdem, b2i(!ok))
	if a.Count {
		c.Set(a.Msgs, sent)
	}
}

// release is "when releasing the resources"; k_i and h_i are then reset to
// 0 (see the package comment).
func (a *algo) release(c *model.Ctx, _ int) {
	k := c.Get(a.K)
	c.Set(a.Ok, 0)
	for j := 0; j < a.N; j++ {
		if j != c.P && c.Get(a.Delayed[j]) == 1 {
			c.Send(c.Out(j), a.free(c, k, k == a.M))
			c.Set(a.Delayed[j], 0)
		}
	}
	c.Set(a.K, 0)
	c.Set(a.H, 0)
}

// free builds free(y); first says whether it is the first free of its
// answer, and then (ghost) how many frees the answer takes.
func (a *algo) free(c *model.Ctx, y int, first bool) model.Msg {
	if !a.Count {
		return c.Msg(a.Free, y)
	}
	answer := 0
	if first {
		answer = 1
		if y < a.M {
			answer = 2
		}
	}
	return c.Msg(a.Free, y, answer)
}

// receiveReq is "when receiving req(h, j) from P_j".
func (a *algo) receiveReq(c *model.Ctx, j int) {
	i := c.P
	msg := c.Receive(c.In(j))
	h := c.Field(msg, 0)
	if mh := c.Get(a.MaxH); h > mh {
		c.Set(a.MaxH, h)
	}
	hi := c.Get(a.H)
	prio := (c.Get(a.Scdem) == 1 || c.Get(a.Ok) == 1) && (hi < h || hi == h && i < j)
	out := c.Out(j)
	switch {
	case !prio:
		c.Send(out, a.free(c, a.M, true))
	case !a.Variant && c.Get(a.Delayed[j]) == 1: // (XX)
		c.Send(out, a.free(c, a.M, true))
	default:
		if k := c.Get(a.K); k != a.M {
			// The answer's first free: free(M-k_i) now, free(k_i) on release.
			c.Send(out, a.free(c, a.M-k, true))
		}
		c.Set(a.Delayed[j], 1)
	}
}

// receiveFree is "when receiving free(y) from P_j".
func (a *algo) receiveFree(c *model.Ctx, j int) {
	i := c.P
	msg := c.Receive(c.In(j))
	u := c.Get(a.Used[j]) - c.Field(msg, 0)
	scdem := c.Get(a.Scdem) == 1
	msgs := 0
	if a.Count {
		msgs = c.Get(a.Msgs) + c.Field(msg, 1)
	}
	if a.Variant && scdem && u == 0 && c.Get(a.Asked[j]) == 0 {
		u = a.M
		c.Send(c.Out(j), c.Msg(a.Req, c.Get(a.H)))
		c.Set(a.Asked[j], 1)
		msgs++
	}
	c.Set(a.Used[j], u)
	if a.Count {
		c.Set(a.Msgs, msgs)
	}
	if !scdem {
		return
	}
	sum := u + c.Get(a.K)
	for x := 0; x < a.N; x++ {
		if x != i && x != j {
			sum += c.Get(a.Used[x])
		}
	}
	if sum <= a.M {
		c.Set(a.Scdem, 0)
		c.Set(a.Ok, 1)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
