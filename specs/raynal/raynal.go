// Package raynal encodes Raynal's permission-based k-out-of-M resource
// allocation algorithm (M. Raynal, "A distributed solution to the k-out
// of-M resources allocation problem", INRIA RR-1342 / IRISA PI 559, 1990),
// §3, which generalizes Ricart and Agrawala's mutual exclusion,
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
// (using its k_i resources) while ok_i. They are written once, with the
// variables, actions and predicates, in specs/internal/raynalcore, which
// specs/raynaland runs over several resource types; this model is its one
// type in §3's layout.
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
// Recurring requests (requests=0). To make starvation freedom more than
// deadlock freedom, an idle process may request again for ever (reqs_i is
// not used), and the clocks h_i, maxh_i and the h of req(h) are kept
// modulo W = 2·window+3 and compared by their difference taken in
// -(W-1)/2..(W-1)/2 (raynalcore.Algo.Diff). The invariant clock-window
// checks that the live clock values (every maxh_i, h_i while requesting or
// in the critical section, h of every req in transit) lie on an arc of at
// most window. Wherever it holds in every reachable configuration, the
// modular model is exactly the unbounded one up to a common shift of every
// clock (raynalcore's AddPredicates gives the induction), so its deadlock
// and starvation verdicts are the unbounded algorithm's;
// TestModularClocksMatchUnbounded checks that correspondence step by step
// against the bounded-R model where the clocks wrap. Where clock-window
// fails, the live clocks spread further than window, and the starvation
// and leads-to verdicts of that run are unknown (clock-window is an
// abstraction invariant, model.Predicate.Abstraction): the spread is not bounded by the
// algorithm when n ≥ 3 and M ≥ 2 (a process waiting with an old timestamp
// that has not yet received a free stays live while two others overtake
// it again and again with rising timestamps; n=3, M=2 fails at every
// window tried, 6, 9 and 12), so those instances are out of reach of this
// abstraction. The channels hold at most one req and three frees at once
// (capacity 4 by default).
//
// Starvation with recurring requests is decided under fairness per action
// (check --fairness weak-action): every receive handler is an action per
// sender, so a message at the head of a channel is eventually received,
// the paper's reliable links with finite delay. Per-process fairness is
// weaker than that: it would let a process keep receiving one sender's
// requests while a free from another waits at its channel's head for
// ever, which the paper's link model excludes; no instance in reach shows
// the difference (starvation holds under weak fairness too for n=2 and
// for n=3, M=1; n=3, M=2 is out of reach).
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
// Results (exhaustive from init; for at most R requests per process unless
// recurring):
//   - With recurring requests, §3 is safe (clock-window included),
//     deadlock-free and starvation-free under weak and strong fairness per
//     action for n=2 and M = 1, 2, 3 and for n=3, M=1 (48,495 states; it
//     is starvation-free there even with no fairness: a request with
//     priority is overtaken a bounded number of times); n=3, M=2 is out of
//     reach (clock-window fails, see above).
//   - Propositions P2 and P4 as leads-to properties (process predicates
//     overtaken and first-fits, --leads-to overtaken,inCS and
//     first-fits,inCS), with recurring requests under fairness per action:
//     both hold for n=2, M=1 and 2, and n=3, M=1 (TestPropositionsP2P4).
//     With M=1 the remark after P2 holds as the invariant timestamp-order
//     (the process in its critical section has priority over every waiting
//     one), so P2 is vacuous there; with M ≥ 2 a process is overtaken by a
//     later request (TestP2PredicatesAreNotVacuous) and is still
//     eventually served.
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

	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/internal/raynalcore"
)

// MaxN is the largest number of processes the spec builds.
const MaxN = 5

// Spec returns the catalogue entry.
func Spec() *specs.Spec {
	base := map[string]int{"n": 3, "M": 2, "K": 2, "requests": 2, "asked": 0}
	variant := map[string]int{"n": 3, "M": 2, "K": 2, "requests": 2, "asked": 1}
	recurring := map[string]int{"n": 3, "M": 1, "requests": 0}
	return &specs.Spec{
		Name:          "raynal",
		Summary:       "Raynal's k-out-of-M permission algorithm (seed 003, §3; §5.1 with asked=1), for at most R requests per process or, with requests=0, recurring requests",
		Source:        "M. Raynal, A distributed solution to the k-out of-M resources allocation problem, INRIA RR-1342 (IRISA PI 559), 1990, §3 and §5.1",
		Communication: "message-passing",
		Params: []specs.Param{
			{Name: "n", Default: 3, Min: 2, Max: MaxN, Doc: "number of processes (complete graph, one FIFO channel per ordered pair)"},
			{Name: "M", Default: 2, Min: 1, Max: 4, Doc: "number of identical resources"},
			{Name: "K", Default: 0, Min: 0, Max: 4, Doc: "largest request k, 1 ≤ K ≤ M (0: K = M, any k in 1..M as the paper allows)"},
			{Name: "requests", Default: 2, Min: 0, Max: 4, Doc: "R ≥ 1: the number of requests each process makes, after which it stays idle for ever; every result holds for at most R requests per process, and timestamps range over 0..nR. 0: requests recur for ever (a process that leaves may request again), with timestamps kept modulo 2·window+3 under the invariant clock-window (see the package comment)"},
			{Name: "window", Default: 0, Min: 0, Max: 30, Doc: "with requests=0, the largest spread of the live timestamps the modular clocks represent exactly, checked by the invariant clock-window (0: 2n)"},
			{Name: "asked", Default: 0, Min: 0, Max: 1, Doc: "1: the reduced-message variant of §5.1 (asked_i), unsafe for M ≥ 2 and R ≥ 2 (see the package comment); 0: the algorithm of §3"},
			{Name: "count", Default: 0, Min: 0, Max: 1, Doc: "1: add the ghost counter of messages per critical-section use (msgs_i, and a ghost field in free)"},
			{Name: "Cmax", Default: 0, Min: 0, Max: 64, Doc: "channel capacity (0: 3R, R requests and 2R frees, so no send ever finds a channel full)"},
		},
		Invariants: []string{
			"units-allocated: the units allocated, Σ k_i over processes with ok_i, never exceed M",
			"used-nonnegative: used_i[j] ≥ 0 for every i ≠ j (the paper's proposition P1)",
			"timestamp-order (M=1): a process in its critical section has priority over every waiting one (§4.2, the remark after P2)",
			"clock-window (requests=0): the live timestamps lie within window of each other, so the modular clocks compare as unbounded ones",
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
				Source: "§4.5 (P5): each request will be satisfied within finite time; with at most R requests every execution is finite, so this says only that none ends waiting"},
			{Property: "starvation", Verdict: "holds", Params: recurring, From: "init", Fairness: "weak-action",
				Source: "§4.5 (P5), with requests recurring for ever and every message received in finite time: each request will be satisfied within finite time"},
			{Property: "safety", Verdict: "holds", Params: variant, From: "init", Found: "violated",
				Source: "§5.1: P_i \"knows already the number of resources used by P_j if used_i[j] ≠ 0\", so it need not ask P_j"},
			{Property: "deadlock", Verdict: "holds", Params: variant, From: "init",
				Source: "§5.1: the variant keeps the algorithm's properties (waiting may be longer)"},
			{Property: "starvation", Verdict: "holds", Params: variant, From: "init", Fairness: "weak",
				Source: "§5.1: the variant keeps the algorithm's properties (waiting may be longer); with at most R requests every execution is finite, so this says only that none ends waiting"},
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
	// N, M, KMax, R, Clock are n, M, K (resolved), R (0 with recurring
	// requests) and the largest timestamp (nR, or W-1 with recurring
	// requests).
	N, M, KMax, R, Clock int
	// W is the modulus of the clocks with recurring requests (0 without),
	// Window the spread clock-window allows.
	W, Window      int
	Variant, Count bool
	Recurring      bool

	algo *raynalcore.Algo
}

// Build returns the model for parameters n, M, K, requests, asked, count
// and Cmax.
func Build(p specs.Values) (*model.System, error) {
	sys, _, err := BuildVars(p)
	return sys, err
}

// BuildVars is Build, also returning the handles. The variables, actions
// and statements are specs/internal/raynalcore's, with one type in §3's
// layout.
func BuildVars(p specs.Values) (*model.System, Vars, error) {
	n, m, kmax, r, cmax, window := p["n"], p["M"], p["K"], p["requests"], p["Cmax"], p["window"]
	var v Vars
	if kmax == 0 {
		kmax = m
	}
	if window == 0 {
		window = 2 * n
	}
	if n < 2 || n > MaxN || m < 1 || r < 0 || kmax < 1 || kmax > m {
		return nil, v, fmt.Errorf("raynal: need 2 ≤ n ≤ %d, M ≥ 1, 1 ≤ K ≤ M, requests ≥ 0; got n=%d M=%d K=%d requests=%d", MaxN, n, m, kmax, r)
	}
	b, a, err := raynalcore.Begin("raynal", raynalcore.Config{
		N: n, Types: 1, M: m, KMax: kmax, R: r, Cmax: cmax,
		Variant: p["asked"] == 1, Count: p["count"] == 1,
		Recurring: r == 0, Window: window,
	})
	if err != nil {
		return nil, v, err
	}
	t := a.Types[0]
	v = Vars{
		Scdem: t.Scdem, Ok: t.Ok, K: t.K, H: a.H, MaxH: a.MaxH, Reqs: a.Reqs,
		Used: t.Used, Delayed: t.Delayed, Asked: t.Asked, Msgs: a.Msgs,
		Req: a.Req, Free: a.Free,
		N: n, M: m, KMax: kmax, R: a.R, Clock: a.Clock,
		W: a.W, Window: a.Window,
		Variant: a.Variant, Count: a.Count, Recurring: a.Recurring,
		algo: a,
	}

	var sys *model.System
	var extra []model.Predicate
	if v.Count {
		extra = append(extra, model.Predicate{
			Name: "count-sound",
			Doc:  "ghost: no process that is idle or in its critical section has the first free of an answer in transit to it",
			Holds: func(s *model.State) bool {
				return countSound(sys, v, s)
			},
		})
	}
	if m == 1 {
		extra = append(extra, model.Predicate{
			Name: "timestamp-order",
			Doc:  "with M=1 (§4.2, the remark after P2: actual and virtual orders are the same) a process in its critical section has priority, (h_i, i) < (h_j, j), over every process waiting",
			Holds: func(s *model.State) bool {
				return timestampOrder(v, s)
			},
		})
	}
	b.ProcessPredicate(model.ProcessPredicate{
		Name: "overtaken",
		Doc:  "§4.2 (P2): the process waits while a process whose request has a later timestamp is in its critical section (with --leads-to overtaken,inCS: its condition eventually holds)",
		Holds: func(s *model.State, p int) bool {
			return overtaken(v, s, p)
		},
	})
	b.ProcessPredicate(model.ProcessPredicate{
		Name: "first-fits",
		Doc:  "§4.4 (P4): the process waits, its request has the lowest timestamp of every waiting one, and k_i ≤ the units not granted (with --leads-to first-fits,inCS: it is eventually granted)",
		Holds: func(s *model.State, p int) bool {
			return firstFits(v, s, p)
		},
	})
	a.AddPredicates(b, raynalcore.Docs{
		UnitsAllocated:  "the units allocated, Σ k_i over processes with ok_i, never exceed M",
		UsedNonnegative: "used_i[j] ≥ 0 for every i ≠ j (proposition P1)",
		ValidEnd:        "every process has made its R requests and is idle, and every channel is empty",
		Requesting:      "scdem_i: the process waits for its k_i resources",
		InCS:            "ok_i: the process uses its k_i resources",
	}, extra...)
	built, err := a.Build(b)
	if err != nil {
		return nil, v, err
	}
	sys = built
	return sys, v, nil
}

// before reports whether process i's request has priority over process
// j's in s: (h_i, i) < (h_j, j), the clocks compared by their difference
// (modular with recurring requests).
func before(v Vars, s *model.State, i, j int) bool {
	d := v.algo.Diff(s.Get(i, v.H), s.Get(j, v.H))
	return d < 0 || d == 0 && i < j
}

// timestampOrder reports whether every process in its critical section in
// s has priority over every waiting process.
func timestampOrder(v Vars, s *model.State) bool {
	for i := 0; i < v.N; i++ {
		if s.Get(i, v.Ok) == 0 {
			continue
		}
		for j := 0; j < v.N; j++ {
			if s.Get(j, v.Scdem) == 1 && !before(v, s, i, j) {
				return false
			}
		}
	}
	return true
}

// overtaken reports whether process p waits in s while a process whose
// request p has priority over is in its critical section.
func overtaken(v Vars, s *model.State, p int) bool {
	if s.Get(p, v.Scdem) == 0 {
		return false
	}
	for g := 0; g < v.N; g++ {
		if s.Get(g, v.Ok) == 1 && before(v, s, p, g) {
			return true
		}
	}
	return false
}

// firstFits reports whether process p waits in s with the request of
// lowest timestamp among the waiting ones, asking for no more units than
// are not granted.
func firstFits(v Vars, s *model.State, p int) bool {
	if s.Get(p, v.Scdem) == 0 || s.Get(p, v.K) > v.M-Allocated(v, s) {
		return false
	}
	for j := 0; j < v.N; j++ {
		if j != p && s.Get(j, v.Scdem) == 1 && before(v, s, j, p) {
			return false
		}
	}
	return true
}

// Allocated is the number of units allocated in s: Σ k_i over the
// processes with ok_i.
func Allocated(v Vars, s *model.State) int { return v.algo.Allocated(s, 0) }

// ClockSpread is the spread of the live timestamps of s (every maxh_i,
// h_i while requesting or in the critical section, h of every req in
// transit): the largest minus the smallest, or with recurring requests the
// shortest arc of the circle of W residues that holds them all, which the
// invariant clock-window bounds by Window.
func ClockSpread(v Vars, s *model.State) int { return v.algo.ClockSpread(s) }

// AllServed reports whether s is a valid end state: every process idle
// with its R requests made, every channel empty.
func AllServed(v Vars, s *model.State) bool { return v.algo.AllServed(s) }

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
