// Raynal's permission-based k-out-of-M resource allocation algorithm (M.
// Raynal, "A distributed solution to the k-out of-M resources allocation
// problem", INRIA RR-1342 / IRISA PI 559, 1990), §3, which generalizes
// Ricart and Agrawala's mutual exclusion, and, with parameter asked=1, its
// reduced-message variant of §5.1. This file is the spec raynal.
//
// n processes on a complete graph share M identical resources; channels are
// reliable and FIFO, one per ordered pair (i, j). Process i has the paper's
// local context: scdem_i, ok_i (booleans: scdem, ok), h_i and maxh_i (its
// request's Lamport timestamp and the highest timestamp it has received: h,
// maxh), k_i (k, the units it requests or uses, 0 when idle: see below),
// used_i[j] for j ≠ i (used[j], its over-estimate of the units P_j uses),
// delayed_i (as one boolean delayed[j] per j ≠ i), with asked=1 also
// asked_i[j] (sent[j], 0 or 1: the parameter asked holds the name), and a
// counter reqs of the requests it has made. Messages are req(h) and
// free(y); the sender j of req(h, j) is the channel the message arrives on.
// Timestamps (h, i) are ordered lexicographically, "(h_i, i) < (h, j) ≡
// (h_i < h or (h_i = h and i < j))", process ids 0..n-1 for the paper's
// 1..n.
//
// Actions of process i (each atomic; central daemon, interleaving):
//
//	request(kk)  environment, optional   ¬scdem ∧ ¬ok ∧ reqs < R  → "when requesting resources", kk in 1..K; reqs++
//	leave        environment, finite     ok                        → "when releasing the resources"
//	recvReq(j)   protocol                head(j→i) = req(h)        → "when receiving req(h, j) from P_j"
//	recvFree(j)  protocol                head(j→i) = free(y)       → "when receiving free(y) from P_j"
//
// The bodies are the paper's, statement by statement (§3 for asked=0, §5.1
// for asked=1). The "wait (ok_i)" ending the request statement is the state
// scdem_i ∧ ¬ok_i: the process is requesting; it is in its critical section
// (using its k_i resources) while ok_i. The file declares the actions
// recvReq(j) for every peer j, then recvFree(j), where a Go model would
// interleave them per peer: the order changes no step.
//
// Bounds. Timestamps are unbounded in the paper; here every process makes
// at most R requests (parameter requests) and stays idle for ever after,
// so every result holds "for at most R requests per process". The clock
// domain is then 0..nR, the smallest sound one: a request's timestamp is 1
// plus the largest timestamp its process has received, which is that of an
// earlier request, so the m-th request of the whole execution has a
// timestamp of at most m ≤ nR; and nR is reached (processes 0, 1, ..., n-1,
// 0, ... request in turn, each after receiving the previous request).
// used_i[j] is raised by M at most once per request of P_i, so at most R
// times, and lowered only by the frees P_j sends in answer to P_i's
// requests, which total M per request, so it stays within [-RM, RM]; its
// domain is that, so a violation of the paper's proposition P1 (used_i[j]
// ≥ 0) is a reachable state (the invariant used_nonnegative) rather than a
// range fault. Each channel i→j carries at most R requests and 2R frees in
// a whole execution, so its capacity defaults to 3R (parameter Cmax, 0 for
// that), with which no send can find it full; the overflow policy is
// error, so a smaller Cmax shows up as a safety violation instead of
// silently changing the algorithm.
//
// With R bounded, every step either makes a request, ends a critical
// section or consumes a message, and each request causes finitely many
// messages: every execution is finite. Deadlock and starvation freedom
// therefore say that every maximal execution ends with every process idle,
// its R requests made, and every channel empty. That is the valid end
// state (valid_end); any other state with no enabled step is a deadlock, in
// particular one where a process waits for ever, and the starvation check
// (requesting(p) ~> inCS(p), requesting = scdem, inCS = ok) reports it
// whatever the fairness.
//
// Recurring requests (requests=0). To make starvation freedom more than
// deadlock freedom, an idle process may request again for ever (reqs is
// not used), and the clocks h_i, maxh_i and the h of req(h) are kept
// modulo W = 2·window+3 and compared by their difference taken in
// -(W-1)/2..(W-1)/2 (the def diff). used_i[j] then ranges over [-2M, 2M],
// and there is no valid end state (an idle process can always request).
// The invariant clock_window checks that the live clock values (every
// maxh_i, h_i while requesting or in the critical section, h of every req
// in transit) lie on an arc of at most window. The statements use clock
// values only in h_i := maxh_i + 1, maxh_i := max(maxh_i, h) and the
// comparison of (h_i, i) with (h, j), and the values they read are live
// ones. If the live values of a configuration of the unbounded model lie
// within window of each other, so do their residues modulo W on the
// circle, every difference the statements take is in -(W-1)/2..(W-1)/2
// and the modular step is the unbounded step taken modulo W; one step
// widens the spread by at most 1 (a new h_i is maxh_i + 1; max and the
// reset of h_i on release add no new value), and W = 2·window+3 leaves
// that margin, so the arc computed from the residues of the next
// configuration is its true spread again. By induction on the length of an
// execution, wherever clock_window holds in every reachable configuration
// the modular model is exactly the unbounded one up to a common shift of
// every clock, which no statement can tell apart, so its deadlock and
// starvation verdicts are the unbounded algorithm's. Where clock_window
// fails, the live clocks spread further than window, and the starvation
// and leads-to verdicts of that run are unknown (clock_window is an
// abstraction invariant): the spread is not bounded by the algorithm when
// n ≥ 3 and M ≥ 2 (a process waiting with an old timestamp that has not
// yet received a free stays live while two others overtake it again and
// again with rising timestamps; n=3, M=2 fails at every window tried, 6, 9
// and 12), so those instances are out of reach of this abstraction. The
// channels hold at most one req and three frees at once (capacity 4 by
// default).
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
// Choices the paper leaves open:
//   - maxh_i is updated only on receiving a request, as the paper writes
//     it ("maxh_i represents the highest logical clock value ever
//     received"); a process's own request does not raise it, so two
//     consecutive requests of a process that has received nothing in
//     between carry the same timestamp.
//   - k_i and h_i are set to 0 on release (the paper leaves them as they
//     are). Both are read only while scdem_i ∨ ok_i (in prio_i, in the
//     release's free(k_i) before the reset, and in §5.1's late req(h_i,
//     i), which needs scdem_i), so the reset changes no behaviour and only
//     merges states; it makes k_i = 0 mean idle in traces.
//   - The paper's k_i has no initial value; it is 0 here, with h_i =
//     maxh_i = 0, used_i = 0, delayed_i = ∅, every channel empty: the
//     paper's "init" clauses.
//   - A request asks for k in 1..K resources, K ≤ M (parameter K, 0 for
//     K = M, the paper's 1 ≤ k_i ≤ M). Requesting is optional (an idle
//     process is never obliged to request), leaving the critical section
//     is finite ("the allocated resources are eventually released").
//   - In §5.1's free handler, "asked_i[j] = true" is read as the assignment
//     asked_i[j] := true. §5.1's request statement may grant the request at
//     once (ok_i := Σ used_i[x] + k_i ≤ M); its receive-request statement
//     has no (XX) branch, as the paper says ("the statement noted XX in the
//     algorithm can be removed").
//   - The safety invariants are the problem's safety property, the units
//     allocated (Σ k_i over processes with ok_i) never exceed M
//     (units_allocated), and the paper's proposition P1, used_i[j] ≥ 0
//     (used_nonnegative), on which its safety proof rests.
//
// Messages per critical section. With count=1 a ghost variable nmsgs (the
// paper's msgs_i) and a ghost field answer of free messages measure the
// paper's "number of messages per use of a set of resources": the req
// messages a request sends plus every free sent in answer to them,
// including a delayed free(k_j) sent when P_j releases. Whoever answers a
// req knows at once how many frees the answer will take (1, or 2 when it
// sends free(M-k_j) now and free(k_j) later), and the first free of each
// answer carries that number as its ghost field (later ones carry 0);
// nmsgs is set to the number of reqs sent at the request, incremented for
// each late req of §5.1 and by the ghost field of each free received. The
// first free of every answer arrives before P_i can enter (its used_i[j]
// stays ≥ M until then), which the invariant count_sound checks, so nmsgs
// while ok_i is the exact count for that use. The ghost changes no
// behaviour.
//
// Results (exhaustive from init; for at most R requests per process unless
// recurring):
//   - With recurring requests, §3 is safe (clock_window included),
//     deadlock-free and starvation-free under weak and strong fairness per
//     action for n=2 and M = 1, 2, 3 and for n=3, M=1 (48,495 states; it
//     is starvation-free there even with no fairness: a request with
//     priority is overtaken a bounded number of times); n=3, M=2 is out of
//     reach (clock_window fails, see above).
//   - Propositions P2 and P4 as leads-to properties (process predicates
//     overtaken and first_fits, --leads-to overtaken,inCS and
//     first_fits,inCS), with recurring requests under fairness per action:
//     both hold for n=2, M=1 and 2, and n=3, M=1. With M=1 the remark
//     after P2 holds as the invariant timestamp_order (the process in its
//     critical section has priority over every waiting one), so P2 is
//     vacuous there; with M ≥ 2 a process is overtaken by a later request
//     and is still eventually served.
//   - §3 is safe (units_allocated and used_nonnegative), deadlock-free and
//     starvation-free (weak fairness) for n=3, M=2, R=2 (1,096,552
//     states, the issue's done criterion), n=4, M=1, R=1 (1,405,161
//     states) and smaller instances; n=4, M=2, R=1 exceeds 43 million
//     states and was not decided.
//   - Finding: §5.1 is NOT safe. Its premise "At the time P_i sends a
//     request it knows already the number of resources used by some P_j
//     if used_i[j] ≠ 0" is false: used_i[j] ≠ 0 may be what remains of
//     the answer to an older request of P_i (a free(k_j) still in
//     transit) while P_j, having released, has made a new request P_i has
//     not received. P_i then enters on that stale count without asking
//     P_j and, in its critical section with the lower priority, answers
//     P_j's request free(M), so P_j enters too. The shortest violation
//     (n=2, M=2, R=2) takes 13 steps; n=3, M=2, R=2 fails as well. With
//     M = 1 or R = 1 the variant holds on the instances tried, and
//     deadlock and starvation freedom hold wherever tried. As §5.1 says,
//     its receive-request statement never meets a req from a process in
//     delayed_i, the case (XX) handled.
//   - Messages per use (exact min..max over every execution, count=1):
//     §3 reaches exactly the paper's 2(n-1)..3(n-1) when M ≥ 2 (n=2: 2..3,
//     n=3: 4..6, also for n=3, M=2, R=2 over 2,115,098 ghost states), and
//     is always 2(n-1) when M = 1 (Ricart–Agrawala: an answer with
//     priority is a single delayed free(M); n=4, M=1, R=1: 6..6). §5.1
//     reaches its claimed bounds 0..3(n-1) only where it is unsafe (n=2,
//     M=2, R=3: 0..3; n=3, M=3, R=2: 0..6); for n=3, M=2, R=2 it is 2..6,
//     and with M = 1 it saves nothing (2(n-1)).
spec raynal "Raynal's k-out-of-M permission algorithm (seed 003, §3; §5.1 with asked=1), for at most R requests per process or, with requests=0, recurring requests"
source "M. Raynal, A distributed solution to the k-out of-M resources allocation problem, INRIA RR-1342 (IRISA PI 559), 1990, §3 and §5.1"

param n = 3 in 2..5 "number of processes (complete graph, one FIFO channel per ordered pair)"
param M = 2 in 1..4 "number of identical resources"
param K = 0 in 0..4 "largest request k, 1 ≤ K ≤ M (0: K = M, any k in 1..M as the paper allows)"
param requests = 2 in 0..4 "R ≥ 1: the number of requests each process makes, after which it stays idle for ever; every result holds for at most R requests per process, and timestamps range over 0..nR. 0: requests recur for ever (a process that leaves may request again), with timestamps kept modulo 2·window+3 under the invariant clock_window (see the comment at the top of the file)"
param window = 0 in 0..30 "with requests=0, the largest spread of the live timestamps the modular clocks represent exactly, checked by the invariant clock_window (0: 2n)"
param asked = 0 in 0..1 "1: the reduced-message variant of §5.1 (asked_i), unsafe for M ≥ 2 and R ≥ 2 (see the comment at the top of the file); 0: the algorithm of §3"
param count = 0 in 0..1 "1: add the ghost counter of messages per critical-section use (msgs_i, and a ghost field in free)"
param Cmax = 0 in 0..64 "channel capacity (0: 3R, R requests and 2R frees, so no send ever finds a channel full, or 4 with requests=0)"
const KK = if K == 0 then M else K
require KK <= M "need 1 ≤ K ≤ M"
const R = requests
// With recurring requests (requests=0), the clocks are kept modulo W.
const Win = if window == 0 then 2 * n else window
const W = 2 * Win + 3
const Clock = if requests == 0 then W - 1 else n * R
const U = if requests == 0 then 2 * M else R * M
const C = if Cmax != 0 then Cmax else if requests == 0 then 4 else 3 * R

topology complete(n)
var scdem: bool "the process waits for its k resources"
var ok: bool "the process uses its k resources"
var k: 0..KK "the units requested or used, 0 when idle"
var h: 0..Clock "the timestamp of its request"
var maxh: 0..Clock "the highest timestamp received"
var reqs: 0..R "the requests made"
var used[peers]: -U..U = 0 "used_i[j], its over-estimate of the units P_j uses"
var delayed[peers]: bool "delayed_i[j]: P_j's request waits for the release"
// asked_i[j] of §5.1, 0..0 (no state) for §3.
var sent[peers]: 0..asked "asked_i[j]: P_i has sent P_j a request it has not answered"
// The ghost msgs_i: 0..0 (no state) without it.
var nmsgs: 0..3 * (n - 1) * count "the messages of the current use"
message req(h: (if requests == 0 then 0 else 1)..Clock)
message free(y: 1..M, answer: 0..2 * count)
channels capacity C overflow error

// The ghost's values: nothing without it.
def tally(x) = if count == 1 then x else 0
// The ghost field of a free(y): how many frees the answer takes when it is
// the answer's first, 0 for a later one.
def answer(y, first) = tally(if !first then 0 else if y < M then 2 else 1)
// The clock after x, and the clock difference x - y: modulo W, taken in
// -(W-1)/2..(W-1)/2, with recurring requests.
def next(x) = if requests == 0 then (x + 1) mod W else x + 1
def diff(x, y) = if requests > 0 then x - y else if (x - y) mod W > W / 2 then (x - y) mod W - W else (x - y) mod W
// (h_i, i) < (t, j): the acting process's request has priority over P_j's.
def prio(t, j) = (scdem || ok) && (diff(t, h) > 0 || diff(t, h) == 0 && self < j)
// §5.1's late request: the last free of an answer arrives while P_i still
// waits and it did not ask P_j.
def late(j, y) = asked == 1 && scdem && used[j] - y == 0 && sent[j] == 0
def u(j, y) = if late(j, y) then M else used[j] - y
// §5.1: the requests a new demand sends and the count it will start from.
def fresh(q) = used[q] == 0
def known = sum q in peers: if fresh(q) then M else used[q]

process all {
  // "when requesting resources": one timestamp maxh_i + 1.
  environment optional action request(kk in 1..KK): !scdem && !ok && (requests == 0 || reqs < R) ->
    h := next(maxh), k := kk,
    if requests > 0 { reqs := reqs + 1 },
    if asked == 0 {
      scdem := true, ok := false,
      for q in peers { used[q] := used[q] + M, send req(next(maxh)) to q },
      nmsgs := tally(n - 1)
    } else {
      for q in peers {
        if fresh(q) { used[q] := M, sent[q] := 1, send req(next(maxh)) to q } else { sent[q] := 0 }
      },
      ok := known + kk <= M,
      scdem := known + kk > M,
      nmsgs := tally(count q in peers: fresh(q))
    }
  // "when releasing the resources"
  environment finite action leave: ok ->
    ok := false,
    for q in peers { if delayed[q] { send free(k, answer(k, k == M)) to q, delayed[q] := false } },
    k := 0, h := 0
  // "when receiving req(h, j) from P_j"
  action recvReq(j in peers): recv req(t) from j ->
    if diff(t, maxh) > 0 { maxh := t },
    if !prio(t, j) {
      send free(M, answer(M, true)) to j
    } else if asked == 0 && delayed[j] {
      // (XX)
      send free(M, answer(M, true)) to j
    } else {
      if k != M { send free(M - k, answer(M - k, true)) to j },
      delayed[j] := true
    }
  // "when receiving free(y) from P_j"
  action recvFree(j in peers): recv free(y, a) from j ->
    used[j] := u(j, y),
    if late(j, y) { send req(h) to j, sent[j] := 1 },
    nmsgs := tally(nmsgs + a + (if late(j, y) then 1 else 0)),
    if scdem && (sum q in peers: if q == j then u(j, y) else used[q]) + k <= M { scdem := false, ok := true }
}

// (h_p, p) < (h_q, q), the clocks compared by their difference.
def before(p, q) = diff(h[p], h[q]) < 0 || diff(h[p], h[q]) == 0 && p < q
// The units allocated: Σ k_i over the processes with ok_i.
def allocated = sum p: if ok[p] then k[p] else 0
// The live clock values of process p: maxh_p, and h_p while it requests
// or uses resources; an arc of window residues from s holds x.
def live(p) = scdem[p] || ok[p]
def within(x, s) = (x - s) mod W <= Win

invariant units_allocated "the units allocated, Σ k_i over processes with ok_i, never exceed M":
  allocated <= M
invariant used_nonnegative "used_i[j] ≥ 0 for every i ≠ j (the paper's proposition P1)":
  forall p: forall q in peers(p): used[p][q] >= 0
// With M=1 only (it holds trivially for M ≥ 2).
invariant timestamp_order "(M=1) a process in its critical section has priority over every waiting one (§4.2, the remark after P2)":
  M != 1 || (forall p: !ok[p] || (forall q: !scdem[q] || before(p, q)))
// With recurring requests only: the live clock values (every maxh_i, h_i
// while requesting or using, h of every req in transit) lie on an arc of
// at most window residues.
abstraction invariant clock_window "(requests=0) the live timestamps lie within window of each other, so the modular clocks compare as unbounded ones":
  requests > 0 || (exists s in 0..W - 1: forall p: within(maxh[p], s) && (!live(p) || within(h[p], s))
    && (forall q in peers(p): forall m in chan(req, p, q): within(m.h, s)))
// With the ghost only (a free without it has no answer field, read as 0).
invariant count_sound "(count=1) no process that is idle or in its critical section has the first free of an answer in transit to it":
  forall p: scdem[p] || (forall q in peers(p): forall m in chan(free, q, p): m.answer == 0)
// With recurring requests, none: an idle process can always request.
valid_end "every process has made its R requests and is idle, and every channel is empty":
  requests > 0 && forall p: reqs[p] == R && !scdem[p] && !ok[p] && (forall q in peers(p): len(p, q) == 0)
predicate overtaken(p) "§4.2 (P2): the process waits while a process whose request has a later timestamp is in its critical section (with --leads-to overtaken,inCS: its condition eventually holds)":
  scdem[p] && (exists q: ok[q] && before(p, q))
predicate first_fits(p) "§4.4 (P4): the process waits, its request has the lowest timestamp of every waiting one, and k_i ≤ the units not granted (with --leads-to first_fits,inCS: it is eventually granted)":
  scdem[p] && k[p] <= M - allocated && (forall q: q == p || !scdem[q] || !before(q, p))
predicate requesting(p) "scdem_i: the process waits for its k_i resources": scdem[p]
predicate inCS(p) "ok_i: the process uses its k_i resources": ok[p]

check safety, deadlock, starvation
claim safety holds from init with n = 3, M = 2, K = 2, requests = 2, asked = 0 "§4.3 (P3): at most M resources are used simultaneously; §4.1 (P1): used_i[j] ≥ 0"
claim deadlock holds from init with n = 3, M = 2, K = 2, requests = 2, asked = 0 "§4.5 (P5): each request is satisfied within finite time, so no process waits for ever"
claim starvation holds from init fairness weak with n = 3, M = 2, K = 2, requests = 2, asked = 0 "§4.5 (P5): each request will be satisfied within finite time; with at most R requests every execution is finite, so this says only that none ends waiting"
claim starvation holds from init fairness weak-action with n = 3, M = 1, requests = 0 "§4.5 (P5), with requests recurring for ever and every message received in finite time: each request will be satisfied within finite time"
// §5.1 also implies the variant is safe; ringcheck refutes that (see the
// Finding above).
claim safety holds found violated from init with n = 3, M = 2, K = 2, requests = 2, asked = 1 "§5.1: P_i \"knows already the number of resources used by P_j if used_i[j] ≠ 0\", so it need not ask P_j"
claim deadlock holds from init with n = 3, M = 2, K = 2, requests = 2, asked = 1 "§5.1: the variant keeps the algorithm's properties (waiting may be longer)"
claim starvation holds from init fairness weak with n = 3, M = 2, K = 2, requests = 2, asked = 1 "§5.1: the variant keeps the algorithm's properties (waiting may be longer); with at most R requests every execution is finite, so this says only that none ends waiting"
