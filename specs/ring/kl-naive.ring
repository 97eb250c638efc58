// The naive token-collection k-out-of-ℓ exclusion of Datta, Devismes, Horn
// and Larmore, "K-parmi-L exclusion auto-stabilisante" (AlgoTel 2008), §2,
// "Une solution simple non auto-stabilisante", which deadlocks in its
// Figure 1: the twin of the Go spec kl-naive, whose comment gives the
// readings this encoding shares (tokens dealt round-robin, requesting
// optional, leaving finite, blocking channels able to hold every token).
spec kl-naive "naive token-collection k-out-of-L exclusion (seed 001, Figure 1: deadlocks)"
source "Datta, Devismes, Horn, Larmore, K-parmi-L exclusion auto-stabilisante, AlgoTel 2008, §2 and Figure 1"

param n = 5 in 2..8 "number of processes on the ring"
param L = 5 in 1..8 "number of resource units (tokens)"
param K = 3 in 1..8 "largest request, 1 ≤ K ≤ L"
param Cmax = 0 in 0..16 "channel capacity (0: L, so no send ever blocks)"
require K <= L "need 1 ≤ K ≤ L"
const C = if Cmax == 0 then L else Cmax
require C >= (L + n - 1) / n "Cmax cannot hold the tokens the initial configuration puts on a link"

topology ring(n)
var need: 0..K "the units requested, 0 when idle"
var cnt: 0..K "the tokens reserved"
message Token
channels capacity C overflow block

process all {
  environment optional action request(k in 1..K): need == 0 && cnt == 0 -> need := k
  action collect: recv Token from pred, cnt < need -> cnt := cnt + 1
  action forward: recv Token from pred, cnt >= need -> send Token to succ
  environment finite action leave: need > 0 && cnt == need -> repeat cnt { send Token to succ }, need := 0, cnt := 0
  // Token j in the channel into process j mod n.
  init: repeat (L - succ + n - 1) / n { send Token to succ }
}

invariant units_in_use "the units held by processes in their critical section never exceed L":
  (sum p: if need[p] > 0 && cnt[p] == need[p] then need[p] else 0) <= L
predicate requesting(p) "the process has requested units and is not yet in its critical section (0 < need, cnt < need)":
  need[p] > 0 && cnt[p] < need[p]
predicate inCS(p) "the process is in its critical section (0 < need = cnt)":
  need[p] > 0 && cnt[p] == need[p]

check safety, deadlock
claim deadlock violated from init with n = 5, L = 5, K = 3 "Figure 1: each token on its own link, every process requesting 2, each keeps one and waits"
claim safety holds from init with n = 5, L = 5, K = 3 "tokens are conserved, so at most L units are in use"
