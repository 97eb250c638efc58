// The self-stabilizing k-out-of-ℓ exclusion of Datta, Devismes, Horn and
// Larmore, "K-parmi-L exclusion auto-stabilisante" (AlgoTel 2008), §2: the
// naive token collection, the pusher token, the priority token, and the
// regulator built on Varghese's counter flushing. The twin of the Go spec
// kl-ddhl, whose comment gives every reading this encoding shares (cancel
// first, per-ring reset, created messages ahead of the privilege, a perfect
// timer, lossy channels after a fault, counts saturating at their top).
spec kl-ddhl "self-stabilizing k-out-of-L exclusion: pusher, priority and a counter-flushing regulator"
source "Datta, Devismes, Horn, Larmore, K-parmi-L exclusion auto-stabilisante, AlgoTel 2008, §2 (full protocol)"

param n = 3 in 2..6 "number of processes on the ring"
param L = 2 in 1..6 "number of resource units (tokens)"
param K = 2 in 1..6 "largest request, 1 ≤ K ≤ L"
param Cmax = 0 in 0..32 "channel capacity (0: L+3, every message of a legitimate configuration fits); counters range over 0..n(Cmax+1)-1"
param staycs = 0 in 0..1 "1: processes may stay in their critical section forever (leaving is optional), for (k,L)-liveness"
require K <= L "need 1 ≤ K ≤ L"
const Cap = if Cmax == 0 then L + 3 else Cmax
require Cap >= L + 3 "Cmax cannot hold the initial configuration's L+3 messages on the link from the root"
const M = n * (Cap + 1)

topology ring(n)
// K+1 stands for every corrupted request above K.
var need: 0..K+1
var cnt: 0..K
var prio: bool
var C: 0..M-1 = M - 1
message Token
message Pusher
message Priority
message Priv(c: 0..M-1, tok: 0..L+1, pri: 0..2, mark: 0..1)
channels capacity Cap overflow drop carry Token, Pusher, Priority, Priv

// An unsatisfied request the process may collect tokens for, and a local
// state no execution from a correct configuration produces.
def waiting = need > 0 && need <= K && cnt < need
def corrupt = need > K || cnt > need || (prio && !waiting)

process all {
  // The repair comes before anything else the process does.
  action cancel: corrupt ->
    if need > K || cnt > need { repeat cnt { send Token to succ }, need := 0, cnt := 0 },
    if prio && (need > K || cnt > need || !waiting) { send Priority to succ, prio := false }
  environment optional action request(k in 1..K): need == 0 && cnt == 0 -> need := k
}

// The root counts what it receives since the privilege last left it.
process 0 {
  var tok: 0..L+1
  var pri: 0..2
  var push: 0..2
  var reset: bool
  action collect: recv Token from pred, !reset && !corrupt && waiting ->
    tok := min(tok + 1, L + 1), cnt := cnt + 1,
    if cnt + 1 == need && prio { send Priority to succ, prio := false }
  action forward: recv Token from pred, !reset && !corrupt && !waiting ->
    tok := min(tok + 1, L + 1), send Token to succ
  action push: recv Pusher from pred, !reset && !corrupt ->
    push := min(push + 1, 2),
    if 0 < cnt && cnt < need && !prio { repeat cnt { send Token to succ }, cnt := 0 },
    send Pusher to succ
  action priority: recv Priority from pred, !reset && !corrupt ->
    pri := min(pri + 1, 2),
    if waiting && !prio { prio := true } else { send Priority to succ }
}
process 1..n-1 {
  action collect: recv Token from pred, !corrupt && waiting ->
    cnt := cnt + 1,
    if cnt + 1 == need && prio { send Priority to succ, prio := false }
  action forward: recv Token from pred, !corrupt && !waiting -> send Token to succ
  action push: recv Pusher from pred, !corrupt ->
    if 0 < cnt && cnt < need && !prio { repeat cnt { send Token to succ }, cnt := 0 },
    send Pusher to succ
  action priority: recv Priority from pred, !corrupt ->
    if waiting && !prio { prio := true } else { send Priority to succ }
}
process all {
  // Leaving is finite, or optional with staycs=1: one of the two is never
  // enabled.
  environment finite action leave: staycs == 0 && need > 0 && cnt == need ->
    repeat cnt { send Token to succ }, need := 0, cnt := 0
  environment optional action leave: staycs == 1 && need > 0 && cnt == need ->
    repeat cnt { send Token to succ }, need := 0, cnt := 0
}

// The privilege: counter flushing, the root ending and starting tours.
process 0 {
  action accept: recv Priv(pc, pt, pp, pm) from pred, !corrupt && pc == C ->
    C := (C + 1) mod M,
    if reset {
      repeat L { send Token to succ }, send Pusher to succ, send Priority to succ,
      reset := false, tok := cnt, pri := if prio then 1 else 0, push := 0,
      send Priv((C + 1) mod M, 0, 0, 0) to succ
    } else if min(tok + pt, L + 1) > L || min(pri + pp, 2) > 1 || push > 1 {
      // Too many of some kind: reset the ring.
      reset := true, cnt := 0, prio := false, tok := 0, pri := 0, push := 0,
      send Priv((C + 1) mod M, 0, 0, 1) to succ
    } else {
      // Create what is missing, ahead of the new privilege.
      repeat L - min(tok + pt, L + 1) { send Token to succ },
      if push < 1 { send Pusher to succ },
      if min(pri + pp, 2) < 1 { send Priority to succ },
      tok := cnt, pri := if prio then 1 else 0, push := 0,
      send Priv((C + 1) mod M, 0, 0, 0) to succ
    }
  action ignore: recv Priv(pc, _, _, _) from pred, !corrupt && pc != C -> skip
  // Resetting, the root deletes every message but the privilege.
  action flush: recv Token from pred, reset && !corrupt -> skip
  action flush: recv Pusher from pred, reset && !corrupt -> skip
  action flush: recv Priority from pred, reset && !corrupt -> skip
  // A perfect timer: no privilege anywhere.
  timeout action timeout: !corrupt && (forall p: msgs(Priv, p, succ(p)) == 0) ->
    C := (C + 1) mod M, reset := false, tok := cnt, pri := if prio then 1 else 0, push := 0,
    send Priv((C + 1) mod M, 0, 0, 0) to succ
  // The end of a reset: every message in the channel from the root.
  init: C := 0, repeat L { send Token to succ }, send Pusher to succ, send Priority to succ,
    send Priv(0, 0, 0, 0) to succ
}
process 1..n-1 {
  action accept: recv Priv(pc, pt, pp, pm) from pred, !corrupt && pc != C ->
    C := pc,
    if pm == 1 { cnt := 0, prio := false, send Priv(pc, pt, pp, 1) to succ }
    else { send Priv(pc, min(pt + cnt, L + 1), min(pp + (if prio then 1 else 0), 2), 0) to succ }
  action ignore: recv Priv(pc, _, _, _) from pred, !corrupt && pc == C -> skip
}

def waitingAt(p) = need[p] > 0 && need[p] <= K && cnt[p] < need[p]
def inCSAt(p) = need[p] > 0 && cnt[p] == need[p]
def unitsInUse = sum p: if inCSAt(p) then need[p] else 0
def held(p) = if prio[p] then 1 else 0
// What is still ahead of the privilege in the channel from j: the
// messages before it there, and everything after j up to the root.
def ahead(j) = pos(Priv, j, succ(j))
def aheadTokens(j) = msgs(Token, j, succ(j), ahead(j)) + (sum p: if p > j then msgs(Token, p, succ(p)) + cnt[p] else 0)
def aheadPriorities(j) = msgs(Priority, j, succ(j), ahead(j)) + (sum p: if p > j then msgs(Priority, p, succ(p)) + held(p) else 0)
def aheadPushers(j) = msgs(Pusher, j, succ(j), ahead(j)) + (sum p: if p > j then msgs(Pusher, p, succ(p)) else 0)
def priv(j) = first(Priv, j, succ(j)).c
def legit =
  !reset[0] &&
  (forall p: need[p] <= K && cnt[p] <= need[p] && (!prio[p] || waitingAt(p))) &&
  (sum p: msgs(Priv, p, succ(p))) == 1 &&
  (sum p: msgs(Token, p, succ(p)) + cnt[p]) == L &&
  (sum p: msgs(Pusher, p, succ(p))) == 1 &&
  (sum p: msgs(Priority, p, succ(p)) + held(p)) == 1 &&
  (exists j: msgs(Priv, j, succ(j)) == 1 &&
    first(Priv, j, succ(j)).mark == 0 &&
    (forall p: C[p] == (if p <= j then priv(j) else (priv(j) + M - 1) mod M)) &&
    tok[0] + first(Priv, j, succ(j)).tok + aheadTokens(j) == L &&
    pri[0] + first(Priv, j, succ(j)).pri + aheadPriorities(j) == 1 &&
    push[0] + aheadPushers(j) == 1)

invariant units_in_use "the units held by processes in their critical section never exceed L": unitsInUse <= L
invariant legitimate "the configuration is legitimate, so exactly L tokens exist and a process in its critical section holds exactly its k (cnt = need ≤ K)": legit
legitimate "one privilege in counter flushing's legitimate pattern, unmarked, root not resetting; local states consistent; exactly L Tokens, one Pusher, one Priority; the root's counts plus those still ahead of the privilege exactly L, 1, 1": legit
predicate requesting(p) "the process has an unsatisfied request (0 < need ≤ K, cnt < need)": waitingAt(p)
predicate inCS(p) "the process is in its critical section (0 < need = cnt)": inCSAt(p)
predicate servedOrFull(p) "the process is in its critical section or needs more units than are free (need > L - units in use); requesting ~> servedOrFull is (k,L)-liveness for the process": inCSAt(p) || need[p] > L - unitsInUse

check safety, deadlock, starvation
claim safety holds from init with n = 3, L = 2, K = 2 "§1: each unit used by at most one process, at most L units at once"
claim deadlock holds from init with n = 3, L = 2, K = 2 "§2: the pusher token prevents global deadlock"
claim starvation holds from init fairness weak with n = 3, L = 2, K = 2 "§1 vivacité and §2: the priority token cancels the pusher's starvation (Figure 2)"
claim closure holds from all with n = 3, L = 2, K = 2 "§2: once the counts are right the system is stabilized"
claim convergence holds from all with n = 3, L = 2, K = 2 "§2: stabilizes from any configuration in at most 4n rounds"
