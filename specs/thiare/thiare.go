// Package thiare encodes the several-tokens mutual exclusion algorithm of
// O. Thiare, "Several-Tokens Distributed Mutual Exclusion Algorithm in a
// Logical Ring Network", section 4, Rules 1–4, for at most R
// requests per process or, with requests=0, recurring requests (see
// Recurring requests below).
//
// Every request generates its own token T_i^r = (SeqNum, PID, ResourceID,
// Resend) that travels once around a logical ring; the requester enters
// CS(r) when its own token comes back. Priorities are the paper's: "Pri
// (TokenID_1) is greater than Pri(TokenID_2) iff SN_1 < SN_2 or (SN_1 = SN_2
// and PID_1 < PID_2)". Each node has HSeqNumSeen (H), one priority queue
// Q_i^r per resource, and for each resource its state (idle, waiting: token
// generated and not yet back, cs) and the copy of its own token (seq).
//
// Topology: model.UniRing. Every send in Rules 1–4 goes to "the next node"
// of the logical ring and the paper says the token "must visit all the
// nodes before returning back to its originator" (N-1 messages per CS), so
// only successor links are used. Rule 5 (throwing a token over a dead node)
// is the only place needing a fully connected network, and it is about node
// failures, which are not modelled. Of "clockwise and anticlockwise" the
// model takes one direction, i → i+1 mod n. Channels are FIFO, as the
// paper's network model says.
//
// Actions of node i, for each resource r (atomic, interleaving; the suffix
// [r] of names is left out when resources = 1); on every receipt
// H := max(H, SN) first (section 3: "When a token is received, HSeqNumSeen
// is updated"); with requests=0, max, < and +1 are those of SeqNums modulo
// W (Recurring requests, below) and the guard used < R is dropped:
//
//	request[r]  environment, optional  used < R ∧ state[r] = idle → H := H+1; seq[r] := H;
//	                                    state[r] := waiting; send (H, i, r, 0)   (Rule 1, relation (4))
//	enter       head = own token for r ∧ state[r] = waiting → state[r] := cs      (Rule 3)
//	stale       head = own token for r ∧ state[r] ≠ waiting → delete it           (choice, below)
//	discard     head.Resend = 1 ∧ a token of head.PID is in Q_i^r → delete it     (Rule 4)
//	pass        state[r] = idle → SN := H (replace=1); send on                     (Rule 2, bullet 1)
//	queue       state[r] = cs, or state[r] = waiting ∧ Pri(head) < Pri(own) → into Q_i^r
//	forward     state[r] = waiting ∧ Pri(head) > Pri(own) → send on unchanged     (Rule 2, bullet 3)
//	leave[r]    environment, finite    state[r] = cs → send Q_i^r in decreasing priority,
//	                                    empty it; state[r] := idle                 (Rule 3)
//	timeout[r]  timeout (resend=1)     state[r] = waiting ∧ not yet resent ∧ no token of i
//	                                    for r in any channel → send (seq[r], i, r, 1) (Rule 4)
//
// Choices the paper leaves open, pinned by tests:
//
//   - Own-token recognition is by originator and resource, not by SeqNum:
//     Rule 3 reads "if the node N_i receives T_i^r", and T_i^r "represents
//     the token generated from node N_i for resource r". Recognising it by
//     (SeqNum, PID) cannot be meant, since Rule 2 rewrites SeqNum on the way
//     and the token would then never be recognised.
//   - Rule 2, bullet 1 is encoded AS WRITTEN (parameter replace=1): "if N_j
//     has no intention to enter the CS(r), it replaces the sequence number by
//     HSeqNumSeen and simply passes the token to the next node". H is
//     updated with the token's SN first, so the new SN is max(H, SN): a
//     token's SN can only grow in transit, while its originator compares
//     incoming tokens against its own copy, which keeps the original SN
//     (Rule 1: "makes a copy of the token in its node"). replace=0 leaves SN
//     unchanged, as the forwarding of the proof of Theorem 4.1 does
//     (relations (6)-(7): "Forward the Token to the next node", with no
//     replacement): the other reading the paper's text allows.
//   - Rule 2, bullet 3: "If Pri(T_i^r) < Pri(T^r), it passes the token to the
//     next node; otherwise it puts the token in Q_i^r". Its indices are
//     garbled (the receiver is N_j, the queue Q_i^r); read with relation (6),
//     "Forward the Token ... if Pri(received Token) ≥ Pri(N_i's Token)": the
//     waiting node forwards a token of higher priority than its own copy and
//     queues one of lower priority. Ties cannot happen (PIDs differ).
//   - A token's Resend field is kept when it is passed, forwarded, queued and
//     released; only the originator's timeout sets it.
//   - Rule 4's duplicate test, "a simple query in the request queues is
//     executed to find that token. If it is not found, the token is added in
//     the request queue, otherwise it is simply discarded", is read as: a
//     token with Resend = 1 is deleted if Q_i^r already holds a token of the
//     same originator (the same T_j^r), and otherwise handled as any token
//     by Rules 2 and 3 (queued only where Rule 2 queues). Adding it to the
//     queue of an idle node, literally, would park it for ever, since queues
//     are released only on leaving a CS. Tokens with Resend = 0 are never
//     tested for duplicates (the paper tests only Resend = 1).
//   - A node receiving its own token for r when it is not waiting for r (a
//     duplicate that Rule 4 created and the first copy already served)
//     deletes it, as Rule 3 "deletes the associated copy and original
//     token". Passing it on by Rule 2 would make it circulate for ever.
//   - Rule 4's timeout is a model.Timeout action whose global guard is "i
//     waits for r, has not resent this request's token, and no token of i
//     for r is in any channel": the token is held in some node's queue, the
//     situation the paper's timer cannot tell from "held by some other dead
//     node". Each request is resent at most once, with its original SN, so
//     the timeout is enabled only when resend=1. Nodes never fail and
//     messages are never lost (Rule 5: "we assume ... that tokens are never
//     lost"), so resend=0, where the timeout never fires, is the paper's
//     failure-free setting and the default.
//   - Leaving CS(r) sends every token of Q_i^r to the successor in one
//     atomic step, highest priority first ("it releases the tokens to the
//     next node sequentially"), and deletes the node's copy.
//   - Bounds. Each process makes at most R requests (parameter requests,
//     R ≥ 1; requests=0 is Recurring requests, below); afterwards it stays
//     idle and only relays. Every SeqNum ever created or
//     written is at most the number of requests made so far (H+1 on a
//     request, max or H elsewhere), so SeqNum and H range over 0..n·R and
//     the bound never truncates anything. At most n·R·(1+resend) tokens are
//     ever created, which bounds the queue slots ((n-1)·R·(1+resend) per
//     resource) and the default channel capacity (n·R·(1+resend)): no send
//     ever blocks and no queue ever overflows (an overflow would be reported
//     as a fault of the spec). Queues are kept sorted, so equal queues are
//     equal states.
//   - Resources. "Nodes may compete for multiple resource type at the same
//     time": parameter resources (default 1); a node may wait for, or be in,
//     several CS(r) at once; its R requests are shared among resources; one
//     H serves all resources. Mutual exclusion is at node level (the
//     paper's processes of one node are one model process).
//   - Requests are environment actions (model.Optional), leaving a CS is
//     model.Finite. "requesting" is state[0] = waiting and "inCS" is
//     state[0] = cs: starvation is checked for resource 0, which stands for
//     every resource since they are symmetric.
//   - A configuration is a valid end state iff every process has used up its
//     R requests and is idle for every resource, and no token is in transit.
//     Any other configuration with no enabled step is a deadlock. With
//     recurring requests there is no valid end state: an idle node can
//     always request.
//   - The initial configuration has every node idle, H = 0, used = 0 and
//     every channel empty.
//
// Recurring requests (requests=0). With R bounded every execution is
// finite, so starvation freedom says no more than deadlock freedom. With
// requests=0 an idle node may request again for ever (used is neither
// incremented nor tested; it stays 0) and starvation freedom becomes a
// property of its own. SeqNum and H then grow without bound; they are kept
// modulo W = 2·window+3 (parameter window, 0 for 2n; SeqNum, H and seq[r]
// range over 0..W-1) and compared by their difference taken in
// -(W-1)/2..(W-1)/2 (Vars.Diff), the design of
// specs/internal/raynalcore for Raynal's clocks. Every statement that uses a
// SeqNum goes through it: Rule 1's H := H+1, seq[r] := H (Vars.Next, which
// wraps at W), H := max(H, SN) on every receipt (Vars.Max), Rule 2's SN :=
// H with replace=1 (the H just updated, so max(H, SN) again), the priority
// Pri of Rule 2 and relation (6), SN then PID (Vars.Higher), and the order
// of Q_i^r, which Rule 3 releases highest priority first (Vars.Before; the
// queue stays sorted by it, a function of the set of tokens, so equal
// queues are still equal states). Rule 4 resends seq[r] unchanged; Rule
// 3's recognition of the own token and Rule 4's duplicate test compare
// PIDs only.
//
// The live sequence values of a configuration are H of every node, seq[r]
// of every node waiting for or in CS(r), and the SN of every token in a
// channel or a queue (Vars.LiveSeqs); seq[r] of an idle node is 0 and read
// by nothing. The invariant seq-window checks that they lie on an arc of at
// most window of the circle of W residues (Vars.SeqSpread). Soundness: the
// statements compare live values only (a receipt compares H and the
// head's SN, and the head's SN with seq[r] of a waiting receiver; inserting
// into Q_i^r compares queued SNs), and the only value a step creates is
// the request's H+1, H being live. A receipt sets H to one of two live
// values; Rule 2's replacement writes that same value, already live, into
// the token; forward, queue, leave and Rule 4's resend move or copy live
// values; enter keeps seq[r] live and leave makes it dead. So one step
// widens the spread by at most 1, Rule 2's replacement by H included, and
// W = 2·window+3 leaves that margin: if the live values of a configuration
// of the unbounded model lie within window of each other, every
// difference a statement takes is in -(W-1)/2..(W-1)/2, hence the
// unbounded one, and the modular step is the unbounded step taken modulo W;
// the next configuration's spread is at most window+1 < W/2, so the arc
// computed from its residues is its true spread and the first
// configuration violating seq-window is reported as such. By induction on
// the length of an execution, as long as seq-window holds the modular model
// is the unbounded one with SeqNum and H taken modulo W; a search that
// finds seq-window never violated has therefore explored exactly the
// quotient of the unbounded model by a common shift of every live
// sequence value, which no statement can tell apart, and since that map
// keeps every step with its process and action, the deadlock and
// starvation verdicts, under every fairness, are the unbounded algorithm's.
// The state counts show the quotient: W times the number of configurations
// up to a shift (18, 177, 2,052 and 28,558 for n = 2, 3, 4, 5).
// TestModularMatchesUnbounded checks the correspondence step by step on
// every configuration the bounded-R model reaches, with windows small
// enough that H wraps (n=2 with R = 4, 5 and window 1; n=3 with R=3 and
// window 2, replace = 1 and 0; n=4 with R=3 and window 3): the same steps,
// the same successors up to SeqNum and H modulo W, the same spread, and no
// step widening it by more than 1.
//
// With one resource (and resend=0) the spread is bounded by the algorithm:
// seq-window holds with window n-1 and fails with n-2 (n = 3, 4, 5), since
// a waiting node queues every token of lower priority than its own, so
// the others cannot raise H far past its SeqNum. With two resources it is
// not: a node may stay in CS(0) as long as it likes while requests for
// resource 1 go round and raise every H, its seq[0] (and the SN of any
// token it holds in Q^0) staying behind; n=2 with two resources fails
// seq-window at window 4, 6 and 8 (2n, 3n, 4n; n=3 at 6), so those
// instances are out of reach of this abstraction: their starvation and
// leads-to verdicts are unknown (seq-window is an abstraction invariant).
//
// Capacities. With resend=0 a node has at most one token per resource:
// request creates it when the node is idle for r, only enter deletes it
// (stale and discard need a second token of the same node, which only Rule
// 4 makes), and the node waits for r exactly while it exists. So at most
// n·resources tokens exist at once, the default channel capacity, and
// Q_i^r holds at most the n-1 tokens of the other nodes (an own token is
// never queued): n-1 slots per resource. With resend=1 there is no bound:
// Rule 4's duplicates outlive their requests and pile up (with R bounded,
// n=2 has at most 2, 2, 3, 3, 4, 4 tokens of one node at once for R = 1..6),
// and the defaults, 2·n·resources per channel and 2(n-1) slots, bound the
// model, not the algorithm. Either way an overflow is reported as a
// safety violation (the channels' policy is error, and a queue overflow
// is a range fault), never silent; with resend=1 mutual exclusion fails
// first (with order=0: 15 steps for n=2, 19 for n=3, Rule 4's stale
// duplicate; with order=1 the same duplicate breaks priority-order
// earlier).
//
// Starvation with recurring requests is decided under fairness per action
// (check --fairness weak-action): each receipt case of each node is its
// own obligation, so a token at the head of a channel is eventually taken,
// the paper's network where tokens are never lost and every token is
// received in finite time. Per-process fairness is weaker in general (a
// process may meet it by steps other than the receipt), but here, with
// one resource, a node with a token at its head can make at most two
// environment steps (leave, request) before receipts are all it has left
// (its own new token comes back behind that head), so weak and
// weak-action agree; and on the
// instances decided the verdicts are the same even with no fairness: a
// waiting node is overtaken only by tokens of higher priority, which the
// other nodes stop making once their H has passed its SeqNum, and it
// queues the others, so the other nodes soon all wait and the only steps
// left carry tokens on.
//
// Verdicts with recurring requests (resend=0, one resource; command
// `ringcheck check thiare -p requests=0 -p n=N --check
// safety,deadlock,starvation --fairness weak-action`, with -p replace=0 or
// -p window=w; safety is mutex and seq-window; TestRecurringVerdicts pins
// the rows with a state count at the smallest window, and the defaults for
// n ≤ 4):
//
//	instance       window (W)  states   safety  deadlock  starvation (none, weak, weak-action, strong-action)
//	n=2            4 (11)          198  holds   holds     holds
//	n=2            1 (5)            90  holds   holds     holds
//	n=3            6 (15)        2,655  holds   holds     holds
//	n=3            2 (7)         1,239  holds   holds     holds
//	n=3 replace=0  6 (15)        2,655  holds   holds     holds
//	n=4            8 (19)       38,988  holds   holds     holds
//	n=4            3 (9)        18,468  holds   holds     holds
//	n=5           10 (23)      656,834  holds   violated  violated (Rule 2's deadlock, 17 steps)
//	n=5            4 (11)      314,138  holds   violated  violated
//	n=5 replace=0 10 (23)      617,458  holds   holds     holds
//	n=5 replace=0  4 (11)      295,306  holds   holds     holds
//	n=2 resources=2  4, 6, 8        -   seq-window violated: out of reach
//	n=2 resend=1   4 (11)           -   mutex violated (15 steps)
//
// The paper claims safety (Theorem 4.1), and deadlock and starvation freedom
// (Theorem 4.2). What the checker decides, from init, exhaustively, under
// weak fairness for at most R requests and weak fairness per action for
// recurring requests (the tests pin these verdicts and state counts, except
// n=4 with R=3: 646,582 states, about 16 s for the three properties):
//
//   - All three hold for n=2 and n=3 with R ≤ 3, n=4 with R ≤ 3, n=3 with
//     two resources and R=1, and, with Rule 4, n=3 with R=1 (n=4 with R=1
//     too: 131,307 states, not in the tests).
//   - Rule 2 as written deadlocks n=5 nodes with one request each (17
//     steps): node 3, idle with H=2, raises T_0 = (1,0) to (2,0); node 4,
//     waiting with its own (1,4), then queues (2,0) as of lower priority,
//     while node 0, waiting with (1,0), queues (1,4): each holds the other's
//     token for ever, and every node starves. With replace=0 the same
//     instance satisfies all three properties (TestRule2Deadlock).
//   - Rule 4 breaks safety for n=3 with R=2 (19 steps): a resent duplicate
//     of a node's token outlives the request it was sent for and, by Rule 3,
//     lets the node enter its CS during its next request while another node
//     is in its CS (TestRule4StaleTokenBreaksSafety, with order=0).
//   - Property 4.1 (fair mutual exclusion: a request is served after every
//     request of higher priority) is the invariant priority-order (order=1,
//     the default): a node in CS(r) has priority over every node waiting
//     for r, their copies of their tokens compared. It holds wherever
//     resend=0 on the instances tried (TestPriorityOrder: n=3, 4 with R=2,
//     n=5 with R=1, replace=0, two resources, n=4 with recurring
//     requests); with Rule 4 the same stale duplicate breaks it first, in
//     16 steps.
//   - With recurring requests (requests=0), where seq-window holds in every
//     reachable configuration, all three hold for n = 2, 3, 4 and, with
//     replace=0, for n=3 and n=5; starvation freedom there is Theorem 4.2's
//     liveness with requests recurring for ever, and holds even with no
//     fairness. Rule 2's deadlock comes back for n=5 (17 steps, with every
//     node starving). Rule 4 breaks mutual exclusion already for n=2 (15
//     steps). Two resources are out of reach (seq-window fails at every
//     window tried).
package thiare

import (
	"fmt"
	"strconv"

	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/internal/modclock"
)

// The per-resource states of a node.
const (
	Idle    = 0
	Waiting = 1
	InCS    = 2
)

// Token fields, in declaration order.
const (
	FieldSeq = iota
	FieldPID
	FieldRes
	FieldResend
)

// Spec returns the catalogue entry.
func Spec() *specs.Spec {
	n3 := map[string]int{"n": 3}
	return &specs.Spec{
		Name:          "thiare",
		Summary:       "several-tokens mutual exclusion on a logical ring (seed 002), Rules 1–4, for at most R requests per process or, with requests=0, recurring requests",
		Source:        "O. Thiare, Several-Tokens Distributed Mutual Exclusion Algorithm in a Logical Ring Network, §3 (token, SeqNum, HSeqNumSeen, priorities) and §4 (Rules 1–4, Theorems 4.1 and 4.2)",
		Communication: "message-passing",
		Params: []specs.Param{
			{Name: "n", Default: 3, Min: 2, Max: 5, Doc: "number of nodes on the logical ring"},
			{Name: "requests", Default: 2, Min: 0, Max: 3, Doc: "R ≥ 1: at most R requests per process, after which it stays idle; SeqNum and HSeqNumSeen range over 0..n·R. 0: requests recur for ever (an idle node may always request again), with SeqNum and HSeqNumSeen kept modulo 2·window+3 under the invariant seq-window (see the package comment)"},
			{Name: "window", Default: 0, Min: 0, Max: 30, Doc: "with requests=0, the largest spread of the live sequence values the modular SeqNums represent exactly, checked by the invariant seq-window (0: 2n)"},
			{Name: "resources", Default: 1, Min: 1, Max: 2, Doc: "number of resource types (one queue and one mutual exclusion per resource)"},
			{Name: "resend", Default: 0, Min: 0, Max: 1, Doc: "1: Rule 4, a waiting node whose token is held in a queue may time out and resend it once with Resend = 1 (0: no timeout, the failure-free setting)"},
			{Name: "replace", Default: 1, Min: 0, Max: 1, Doc: "1: Rule 2 as written, a node with no intention replaces the token's SeqNum by HSeqNumSeen; 0: it leaves SeqNum unchanged, as the proof's relations (6)-(7) forward"},
			{Name: "order", Default: 1, Min: 0, Max: 1, Doc: "1: safety also checks Property 4.1's order of entry (invariant priority-order: a node in CS(r) has priority over every node waiting for r); 0: mutual exclusion alone"},
			{Name: "Cmax", Default: 0, Min: 0, Max: 64, Doc: "channel capacity (0: n·R·(1+resend), every token that can exist, so no send ever blocks; with requests=0, n·resources·(1+resend), every token that can exist with resend=0, and a send to a full channel is a safety violation)"},
		},
		Invariants: []string{
			"mutex: for every resource r, at most one node is in CS(r)",
			"priority-order (order=1): a node in CS(r) has priority over every node waiting for r (Property 4.1, entry in the order of priority)",
			"seq-window (requests=0 only): the live sequence values lie within window of each other, so SeqNums kept modulo 2·window+3 compare as unbounded ones",
		},
		DefaultChecks: []string{"safety", "deadlock", "starvation"},
		Claims: []specs.Claim{
			{Property: "safety", Verdict: "holds", Params: n3, From: "init",
				Source: "Theorem 4.1 (safety and fairness): at most one node executes CS(r) at a time"},
			{Property: "deadlock", Verdict: "holds", Params: n3, From: "init",
				Source: "Theorem 4.2: \"the proposed algorithm is deadlock free\""},
			{Property: "starvation", Verdict: "holds", Params: n3, From: "init", Fairness: "weak",
				Source: "Theorem 4.2 (liveness): each requesting node obtains the CS in finite time; with at most R requests every execution is finite, so this says only that none ends waiting"},
			{Property: "deadlock", Verdict: "holds", Params: map[string]int{"n": 5, "requests": 1}, From: "init", Found: "violated",
				Source: "Theorem 4.2: \"the proposed algorithm is deadlock free\" (Rule 2 as written: an idle node raises a token's SeqNum)"},
			{Property: "safety", Verdict: "holds", Params: map[string]int{"n": 3, "requests": 2, "resend": 1}, From: "init", Found: "violated",
				Source: "Theorem 4.1 with Rule 4: a resent token whose duplicate is discarded keeps mutual exclusion"},
			{Property: "starvation", Verdict: "holds", Params: map[string]int{"n": 3, "requests": 0}, From: "init", Fairness: "weak-action",
				Source: "Theorem 4.2 (liveness), with requests recurring for ever and every token received in finite time"},
		},
		Build: Build,
	}
}

// Vars are the handles of a built thiare system, for tests and predicates.
// Slices are indexed by resource.
type Vars struct {
	// State[r] is idle, waiting or cs for resource r.
	State []model.VarID
	// Seq[r] is the SeqNum of the node's copy of its own token (0 while
	// idle for r; with recurring requests 0 is also a SeqNum).
	Seq []model.VarID
	// Resent[r] is whether the current request's token was resent (Rule 4);
	// declared only when resend = 1.
	Resent []model.VarID
	// Queue[r][k] is slot k of Q^r: 0 empty, else a token code (see Code),
	// labelled "(SN,PID)" or "(SN,PID)R" (Resend = 1) in traces; slots are
	// sorted by decreasing priority, empty slots last.
	Queue [][]model.VarID
	// H is HSeqNumSeen; Used counts the requests made.
	H, Used model.VarID
	// Token is the only message type: fields seq, pid, res, resend.
	Token model.MsgType
	// N, S (largest SeqNum: n·R, or W-1 with recurring requests), F
	// (1+resend) size the token codes; Lo is the smallest SeqNum a token
	// carries (1, or 0 with recurring requests).
	N, S, F, Lo int
	// Recurring is requests=0: requests recur for ever and SeqNum and H
	// are kept modulo W = 2·Window+3 (0 without), Window being the spread
	// of the live sequence values the invariant seq-window allows.
	Recurring bool
	W, Window int
	// seqs keeps SeqNum and H modulo W with recurring requests.
	seqs modclock.Ring
	// Slots is the number of queue slots per resource, Cap the channel
	// capacity.
	Slots, Cap int

	// sys is the built system, through which SeqSpread reads the tokens in
	// transit.
	sys *model.System
}

// Code is the queue code of token (seq, pid, resend): 1 + ((seq-Lo)·n +
// pid)·F + resend. Without recurring requests codes increase as priority
// decreases; with them, the queue order is Before's.
func (v Vars) Code(seq, pid, resend int) int { return 1 + ((seq-v.Lo)*v.N+pid)*v.F + resend }

// Decode is the inverse of Code.
func (v Vars) Decode(code int) (seq, pid, resend int) {
	c := code - 1
	resend = c % v.F
	c /= v.F
	return c/v.N + v.Lo, c % v.N, resend
}

// Higher reports whether token (s1, p1) has a higher priority than (s2, p2):
// SN_1 < SN_2 or (SN_1 = SN_2 and PID_1 < PID_2), on unbounded SeqNums.
func Higher(s1, p1, s2, p2 int) bool { return s1 < s2 || (s1 == s2 && p1 < p2) }

// Diff is the SeqNum difference x - y: the plain difference without
// recurring requests; with them, the difference modulo W taken in
// -(W-1)/2..(W-1)/2, which is the unbounded difference while the live
// sequence values lie within Window of each other (see the package
// comment, Recurring requests).
func (v Vars) Diff(x, y int) int {
	if !v.Recurring {
		return x - y
	}
	return v.seqs.Diff(x, y)
}

// Higher is the package's Higher on the SeqNums of the model, compared by
// Diff: Pri(s1, p1) > Pri(s2, p2).
func (v Vars) Higher(s1, p1, s2, p2 int) bool {
	d := v.Diff(s1, s2)
	return d < 0 || d == 0 && p1 < p2
}

// PriorityOrder reports whether, in st, every node in CS(r) has priority
// over every node waiting for r, the priorities of their copies of their
// own tokens compared (Property 4.1: a request is served after every
// request of higher priority).
func (v Vars) PriorityOrder(st *model.State) bool {
	for r := range v.State {
		for j := range v.N {
			if st.Get(j, v.State[r]) != InCS {
				continue
			}
			for i := range v.N {
				if st.Get(i, v.State[r]) == Waiting && v.Higher(st.Get(i, v.Seq[r]), i, st.Get(j, v.Seq[r]), j) {
					return false
				}
			}
		}
	}
	return true
}

// Max is max(x, y) on SeqNums, compared by Diff.
func (v Vars) Max(x, y int) int {
	if !v.Recurring {
		return max(x, y)
	}
	return v.seqs.Max(x, y)
}

// Next is x+1, modulo W with recurring requests.
func (v Vars) Next(x int) int {
	if v.Recurring {
		return v.seqs.Next(x)
	}
	return x + 1
}

// Before is the queue order of token codes c1 and c2: higher priority
// first (Higher), then Resend = 0 before Resend = 1. Without recurring
// requests it is c1 < c2.
func (v Vars) Before(c1, c2 int) bool {
	s1, p1, r1 := v.Decode(c1)
	s2, p2, r2 := v.Decode(c2)
	if d := v.Diff(s1, s2); d != 0 {
		return d < 0
	}
	if p1 != p2 {
		return p1 < p2
	}
	return r1 < r2
}

// Build returns the model for parameters n, requests, resources, resend,
// replace and Cmax.
func Build(p specs.Values) (*model.System, error) {
	sys, _, err := BuildVars(p)
	return sys, err
}

// The receipt cases: what node P does with the head of its incoming channel.
const (
	caseNone = iota
	caseEnter
	caseStale
	caseDiscard
	casePass
	caseQueue
	caseForward
)

// BuildVars is Build, also returning the handles.
func BuildVars(p specs.Values) (*model.System, Vars, error) {
	n, rq, nres, resend, replace, cmax, window := p["n"], p["requests"], p["resources"], p["resend"], p["replace"], p["Cmax"], p["window"]
	var v Vars
	if n < 2 || rq < 0 || nres < 1 || resend < 0 || resend > 1 || replace < 0 || replace > 1 || window < 0 || window > 30 {
		return nil, v, fmt.Errorf("thiare: need n ≥ 2, requests ≥ 0, resources ≥ 1, resend and replace in 0..1, window in 0..30; got %v", p)
	}
	recurring := rq == 0
	f := 1 + resend
	v.N, v.F, v.Lo = n, f, 1
	var tokens, qcap int
	if recurring {
		// SeqNum and H modulo W; every token that can exist at once (see
		// the package comment, Recurring requests).
		if window == 0 {
			window = 2 * n
		}
		seqs, err := modclock.New(window)
		if err != nil {
			return nil, v, fmt.Errorf("thiare: recurring requests need %w", err)
		}
		v.Recurring, v.seqs, v.Window, v.W = true, seqs, seqs.Window, seqs.W
		v.S, v.Lo = v.W-1, 0
		tokens = n * nres * f
		qcap = (n - 1) * f
	} else {
		v.S = n * rq
		tokens = n * rq * f
		qcap = (n - 1) * rq * f
	}
	s := v.S
	if cmax == 0 {
		cmax = min(tokens, 255)
	}
	v.Slots, v.Cap = qcap, cmax

	b := model.NewBuilder("thiare", model.UniRing, n)
	sfx := func(r int) string {
		if nres == 1 {
			return ""
		}
		return "[" + strconv.Itoa(r) + "]"
	}
	v.H = b.Var("H", model.IntRange(0, s))
	// With recurring requests used stays 0 (its domain is 0..0).
	v.Used = b.Var("used", model.IntRange(0, rq))
	v.State = make([]model.VarID, nres)
	v.Seq = make([]model.VarID, nres)
	v.Queue = make([][]model.VarID, nres)
	if resend == 1 {
		v.Resent = make([]model.VarID, nres)
	}
	// Queue slots are enumerations, so that traces show tokens: "-" for an
	// empty slot, "(SN,PID)" for a token, "(SN,PID)R" if Resend = 1.
	labels := make([]string, v.Code(s, n-1, f-1)+1)
	labels[0] = "-"
	for code := 1; code < len(labels); code++ {
		sn, pid, rs := v.Decode(code)
		labels[code] = "(" + strconv.Itoa(sn) + "," + strconv.Itoa(pid) + ")"
		if rs == 1 {
			labels[code] += "R"
		}
	}
	for r := range nres {
		v.State[r] = b.Var("state"+sfx(r), model.Enum("idle", "waiting", "cs"))
		v.Seq[r] = b.Var("seq"+sfx(r), model.IntRange(0, s))
		if resend == 1 {
			v.Resent[r] = b.Var("resent"+sfx(r), model.Bool())
		}
		v.Queue[r] = make([]model.VarID, qcap)
		for k := range qcap {
			v.Queue[r][k] = b.Var("q"+sfx(r)+strconv.Itoa(k), model.Enum(labels...))
		}
	}
	v.Token = b.Message("Token",
		model.Var{Name: "seq", Domain: model.IntRange(v.Lo, s)},
		model.Var{Name: "pid", Domain: model.IntRange(0, n-1)},
		model.Var{Name: "res", Domain: model.IntRange(0, nres-1)},
		model.Var{Name: "resend", Domain: model.IntRange(0, resend)},
	)
	if recurring {
		// A full channel or queue is reported (a safety violation), never
		// silent.
		b.LinkChannels(cmax, model.Error, v.Token)
		b.ReportRangeFaults()
	} else {
		b.LinkChannels(cmax, model.Block, v.Token)
	}

	hv, used, state, seq, queue, token := v.H, v.Used, v.State, v.Seq, v.Queue, v.Token
	vv := v

	// classify says what node c.P does with the head of its incoming channel.
	classify := func(c *model.Ctx) int {
		m, ok := c.Head(c.In(c.Pred()))
		if !ok {
			return caseNone
		}
		sn, pid, r, rs := c.Field(m, FieldSeq), c.Field(m, FieldPID), c.Field(m, FieldRes), c.Field(m, FieldResend)
		st := c.Get(state[r])
		if pid == c.P {
			if st == Waiting {
				return caseEnter
			}
			return caseStale
		}
		if rs == 1 {
			for _, slot := range queue[r] {
				code := c.Get(slot)
				if code == 0 {
					break
				}
				if _, qp, _ := vv.Decode(code); qp == pid {
					return caseDiscard
				}
			}
		}
		switch st {
		case Idle:
			return casePass
		case InCS:
			return caseQueue
		}
		if vv.Higher(sn, pid, c.Get(seq[r]), c.P) {
			return caseForward
		}
		return caseQueue
	}
	// receive takes the head token and updates H := max(H, SN); it returns
	// the token's fields and the new H.
	receive := func(c *model.Ctx) (sn, pid, r, rs, h int) {
		m := c.Receive(c.In(c.Pred()))
		sn, pid, r, rs = c.Field(m, FieldSeq), c.Field(m, FieldPID), c.Field(m, FieldRes), c.Field(m, FieldResend)
		h = vv.Max(c.Get(hv), sn)
		c.Set(hv, h)
		return
	}

	for r := range nres {
		b.Action(model.Action{
			Name:     "request" + sfx(r),
			Kind:     model.Environment,
			Liveness: model.Optional,
			Guard: func(c *model.Ctx) bool {
				return (recurring || c.Get(used) < rq) && c.Get(state[r]) == Idle
			},
			Effect: func(c *model.Ctx, _ int) {
				h := vv.Next(c.Get(hv))
				c.Set(hv, h)
				if !recurring {
					c.Set(used, c.Get(used)+1)
				}
				c.Set(state[r], Waiting)
				c.Set(seq[r], h)
				if resend == 1 {
					c.Set(vv.Resent[r], 0)
				}
				c.Send(c.Out(c.Succ()), c.Msg(token, h, c.P, r, 0))
			},
		})
	}
	b.Action(model.Action{
		Name:  "enter",
		Guard: func(c *model.Ctx) bool { return classify(c) == caseEnter },
		Effect: func(c *model.Ctx, _ int) {
			_, _, r, _, _ := receive(c)
			c.Set(state[r], InCS)
		},
	})
	b.Action(model.Action{
		Name:   "stale",
		Guard:  func(c *model.Ctx) bool { return classify(c) == caseStale },
		Effect: func(c *model.Ctx, _ int) { receive(c) },
	})
	b.Action(model.Action{
		Name:   "discard",
		Guard:  func(c *model.Ctx) bool { return classify(c) == caseDiscard },
		Effect: func(c *model.Ctx, _ int) { receive(c) },
	})
	b.Action(model.Action{
		Name:  "pass",
		Guard: func(c *model.Ctx) bool { return classify(c) == casePass },
		Effect: func(c *model.Ctx, _ int) {
			sn, pid, r, rs, h := receive(c)
			if replace == 1 {
				sn = h
			}
			c.Send(c.Out(c.Succ()), c.Msg(token, sn, pid, r, rs))
		},
	})
	b.Action(model.Action{
		Name:  "queue",
		Guard: func(c *model.Ctx) bool { return classify(c) == caseQueue },
		Effect: func(c *model.Ctx, _ int) {
			sn, pid, r, rs, _ := receive(c)
			// Insertion into the sorted slots.
			code := vv.Code(sn, pid, rs)
			slots := queue[r]
			for _, slot := range slots {
				cur := c.Get(slot)
				if cur == 0 {
					c.Set(slot, code)
					return
				}
				if vv.Before(code, cur) {
					c.Set(slot, code)
					code = cur
				}
			}
			// No free slot: impossible with the computed capacity; report it
			// as a fault of the spec rather than lose a token.
			c.Set(slots[len(slots)-1], -1)
		},
	})
	b.Action(model.Action{
		Name:  "forward",
		Guard: func(c *model.Ctx) bool { return classify(c) == caseForward },
		Effect: func(c *model.Ctx, _ int) {
			sn, pid, r, rs, _ := receive(c)
			c.Send(c.Out(c.Succ()), c.Msg(token, sn, pid, r, rs))
		},
	})
	for r := range nres {
		b.Action(model.Action{
			Name:     "leave" + sfx(r),
			Kind:     model.Environment,
			Liveness: model.Finite,
			Guard:    func(c *model.Ctx) bool { return c.Get(state[r]) == InCS },
			Effect: func(c *model.Ctx, _ int) {
				out := c.Out(c.Succ())
				for _, slot := range queue[r] {
					code := c.Get(slot)
					if code == 0 {
						break
					}
					qs, qp, qr := vv.Decode(code)
					c.Send(out, c.Msg(token, qs, qp, r, qr))
					c.Set(slot, 0)
				}
				c.Set(state[r], Idle)
				c.Set(seq[r], 0)
				if resend == 1 {
					c.Set(vv.Resent[r], 0)
				}
			},
		})
	}
	if resend == 1 {
		resent := v.Resent
		for r := range nres {
			b.Action(model.Action{
				Name: "timeout" + sfx(r),
				Kind: model.Timeout,
				Guard: func(c *model.Ctx) bool {
					if c.Get(state[r]) != Waiting || c.Get(resent[r]) != 0 {
						return false
					}
					return !inTransit(c, c.P, r)
				},
				Effect: func(c *model.Ctx, _ int) {
					c.Set(resent[r], 1)
					c.Send(c.Out(c.Succ()), c.Msg(token, c.Get(seq[r]), c.P, r, 1))
				},
			})
		}
	}

	b.Invariant(model.Predicate{
		Name: "mutex",
		Doc:  "for every resource r, at most one node is in CS(r)",
		Holds: func(st *model.State) bool {
			for r := range nres {
				in := 0
				for q := range n {
					if st.Get(q, state[r]) == InCS {
						in++
					}
				}
				if in > 1 {
					return false
				}
			}
			return true
		},
	})
	if p["order"] == 1 {
		b.Invariant(model.Predicate{
			Name: "priority-order",
			Doc:  "Property 4.1: a node in CS(r) has priority over every node waiting for r, Pri(T_j^r) > Pri(T_i^r) by the nodes' copies of their tokens",
			Holds: func(st *model.State) bool {
				return vv.PriorityOrder(st)
			},
		})
	}
	if recurring {
		b.Invariant(v.seqs.Invariant("seq-window",
			"the live sequence values (every H, seq[r] while waiting or in CS(r), the SN of every token in a channel or a queue)",
			// vv is read when the invariant is evaluated: it learns its
			// system only once built.
			"SeqNum and H", func(st *model.State) int { return vv.SeqSpread(st) }))
	}
	if !recurring {
		b.ValidEnd(model.Predicate{
			Name: "all-served",
			Doc:  "every node has made its R requests and is idle for every resource, and no token is in transit",
			Holds: func(st *model.State) bool {
				for q := range n {
					if st.Get(q, used) != rq {
						return false
					}
					for r := range nres {
						if st.Get(q, state[r]) != Idle {
							return false
						}
					}
				}
				for c := range st.Lens {
					if st.Lens[c] != 0 {
						return false
					}
				}
				return true
			},
		})
	}
	b.ProcessPredicate(model.ProcessPredicate{
		Name:  "requesting",
		Doc:   "the node waits for its token for resource 0 (state[0] = waiting)",
		Holds: func(st *model.State, q int) bool { return st.Get(q, state[0]) == Waiting },
	})
	b.ProcessPredicate(model.ProcessPredicate{
		Name:  "inCS",
		Doc:   "the node is in CS(0) (state[0] = cs)",
		Holds: func(st *model.State, q int) bool { return st.Get(q, state[0]) == InCS },
	})
	b.Initial(func(*model.System, *model.State) {})
	sys, err := b.Build()
	if err != nil {
		return nil, v, err
	}
	v.sys, vv.sys = sys, sys
	return sys, v, nil
}

// LiveSeqs calls f with every live sequence value of s: H of every node,
// seq[r] of every node waiting for or in CS(r), and the SN of every token
// in a queue or in a channel. These are the values the statements may read
// as SeqNums; seq[r] of a node idle for r is not one. The system must be
// the one BuildVars returned with v.
func (v Vars) LiveSeqs(s *model.State, f func(sn int)) {
	for p := range v.N {
		f(s.Get(p, v.H))
		for r := range v.State {
			if s.Get(p, v.State[r]) != Idle {
				f(s.Get(p, v.Seq[r]))
			}
			for _, slot := range v.Queue[r] {
				code := s.Get(p, slot)
				if code <= 0 {
					break
				}
				sn, _, _ := v.Decode(code)
				f(sn)
			}
		}
	}
	for c := range v.sys.Channels {
		ch := model.ChanID(c)
		for x := 0; x < s.Len(ch); x++ {
			f(v.sys.Field(s.At(ch, x), FieldSeq))
		}
	}
}

// SeqSpread is the spread of the live sequence values of s (LiveSeqs):
// without recurring requests, the largest minus the smallest; with them,
// the length of the shortest arc of the circle of W residues that holds
// them all, which is the spread of the unbounded values they stand for
// while that spread is below W/2.
func (v Vars) SeqSpread(s *model.State) int {
	if !v.Recurring {
		lo, hi := v.S, 0
		v.LiveSeqs(s, func(sn int) { lo, hi = min(lo, sn), max(hi, sn) })
		return max(hi-lo, 0)
	}
	return v.seqs.Spread(func(add func(int)) { v.LiveSeqs(s, add) })
}

// inTransit reports whether a token of node p for resource r is in some
// channel of the configuration c's guard reads.
func inTransit(c *model.Ctx, p, r int) bool {
	st := c.Config()
	for ch := range st.Lens {
		for i := 0; i < int(st.Lens[ch]); i++ {
			m := st.At(model.ChanID(ch), i)
			if c.Field(m, FieldPID) == p && c.Field(m, FieldRes) == r {
				return true
			}
		}
	}
	return false
}
