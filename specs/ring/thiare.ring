// The spec thiare: the several-tokens mutual exclusion algorithm of
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
// Topology: ring(n), a unidirectional ring. Every send in Rules 1–4 goes
// to "the next node" of the logical ring and the paper says the token
// "must visit all the nodes before returning back to its originator" (N-1
// messages per CS), so only successor links are used. Rule 5 (throwing a
// token over a dead node) is the only place needing a fully connected
// network, and it is about node failures, which are not modelled. Of "clockwise and anticlockwise" the
// model takes one direction, i → i+1 mod n. Channels are FIFO, as the
// paper's network model says.
//
// Actions of node i, for each resource r (atomic, interleaving; request,
// leave and timeout take the resource as their parameter r, labelled
// request(r=R) and so on); on every receipt
// H := max(H, SN) first (section 3: "When a token is received, HSeqNumSeen
// is updated"); with requests=0, max, < and +1 are those of SeqNums modulo
// W (Recurring requests, below) and the guard used < R is dropped:
//
//	request(r)  environment, optional  used < R ∧ state[r] = idle → H := H+1; seq[r] := H;
//	                                    state[r] := waiting; send (H, i, r, 0)   (Rule 1, relation (4))
//	enter       head = own token for r ∧ state[r] = waiting → state[r] := cs      (Rule 3)
//	stale       head = own token for r ∧ state[r] ≠ waiting → delete it           (choice, below)
//	discard     head.Resend = 1 ∧ a token of head.PID is in Q_i^r → delete it     (Rule 4)
//	pass        state[r] = idle → SN := H (replace=1); send on                     (Rule 2, bullet 1)
//	queue       state[r] = cs, or state[r] = waiting ∧ Pri(head) < Pri(own) → into Q_i^r
//	forward     state[r] = waiting ∧ Pri(head) > Pri(own) → send on unchanged     (Rule 2, bullet 3)
//	leave(r)    environment, finite    state[r] = cs → send Q_i^r in decreasing priority,
//	                                    empty it; state[r] := idle                 (Rule 3)
//	timeout(r)  timeout (resend=1)     state[r] = waiting ∧ not yet resent ∧ no token of i
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
//   - Rule 4's timeout is a timeout action whose global guard is "i
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
//   - Requests are environment optional actions, leaving a CS is
//     environment finite. "requesting" is state[0] = waiting and "inCS" is
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
// -(W-1)/2..(W-1)/2 (diff), the design of
// raynal.ring for Raynal's clocks. Every statement that uses a
// SeqNum goes through it: Rule 1's H := H+1, seq[r] := H (next, which
// wraps at W), H := max(H, SN) on every receipt (smax), Rule 2's SN :=
// H with replace=1 (the H just updated, so max(H, SN) again), the priority
// Pri of Rule 2 and relation (6), SN then PID (higher), and the order
// of Q_i^r, which Rule 3 releases highest priority first (before; the
// queue stays sorted by it, a function of the set of tokens, so equal
// queues are still equal states). Rule 4 resends seq[r] unchanged; Rule
// 3's recognition of the own token and Rule 4's duplicate test compare
// PIDs only.
//
// The live sequence values of a configuration are H of every node, seq[r]
// of every node waiting for or in CS(r), and the SN of every token in a
// channel or a queue; seq[r] of an idle node is 0 and read by nothing.
// The invariant seq_window checks that they lie on an arc of at most
// window of the circle of W residues (SeqSpread in the tests of
// specs/thiare). Soundness: the statements compare live values only (a receipt compares H and the
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
// configuration violating seq_window is reported as such. By induction on
// the length of an execution, as long as seq_window holds the modular model
// is the unbounded one with SeqNum and H taken modulo W; a search that
// finds seq_window never violated has therefore explored exactly the
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
// seq_window holds with window n-1 and fails with n-2 (n = 3, 4, 5), since
// a waiting node queues every token of lower priority than its own, so
// the others cannot raise H far past its SeqNum. With two resources it is
// not: a node may stay in CS(0) as long as it likes while requests for
// resource 1 go round and raise every H, its seq[0] (and the SN of any
// token it holds in Q^0) staying behind; n=2 with two resources fails
// seq_window at window 4, 6 and 8 (2n, 3n, 4n; n=3 at 6), so those
// instances are out of reach of this abstraction: their starvation and
// leads-to verdicts are unknown (seq_window is an abstraction invariant).
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
// duplicate; with order=1 the same duplicate breaks priority_order
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
// -p window=w; safety is mutex and seq_window; TestRecurringVerdicts pins
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
//	n=2 resources=2  4, 6, 8        -   seq_window violated: out of reach
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
//     request of higher priority) is the invariant priority_order (order=1,
//     the default): a node in CS(r) has priority over every node waiting
//     for r, their copies of their tokens compared. It holds wherever
//     resend=0 on the instances tried (TestPriorityOrder: n=3, 4 with R=2,
//     n=5 with R=1, replace=0, two resources, n=4 with recurring
//     requests); with Rule 4 the same stale duplicate breaks it first, in
//     16 steps.
//   - With recurring requests (requests=0), where seq_window holds in every
//     reachable configuration, all three hold for n = 2, 3, 4 and, with
//     replace=0, for n=3 and n=5; starvation freedom there is Theorem 4.2's
//     liveness with requests recurring for ever, and holds even with no
//     fairness. Rule 2's deadlock comes back for n=5 (17 steps, with every
//     node starving). Rule 4 breaks mutual exclusion already for n=2 (15
//     steps). Two resources are out of reach (seq_window fails at every
//     window tried).
//
// Encoding. Process ids are 0..n-1, resources 0..resources-1. Q_i^r is
// the row q[r] of slots holding token codes 1 + ((SN-Lo)·n + PID)·F +
// Resend (0: an empty slot), sorted by decreasing priority, empty slots
// last. Inserting a token is a loop over the slots in a sequential block,
// as an insertion into a sorted array: the token moves up to the first empty
// slot, swapping places with every token it comes before (before).
// Inserting into a full queue assigns qover 1, a range fault (a safety
// violation). resent[r] is declared with resend=0 too, and stays false;
// timeout(r) is enabled only with resend=1.
spec thiare "several-tokens mutual exclusion on a logical ring (seed 002), Rules 1–4, for at most R requests per process or, with requests=0, recurring requests"
source "O. Thiare, Several-Tokens Distributed Mutual Exclusion Algorithm in a Logical Ring Network, §3 (token, SeqNum, HSeqNumSeen, priorities) and §4 (Rules 1–4, Theorems 4.1 and 4.2)"

param n = 3 in 2..5 "number of nodes on the logical ring"
param requests = 2 in 0..3 "R ≥ 1: at most R requests per process, after which it stays idle; SeqNum and HSeqNumSeen range over 0..n·R. 0: requests recur for ever (an idle node may always request again), with SeqNum and HSeqNumSeen kept modulo 2·window+3 under the invariant seq_window (see the comment at the top of the file)"
param window = 0 in 0..30 "with requests=0, the largest spread of the live sequence values the modular SeqNums represent exactly, checked by the invariant seq_window (0: 2n)"
param resources = 1 in 1..2 "number of resource types (one queue and one mutual exclusion per resource)"
param resend = 0 in 0..1 "1: Rule 4, a waiting node whose token is held in a queue may time out and resend it once with Resend = 1 (0: no timeout, the failure-free setting)"
param replace = 1 in 0..1 "1: Rule 2 as written, a node with no intention replaces the token's SeqNum by HSeqNumSeen; 0: it leaves SeqNum unchanged, as the proof's relations (6)-(7) forward"
param order = 1 in 0..1 "1: safety also checks Property 4.1's order of entry (invariant priority_order: a node in CS(r) has priority over every node waiting for r); 0: mutual exclusion alone"
param Cmax = 0 in 0..64 "channel capacity (0: n·R·(1+resend), every token that can exist, so no send ever blocks; with requests=0, n·resources·(1+resend), every token that can exist with resend=0, and a send to a full channel is a safety violation)"

const R = requests
const NR = resources
const F = 1 + resend
const Win = if window == 0 then 2 * n else window
const W = 2 * Win + 3
// The largest SeqNum, the smallest a token carries, the queue slots per
// resource and the tokens that can exist at once.
const S = if requests == 0 then W - 1 else n * R
const Lo = if requests == 0 then 0 else 1
const Q = if requests == 0 then (n - 1) * F else (n - 1) * R * F
const Tokens = if requests == 0 then n * NR * F else n * R * F
const C = if Cmax != 0 then Cmax else min(Tokens, 255)
const MaxCode = 1 + ((S - Lo) * n + n - 1) * F + F - 1

topology ring(n)
type St = {idle, waiting, cs}
var H: 0..S "HSeqNumSeen"
var used: 0..R "the requests made (0 for ever with requests=0)"
var state[0..NR - 1]: St "idle, waiting (token generated and not back) or cs, per resource"
var seq[0..NR - 1]: 0..S "the SeqNum of the node's copy of its own token (0 while idle)"
var resent[0..NR - 1]: bool "Rule 4: the current request's token was resent (false for ever with resend=0)"
var q[0..NR - 1][0..Q - 1]: 0..MaxCode "Q_i^r: token codes by decreasing priority, 0 for an empty slot"
var qover: 0..0 "0 for ever: inserting into a full queue assigns it 1, a range fault"
message Token(seq: Lo..S, pid: 0..n - 1, res: 0..NR - 1, resend: 0..resend)
channels capacity C overflow block if requests > 0 else error

// A token's code and its fields.
def code(s, p, x) = 1 + ((s - Lo) * n + p) * F + x
def csn(c) = (c - 1) / F / n + Lo
def cpid(c) = (c - 1) / F mod n
def crs(c) = (c - 1) mod F
// SeqNum difference, max and successor: modulo W with recurring requests.
def diff(x, y) = if requests > 0 then x - y else if (x - y) mod W > W / 2 then (x - y) mod W - W else (x - y) mod W
def smax(x, y) = if requests > 0 then max(x, y) else if diff(y, x) > 0 then y else x
def next(x) = if requests == 0 then (x + 1) mod W else x + 1
// Pri(s1, p1) > Pri(s2, p2).
def higher(s1, p1, s2, p2) = diff(s1, s2) < 0 || diff(s1, s2) == 0 && p1 < p2
// The queue order of codes: higher priority first, then Resend = 0.
def before(c1, c2) = if requests > 0 then c1 < c2 else
  diff(csn(c1), csn(c2)) < 0 || diff(csn(c1), csn(c2)) == 0 && (cpid(c1) < cpid(c2) || cpid(c1) == cpid(c2) && crs(c1) < crs(c2))
// Slots 0..k of q[r] all hold a token.
def full(r, k) = forall j in 0..Q - 1: j > k || q[r][j] != 0
// Rule 4's duplicate: a token of p in Q_i^r, before its first empty slot.
def dup(r, p) = exists k in 0..Q - 1: full(r, k) && cpid(q[r][k]) == p
// The receipt cases: what the node does with its head token (t, p, r, x).
def other(p, r, x) = p != self && !(x == 1 && dup(r, p))
// SN within Win after s, for seq_window.
def within(x, s) = (x - s) mod W <= Win

process all {
  // Rule 1, relation (4).
  environment optional action request(r in 0..NR - 1): (requests == 0 || used < R) && state[r] == idle ->
    H := next(H),
    if requests > 0 { used := used + 1 },
    state[r] := waiting,
    seq[r] := next(H),
    if resend == 1 { resent[r] := false },
    send Token(next(H), self, r, 0) to succ
  // Rule 3: the own token back.
  action enter: recv Token(t, p, r, x) from pred, p == self && state[r] == waiting ->
    H := smax(H, t), state[r] := cs
  // A duplicate of the own token, the first copy served: deleted.
  action stale: recv Token(t, p, r, x) from pred, p == self && state[r] != waiting ->
    H := smax(H, t)
  // Rule 4: a resent token already in Q_i^r.
  action discard: recv Token(t, p, r, x) from pred, p != self && x == 1 && dup(r, p) ->
    H := smax(H, t)
  // Rule 2, bullet 1.
  action pass: recv Token(t, p, r, x) from pred, other(p, r, x) && state[r] == idle ->
    H := smax(H, t),
    send Token(if replace == 1 then smax(H, t) else t, p, r, x) to succ
  // Rule 2: in CS(r), or waiting with a token of lower priority.
  // The token c goes into Q_i^r: through the slots up to the first empty
  // one, where it stays; where it comes before a slot's token the two swap
  // places and the slot's token goes on. In a full queue the last token
  // goes on past the last slot: qover's range fault reports it.
  action queue: recv Token(t, p, r, x) from pred, other(p, r, x) && (state[r] == cs || state[r] == waiting && !higher(t, p, seq[r], self)) -> do {
    H := smax(H, t);
    let c := code(t, p, x);
    let held := 0;
    for k in 0..Q - 1 {
      if c != 0 {
        if q[r][k] == 0 { q[r][k] := c; c := 0 }
        else if before(c, q[r][k]) { held := q[r][k]; q[r][k] := c; c := held }
      }
    };
    if c != 0 { qover := qover + 1 }
  }
  // Rule 2, bullet 3, with relation (6).
  action forward: recv Token(t, p, r, x) from pred, other(p, r, x) && state[r] == waiting && higher(t, p, seq[r], self) ->
    H := smax(H, t),
    send Token(t, p, r, x) to succ
  // Rule 3: release Q_i^r, highest priority first.
  // Its slots up to the first empty one, sent in order and emptied.
  environment finite action leave(r in 0..NR - 1): state[r] == cs -> do {
    let more := true;
    for k in 0..Q - 1 {
      more := more && q[r][k] != 0;
      if more {
        send Token(csn(q[r][k]), cpid(q[r][k]), r, crs(q[r][k])) to succ;
        q[r][k] := 0
      }
    };
    state[r] := idle;
    seq[r] := 0;
    if resend == 1 { resent[r] := false }
  }
  // Rule 4: the token held in some queue, resent once.
  timeout action timeout(r in 0..NR - 1): resend == 1 && state[r] == waiting && !resent[r]
      && !(exists i: exists m in chan(i, succ(i)): m.pid == self && m.res == r) ->
    resent[r] := true,
    send Token(seq[r], self, r, resend) to succ
}

invariant mutex "for every resource r, at most one node is in CS(r)":
  forall r in 0..NR - 1: (count p: state[p][r] == cs) <= 1
invariant priority_order "(order=1) a node in CS(r) has priority over every node waiting for r (Property 4.1, entry in the order of priority)":
  order == 0 || (forall r in 0..NR - 1: forall j: state[j][r] != cs || (forall i: state[i][r] != waiting || !higher(seq[i][r], i, seq[j][r], j)))
abstraction invariant seq_window "(requests=0 only) the live sequence values lie within window of each other, so SeqNums kept modulo 2·window+3 compare as unbounded ones":
  requests > 0 || (exists s in 0..W - 1: forall p: within(H[p], s)
    && (forall r in 0..NR - 1: (state[p][r] == idle || within(seq[p][r], s))
      && (forall k in 0..Q - 1: !(forall j in 0..Q - 1: j > k || q[p][r][j] > 0) || within(csn(q[p][r][k]), s)))
    && (forall m in chan(p, succ(p)): within(m.seq, s)))
valid_end "every node has made its R requests and is idle for every resource, and no token is in transit":
  requests > 0 && forall p: used[p] == R && (forall r in 0..NR - 1: state[p][r] == idle) && len(p, succ(p)) == 0
predicate requesting(p) "the node waits for its token for resource 0 (state[0] = waiting)": state[p][0] == waiting
predicate inCS(p) "the node is in CS(0) (state[0] = cs)": state[p][0] == cs

check safety, deadlock, starvation
claim safety holds from init with n = 3 "Theorem 4.1 (safety and fairness): at most one node executes CS(r) at a time"
claim deadlock holds from init with n = 3 "Theorem 4.2: \"the proposed algorithm is deadlock free\""
claim starvation holds from init fairness weak with n = 3 "Theorem 4.2 (liveness): each requesting node obtains the CS in finite time; with at most R requests every execution is finite, so this says only that none ends waiting"
claim deadlock holds found violated from init with n = 5, requests = 1 "Theorem 4.2: \"the proposed algorithm is deadlock free\" (Rule 2 as written: an idle node raises a token's SeqNum)"
claim safety holds found violated from init with n = 3, requests = 2, resend = 1 "Theorem 4.1 with Rule 4: a resent token whose duplicate is discarded keeps mutual exclusion"
claim starvation holds from init fairness weak-action with n = 3, requests = 0 "Theorem 4.2 (liveness), with requests recurring for ever and every token received in finite time"
