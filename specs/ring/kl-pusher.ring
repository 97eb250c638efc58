// The naive token collection of Datta, Devismes, Horn and Larmore,
// "K-parmi-L exclusion auto-stabilisante" (AlgoTel 2008), §2, with the
// pusher token ("jeton pousseur") that breaks the deadlock of its Figure 1,
// and whose starvation scenario is its Figure 2: the twin of the Go spec
// kl-pusher, whose comment gives the readings this encoding shares.
spec kl-pusher "naive k-out-of-L exclusion plus the pusher token (seed 001: no deadlock, Figure 2: starvation)"
source "Datta, Devismes, Horn, Larmore, K-parmi-L exclusion auto-stabilisante, AlgoTel 2008, §2 (jeton pousseur) and Figure 2"

param n = 3 in 2..6 "number of processes on the ring"
param L = 3 in 1..6 "number of resource units (tokens)"
param K = 2 in 1..6 "largest request, 1 ≤ K ≤ L"
param Cmax = 0 in 0..16 "channel capacity (0: L+1, every token and the pusher, so no send ever blocks)"
require K <= L "need 1 ≤ K ≤ L"
const C = if Cmax == 0 then L + 1 else Cmax
require C >= (L + n - 1) / n + 1 "Cmax cannot hold the tokens and the pusher the initial configuration puts on the link into process 0"

topology ring(n)
var need: 0..K "the units requested, 0 when idle"
var cnt: 0..K "the tokens reserved"
message Token
message Pusher
channels capacity C overflow block carry Token, Pusher

process all {
  environment optional action request(k in 1..K): need == 0 && cnt == 0 -> need := k
  action collect: recv Token from pred, cnt < need -> cnt := cnt + 1
  action forward: recv Token from pred, cnt >= need -> send Token to succ
  // A process holding tokens outside its critical section releases them
  // ahead of the pusher.
  action push: recv Pusher from pred ->
    if 0 < cnt && cnt < need { repeat cnt { send Token to succ }, cnt := 0 },
    send Pusher to succ
  environment finite action leave: need > 0 && cnt == need -> repeat cnt { send Token to succ }, need := 0, cnt := 0
  // Token j in the channel into process j mod n.
  init: repeat (L - succ + n - 1) / n { send Token to succ }
}
// The pusher behind the tokens on the link into process 0.
process n-1 {
  init: send Pusher to succ
}

invariant units_in_use "the units held by processes in their critical section never exceed L":
  (sum p: if need[p] > 0 && cnt[p] == need[p] then need[p] else 0) <= L
invariant one_pusher "exactly one Pusher message is in the system":
  (sum p: msgs(Pusher, p, succ(p))) == 1
predicate requesting(p) "the process has requested units and is not yet in its critical section (0 < need, cnt < need)":
  need[p] > 0 && cnt[p] < need[p]
predicate inCS(p) "the process is in its critical section (0 < need = cnt)":
  need[p] > 0 && cnt[p] == need[p]

check safety, deadlock, starvation
claim deadlock holds from init with n = 3, L = 3, K = 2 "§2: the pusher prevents the global deadlock of Figure 1"
claim safety holds from init with n = 3, L = 3, K = 2 "tokens and the pusher are conserved, so at most L units are in use"
claim starvation violated from init fairness weak with n = 3, L = 3, K = 2 "Figure 2: processes 0 and 1 need one token, process 2 two; the pusher makes 2 release its token forever"
