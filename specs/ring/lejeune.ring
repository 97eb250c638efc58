// lejeune.ring encodes the multi-resource allocation algorithm of
// Lejeune, Arantes, Sopena and Sens, "Reducing synchronization cost in
// distributed multi-resource allocation problem" (Inria RR-8689, 2015),
// from its pseudo-code (Annex A, Figures 8–12): one token per
// resource carrying the resource's counter, a prioritized token tree per
// resource (tokDir), the messages ReqCnt, Counter, ReqRes, ReqLoan and
// Token, the function A (the average of the non-zero counters of the
// request's vector, the paper's choice in §5), and the loan mechanism with
// its threshold as the parameter loan (0: off).
//
// With requests = R ≥ 1 every result holds for at most R requests per
// process: after R requests a process stays idle for ever, every
// execution is finite, and starvation freedom says no more than deadlock
// freedom. With requests=0 requests recur for ever (N=2, M=1 only; see
// "Recurring requests" below).
//
// Parameters: N processes on a complete graph with one FIFO channel per
// ordered pair; M resources; R requests per process (0: recurring);
// window, the abstraction's window with recurring requests; loan, the
// threshold of line 251; Cmax, the channel capacity; strict, whether
// safety includes the pseudo-code invariant below; line260, a reading of
// lines 260–261.
//
// Variables of process i (Figure 9): state ∈ {Idle, waitS, waitCS, inCS},
// TRequired, CntNeeded, TLent (sets of resources), curId, loanAsked,
// tokDir[r] (a site, or nil: i holds token r, so TOwned is {r : tokDir[r] =
// nil}), MyVector[r], lastTok[r] (counter, lastReqC[s], lastCS[s],
// wQueue, wLoan, lender), pendingReq[r], and err (below).
//
// Actions of process i, each one atomic step:
//
//   request(D)         environment, optional   Idle ∧ (curId < R ∨ R = 0) → Request_CS(D) up to its wait (lines 68–84),
//                                               and state ← inCS at once if D ⊆ TOwned (line 85)
//   leave              environment, finite     inCS → Release_CS (lines 88–106)
//   recvReq(from q)    protocol                head of q→i is a request → Receive Request (lines 159–189)
//   recvCounter(from q) protocol               head of q→i is a Counter → Receive Counter (lines 255–262)
//   recvToken(from q)  protocol                head of q→i is a Token → Receive Token (lines 208–254)
//
// Choices the paper leaves open, each pinned by a test:
//
//   - Aggregation (§4.2.2) is modelled, because it changes what a step
//     does: buffer() calls are collected during a step and SendBufReq(V) /
//     SendBuf() send, for each destination in the order of its first
//     buffer call, one aggregate of its requests (with the one visited set
//     V), one of its Counters and one of its Tokens. An aggregate is a run
//     of consecutive messages linked by a field more; one receive step
//     consumes the whole run ("Receive Token (ToksRcv : set of Tok)"). Lent
//     tokens thus arrive together, as the loan mechanism needs. A token
//     travels as a Token header (counter, lastReqC, lastCS, lender)
//     followed by one Token.wQueue message per queue entry and one
//     Token.wLoan message per loan entry.
//   - wQueue, wLoan and pendingReq keep one entry per initiating site:
//     the proof of Lemma 4 states that a site never has two requests in a
//     queue (s_init ∉ N_r). Adding an entry equal to the present one
//     changes nothing (the pseudo-code tests "req ∉ wQueue"); adding a
//     different one raises the flag slot-clash and replaces it. In
//     pendingReq a newer id replaces an older one (the older is obsolete for
//     every later token, since its release set lastCS).
//   - A request is obsolete (lines 152, 165, 196) iff id ≤ lastCS[s_init],
//     or it is a ReqCnt and id ≤ lastReqC[s_init] (§4.2.1), tested against
//     lastTok[r]: the token if the process holds it, its last snapshot
//     otherwise (line 165 runs before the ownership test). lastCS and
//     lastReqC only grow along the token's history, so an obsolete entry of
//     pendingReq stays obsolete: it is dropped when the token is processed
//     (line 152), and so is a ReqCnt once answered (it is then obsolete).
//   - When a process sends token r, its own lastTok[r] keeps lastReqC and
//     lastCS (read by the obsolescence test) and resets counter, queues and
//     lender, which nothing reads before the next receipt overwrites them.
//   - A(V) is stored as L·A(V), L = lcm(1..M), an integer; requests are
//     ordered by (mark, site) (§3.3.2).
//   - Line 201, "wQueue − {req}" with req a ReqLoan, removes the
//     borrower's entry (by site), as line 100 removes the lender's.
//   - A failed loan (lines 217–224): "SendToken(slender, r)" literally
//     returns the token with lender still set to the lender, which would
//     then send it to itself (lines 99–103 or 218–223). The model clears
//     lender first, as line 102 does on release. An idle process holding a
//     borrowed token returns it the same way.
//   - Line 213, "if TRequired ⊆ TOwned then state ← inCS", applies to a
//     waiting process only: for an idle one ∅ ⊆ TOwned would make it enter
//     a critical section it never asked for.
//   - The branch "IMPOSSIBLE" of line 241 (a holder in inCS, or idle, with a
//     non-empty wQueue) is reachable (a process enters on its last token
//     while holding another with a queue); it does nothing.
//   - Lines 260–261 have two readings, the parameter line260. With 0 (the
//     default), literally: line 260 "tokDir[r] ← sfrom" is read as
//     tokDir[c.r] even when the process holds token c.r, and line 261
//     calls processCntNeededEmpty whatever the state; its stated
//     precondition (state = waitS, line 111) is checked: a call outside
//     waitS raises the flag precondition. With 1, within their
//     preconditions: tokDir[c.r] is set only for a resource still in
//     CntNeeded whose token the process does not hold, and
//     processCntNeededEmpty is called only in waitS. So does a SendToken without the
//     token (line 104's precondition), which is then not sent.
//   - "foreach r ∈ TOwned" runs over resources in increasing order and
//     tests ownership at each r; the copy of wLoan (line 246) is processed
//     in ◁ order; pendingReq by site, ReqCnt then ReqRes then ReqLoan. A
//     loan request that would be queued for a token the process has just
//     lent (only in that loop) is dropped, as the literal add goes to the
//     stale snapshot.
//   - Line 251 asks a loan when |MissingRes| = threshold (the prose of
//     §4.5 says ≤; for threshold 1 they agree); loan = 0 never asks.
//   - The optimisations of §4.6 (single-resource shortcut, stopping the
//     forwarding early) are not modelled.
//   - Initial configuration (Figure 9): process 0 is the elected node and
//     holds every token, every other tokDir[r] is 0, counters are 1,
//     everything else empty or zero.
//   - A configuration is a valid end state iff every process has made its
//     R requests, is idle, and every channel is empty; any other
//     configuration without an enabled step is a deadlock (with recurring
//     requests none is a valid end state). "requesting" is
//     state ∈ {waitS, waitCS} and "inCS" is state = inCS.
//
// Bounds (R ≥ 1): curId ≤ R. A request takes at most two values of a resource's
// counter: one from the token itself (line 75 or 146, exclusive, guarded by
// CntNeeded) and one from a Counter message (line 174 or 156, both setting
// lastReqC[s_init] = id, after which every ReqCnt of that id is obsolete
// for the token's whole future). So counters stay within C = 1+2·N·R.
// Increments saturate at C+1, which the invariant counter_bound rejects:
// a counter is never wrapped. Marks lie in 0..L·(C+1). Channels hold Cmax
// messages (default 4+2·N·M); a send to a full channel is an error, a
// safety violation.
//
// Recurring requests (requests=0). An idle process may always request
// again, so each site's request ids (curId and its copies: lastReqC and
// lastCS in tokens and snapshots, queue and pendingReq entries, requests
// in transit) and each resource's counter (and the marks taken from it)
// grow without bound. The model keeps both modulo W = 2·window+3, as
// residues in 1..W (W stands for 0; 0 keeps meaning "none" in a slot or
// MyVector), computes the next one as x mod W + 1 and compares two by
// their difference modulo W (def less below). That is sound where two
// abstraction invariants hold in every reachable configuration:
//
//   - Ids. An id of site s is compared only with ids of site s (line 165's
//     obsolescence test id ≤ lastCS[s], id ≤ lastReqC[s]; a newer entry in
//     pendingReq; equality of queue entries), and a step makes at most one
//     new id (curId+1). Two reductions keep the live ids of a site close,
//     each shown not to change any step: lastReqC[s] is kept as
//     max(lastReqC[s], lastCS[s]) (releaseCS keeps it: the test above reads the
//     pair only through that maximum, and every later assignment keeps it),
//     which releaseCS maintains, where the literal lastReqC of a site that
//     takes its counters from the token it holds would lag for ever; and a
//     process that sends a token resets the snapshot values nothing reads
//     before the token comes back (its own site's, and
//     with N=2 every site's), where the snapshot of a process that never
//     gets the token again would keep its old ids for ever. The invariant
//     id_window checks that the live ids of each site (def live_ids below) lie
//     within window of each other; where it holds in every reachable
//     configuration, the ids' spread stays below W/2 from one step to the
//     next (a step widens it by at most one), so by induction on an
//     execution every comparison sees the integers' order and the modular
//     ids are the unbounded ones up to a shift per site.
//   - Counters and marks. The live counter values have no bounded spread,
//     even for N=2 (TestCounterLagN2: a Counter waits in a channel while
//     the holder enters k times; the gap is k+1), so no window bounds them.
//     With M=1 a mark is the counter value its request took (L=1), and a
//     counter is only copied, incremented and compared through marks;
//     marks are compared by ◁ (the head of a wQueue on release and on
//     receipt of a token, a waiting holder's own mark against a ReqRes or
//     a queue's head, and canLend with loans, off with M=1) and for
//     equality between entries of one site with one id. The invariant marks_unordered 
//     checks that no process raised an error flag (so every copy of a
//     request carries the one counter value it took, and entries with equal
//     ids carry equal marks), that no process in waitCS holds a token, and
//     that at most one request is queued or pending per token: then no
//     step compares two marks by ◁, so counters and marks modulo any W
//     behave as integers.
//
// A configuration of the unbounded model maps to the modular one by
// taking every id and counter modulo W, EffReqC and the dead snapshot
// values reset; specs/lejeune's TestModularMatchesUnbounded checks, on every configuration the unbounded model
// reaches with R = 5..7 requests per process (ids and counters wrap), that
// the steps and successors are the same up to that map and that no step
// widens the id spread by more than one.
//
// Where the invariants fail, a liveness verdict is unknown. Recurring
// requests are refused outside N=2, M=1:
//
//   - M ≥ 2: a mark averages the counters of the requested resources; the
//     average of residues is not the residue of the average, and the
//     counters of two resources drift apart without bound (requests for
//     one of them only), so no common shift brings them within a window.
//   - N ≥ 3: a Token carrying lastReqC and lastCS for every site exceeds
//     the model's 2^20 values already at window 1; and marks_unordered
//     would fail, since two ReqRes queued at one holder are compared by ◁
//     while their marks lie arbitrarily far apart (TestComparedMarksGrowN3:
//     one waits in a channel while two other processes pass the token k
//     times; the gap is 2+2k), so no window of marks holds either.
//
// With N=2, M=1 both invariants hold in every reachable configuration for
// window 1..3, and the verdicts (TestRecurringVerdicts) are the unbounded
// algorithm's: deadlock freedom, and starvation freedom under weak,
// strong, weak-action and strong-action fairness (9,520 states at the
// default window 2); without fairness a requesting process may wait for
// ever. There marks are never compared (a holder never waits, a queue
// holds the other site only), so the instance exercises the token tree,
// the counters and the obsolescence tests, not the priority order.
//
// Safety invariants: exclusion (Theorem 1: no two processes in their
// critical sections request a common resource), one_token (Lemmas 1–3:
// every resource has exactly one token, held or in transit),
// counter_bound (R ≥ 1) or id_window and marks_unordered (recurring), and,
// with strict=1, pseudo_code: no process raised an
// error flag (dup-counter: a Counter for a resource not in CntNeeded, which
// §4.2.1 says lastReqC prevents; slot-clash; precondition; self-send).
//
// Findings (pinned by specs/lejeune's tests):
//
//   - N=3, M=2, R=1, either loan setting: a request obtains two counter
//     values for one resource (16 steps). p2's ReqCnt(r0) is forwarded by
//     p0, which keeps it in pendingReq, to the holder p1, which, idle, sends
//     p2 the token itself (line 171) without setting lastReqC[2]; p2 takes
//     its counter from the token (line 146), again without lastReqC. When
//     p0 later holds the token, the pending ReqCnt is not obsolete and p0
//     sends a second Counter (line 156). p2 overwrites MyVector[r0], calls
//     processCntNeededEmpty in waitCS and sends a second ReqRes with a new
//     mark: two requests of one site for one queue, against Lemma 4's proof.
//     Safety with strict=1 is violated; exclusion, one token per resource,
//     deadlock freedom and starvation freedom still hold on N=3, M=2, R=1.
//   - N=4, M=2, R=1, either loan setting: the duplicate Counter reaches p2
//     while it is in its critical section with both tokens (23 steps).
//     Line 260 sets tokDir[r0] ← p0 although p2 holds token r0, and line 261
//     puts p2 back to waitCS: token r0 is lost (one_token is violated, a
//     counterexample to Lemmas 1–3) and the system deadlocks, against
//     Theorem 2 and Theorem 3. The shortest deadlock (25 steps, found by the
//     deadlock check with loan=0) is the same duplicate reaching a process
//     that has already left its critical section: it loses token r0 and
//     processCntNeededEmpty puts the idle process in waitCS with TRequired
//     = ∅, for ever.
//
// The reduction that keeps one queue entry per site means that, after a
// slot-clash (a second ReqRes of one request with another mark), the model
// keeps the newer entry only, where the paper's sorted list would hold both;
// verdicts with strict=0 after such a clash are for that reading.
//
// How the file says it. The language has no records: lastTok[r] is the
// parallel arrays tokCnt[r], tokLastReqC[r][s], tokLastCS[r][s],
// tokLender[r], wqId/wqMark[r][s] (its wQueue, one slot per site),
// wlId/wlMark/wlMiss[r][s] (wLoan); pendingReq[r] is pcId[r][s] (ReqCnt),
// prId/prMark[r][s] (ReqRes), plId/plMark/plMiss[r][s] (ReqLoan); tokDir[r]
// and a token's lender are sites with N for nil; sets of resources are
// masks (bit r: resource r); err is 0 none, 1 self-send, 2 slot-clash,
// 3 precondition, 4 outbox, 5 dup-counter. Each handler is one sequential
// block, the paper's procedures written out where they are called (the
// language has none). A step's buffer() of Counters and Tokens
// (SendBuf) is local arrays of the handlers that send, not stored, kept
// per destination d so that the flush runs over what was buffered only:
// tR[d][k] and nT[d] (the resources of the tokens for d, in order),
// nC[d] and the Counters for d (recvToken's cR[d][k], cV[d][k]: resource
// and value; recvReq's isC[i], cval[i]: the run's ReqCnt i answered, of
// site d), tokFirst[d] (whether d's first buffered response is a token:
// SendBuf sends that kind's aggregate first), and the token snapshots
// snapReqC[r][s], snapCS[r][s] (lastReqC and lastCS of token r as it was
// sent); a token's counter, queues and
// lender are reset when it leaves at the flush, which reads nothing of
// them before. Requests are sent where the paper flushes them
// (SendBufReq), the forwarded ones of a received aggregate marked in the
// local fwd[i] by their place in the run. The token's messages are Token
// (its header, with the array fields lastReqC[0..N-1] and
// lastCS[0..N-1]), TokQ (a wQueue entry, the paper's Token.wQueue) and
// TokL (a wLoan entry, Token.wLoan). Invariants and actions are named after the paper, with
// _ for -; request(D=d) takes the mask d of the paper's D={...}.
// After a send to a full channel (an error, a safety violation), an
// aggregate that lost a message may chain into the next one: the file's
// run receive ends before a message of another aggregate, where the Go
// spec consumes it and raises precondition; the two agree on every
// configuration before such a loss.

spec lejeune "multi-resource allocation with a counter and a prioritized token tree per resource, and optional loans (seed 004), for at most R requests per process, or recurring (N=2, M=1: ids and counters modulo a window); a request can get two counter values (N=3) and lose a token (N=4)"
source "Lejeune, Arantes, Sopena, Sens, Reducing synchronization cost in distributed multi-resource allocation problem, Inria RR-8689, 2015: §3–4, Annex A (Figures 8–12), claims of Annex B"

param N = 3 in 2..4 "number of processes (complete graph, FIFO channel per ordered pair); process 0 is the elected node that starts with every token"
param M = 2 in 1..3 "number of resources, one token (and counter) each; a request is any non-empty subset"
param requests = 1 in 0..2 "R: requests per process; after R requests a process stays idle for ever (every result holds for at most R requests per process); counters are bounded by 1+2N·R. 0: recurring requests (M=1 only; N=2 only: with N ≥ 3 compared marks lie arbitrarily far apart): an idle process may always request again, request ids and counters are kept modulo W = 2·window+3, and the abstraction invariants id_window (the live ids of each site lie within window of each other) and marks_unordered (no step compares two marks) make the model the unbounded algorithm's where they hold"
param window = 0 in 0..30 "with requests=0: the largest spread of the live request ids of one site that the invariant id_window allows (0: N); ids and counters are kept modulo W = 2·window+3; ignored when requests ≥ 1"
param loan = 0 in 0..2 "loan threshold (line 251: a waiting process asks a loan when exactly this many resources are missing); 0 = loan mechanism off"
param strict = 1 in 0..1 "1: safety also checks the pseudo-code invariant (no error flag: duplicate counter, self-send, SendToken without the token, processCntNeededEmpty outside waitS, two requests of one site in one queue); 0: only exclusion, one_token and counter_bound (with requests=0, id_window and marks_unordered, which still requires no error flag)"
param Cmax = 0 in 0..64 "channel capacity in messages (0: 4+2N·M); a send to a full channel is an error (safety violation)"
param line260 = 0 in 0..1 "a reading of lines 260–261 (Counter received): 0, literally: tokDir[r] ← sender for the Counter's resource even when the process holds its token, and processCntNeededEmpty in any state; 1, within their stated preconditions: tokDir[r] ← sender only for a resource still in CntNeeded whose token the process does not hold, and processCntNeededEmpty only in waitS (line 111)"

require loan < M || loan == 0 "the loan threshold is outside 0..M-1"
require requests > 0 || M == 1 "recurring requests (requests=0) need M=1: a mark averages the counters of several resources, which drift apart without bound, so no modulus keeps the marks' order (see the comment at the top of the file)"
require requests > 0 || N == 2 "recurring requests (requests=0) need N=2: with N ≥ 3 a holder compares two queued requests by their marks, which lie arbitrarily far apart, so no modulus keeps their order (see the comment at the top of the file)"

const R = requests
// With recurring requests, ids and counters are residues modulo W in 1..W.
const Win = if window == 0 then N else window
const W = 2 * Win + 3
// C = 1+2N·R bounds every counter; increments saturate at C+1.
const C = 1 + 2 * N * R
const IdTop = if requests == 0 then W else R
const CntTop = if requests == 0 then W else C + 1
// L = lcm(1..M): a mark is L·A(MyVector), an integer.
const L = if M == 3 then 6 else M
const Sets = if M == 1 then 1 else if M == 2 then 3 else 7
const Sites = if N == 2 then 3 else if N == 3 then 7 else 15
const Marks = L * CntTop
const Cap = if Cmax == 0 then 4 + 2 * N * M else Cmax
// A step buffers at most Out responses (Counters and Tokens) and Out
// requests: one more raises the flag outbox and is not sent.
const Out = 48

topology complete(N)
type Status = {Idle, waitS, waitCS, InCS}
var state: Status
var TRequired: 0..Sets "the resources requested (a mask)"
var CntNeeded: 0..Sets "the resources whose counter value the request waits for"
var curId: 0..IdTop = if requests == 0 then W else 0 "the id of the process's last request"
var TLent: 0..Sets "the tokens lent"
var loanAsked: bool
var err: 0..5 "the first error flag raised: 0 none, 1 self-send, 2 slot-clash, 3 precondition, 4 outbox, 5 dup-counter"
var tokDir[0..M-1]: 0..N = 0 "the site towards token r, N: the process holds it"
var MyVector[0..M-1]: 0..CntTop
// lastTok[r]: the token if the process holds it, its last snapshot otherwise.
var tokCnt[0..M-1]: 1..CntTop = 1 "lastTok[r].counter"
var tokLender[0..M-1]: 0..N = N "lastTok[r].lender (N: nil)"
var tokLastReqC[0..M-1][0..N-1]: 0..IdTop = if requests == 0 then W else 0 "lastTok[r].lastReqC[s]"
var tokLastCS[0..M-1][0..N-1]: 0..IdTop = if requests == 0 then W else 0 "lastTok[r].lastCS[s]"
var wqId[0..M-1][0..N-1]: 0..IdTop "lastTok[r].wQueue: site s's entry (0: none)"
var wqMark[0..M-1][0..N-1]: 0..Marks
var wlId[0..M-1][0..N-1]: 0..IdTop "lastTok[r].wLoan: site s's entry (0: none)"
var wlMark[0..M-1][0..N-1]: 0..Marks
var wlMiss[0..M-1][0..N-1]: 0..Sets
var pcId[0..M-1][0..N-1]: 0..IdTop "pendingReq[r]: site s's ReqCnt"
var prId[0..M-1][0..N-1]: 0..IdTop "pendingReq[r]: site s's ReqRes"
var prMark[0..M-1][0..N-1]: 0..Marks
var plId[0..M-1][0..N-1]: 0..IdTop "pendingReq[r]: site s's ReqLoan"
var plMark[0..M-1][0..N-1]: 0..Marks
var plMiss[0..M-1][0..N-1]: 0..Sets

message ReqCnt(more: bool, r: 0..M-1, sinit: 0..N-1, id: 1..IdTop, visited: 0..Sites)
message ReqRes(more: bool, r: 0..M-1, sinit: 0..N-1, id: 1..IdTop, mark: 0..Marks, visited: 0..Sites)
message ReqLoan(more: bool, r: 0..M-1, sinit: 0..N-1, id: 1..IdTop, mark: 0..Marks, missingRes: 0..Sets, visited: 0..Sites)
message Counter(more: bool, r: 0..M-1, val: 0..CntTop)
message Token(more: bool, r: 0..M-1, counter: 1..CntTop, lastReqC[0..N-1]: 0..IdTop, lastCS[0..N-1]: 0..IdTop, lender: 0..N)
message TokQ(more: bool, s: 0..N-1, id: 1..IdTop, mark: 0..Marks)
message TokL(more: bool, s: 0..N-1, id: 1..IdTop, mark: 0..Marks, missingRes: 0..Sets)
channels capacity Cap overflow error

def pw(i) = if i == 0 then 1 else if i == 1 then 2 else if i == 2 then 4 else 8
// Whether the mask x holds i.
def has(x, i) = (x / pw(i)) mod 2 == 1
def owned(x) = tokDir[x] == N
// An error flag raised: the first is kept.
def flag(e) = if err == 0 then e else err
// x - y, modulo W in -(W-1)/2..(W-1)/2 with recurring requests.
def diffW(x, y) = if (x - y) mod W > W / 2 then (x - y) mod W - W else (x - y) mod W
def less(x, y) = if requests > 0 then x < y else diffW(x, y) < 0
// Whether id x is newer than y, a pendingReq entry's (0: none).
def newer(x, y) = y == 0 || less(y, x)
def nextId(x) = if requests == 0 then x mod W + 1 else x + 1
def inc(x) = if requests == 0 then x mod W + 1 else if x > C then C + 1 else x + 1
// The order ◁ on requests: (mark, site).
def prec(m1, s1, m2, s2) = less(m1, m2) || m1 == m2 && s1 < s2
// L·A(MyVector): the average of its non-zero entries (§5), times L.
def nonzero = count x in 0..M-1: MyVector[x] != 0
def mark = if nonzero == 0 then 0 else (sum x in 0..M-1: MyVector[x]) * L / nonzero
// §4.2.1: a request of kind k (0 ReqCnt, 1 ReqRes, 2 ReqLoan) of site s
// for resource x with id is obsolete, tested against lastTok[x].
def obsolete(k, x, s, id) = !less(tokLastCS[x][s], id) || k == 0 && !less(tokLastReqC[x][s], id)
// canLend, lines 120–136.
def canLend(s, mk, miss) = (forall x in 0..M-1: !has(miss, x) || owned(x)) && TLent == 0 && state != InCS
  && (forall x in 0..M-1: !owned(x) || tokLender[x] == N)
  && (state != waitCS || !loanAsked || prec(mk, s, mark, self))

process 0 {
  // Figure 9: the elected node holds every token.
  init: for x in 0..M-1 { tokDir[x] := N }
}

process all {
  // Request_CS(D), lines 68–85.
  environment optional action request(D in 1..Sets): state == Idle && (requests == 0 || curId < R) -> do {
    let S := 0;
    curId := nextId(curId); TRequired := D; state := waitS;
    for r in 0..M-1 {
      if has(D, r) {
        if owned(r) { MyVector[r] := tokCnt[r]; tokCnt[r] := inc(tokCnt[r]) }
        else { CntNeeded := CntNeeded + (if has(CntNeeded, r) then 0 else pw(r)); S := S + pw(r) }
      }
    };
    for r in 0..M-1 {
      if has(S, r) {
        send ReqCnt((count r3 in 0..M-1: r3 > r && has(S, r3) && tokDir[r3] == tokDir[r]) > 0, r, self, curId, pw(self)) to tokDir[r]
      }
    };
    if forall r in 0..M-1: !has(D, r) || owned(r) { state := InCS }
  }
  // Release_CS, lines 88–106.
  environment finite action leave: state == InCS -> do {
    let nob := 0; let h := 0; let lend := 0; let tr := 0; let left := 0; let nq := 0;
    let tR[0..N-1][0..M-1]: 0..M-1; let nT[0..N-1]: 0..M; // the tokens buffered for d, in order
    let snapReqC[0..M-1][0..N-1]: 0..IdTop; let snapCS[0..M-1][0..N-1]: 0..IdTop;
    state := Idle; loanAsked := false;
    for r in 0..M-1 {
      if has(TRequired, r) {
        tokLastCS[r][self] := curId;
        // with recurring requests, lastReqC kept as max(lastReqC, lastCS)
        if requests == 0 && less(tokLastReqC[r][self], curId) { tokLastReqC[r][self] := curId };
        lend := tokLender[r];
        h := -1;
        for sh in 0..N-1 {
          if wqId[r][sh] != 0 {
            if h < 0 { h := sh } else if prec(wqMark[r][sh], sh, wqMark[r][h], h) { h := sh }
          }
        };
        if h >= 0 && lend == N {
          wqId[r][h] := 0; wqMark[r][h] := 0;
          if !owned(r) { err := flag(3) }
          else if h == self || h >= N { err := flag(1) }
          else {
            tR[h][nT[h]] := r; nT[h] := nT[h] + 1; nob := nob + 1;
            if requests == 0 {
              for st in 0..N-1 {
                snapReqC[r][st] := tokLastReqC[r][st]; snapCS[r][st] := tokLastCS[r][st];
                tokLastReqC[r][st] := 0; tokLastCS[r][st] := 0
              }
            };
            tokDir[r] := h
          }
        } else if lend != N {
          wqId[r][lend] := 0; wqMark[r][lend] := 0; tokLender[r] := N;
          if !owned(r) { err := flag(3) }
          else if lend == self || lend >= N { err := flag(1) }
          else {
            tR[lend][nT[lend]] := r; nT[lend] := nT[lend] + 1; nob := nob + 1;
            if requests == 0 {
              for st in 0..N-1 {
                snapReqC[r][st] := tokLastReqC[r][st]; snapCS[r][st] := tokLastCS[r][st];
                tokLastReqC[r][st] := 0; tokLastCS[r][st] := 0
              }
            };
            tokDir[r] := lend
          }
        }
      }
    };
    TRequired := 0;
    for r in 0..M-1 { MyVector[r] := 0 };
    // SendBuf(): per destination, its tokens in the order buffered.
    if nob > 0 {
      for d in 0..N-1 {
        for k in 0..M-1 {
          if k < nT[d] {
            tr := tR[d][k]; left := nT[d] - 1 - k;
            nq := (count s in 0..N-1: wqId[tr][s] != 0) + (count s in 0..N-1: wlId[tr][s] != 0);
            if requests == 0 { send Token(nq > 0 || left > 0, tr, tokCnt[tr], snapReqC[tr], snapCS[tr], tokLender[tr]) to d }
            else { send Token(nq > 0 || left > 0, tr, tokCnt[tr], tokLastReqC[tr], tokLastCS[tr], tokLender[tr]) to d };
            for s in 0..N-1 {
              if wqId[tr][s] != 0 { nq := nq - 1; send TokQ(nq > 0 || left > 0, s, wqId[tr][s], wqMark[tr][s]) to d }
            };
            for s in 0..N-1 {
              if wlId[tr][s] != 0 { nq := nq - 1; send TokL(nq > 0 || left > 0, s, wlId[tr][s], wlMark[tr][s], wlMiss[tr][s]) to d }
            };
            // the sender's lastTok[r] keeps lastReqC and lastCS; the rest is reset
            tokCnt[tr] := 1; tokLender[tr] := N;
            for s in 0..N-1 {
              wqId[tr][s] := 0; wqMark[tr][s] := 0; wlId[tr][s] := 0; wlMark[tr][s] := 0; wlMiss[tr][s] := 0
            }
          }
        }
      }
    }
  }
  // Receive Request, lines 159–189, for each request of the aggregate.
  action recvReq(j in peers): recv run ReqCnt, ReqRes, ReqLoan while more from j -> do {
    let nob := 0; let h := 0; let tr := 0; let left := 0; let nq := 0;
    let i := 0; let kind := 0; let vis := 0; let my := 0; let nf := 0;
    let mr := 0; let ms := 0; let mid := 0; let mmk := 0; let mmiss := 0;
    let tR[0..N-1][0..M-1]: 0..M-1; let nT[0..N-1]: 0..M; // the tokens buffered for d, in order
    let nC[0..N-1]: 0..Cap; let tokFirst[0..N-1]: bool; // the Counters buffered for d; whether a token was buffered for d first
    let isC[0..Cap-1]: bool; let cval[0..Cap-1]: 0..CntTop; // the run's request i is answered by a Counter of value cval[i]
    let snapReqC[0..M-1][0..N-1]: 0..IdTop; let snapCS[0..M-1][0..N-1]: 0..IdTop;
    let fwd[0..Cap-1]: bool; let fd[0..Cap-1]: 0..N-1; let nF[0..N-1]: 0..Cap; // the run's request i is forwarded, to fd[i]; nF[d] are forwarded to d
    for m in run {
      kind := if m is ReqCnt then 0 else if m is ReqRes then 1 else 2;
      // the message's fields, read once (0 where its type has none)
      mr := m.r; ms := m.sinit; mid := m.id; mmk := m.mark; mmiss := m.missingRes;
      vis := m.visited;
      if !obsolete(kind, mr, ms, mid) {
        if owned(mr) {
          if kind == 2 {
            if !obsolete(2, mr, ms, mid) {
              if canLend(ms, mmk, mmiss) {
                TLent := mmiss;
                for r2 in 0..M-1 {
                  if has(mmiss, r2) {
                    tokLender[r2] := self; wqId[r2][ms] := 0; wqMark[r2][ms] := 0;
                    if !owned(r2) { err := flag(3) }
                    else if ms == self || ms >= N { err := flag(1) }
                    else if nob >= Out { err := flag(4) }
                    else {
                      if nC[ms] == 0 { tokFirst[ms] := true }; tR[ms][nT[ms]] := r2; nT[ms] := nT[ms] + 1; nob := nob + 1;
                      if requests == 0 {
                        for st in 0..N-1 {
                          snapReqC[r2][st] := tokLastReqC[r2][st]; snapCS[r2][st] := tokLastCS[r2][st];
                          tokLastReqC[r2][st] := 0; tokLastCS[r2][st] := 0
                        }
                      };
                      tokDir[r2] := ms
                    }
                  }
                }
              } else if !has(TRequired, mr) || state == waitS {
                if !owned(mr) { err := flag(3) }
                else if ms == self || ms >= N { err := flag(1) }
                else if nob >= Out { err := flag(4) }
                else {
                  if nC[ms] == 0 { tokFirst[ms] := true }; tR[ms][nT[ms]] := mr; nT[ms] := nT[ms] + 1; nob := nob + 1;
                  if requests == 0 {
                    for st in 0..N-1 {
                      snapReqC[mr][st] := tokLastReqC[mr][st]; snapCS[mr][st] := tokLastCS[mr][st];
                      tokLastReqC[mr][st] := 0; tokLastCS[mr][st] := 0
                    }
                  };
                  tokDir[mr] := ms
                }
              } else if owned(mr) && !(wlId[mr][ms] == mid && wlMark[mr][ms] == mmk && wlMiss[mr][ms] == mmiss) {
                // (not owned: only in Receive Token's wLoan loop, after a loan of the
                // copy lent R away; the literal add goes to the stale snapshot: dropped)
                if wlId[mr][ms] != 0 && (wlId[mr][ms] != mid || wlMark[mr][ms] != mmk || wlMiss[mr][ms] != mmiss) { err := flag(2) };
                wlId[mr][ms] := mid; wlMark[mr][ms] := mmk; wlMiss[mr][ms] := mmiss
              }
            }
          } else if !has(TRequired, mr) || state == waitS && kind != 0 {
            if !owned(mr) { err := flag(3) }
            else if ms == self || ms >= N { err := flag(1) }
            else if nob >= Out { err := flag(4) }
            else {
              if nC[ms] == 0 { tokFirst[ms] := true }; tR[ms][nT[ms]] := mr; nT[ms] := nT[ms] + 1; nob := nob + 1;
              if requests == 0 {
                for st in 0..N-1 {
                  snapReqC[mr][st] := tokLastReqC[mr][st]; snapCS[mr][st] := tokLastCS[mr][st];
                  tokLastReqC[mr][st] := 0; tokLastCS[mr][st] := 0
                }
              };
              tokDir[mr] := ms
            }
          } else if kind == 0 {
            tokLastReqC[mr][ms] := mid;
            if ms == self { err := flag(1) }
            else if nob >= Out { err := flag(4) }
            else { isC[i] := true; cval[i] := tokCnt[mr]; nC[ms] := nC[ms] + 1; nob := nob + 1 };
            tokCnt[mr] := inc(tokCnt[mr])
          } else if !(wqId[mr][ms] == mid && wqMark[mr][ms] == mmk) {
            my := mark;
            if state == waitCS && prec(mmk, ms, my, self) {
              if wqId[mr][self] != 0 && (wqId[mr][self] != curId || wqMark[mr][self] != my) { err := flag(2) };
              wqId[mr][self] := curId; wqMark[mr][self] := my;
              if !owned(mr) { err := flag(3) }
              else if ms == self || ms >= N { err := flag(1) }
              else if nob >= Out { err := flag(4) }
              else {
                if nC[ms] == 0 { tokFirst[ms] := true }; tR[ms][nT[ms]] := mr; nT[ms] := nT[ms] + 1; nob := nob + 1;
                if requests == 0 {
                  for st in 0..N-1 {
                    snapReqC[mr][st] := tokLastReqC[mr][st]; snapCS[mr][st] := tokLastCS[mr][st];
                    tokLastReqC[mr][st] := 0; tokLastCS[mr][st] := 0
                  }
                };
                tokDir[mr] := ms
              }
            } else {
              if wqId[mr][ms] != 0 && (wqId[mr][ms] != mid || wqMark[mr][ms] != mmk) { err := flag(2) };
              wqId[mr][ms] := mid; wqMark[mr][ms] := mmk
            }
          }
        } else if !has(vis, tokDir[mr]) {
          // add(pendingReq[r], req): one entry per site and kind, a newer id replacing an older
          if kind == 0 {
            if newer(mid, pcId[mr][ms]) { pcId[mr][ms] := mid }
          } else if kind == 1 {
            if newer(mid, prId[mr][ms]) { prId[mr][ms] := mid; prMark[mr][ms] := mmk }
            else if mid == prId[mr][ms] && prMark[mr][ms] != mmk { err := flag(2); prMark[mr][ms] := mmk }
          } else {
            if newer(mid, plId[mr][ms]) { plId[mr][ms] := mid; plMark[mr][ms] := mmk; plMiss[mr][ms] := mmiss }
            else if mid == plId[mr][ms] && (plMark[mr][ms] != mmk || plMiss[mr][ms] != mmiss) {
              err := flag(2); plMark[mr][ms] := mmk; plMiss[mr][ms] := mmiss
            }
          };
          if nf >= Out { err := flag(4) }
          else { fwd[i] := true; fd[i] := tokDir[mr]; nF[tokDir[mr]] := nF[tokDir[mr]] + 1; nf := nf + 1 }
        }
      };
      i := i + 1
    };
    // SendBufReq(visited ∪ {self}): per destination, the forwarded requests in order.
    if nf > 0 {
      vis := if has(vis, self) then vis else vis + pw(self);
      for d in 0..N-1 {
        if nF[d] > 0 {
          left := nF[d]; i := 0;
          for m in run {
            if fwd[i] && fd[i] == d {
              left := left - 1;
              if m is ReqCnt { send ReqCnt(left > 0, m.r, m.sinit, m.id, vis) to d }
              else if m is ReqRes { send ReqRes(left > 0, m.r, m.sinit, m.id, m.mark, vis) to d }
              else { send ReqLoan(left > 0, m.r, m.sinit, m.id, m.mark, m.missingRes, vis) to d }
            };
            i := i + 1
          }
        }
      }
    };
    // SendBuf(): per destination, its Counters and its tokens, each in the
    // order buffered, the kind buffered first first.
    if nob > 0 {
      for d in 0..N-1 {
        if nC[d] + nT[d] > 0 {
          for g in 0..1 {
            if (if g == 0 then tokFirst[d] else !tokFirst[d]) {
              for k in 0..M-1 {
                if k < nT[d] {
                  tr := tR[d][k]; left := nT[d] - 1 - k;
                  nq := (count s in 0..N-1: wqId[tr][s] != 0) + (count s in 0..N-1: wlId[tr][s] != 0);
                  if requests == 0 { send Token(nq > 0 || left > 0, tr, tokCnt[tr], snapReqC[tr], snapCS[tr], tokLender[tr]) to d }
                  else { send Token(nq > 0 || left > 0, tr, tokCnt[tr], tokLastReqC[tr], tokLastCS[tr], tokLender[tr]) to d };
                  for s in 0..N-1 {
                    if wqId[tr][s] != 0 { nq := nq - 1; send TokQ(nq > 0 || left > 0, s, wqId[tr][s], wqMark[tr][s]) to d }
                  };
                  for s in 0..N-1 {
                    if wlId[tr][s] != 0 { nq := nq - 1; send TokL(nq > 0 || left > 0, s, wlId[tr][s], wlMark[tr][s], wlMiss[tr][s]) to d }
                  };
                  // the sender's lastTok[r] keeps lastReqC and lastCS; the rest is reset
                  tokCnt[tr] := 1; tokLender[tr] := N;
                  for s in 0..N-1 {
                    wqId[tr][s] := 0; wqMark[tr][s] := 0; wlId[tr][s] := 0; wlMark[tr][s] := 0; wlMiss[tr][s] := 0
                  }
                }
              }
            } else if nC[d] > 0 {
            left := nC[d]; i := 0;
            for m in run {
              if isC[i] && m.sinit == d { left := left - 1; send Counter(left > 0, m.r, cval[i]) to d };
              i := i + 1
            }
            }
          }
        }
      }
    }
  }
  // Receive Counter, lines 255–262.
  action recvCounter(j in peers): recv run Counter while more from j -> do {
    let needed := false; let mk := 0;
    for m in run {
      needed := has(CntNeeded, m.r);
      if !needed { err := flag(5) };
      MyVector[m.r] := m.val;
      if needed { CntNeeded := CntNeeded - pw(m.r) };
      // line 260
      if line260 == 0 || needed && !owned(m.r) { tokDir[m.r] := j }
    };
    // line 261
    if CntNeeded == 0 && (line260 == 0 || state == waitS) {
      if state != waitS || CntNeeded != 0 { err := flag(3) };
      state := waitCS;
      mk := mark;
      for r in 0..M-1 {
        if has(TRequired, r) && !owned(r) {
          send ReqRes((count r3 in 0..M-1: r3 > r && has(TRequired, r3) && !owned(r3) && tokDir[r3] == tokDir[r]) > 0, r, self, curId, mk, pw(self)) to tokDir[r]
        }
      }
    }
  }
  // Receive Token, lines 208–254: the tokens of the aggregate, then their processUpdate.
  action recvToken(j in peers): recv run Token, TokQ, TokL while more from j, pos(Token, j, self) == 0 -> do {
    let nob := 0; let h := 0; let tr := 0; let left := 0; let nq := 0;
    let cur := -1; let my := 0; let mk := 0; let lid := 0; let lmk := 0; let lmiss := 0;
    let missing := 0; let askLoan := false; let ncp := 0; let mr := 0;
    let tR[0..N-1][0..M-1]: 0..M-1; let nT[0..N-1]: 0..M; // the tokens buffered for d, in order
    let nC[0..N-1]: 0..M; let tokFirst[0..N-1]: bool; // the Counters buffered for d; whether a token was buffered for d first
    let cR[0..N-1][0..M-1]: 0..M-1; let cV[0..N-1][0..M-1]: 0..CntTop; // the Counters buffered for d: resource, value
    let snapReqC[0..M-1][0..N-1]: 0..IdTop; let snapCS[0..M-1][0..N-1]: 0..IdTop;
    // the copy of wLoan[r] that Receive Token processes
    let cpId[0..N-1]: 0..IdTop; let cpMark[0..N-1]: 0..Marks; let cpMiss[0..N-1]: 0..Sets;
    for m in run {
      if m is Token {
        cur := m.r;
        tokCnt[cur] := m.counter; tokLender[cur] := m.lender;
        for s in 0..N-1 {
          tokLastReqC[cur][s] := m.lastReqC[s]; tokLastCS[cur][s] := m.lastCS[s];
          wqId[cur][s] := 0; wqMark[cur][s] := 0; wlId[cur][s] := 0; wlMark[cur][s] := 0; wlMiss[cur][s] := 0
        }
      } else if cur >= 0 && m is TokQ {
        wqId[cur][m.s] := m.id; wqMark[cur][m.s] := m.mark
      } else if cur >= 0 {
        wlId[cur][m.s] := m.id; wlMark[cur][m.s] := m.mark; wlMiss[cur][m.s] := m.missingRes
      }
    };
    for m in run {
      if m is Token {
        mr := m.r;
        tokDir[mr] := N;
        if has(CntNeeded, mr) { CntNeeded := CntNeeded - pw(mr); MyVector[mr] := tokCnt[mr]; tokCnt[mr] := inc(tokCnt[mr]) };
        if has(TLent, mr) { TLent := TLent - pw(mr) };
        for s in 0..N-1 {
          if pcId[mr][s] != 0 {
            if !obsolete(0, mr, s, pcId[mr][s]) {
              tokLastReqC[mr][s] := pcId[mr][s];
              if s == self { err := flag(1) }
              else if nob >= Out { err := flag(4) }
              else { cR[s][nC[s]] := mr; cV[s][nC[s]] := tokCnt[mr]; nC[s] := nC[s] + 1; nob := nob + 1 };
              tokCnt[mr] := inc(tokCnt[mr])
            };
            pcId[mr][s] := 0
          };
          if prId[mr][s] != 0 {
            if obsolete(1, mr, s, prId[mr][s]) { prId[mr][s] := 0; prMark[mr][s] := 0 }
            else if !(wqId[mr][s] == prId[mr][s] && wqMark[mr][s] == prMark[mr][s]) {
              if wqId[mr][s] != 0 && (wqId[mr][s] != prId[mr][s] || wqMark[mr][s] != prMark[mr][s]) { err := flag(2) };
              wqId[mr][s] := prId[mr][s]; wqMark[mr][s] := prMark[mr][s]
            }
          };
          if plId[mr][s] != 0 {
            if obsolete(2, mr, s, plId[mr][s]) { plId[mr][s] := 0; plMark[mr][s] := 0; plMiss[mr][s] := 0 }
            else if !(wlId[mr][s] == plId[mr][s] && wlMark[mr][s] == plMark[mr][s] && wlMiss[mr][s] == plMiss[mr][s]) {
              if wlId[mr][s] != 0 && (wlId[mr][s] != plId[mr][s] || wlMark[mr][s] != plMark[mr][s] || wlMiss[mr][s] != plMiss[mr][s]) { err := flag(2) };
              wlId[mr][s] := plId[mr][s]; wlMark[mr][s] := plMark[mr][s]; wlMiss[mr][s] := plMiss[mr][s]
            }
          }
        }
      }
    };
    if state != Idle && (forall r in 0..M-1: !has(TRequired, r) || owned(r)) { state := InCS }
    else {
      for r in 0..M-1 {
        if owned(r) && tokLender[r] != N {
          h := tokLender[r]; tokLender[r] := N;
          if !owned(r) { err := flag(3) }
          else if h == self || h >= N { err := flag(1) }
          else if nob >= Out { err := flag(4) }
          else {
            if nC[h] == 0 { tokFirst[h] := true }; tR[h][nT[h]] := r; nT[h] := nT[h] + 1; nob := nob + 1;
            if requests == 0 {
              for st in 0..N-1 {
                snapReqC[r][st] := tokLastReqC[r][st]; snapCS[r][st] := tokLastCS[r][st];
                tokLastReqC[r][st] := 0; tokLastCS[r][st] := 0
              }
            };
            tokDir[r] := h
          };
          loanAsked := false
        }
      }
    };
    if state == waitS && CntNeeded == 0 {
      if state != waitS || CntNeeded != 0 { err := flag(3) };
      state := waitCS;
      mk := mark;
      for r in 0..M-1 {
        if has(TRequired, r) && !owned(r) {
          send ReqRes((count r3 in 0..M-1: r3 > r && has(TRequired, r3) && !owned(r3) && tokDir[r3] == tokDir[r]) > 0, r, self, curId, mk, pw(self)) to tokDir[r]
        }
      }
    };
    for r in 0..M-1 {
      if owned(r) {
        h := -1;
        for sh in 0..N-1 {
          if wqId[r][sh] != 0 {
            if h < 0 { h := sh } else if prec(wqMark[r][sh], sh, wqMark[r][h], h) { h := sh }
          }
        };
        if h >= 0 && state == waitS {
          wqId[r][h] := 0; wqMark[r][h] := 0;
          if !owned(r) { err := flag(3) }
          else if h == self || h >= N { err := flag(1) }
          else if nob >= Out { err := flag(4) }
          else {
            if nC[h] == 0 { tokFirst[h] := true }; tR[h][nT[h]] := r; nT[h] := nT[h] + 1; nob := nob + 1;
            if requests == 0 {
              for st in 0..N-1 {
                snapReqC[r][st] := tokLastReqC[r][st]; snapCS[r][st] := tokLastCS[r][st];
                tokLastReqC[r][st] := 0; tokLastCS[r][st] := 0
              }
            };
            tokDir[r] := h
          }
        } else if h >= 0 && state == waitCS {
          my := mark;
          if prec(wqMark[r][h], h, my, self) {
            wqId[r][h] := 0; wqMark[r][h] := 0;
            if wqId[r][self] != 0 && (wqId[r][self] != curId || wqMark[r][self] != my) { err := flag(2) };
            wqId[r][self] := curId; wqMark[r][self] := my;
            if !owned(r) { err := flag(3) }
            else if h == self || h >= N { err := flag(1) }
            else if nob >= Out { err := flag(4) }
            else {
              if nC[h] == 0 { tokFirst[h] := true }; tR[h][nT[h]] := r; nT[h] := nT[h] + 1; nob := nob + 1;
              if requests == 0 {
                for st in 0..N-1 {
                  snapReqC[r][st] := tokLastReqC[r][st]; snapCS[r][st] := tokLastCS[r][st];
                  tokLastReqC[r][st] := 0; tokLastCS[r][st] := 0
                }
              };
              tokDir[r] := h
            }
          }
        }
      }
    };
    // wLoan: a copy, processed in ◁ order (line 246)
    for r in 0..M-1 {
      if owned(r) && (exists s in 0..N-1: wlId[r][s] != 0 || wlMark[r][s] != 0 || wlMiss[r][s] != 0) {
        for s in 0..N-1 {
          cpId[s] := wlId[r][s]; cpMark[s] := wlMark[r][s]; cpMiss[s] := wlMiss[r][s];
          wlId[r][s] := 0; wlMark[r][s] := 0; wlMiss[r][s] := 0
        };
        // each round takes one entry: ncp rounds empty the copy
        ncp := count s in 0..N-1: cpId[s] != 0;
        for k in 0..N-1 {
          if k < ncp {
            h := -1;
            for sh in 0..N-1 {
              if cpId[sh] != 0 {
                if h < 0 { h := sh } else if prec(cpMark[sh], sh, cpMark[h], h) { h := sh }
              }
            };
            if h >= 0 {
              lid := cpId[h]; lmk := cpMark[h]; lmiss := cpMiss[h];
              cpId[h] := 0; cpMark[h] := 0; cpMiss[h] := 0;
              if !obsolete(2, r, h, lid) {
                if canLend(h, lmk, lmiss) {
                  TLent := lmiss;
                  for r2 in 0..M-1 {
                    if has(lmiss, r2) {
                      tokLender[r2] := self; wqId[r2][h] := 0; wqMark[r2][h] := 0;
                      if !owned(r2) { err := flag(3) }
                      else if h == self || h >= N { err := flag(1) }
                      else if nob >= Out { err := flag(4) }
                      else {
                        if nC[h] == 0 { tokFirst[h] := true }; tR[h][nT[h]] := r2; nT[h] := nT[h] + 1; nob := nob + 1;
                        if requests == 0 {
                          for st in 0..N-1 {
                            snapReqC[r2][st] := tokLastReqC[r2][st]; snapCS[r2][st] := tokLastCS[r2][st];
                            tokLastReqC[r2][st] := 0; tokLastCS[r2][st] := 0
                          }
                        };
                        tokDir[r2] := h
                      }
                    }
                  }
                } else if !has(TRequired, r) || state == waitS {
                  if !owned(r) { err := flag(3) }
                  else if h == self || h >= N { err := flag(1) }
                  else if nob >= Out { err := flag(4) }
                  else {
                    if nC[h] == 0 { tokFirst[h] := true }; tR[h][nT[h]] := r; nT[h] := nT[h] + 1; nob := nob + 1;
                    if requests == 0 {
                      for st in 0..N-1 {
                        snapReqC[r][st] := tokLastReqC[r][st]; snapCS[r][st] := tokLastCS[r][st];
                        tokLastReqC[r][st] := 0; tokLastCS[r][st] := 0
                      }
                    };
                    tokDir[r] := h
                  }
                } else if owned(r) && !(wlId[r][h] == lid && wlMark[r][h] == lmk && wlMiss[r][h] == lmiss) {
                  // (not owned: only in Receive Token's wLoan loop, after a loan of the
                  // copy lent R away; the literal add goes to the stale snapshot: dropped)
                  if wlId[r][h] != 0 && (wlId[r][h] != lid || wlMark[r][h] != lmk || wlMiss[r][h] != lmiss) { err := flag(2) };
                  wlId[r][h] := lid; wlMark[r][h] := lmk; wlMiss[r][h] := lmiss
                }
              }
            }
          }
        }
      }
    };
    // line 251: ask a loan when exactly `loan` resources are missing
    missing := sum r in 0..M-1: if has(TRequired, r) && !owned(r) then pw(r) else 0;
    askLoan := loan > 0 && (count r in 0..M-1: has(missing, r)) == loan && state == waitCS && !loanAsked;
    if askLoan { loanAsked := true; mk := mark };
    // SendBuf(): per destination, its Counters and its tokens, each in the
    // order buffered, the kind buffered first first.
    if nob > 0 {
      for d in 0..N-1 {
        if nC[d] + nT[d] > 0 {
          for g in 0..1 {
            if (if g == 0 then tokFirst[d] else !tokFirst[d]) {
              for k in 0..M-1 {
                if k < nT[d] {
                  tr := tR[d][k]; left := nT[d] - 1 - k;
                  nq := (count s in 0..N-1: wqId[tr][s] != 0) + (count s in 0..N-1: wlId[tr][s] != 0);
                  if requests == 0 { send Token(nq > 0 || left > 0, tr, tokCnt[tr], snapReqC[tr], snapCS[tr], tokLender[tr]) to d }
                  else { send Token(nq > 0 || left > 0, tr, tokCnt[tr], tokLastReqC[tr], tokLastCS[tr], tokLender[tr]) to d };
                  for s in 0..N-1 {
                    if wqId[tr][s] != 0 { nq := nq - 1; send TokQ(nq > 0 || left > 0, s, wqId[tr][s], wqMark[tr][s]) to d }
                  };
                  for s in 0..N-1 {
                    if wlId[tr][s] != 0 { nq := nq - 1; send TokL(nq > 0 || left > 0, s, wlId[tr][s], wlMark[tr][s], wlMiss[tr][s]) to d }
                  };
                  // the sender's lastTok[r] keeps lastReqC and lastCS; the rest is reset
                  tokCnt[tr] := 1; tokLender[tr] := N;
                  for s in 0..N-1 {
                    wqId[tr][s] := 0; wqMark[tr][s] := 0; wlId[tr][s] := 0; wlMark[tr][s] := 0; wlMiss[tr][s] := 0
                  }
                }
              }
            } else if nC[d] > 0 {
            for k in 0..M-1 {
              if k < nC[d] { send Counter(k < nC[d] - 1, cR[d][k], cV[d][k]) to d }
            }
            }
          }
        }
      }
    };
    if askLoan {
      for r in 0..M-1 {
        if has(missing, r) {
          send ReqLoan((count r3 in 0..M-1: r3 > r && has(missing, r3) && tokDir[r3] == tokDir[r]) > 0, r, self, curId, mk, missing, pw(self)) to tokDir[r]
        }
      }
    }
  }
}

def inCSwith(p, x) = state[p] == InCS && has(TRequired[p], x)
invariant exclusion "no two processes in their critical section request a common resource (Theorem 1)":
  forall x in 0..M-1: (count p: inCSwith(p, x)) <= 1
invariant one_token "every resource has exactly one token, held (tokDir = nil) or in transit (Lemmas 1–3)":
  forall x in 0..M-1: (count p: tokDir[p][x] == N) + (sum p: sum q in peers(p): count m in chan(Token, p, q): m.r == x) == 1
invariant counter_bound "(requests ≥ 1) every counter, held or in transit, is at most 1+2N·R (each of the N·R requests takes at most two values of a counter: one from the token, one from a Counter message)":
  requests == 0 || (forall p: forall x in 0..M-1: tokCnt[p][x] <= C && MyVector[p][x] <= C)
    && (forall p: forall q in peers(p): (forall m in chan(Token, p, q): m.counter <= C) && (forall m in chan(Counter, p, q): m.val <= C))

// With recurring requests: x lies within window of s0, modulo W.
def within(x, s0) = (x - s0) mod W <= Win
def effReqC(a, b) = if less(a, b) then b else a
def slot(x, s0) = x == 0 || within(x, s0)
// The live ids of site q (curId, the lastReqC and lastCS of every token
// held and of every snapshot that is not dead, every queue and pendingReq
// entry, and every id in transit) lie within window of s0.
def idsWithin(q, s0) = within(curId[q], s0)
  && (forall p: forall x in 0..M-1: !(tokDir[p][x] == N || !(q == p || N == 2))
       || within(effReqC(tokLastReqC[p][x][q], tokLastCS[p][x][q]), s0) && within(tokLastCS[p][x][q], s0))
  && (forall p: forall x in 0..M-1: slot(wqId[p][x][q], s0) && slot(wlId[p][x][q], s0) && slot(pcId[p][x][q], s0) && slot(prId[p][x][q], s0) && slot(plId[p][x][q], s0))
  && (forall p: forall p2 in peers(p):
       (forall m in chan(ReqCnt, p, p2): m.sinit != q || within(m.id, s0))
       && (forall m in chan(ReqRes, p, p2): m.sinit != q || within(m.id, s0))
       && (forall m in chan(ReqLoan, p, p2): m.sinit != q || within(m.id, s0))
       && (forall m in chan(Token, p, p2): within(effReqC(m.lastReqC[q], m.lastCS[q]), s0) && within(m.lastCS[q], s0))
       && (forall m in chan(TokQ, p, p2): m.s != q || within(m.id, s0))
       && (forall m in chan(TokL, p, p2): m.s != q || within(m.id, s0)))
abstraction invariant id_window "(requests=0, abstraction) the live request ids of each site lie within window of each other, so that ids kept modulo W compare as unbounded ones":
  requests > 0 || forall q: exists s0 in 0..W-1: idsWithin(q, s0)
// (requests=0 needs M=1: every Token and TokQ is resource 0's.)
abstraction invariant marks_unordered "(requests=0, abstraction) no error flag, no process in waitCS holds a token, at most one request queued or pending per token, so that no step compares two marks and counters kept modulo W behave as unbounded ones":
  requests > 0 || (forall p: err[p] == 0 && !(state[p] == waitCS && tokDir[p][0] == N))
    && (sum p: (if tokDir[p][0] == N then (count q: wqId[p][0][q] != 0) else 0) + (count q: prId[p][0][q] != 0))
       + (sum p: sum q in peers(p): msgs(TokQ, p, q) - msgs(TokQ, p, q, pos(Token, p, q))) <= 1
invariant pseudo_code "(strict=1) no error flag — a second counter value for one request (§4.2.1 says lastReqC prevents it), two requests of one site in one queue (excluded by Lemma 4's proof), processCntNeededEmpty outside waitS (line 111), SendToken without the token (line 104), a send to oneself":
  strict == 0 || forall p: err[p] == 0

valid_end "every process has made its R requests and is idle, and every channel is empty":
  requests > 0 && (forall p: curId[p] == R && state[p] == Idle) && (forall p: forall q in peers(p): len(p, q) == 0)
predicate requesting(p) "state ∈ {waitS, waitCS}": state[p] == waitS || state[p] == waitCS
predicate inCS(p) "state = InCS": state[p] == InCS

check safety, deadlock, starvation
claim safety holds found violated from init with N = 3, M = 2, requests = 1, loan = 0, strict = 1 "Annex B, Theorem 1 (Safety); with strict=1 also §4.2.1 (one counter value per request) and Lemma 4"
claim deadlock holds from init with N = 3, M = 2, requests = 1, loan = 0, strict = 1 "Annex B, Theorem 2 (deadlock free)"
claim starvation holds from init fairness weak with N = 3, M = 2, requests = 1, loan = 0, strict = 1 "Annex B, Theorem 3 (Liveness): waitS ⇒ eventually inCS; with at most R requests every execution is finite, so this says only that none ends waiting"
claim safety holds found violated from init with N = 3, M = 2, requests = 1, loan = 1, strict = 1 "Annex B, Theorem 1, with the loan mechanism (§3.4, §4.5)"
claim deadlock holds from init with N = 3, M = 2, requests = 1, loan = 1, strict = 1 "Annex B, Theorem 2 and §3.4.2 (loans to a single site avoid deadlock)"
claim starvation holds from init fairness weak with N = 3, M = 2, requests = 1, loan = 1, strict = 1 "Annex B, Theorem 3 and Lemma 10 (lent tokens come back); with at most R requests every execution is finite, so this says only that none ends waiting"
