// The spec raynal-and: the generalized AND-allocation of Raynal's
// k-out-of-M paper (M. Raynal, "A distributed solution to the k-out of-M
// resources allocation problem", INRIA RR-1342 / IRISA PI 559, 1990, seed
// 003), §6: several resource types R(1..T), M(α) identical units of type
// R(α), and a demand asks at once for k(α) units of each type, the process
// staying blocked until it has them all. The solution is §3's algorithm
// (raynal.ring, asked=0) run once per type, with one timestamp per demand
// shared by every type, "Giving a unique timestamp to each demand allow to
// solve all the conflicts in the same way whatever is (or are) the
// resource(s) concerned". The statements are raynal.ring's, once per
// type.
//
// With requests=0, demands recur for ever and the clocks are kept modulo
// W under the invariant clock_window, as in raynal.ring (whose comment
// gives the argument and its limit): for n=2, types=2, M = 1 and
// 2, clock_window holds and the spec is deadlock- and starvation-free
// under weak fairness per action; for n=3, types=2, M=1 clock_window fails
// (17,683,320 states), so that instance is out of reach.
//
// n processes on a complete graph, reliable FIFO channels, one per ordered
// pair; every process shares every type (GR(α) is every process). Every
// type has the same number M of units (parameter M) and a demand asks for
// 0..K units of each type, at least one unit in all (parameter K ≤ M).
// Process i has h_i, maxh_i (shared by the types) and, per type α,
// scdem_i(α), ok_i(α), k_i(α), used_i(α)[j] and delayed_i(α) (one boolean
// per j ≠ i); reqs_i counts its demands. Messages are req(α, h) and
// free(α, y), "Messages req and free take the resource type concerned as a
// parameter. Statements associated to the reception of these messages use
// the data structures associated to the type of resources defined by the
// corresponding parameter."
//
// Actions of process i (each atomic; central daemon, interleaving):
//
//	request(c)  environment, optional  idle ∧ reqs < R   → §6's "when requesting resources"; reqs++
//	leave       environment, finite    in CS             → §3's release, for every type
//	recvReq(j)  protocol               head(j→i) = req   → §3's receipt of req, for the message's type
//	recvFree(j) protocol               head(j→i) = free  → §3's receipt of free, for the message's type
//
// §6's request statement, for the types α with k(α) > 0 (the types the
// demand names): h_i := maxh_i + 1; scdem_i(α) := true; ok_i(α) := false;
// for every j ≠ i, used_i(α)[j] += M and send req(α, h_i) to P_j, the
// types in increasing order, so on each channel the demand's reqs travel in
// type order. "wait (ok_i(α) and ok_i(β))": the process is in its critical
// section when ok_i(α) holds for every type it asked for. The paper gives
// no release statement for §6 ("the other texts are obtained in the same
// way"): leave does §3's release for each type, ok_i(α) := false and
// free(α, k_i(α)) to every j ∈ delayed_i(α), delayed_i(α) := ∅.
//
// Bounds: as in raynal.ring, every process makes at most R demands
// (parameter requests), so every result holds "for at most R requests per
// process"; timestamps range over 0..nR (the m-th demand of an execution
// has a timestamp of at most m), used_i(α)[j] over [-RM, RM], and each
// channel's capacity defaults to 3RT (R reqs and 2R frees per type), with
// overflow policy error. Every execution is finite, so the valid end
// states are those where every process has made its R demands and is idle
// and every channel is empty; any other state with no enabled step is a
// deadlock.
//
// Choices the paper leaves open, pinned by tests:
//   - A type the demand does not name (k(α) = 0) is untouched: no req,
//     scdem_i(α) and ok_i(α) stay false, so a req(α) received is answered
//     free(α, M) at once (prio_i is false).
//   - ok_i(α), once set, stays until the release, even while the process
//     waits for other types; the resources of type α are then allocated to
//     it, and the per-type safety invariant counts them: for each type α,
//     Σ k_i(α) over the processes with ok_i(α) never exceeds M
//     (units_allocated). This is stronger than counting only processes in
//     their critical section.
//   - k_i(α) and h_i are reset to 0 on release (read only while some
//     scdem_i(α) ∨ ok_i(α)), as in raynal.ring; maxh_i is raised only by
//     the requests received, as the paper writes it.
//   - requesting(p) is "some scdem_p(α)", inCS(p) is "p has a demand and
//     ok_p(α) for every type it names".
//
// Results (exhaustive from init, weak fairness for starvation, for at most
// R requests per process): per-type safety, deadlock freedom and
// starvation freedom hold on every instance tried: n=2 with 2 or 3 types,
// M ≤ 2, R ≤ 3 (TestAndAllocationHolds); n=3, 2 types, M=1, R=1 (289,529
// states, the claim instance); n=3, 2 types, M=1, R=2 (5,738,255 states,
// about 4 minutes); n=3, 2 types, M=2, R=1 (15,001,860 states, about 7.5
// minutes). With one type the model is raynal.ring's §3
// exactly (TestOneTypeIsRaynal, in specs/raynaland).
//
// Encoding. Process ids are 0..n-1 and types 0..T-1 for the paper's 1..n
// and 1..T; the sender j of req(α, h) is the channel it arrives on;
// scdem_i(α), ok_i(α), k_i(α), used_i(α)[j] and delayed_i(α)[j] are
// scdem[α], ok[α], k[α], used[α][j] and delayed[α][j]. The demand
// k(0..T-1) is one choice c in 1..(K+1)^T - 1, labelled request(c=C),
// whose digits in base K+1 are the k(α), k(0) the most significant.
// used[α][j] and delayed[α][j] have an entry for j = self, never read nor
// assigned.
spec raynal-and "Raynal's generalized AND-allocation over several resource types (seed 003, §6), for at most R requests per process or, with requests=0, recurring demands"
source "M. Raynal, A distributed solution to the k-out of-M resources allocation problem, INRIA RR-1342 (IRISA PI 559), 1990, §6"

param n = 3 in 2..4 "number of processes (complete graph, one FIFO channel per ordered pair)"
param types = 2 in 1..3 "number of resource types"
param M = 1 in 1..3 "number of identical units of each type"
param K = 0 in 0..3 "largest number of units of one type a demand asks for, K ≤ M (0: K = M); a demand asks for 0..K of each type, at least one unit in all"
param requests = 1 in 0..3 "R ≥ 1: the number of demands each process makes, after which it stays idle for ever; every result holds for at most R requests per process, and timestamps range over 0..nR. 0: demands recur for ever (a process that leaves may demand again), with timestamps kept modulo 2·window+3 under the invariant clock_window (see the comment at the top of the file)"
param window = 0 in 0..30 "with requests=0, the largest spread of the live timestamps the modular clocks represent exactly, checked by the invariant clock_window (0: 2n)"
param Cmax = 0 in 0..64 "channel capacity (0: 3R per type, so no send ever finds a channel full, or 4 per type with requests=0)"
const KK = if K == 0 then M else K
require KK <= M "need 1 ≤ K ≤ M"
const T = types
const R = requests
// With recurring demands (requests=0), the clocks are kept modulo W.
const Win = if window == 0 then 2 * n else window
const W = 2 * Win + 3
const Clock = if requests == 0 then W - 1 else n * R
const U = if requests == 0 then 2 * M else R * M
const C = if Cmax != 0 then Cmax else if requests == 0 then 4 * T else 3 * R * T
// The number of demands plus one: (K+1)^T.
const B = KK + 1
const D = if T == 1 then B else if T == 2 then B * B else B * B * B

topology complete(n)
var h: 0..Clock "the timestamp of its demand, shared by every type"
var maxh: 0..Clock "the highest timestamp received"
var reqs: 0..R "the demands made"
var scdem[0..T - 1]: bool "scdem_i(α): the process waits for resources of type α"
var ok[0..T - 1]: bool "ok_i(α): the resources of type α are allocated to it"
var k[0..T - 1]: 0..KK "k_i(α): the units of type α requested or used, 0 when idle"
var used[0..T - 1][0..n - 1]: -U..U = 0 "used_i(α)[j], its over-estimate of the units of type α P_j uses"
var delayed[0..T - 1][0..n - 1]: bool "delayed_i(α)[j]: P_j's request for type α waits for the release"
message req(type: 0..T - 1, h: (if requests == 0 then 0 else 1)..Clock)
message free(type: 0..T - 1, y: 1..M)
channels capacity C overflow error

// k(a) of demand c: digit a of c in base K+1, k(0) the most significant.
def place(a) = if a == T - 1 then 1 else if a == T - 2 then B else B * B
def demand(c, a) = c / place(a) mod B
def idle = forall a in 0..T - 1: !scdem[a] && !ok[a]
// The clock after x, and the clock difference x - y: modulo W, taken in
// -(W-1)/2..(W-1)/2, with recurring demands.
def next(x) = if requests == 0 then (x + 1) mod W else x + 1
def diff(x, y) = if requests > 0 then x - y else if (x - y) mod W > W / 2 then (x - y) mod W - W else (x - y) mod W
// (h_i, i) < (t, j) for type a: the acting process's demand has priority
// over P_j's.
def prio(a, t, j) = (scdem[a] || ok[a]) && (diff(t, h) > 0 || diff(t, h) == 0 && self < j)
// The live clock values of process p: maxh_p, and h_p while it requests
// or uses resources of some type.
def live(p) = exists a in 0..T - 1: scdem[p][a] || ok[p][a]
def within(x, s) = (x - s) mod W <= Win

process all {
  // §6's "when requesting resources": one timestamp maxh_i + 1 for the
  // demand, then §3's statement for each type it names, in type order.
  environment optional action request(c in 1..D - 1): (requests == 0 || reqs < R) && idle ->
    h := next(maxh),
    if requests > 0 { reqs := reqs + 1 },
    // The types one by one (a for loop assigns an entry of one index of
    // used only): type 1 if T > 1, type 2 if T > 2.
    if true {
      k[0] := demand(c, 0),
      if demand(c, 0) > 0 {
        scdem[0] := true, ok[0] := false,
        for q in peers { used[0][q] := used[0][q] + M, send req(0, next(maxh)) to q }
      }
    },
    if T > 1 {
      k[1] := demand(c, 1),
      if demand(c, 1) > 0 {
        scdem[1] := true, ok[1] := false,
        for q in peers { used[1][q] := used[1][q] + M, send req(1, next(maxh)) to q }
      }
    },
    if T > 2 {
      k[2] := demand(c, 2),
      if demand(c, 2) > 0 {
        scdem[2] := true, ok[2] := false,
        for q in peers { used[2][q] := used[2][q] + M, send req(2, next(maxh)) to q }
      }
    }
  // §3's "when releasing the resources", for every type.
  environment finite action leave: (exists a in 0..T - 1: k[a] > 0) && (forall a in 0..T - 1: k[a] == 0 || ok[a]) ->
    if true {
      ok[0] := false,
      for q in peers { if delayed[0][q] { send free(0, k[0]) to q, delayed[0][q] := false } },
      k[0] := 0
    },
    if T > 1 {
      ok[1] := false,
      for q in peers { if delayed[1][q] { send free(1, k[1]) to q, delayed[1][q] := false } },
      k[1] := 0
    },
    if T > 2 {
      ok[2] := false,
      for q in peers { if delayed[2][q] { send free(2, k[2]) to q, delayed[2][q] := false } },
      k[2] := 0
    },
    h := 0
  // §3's "when receiving req(h, j) from P_j", on the message's type.
  action recvReq(j in peers): recv req(a, t) from j ->
    if diff(t, maxh) > 0 { maxh := t },
    if !prio(a, t, j) {
      send free(a, M) to j
    } else if delayed[a][j] {
      // (XX)
      send free(a, M) to j
    } else {
      if k[a] != M { send free(a, M - k[a]) to j },
      delayed[a][j] := true
    }
  // §3's "when receiving free(y) from P_j", on the message's type.
  action recvFree(j in peers): recv free(a, y) from j ->
    used[a][j] := used[a][j] - y,
    if scdem[a] && (sum q in peers: if q == j then used[a][j] - y else used[a][q]) + k[a] <= M {
      scdem[a] := false, ok[a] := true
    }
}

invariant units_allocated "for every type α, Σ k_i(α) over processes with ok_i(α) never exceeds M":
  forall a in 0..T - 1: (sum p: if ok[p][a] then k[p][a] else 0) <= M
invariant used_nonnegative "used_i(α)[j] ≥ 0 for every type and i ≠ j (proposition P1 per type)":
  forall a in 0..T - 1: forall p: forall q in peers(p): used[p][a][q] >= 0
// With recurring demands, clock_window: the live clock values (every
// maxh_i, h_i while requesting or using, h of every req in transit) lie
// on an arc of at most window residues.
abstraction invariant clock_window "(requests=0) the live timestamps lie within window of each other, so the modular clocks compare as unbounded ones":
  requests > 0 || (exists s in 0..W - 1: forall p: within(maxh[p], s) && (!live(p) || within(h[p], s))
    && (forall q in peers(p): forall m in chan(req, p, q): within(m.h, s)))
// With recurring demands, none: an idle process can always request.
valid_end "every process has made its R demands and is idle, and every channel is empty":
  requests > 0 && forall p: reqs[p] == R && (forall a in 0..T - 1: !scdem[p][a] && !ok[p][a]) && (forall q in peers(p): len(p, q) == 0)
predicate requesting(p) "some scdem_i(α): the process waits for resources": exists a in 0..T - 1: scdem[p][a]
predicate inCS(p) "the process has a demand and ok_i(α) for every type it names":
  (exists a in 0..T - 1: k[p][a] > 0) && (forall a in 0..T - 1: k[p][a] == 0 || ok[p][a])

check safety, deadlock, starvation
claim safety holds from init with n = 3, types = 2, M = 1, K = 1, requests = 1 "§6: §3's algorithm per type, whose safety (§4.3) holds for each type"
claim deadlock holds from init with n = 3, types = 2, M = 1, K = 1, requests = 1 "§6: a unique timestamp per demand resolves every conflict the same way for all types, so no circular wait"
claim starvation holds from init fairness weak with n = 3, types = 2, M = 1, K = 1, requests = 1 "§6 with §4.5: every demand is satisfied within finite time; with at most R requests every execution is finite, so this says only that none ends waiting"
claim starvation holds from init fairness weak-action with n = 2, types = 2, M = 2, requests = 0 "§6 with §4.5, with demands recurring for ever and every message received in finite time"
