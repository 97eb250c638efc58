// ringcheck's spec kl-pusher: the naive token-collection k-out-of-ℓ exclusion
// protocol of Datta, Devismes, Horn and Larmore, "K-parmi-L exclusion
// auto-stabilisante" (AlgoTel 2008), section 2, extended with the
// pusher token ("jeton pousseur") that the paper adds to break the deadlock
// of its Figure 1, and whose starvation scenario is its Figure 2.
//
// The naive protocol is exactly the one of kl-naive.ring: L resource tokens
// (messages of type Token) circulate on a unidirectional ring of n
// processes with FIFO channels; each process has Need (0..K) and Cnt (0..K).
// One more message, of type Pusher, circulates forever and is not a
// resource unit. In the paper's words: when process i receives the pusher,
// if it holds resource tokens without being in its critical section
// (0 < Cnt_i < Need_i) it immediately sends them to its successor i+1; in
// all cases it then sends the pusher on.
//
// Actions of process i (all atomic, central daemon, interleaving):
//
//	request(k)  environment  Need = 0 ∧ Cnt = 0            → Need := k        (k in 1..K)
//	collect     protocol     head(in) = Token ∧ Cnt < Need  → receive; Cnt := Cnt+1
//	forward     protocol     head(in) = Token ∧ Cnt ≥ Need  → receive; send Token to i+1
//	push        protocol     head(in) = Pusher              → receive; if 0 < Cnt < Need:
//	                                                          send Cnt Tokens to i+1, Cnt := 0;
//	                                                          then send Pusher to i+1
//	leave       environment  Need > 0 ∧ Cnt = Need          → send Cnt Tokens to i+1; Need, Cnt := 0, 0
//
// Choices the paper leaves open, pinned by tests:
//   - Receiving the pusher is one atomic step: the receipt, the release of
//     the tokens (all Cnt of them, Cnt := 0, Need unchanged so the process
//     stays requesting) and the send of the pusher, in that order, so the
//     released tokens travel ahead of the pusher on the link to i+1.
//   - The initial configuration has every process idle, the L tokens dealt
//     round-robin onto the links as in kl-naive (token j in the channel
//     into process j mod n), and the pusher at the tail of the channel into
//     process 0, behind the tokens there. For n = L = 3 that is one token
//     per link and the pusher in transit from 2 to 0 behind a token, the
//     placement of Figure 2's configuration (a); the requests of (a)
//     (processes 0 and 1 request one unit, process 2 two) are made by the
//     request action, so (a) is reachable rather than initial.
//   - Channels carry both Token and Pusher. Cmax defaults to L+1, so a
//     channel can hold every token and the pusher: since tokens and the
//     pusher are conserved, at most L+1 messages are ever in transit and no
//     send ever finds its channel full. The overflow policy is block (the
//     CLI can override it): with the default capacity it never applies in
//     an execution from init, and with a smaller Cmax a full channel delays
//     the sender instead of destroying a token or the pusher, which would
//     break the conservation the protocol relies on.
//   - "In critical section" is Need > 0 ∧ Cnt = Need; the safety invariants
//     are that the units in use, the sum of Need over processes in their
//     critical section, never exceed L, and that exactly one Pusher message
//     is in the system.
//   - Requesting is optional and leaving the critical section is finite,
//     as in kl-naive; "requesting" is
//     0 < Need ∧ Cnt < Need and "inCS" is 0 < Need = Cnt.
//   - No state is a valid end state. The pusher is always in some channel
//     and receiving it is always enabled (with Cmax ≥ L+1 its sends cannot
//     block), so no state reachable from init is a deadlock: the pusher
//     turns Figure 1's deadlock into configurations from which it pushes
//     the held tokens on until some process enters its critical section.
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

// Every process runs the same actions, which read processes only
// relative to the acting one: the processes are interchangeable under
// rotation, and symmetry reduction stores one configuration per orbit.
symmetry rotation
