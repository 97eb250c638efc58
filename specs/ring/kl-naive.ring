// ringcheck's spec kl-naive: the naive token-collection k-out-of-ℓ exclusion
// protocol of Datta, Devismes, Horn and Larmore, "K-parmi-L exclusion
// auto-stabilisante" (AlgoTel 2008), section 2, "Une solution
// simple non auto-stabilisante", whose Figure 1 shows it deadlocking.
//
// L resource tokens (messages of type Token, no fields) circulate on a
// unidirectional ring of n processes with FIFO channels. Each process has
// Need (0..K, the units it requests, 0 when idle) and Cnt (0..K, the tokens
// it has reserved). In the paper's words: while Cnt < Need, the process
// collects the tokens it receives, incrementing Cnt; when Cnt = Need it is in
// its critical section; when the critical section ends it sends the tokens
// it holds to its successor and resets Cnt and Need to 0; a process that is
// not requesting forwards the tokens it receives.
//
// Actions of process i (all atomic, central daemon, interleaving):
//
//	request(k)  environment  Need = 0 ∧ Cnt = 0        → Need := k        (k in 1..K)
//	collect     protocol     head(in) = Token ∧ Cnt < Need → receive; Cnt := Cnt+1
//	forward     protocol     head(in) = Token ∧ Cnt ≥ Need → receive; send Token to i+1
//	leave       environment  Need > 0 ∧ Cnt = Need     → send Cnt Tokens to i+1; Need, Cnt := 0, 0
//
// Choices the paper leaves open, pinned by tests:
//   - The initial configuration has every process idle and the L tokens
//     dealt round-robin onto the links: token j is in the channel into
//     process j mod n. For n = L = 5 that is one token per link, the left
//     half of Figure 1.
//   - Channel capacity Cmax defaults to L, so a channel can hold every
//     token and no send ever finds it full; the overflow policy is block
//     (the CLI can override it).
//   - "In critical section" is Need > 0 ∧ Cnt = Need; the safety invariant
//     is that the units in use, the sum of Need over processes in their
//     critical section, never exceed L.
//   - Requesting is optional (an idle process may stay idle forever) and
//     leaving the critical section is finite (always weakly fair), as
//     the actions' roles optional and finite say; "requesting" is 0 < Need ∧
//     Cnt < Need and "inCS" is 0 < Need = Cnt, the predicates of starvation.
//   - No state is a valid end state: a reachable state where nothing is
//     enabled is a deadlock. An idle process can always request, so a
//     deadlock has every process requesting and waiting.
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

// Every process runs the same actions, which read processes only
// relative to the acting one: the processes are interchangeable under
// rotation, and symmetry reduction stores one configuration per orbit.
symmetry rotation
