// Raynal's permission-based k-out-of-M resource allocation (INRIA RR-1342,
// 1990), §3, and with asked = 1 the reduced-message variant of §5.1: the
// twin of the Go spec raynal, whose comment gives the readings this
// encoding shares (at most R requests per process, timestamps in 0..nR,
// k_i and h_i reset on release, maxh_i raised only by a received request).
// Process ids are 0..n-1 for the paper's 1..n; the sender j of req(h, j) is
// the channel it arrives on.
spec raynal "Raynal's k-out-of-M permission algorithm (§3; §5.1 with asked=1), for at most R requests per process"
source "M. Raynal, A distributed solution to the k-out of-M resources allocation problem, INRIA RR-1342 (IRISA PI 559), 1990, §3 and §5.1"

param n = 3 in 2..5 "number of processes (complete graph, one FIFO channel per ordered pair)"
param M = 2 in 1..4 "number of identical resources"
param K = 0 in 0..4 "largest request k, 1 ≤ K ≤ M (0: K = M)"
param requests = 2 in 1..4 "R, the number of requests each process makes, after which it stays idle for ever"
param asked = 0 in 0..1 "1: the reduced-message variant of §5.1 (asked_i); 0: the algorithm of §3"
param ghost = 0 in 0..1 "1 (the Go spec's count=1): the ghost counter of messages per critical-section use (msgs_i, and a ghost field in free)"
param Cmax = 0 in 0..64 "channel capacity (0: 3R, R requests and 2R frees, so no send ever finds a channel full)"
const KK = if K == 0 then M else K
require KK <= M "need 1 ≤ K ≤ M"
const R = requests
const Clock = n * R
const C = if Cmax == 0 then 3 * R else Cmax

topology complete(n)
var scdem: bool "the process waits for its k resources"
var ok: bool "the process uses its k resources"
var k: 0..KK "the units requested or used, 0 when idle"
var h: 0..Clock "the timestamp of its request"
var maxh: 0..Clock "the highest timestamp received"
var reqs: 0..R "the requests made"
var used[peers]: -R * M..R * M = 0 "used_i[j], its over-estimate of the units P_j uses"
var delayed[peers]: bool "delayed_i[j]: P_j's request waits for the release"
// asked_i[j] of §5.1, 0..0 (no state) for §3.
var sent[peers]: 0..asked "asked_i[j]: P_i has sent P_j a request it has not answered"
// The ghost: 0..0 (no state) without it.
var nmsgs: 0..3 * (n - 1) * ghost "the messages of the current use"
message req(h: 1..Clock)
message free(y: 1..M, answer: 0..2 * ghost)
channels capacity C overflow error

// The ghost's values: nothing without it.
def tally(x) = if ghost == 1 then x else 0
// The ghost field of a free(y): how many frees the answer takes when it is
// the answer's first, 0 for a later one.
def answer(y, first) = tally(if !first then 0 else if y < M then 2 else 1)
// (h_i, i) < (t, j): the acting process's request has priority over P_j's.
def prio(t, j) = (scdem || ok) && (h < t || h == t && self < j)
// §5.1's late request: the last free of an answer arrives while P_i still
// waits and it did not ask P_j.
def late(j, y) = asked == 1 && scdem && used[j] - y == 0 && sent[j] == 0
def u(j, y) = if late(j, y) then M else used[j] - y
// §5.1: the requests a new demand sends and the count it will start from.
def fresh(q) = used[q] == 0
def known = sum q in peers: if fresh(q) then M else used[q]

process all {
  // "when requesting resources": one timestamp maxh_i + 1.
  environment optional action request(kk in 1..KK): !scdem && !ok && reqs < R ->
    h := maxh + 1, reqs := reqs + 1, k := kk,
    if asked == 0 {
      scdem := true, ok := false,
      for q in peers { used[q] := used[q] + M, send req(maxh + 1) to q },
      nmsgs := tally(n - 1)
    } else {
      for q in peers {
        if fresh(q) { used[q] := M, sent[q] := 1, send req(maxh + 1) to q } else { sent[q] := 0 }
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
    if t > maxh { maxh := t },
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

invariant units_allocated "the units allocated, Σ k_i over processes with ok_i, never exceed M":
  (sum p: if ok[p] then k[p] else 0) <= M
invariant used_nonnegative "used_i[j] ≥ 0 for every i ≠ j (proposition P1)":
  forall p: forall q in peers(p): used[p][q] >= 0
valid_end "every process has made its R requests and is idle, and every channel is empty":
  forall p: reqs[p] == R && !scdem[p] && !ok[p] && (forall q in peers(p): len(p, q) == 0)
predicate requesting(p) "scdem_i: the process waits for its k_i resources": scdem[p]
predicate inCS(p) "ok_i: the process uses its k_i resources": ok[p]

check safety, deadlock, starvation
claim safety holds from init with n = 3, M = 2, K = 2, requests = 2, asked = 0 "§4.3 (P3): at most M resources are used simultaneously; §4.1 (P1): used_i[j] ≥ 0"
claim deadlock holds from init with n = 3, M = 2, K = 2, requests = 2, asked = 0 "§4.5 (P5): each request is satisfied within finite time, so no process waits for ever"
claim starvation holds from init fairness weak with n = 3, M = 2, K = 2, requests = 2, asked = 0 "§4.5 (P5): each request will be satisfied within finite time"
// ringcheck refutes §5.1's premise: see the Go spec raynal's comment.
claim safety holds found violated from init with n = 3, M = 2, K = 2, requests = 2, asked = 1 "§5.1: P_i \"knows already the number of resources used by P_j if used_i[j] ≠ 0\", so it need not ask P_j"
claim deadlock holds from init with n = 3, M = 2, K = 2, requests = 2, asked = 1 "§5.1: the variant keeps the algorithm's properties (waiting may be longer)"
claim starvation holds from init fairness weak with n = 3, M = 2, K = 2, requests = 2, asked = 1 "§5.1: the variant keeps the algorithm's properties (waiting may be longer)"
