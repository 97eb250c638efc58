// ringcheck's spec kl-dhv: Datta, Hadid and Villain, "A Self-stabilizing
// Token-Based k-out-of-ℓ Exclusion Algorithm" (Euro-Par 2002, LNCS 2400):
// the parametric composition Controller ▷ ℓ-Token-Circulation
// (Algorithms 2, 3 and 4) on a unidirectional ring of n processes, process
// 0 being Root, with one FIFO channel of capacity Cmax (Cap) from each
// process to its successor.
//
// Variables. Every process: STATE ∈ {Out, Request, In} and NEED ∈ 1..K
// (the application's functions STATE() and NEED()), T_h and T_d (Th, Td:
// 0..K), MySeq (0..MaxSeq), MyOrder (0/1). Root also: C_e, C_f (Ce, Cf:
// 0..ℓ, or 0..ℓ+1 with ctop=1), MyT_c (MyTc: 0..MaxV_c), MyT_a (MyTa:
// 0..min(2·MaxV_c, ℓ)). Messages: <CToken, Seq>, <Enabled_Token>,
// <Token>, <Collect, T_c>, <Allocate, T_a, Order>, <Disable>; every channel
// may carry all six.
//
// Actions, in the text's order (Root: A_c1 A_c2 A_c3 A_l1..A_l6; the
// others: A_c4 A_c5 A_l7..A_l12), with `_` for `-` in the names of the
// implicit receipts (A_c1_stale, A_c4_dup). "Only the first enabled action
// (as per the text of the protocol) is executed" is `first_enabled` (see
// "First-enabled rule" below), which reads the declaration order. Effects
// are simultaneous: every expression reads the configuration before the
// step.
//
//	A_c1   <CToken,Seq>, Seq = MySeq → MySeq := MySeq+1 mod (MaxSeq+1); START; send <CToken,MySeq>
//	A_c1_stale <CToken,Seq>, Seq ≠ MySeq → receive (discard)
//	A_c2   <Enabled_Token> → COUNT-ET: C_e := min(C_e+1, ℓ)
//	A_c3   timeout (no CToken anywhere) → MySeq := MySeq+1; send <CToken,MySeq>
//	A_l1   as A_l7, at Root
//	A_l2   <Token> → C_f := min(C_f+1, ℓ); then as A_l8
//	A_l3   <Allocate,T_a,Order>, Order = MyOrder → Root is privileged (see below)
//	A_l4   <Allocate,T_a,Order>, Order ≠ MyOrder → as A_l10, leftover kept in MyT_a
//	A_l5   <Collect,T_c> → if LOCK disable x own tokens; MyT_c := T_c + x
//	A_l6   <Disable> → T_d := T_h
//	A_c4   <CToken,Seq>, Seq ≠ MySeq → MySeq := Seq; send T-ENABLED() <Enabled_Token>; send <CToken,Seq>
//	A_c4_dup <CToken,Seq>, Seq = MySeq → receive (discard)
//	A_c5   <Enabled_Token> → send it on
//	A_l7   Out ∧ T_h+T_d > 0 → send T_h−T_d <Token>; T_h, T_d := 0, 0
//	       Request ∧ T_h+T_d > 0 ∧ T_h−T_d ≥ NEED → ECS (STATE := In)
//	A_l8   <Token> → Out/In: send it on; else T_h < NEED: T_h+1; else T_d−1
//	A_l9   <Allocate,T_a,Order>, MyOrder ≠ Order → as printed (privileged)
//	A_l10  <Allocate,T_a,Order>, MyOrder = Order → if waiting and T_a enough, take; pass the rest
//	A_l11  <Collect,T_c> → if LOCK disable x tokens; send <Collect, T_c+x>
//	A_l12  <Disable> → T_d := T_h; send <Disable>
//	request(k)  environment, optional: Out ∧ T_h = T_d = 0 → STATE := Request; NEED := k
//	leave       environment, finite (optional if staycs=1): In → STATE := Out; NEED := 1
//
// START (Algorithm 3, lines 00-08) is encoded line by line: if C_e + C_f +
// MyT_c + MyT_a > ℓ send <Disable>, else send ℓ − (that sum) <Token>; if
// MyT_c + MyT_a > 0 send <Allocate, min(MyT_c+MyT_a, min(2·MaxV_c,ℓ)),
// MyOrder>; send <Collect, 0> (line 06 is printed "send $$": the prose
// says Root initiates both messages in START, lines 05 and 06); C_e :=
// T_h − T_d; C_f := 0; MyT_c := 0; MyT_a := 0. A_c1 then sends the
// CToken, so on the link Root's messages travel in the order Token or
// Disable, Allocate, Collect, CToken. Lines 04-05 run whether or not line
// 01 sent a Disable (they are not indented under the else of line 02).
//
// Choices the paper leaves open, or where its text is garbled, each pinned
// by a test (specs/kldhv):
//
//   - First-enabled rule. `first_enabled`: among a process's protocol
//     actions (and the timeout A_c3, in its place in the text after A_c2)
//     only the first enabled one may fire; the application's actions
//     (request, leave) are environment actions, which the rule leaves
//     out: "the first enabled action (as per the text of the protocol)" is
//     about the protocol's text. (Inside the rule, an idle process's
//     "request" would silence its protocol actions or be silenced by them,
//     and weak fairness could then never force "leave".)
//   - A_l1/A_l7's printed guard, STATE ∈ {Request, Out} ∧ T_h+T_d > 0, is
//     also true for a requesting process that does not hold enough enabled
//     tokens, where its statement does nothing; under the first-enabled
//     rule that no-op would silence A_l8..A_l12 of every waiting process
//     forever. The guard (`local`) is restricted to where the statement
//     acts: Out with tokens, or Request with T_h − T_d ≥ NEED.
//   - Implicit receipts. A CToken whose Seq does not match (Root: Seq ≠
//     MySeq; others: Seq = MySeq) is received and discarded (A_c1_stale,
//     A_c4_dup); otherwise it would block its FIFO channel forever. A_c4's
//     "send <CToken,MySeq>" is read inside the "if": duplicates are not
//     forwarded (counter flushing).
//   - COUNT-ET is printed "if C_f < ℓ then C_f := C_f+1", but the prose says
//     <Enabled_Token> messages arrive at Root "which then calculates the
//     value of C_e (Action A_c2)" and that "free" Tokens are counted in
//     C_f. We follow the prose: Enabled_Token counts in C_e, Token (A_l2) in
//     C_f. Only the sum is used (START line 00), so the two readings differ
//     only in where they saturate at ℓ (CTop: ℓ, or ℓ+1 with ctop=1).
//   - A_c3 is printed "timeout → send <CToken, MySeq>", but the prose says
//     "Every time Root initiates a CToken, it uses a new sequence number
//     (Actions A_c1 and A_c3)": the timeout increments MySeq first (as
//     counterflush argues, resending the old value can livelock). A_c3 does
//     not call START. Its guard is the global predicate "no CToken message in
//     any channel": a perfect timer (a premature one would duplicate the
//     CToken, a transient fault).
//   - A_l9 is encoded as printed, with "T_h := (MyT_a − T_d)" read as T_h :=
//     T_h + (MyT_a − T_d): the tokens of the pool first replace the
//     process's disabled ones, the rest are added (the printed assignment
//     would destroy tokens). "MyOrder ≠ Order" is taken from A_l9's guard;
//     footnote 2 ("the first processor ... whose MyOrder is equal to that of
//     Root") contradicts it, but its second sentence ("If all processors
//     have their MyOrder equal, then the privileged processor is Root")
//     agrees with the guard.
//   - A_l10 (missing): "if i is waiting [requesting with at least one
//     disabled token], then Allocate message delivers its tokens to i only
//     if its request can be granted (T_a is enough) (see Actions A_l4 and
//     A_l10)": a waiting process with T_a ≥ NEED − (T_h − T_d) (`missing`)
//     takes that many (T_h := NEED, T_d := 0); whatever is left travels on
//     in an Allocate (none is sent if nothing is left, as in A_l9).
//   - A_l3 (garbled; its fragments "−(T_h − T_d)) then", "NEED − (T_h −
//     T_d))", "MyT_a − T_d)", "Order" follow A_l9's shape): an Allocate
//     back at Root with Order = MyOrder has passed every other process,
//     which all now have MyOrder = Order, so Root is privileged (footnote
//     2). It acts as A_l9, but keeps the leftover in MyT_a instead of
//     sending it (the prose: "either Root receives an Allocate message
//     containing some left-over tokens, or all the available tokens are
//     consumed"), and, when it is granted or not requesting, flips MyOrder:
//     a new round of privileges starts. A_l4 (garbled): Order ≠ MyOrder (a
//     stale Allocate) is A_l10 with the leftover kept in MyT_a.
//   - A_l11 (missing) and A_l5 (garbled, fragment "−(T_h − T_d), MaxV_c)"):
//     "If Processor i is waiting to enter the critical section ... (verified
//     by using Function LOCK), then the current enabled tokens at i are
//     marked disabled and these tokens are added to the pool of collected
//     tokens in the Collect message." With LOCK, x = min(T_h − T_d, MaxV_c
//     − T_c) tokens (`own`) are disabled (T_d := T_d + x) and T_c grows by
//     x, so the field stays in 0..MaxV_c and no token is lost; at Root,
//     MyT_c := T_c + x. Root takes part (its tokens must be pre-emptible
//     too, or a Root holding part of its request blocks everyone).
//   - Root's count. C_e + C_f + MyT_c + MyT_a at the CToken's return must
//     equal the tokens in the system for the controller to leave a
//     legitimate ring alone. Tokens Root takes from an Allocate are counted
//     in C_e (they were received during the traversal, like the Tokens A_l2
//     counts); tokens Root disables itself (A_l5) or destroys (A_l6) were
//     already counted in C_e or C_f and are taken out of them (C_e first).
//     Without these two adjustments, which the text does not show, a
//     legitimate run double-counts Root's pre-empted tokens and Disables.
//   - A_l6 (empty in the text): Root disables its own enabled tokens, as
//     A_l12 does elsewhere, and the returning <Disable> is consumed.
//   - Non-root MyT_c and MyT_a are the printed "corresponding" variables of
//     the message fields; each action that uses them assigns them from the
//     field first and nothing else reads them, so they are the receipts'
//     bound fields (tc, ta), not state (a pure state-space reduction).
//     Root's MyTc and MyTa are state: START reads them.
//   - The application. request(k), k in 1..K, is enabled when STATE = Out
//     and the process holds no token (T_h = T_d = 0, i.e. A_l7 has released
//     the previous section's tokens): otherwise ECS could happen holding
//     more than NEED tokens, which the printed A_l7 never returns. It is
//     `environment optional`. ECS is A_l7's STATE := In. leave (STATE :=
//     Out) is finite, or optional with staycs=1; it resets NEED to 1: NEED
//     is read only while STATE ∈ {Request, In}, so this only merges
//     configurations that behave identically.
//   - A send to a full channel is dropped (`overflow drop`: message loss,
//     which the controller repairs); Cmax defaults to 2ℓ+2, the largest
//     channel occupancy of any run from the initial configuration (measured
//     for ℓ = 1, 2, 3 and pinned by a test with the error policy), so no
//     legitimate run ever drops a message. 2ℓ+1 overflows. This is the
//     smallest Cmax the protocol runs with unchanged.
//   - Sequence numbers are bounded by MaxSeq (wrapping mod MaxSeq+1). From a
//     legitimate configuration MaxSeq = 1 suffices (a process only compares
//     its value with the CToken's, which differ by one). From an arbitrary
//     configuration, Root must eventually send a value held by no process
//     and no message, so there must be more values than the n−1 other
//     MySeq and the n·Cmax channel slots can hold: MaxSeq+1 ≥ n(Cmax+1), as
//     in counterflush. The paper gives no bound for MaxSeq.
//   - The initial configuration is legitimate: every process Out, NEED = 1,
//     no token held, MySeq = 0, MyOrder = 0, C_e = C_f = MyT_c = MyT_a = 0,
//     and the channel from n−1 to Root holds ℓ Tokens followed by
//     <CToken, 0>: Root is about to count the ℓ free tokens and close a
//     traversal. It needs Cmax ≥ ℓ+1.
//
// Legitimacy L (`legit`; the paper does not print L_Controller or
// L_ℓ-Token-Circulation; this is "exactly one CToken, exactly ℓ tokens,
// counters consistent" made exact): exactly one CToken, say <CToken, v> in
// the channel from j to j+1; no Disable; MySeq_0 = v, MySeq_i = v for 1 ≤ i
// ≤ j and v−1 for i > j; every Enabled_Token, Collect and Allocate is ahead
// of the CToken (on a link it has still to cross, or before it on its
// own), at most one Collect and one Allocate; T_d ≤ T_h everywhere, In ⇒
// T_h = NEED ∧ T_d = 0, Request ⇒ T_h ≤ NEED; the tokens — Σ (T_h − T_d)
// over the processes (disabled tokens are in a pool, not at the process) +
// Token messages + Collect's T_c + Allocate's T_a + Root's MyT_c + MyT_a —
// are exactly ℓ (`realTokens`); and C_e + C_f + MyT_c + MyT_a + what Root
// will still count before the CToken returns (`pending`: Enabled_Token
// messages, Tokens ahead of the CToken, enabled tokens of processes
// j+1..n−1, T_c and T_a of the Collect and Allocate) = ℓ; and the
// conditions of `inRun` below. From the initial configuration every
// reachable configuration satisfies L (a test).
//
// Properties: invariants units_in_use (Σ NEED over STATE = In ≤ ℓ) and
// cs_holds_k (In ⇒ T_h = NEED ∧ T_d = 0); per-process predicates
// requesting (STATE = Request), inCS (STATE = In), grantable (p ∈ J:
// requesting with NEED ≤ α = ℓ − Σ NEED over processes in CS), klWaiting
// (p ∈ J and every requesting process is in J) and grantedOrOutgrown (In,
// or requesting with NEED > α). Definition 2.2(b) says "some of the
// processors in J will be eventually granted". ringcheck's leads-to is per
// process, so two readings are offered, both with staycs=1 (critical
// sections may last forever, the set I): grantable ~> inCS, the strong
// reading (every member of J gets in); and klWaiting ~> grantedOrOutgrown,
// the closest to the definition: when p ∈ J and no request outside J
// competes (so fairness cannot be the excuse), then p enters or another
// process enters and shrinks α below p's NEED — i.e. some process of J was
// granted. Neither is exactly "some of J": a leads-to property on a
// per-process basis cannot say "some process of a set defined at one
// instant".
//
// Findings (the tests of specs/kldhv): safety and deadlock freedom hold
// from the initial configuration, but starvation freedom does not, already
// for n = 2, ℓ = K = 2, under weak fairness (TestStarvation), and for the
// default n = 3, ℓ = K = 2, where every process can starve
// (TestStarvationDefaultInstance). The cycle: a process whose T_h reached
// NEED thanks to a disabled token (Collect disabled one, then a free Token
// arrived, and A_l8 increments T_h before it re-enables a disabled token)
// is never LOCKed again (LOCK is 0 < T_h < NEED, and T_h counts disabled
// tokens), so its enabled token is never pre-empted; the other token sits
// in the pool, which the privileged process absorbs (A_l9, not enough) and
// Collect takes back, round after round. Every process requests forever
// and none enters: the hold-and-wait deadlock that pre-emption was meant
// to remove, as a livelock (the CToken keeps circulating, so it is not a
// deadlock). Both (k,ℓ)-liveness readings fail with it. Either repair
// alone — LOCK on the enabled tokens (fix=1) or A_l8 re-enabling a
// disabled token first (fix=2) — makes starvation freedom hold on those
// instances (TestFixesRemoveStarvation). With K = 1 (no request is ever
// partly served) and for n = 3, ℓ = 3, K = 2 starvation freedom holds.
//
// Closure. Closure needs no sweep of the full space: ringcheck derives the
// enumeration of L's configurations from `legit` (over BDDs) and decides
// closure over it. It holds (TestClosureHolds: n = 2, ℓ = K = 1; n = 3,
// ℓ = K = 1; n = 2, ℓ = K = 2). L first had only the counts, and closure
// failed from configurations no legitimate run is in: an empty
// <Allocate, 0, ·> (never sent) filling a link whose sender then drops the
// Token it forwards; Root's MyT_a > 0 while an Allocate is in transit
// (A_l3 overwrites it: a token lost), likewise MyT_c and a Collect (A_l5);
// an Enabled_Token on Root's own link, or C_e + C_f below Root's enabled
// tokens (A_l5 then un-counts tokens the count never held). L excludes
// them (`inRun`); every configuration reachable from the initial one
// satisfies it (TestReachableStatesAreLegitimate).
//
// Claims, on catalogue instances: safety, deadlock and starvation for n =
// 3, ℓ = K = 2 (starvation is refuted, the finding above, so the claim
// records found violated); closure, decided from the enumeration of L on
// n = 2, ℓ = K = 1, MaxSeq = 9 (it holds; on the smallest sensible
// instance, n = 3, ℓ = K = 2, Cmax = 6, MaxSeq = 20, L has billions of
// configurations, too many for a test); and convergence (the paper:
// stabilization within 5n), refuted from one configuration
// (no-convergence.json: the tokens the processes hold add up to four while
// Root's controller counts two, and every execution, fair even under
// strong fairness, circles outside L). The full configuration space of
// that instance exceeds 2^64, and of every n = 2 or ℓ = 1 instance the
// protocol runs on unchanged exceeds 10^16, so convergence from every
// configuration is never decided "holds" by a sweep: randomized evidence
// (simulate, rounds) is labelled as such.
spec kl-dhv "Controller ▷ ℓ-Token-Circulation, self-stabilizing k-out-of-ℓ exclusion on a rooted unidirectional ring (seed 000); sequence numbers bounded by MaxSeq"
source "Datta, Hadid, Villain, A Self-stabilizing Token-Based k-out-of-ℓ Exclusion Algorithm, Euro-Par 2002, LNCS 2400, §3, Algorithms 2-4 (A_l1..A_l6, A_l10, A_l11 reconstructed from the prose)"

param n = 3 in 2..5 "number of processes on the ring; process 0 is Root"
param L = 2 in 1..4 "ℓ, the number of resource units (tokens)"
param K = 2 in 1..4 "largest request NEED, 1 ≤ K ≤ ℓ; T_h and T_d range over 0..K"
param Cmax = 0 in 0..32 "channel capacity (0: 2ℓ+2, enough that no send of a run from the legitimate initial configuration ever finds its channel full); a send to a full channel is dropped"
param MaxSeq = 1 in 1..63 "CToken sequence numbers range over 0..MaxSeq (bounded counter). 1 suffices from a legitimate configuration; counter flushing from an arbitrary one needs MaxSeq ≥ n(Cmax+1)-1"
param MaxVc = 0 in 0..4 "MaxV_c, bound of MyT_c and of Collect's T_c, K ≤ MaxV_c ≤ ℓ (0: ℓ); MyT_a and Allocate's T_a range over 0..min(2·MaxV_c, ℓ)"
param staycs = 0 in 0..1 "1: leaving the critical section is optional (processes may stay in it forever, Definition 2(b)); 0: critical sections are finite"
param fix = 0 in 0..2 "0: the paper's protocol; 1: LOCK tests the enabled tokens, 0 < T_h−T_d < NEED; 2: A_l8 re-enables a disabled token before it increments T_h (either repairs the starvation finding)"
param ctop = 0 in 0..1 "a reading of Root's counters C_e and C_f, whose bound the paper does not give: 0, they saturate at ℓ (an excess of free tokens is never seen); 1, at ℓ+1 (A_c1 sees C_e + C_f > ℓ and disables)"
require K <= L "need 1 ≤ K ≤ L"
const Cap = if Cmax == 0 then 2 * L + 2 else Cmax
const Vc = if MaxVc == 0 then L else MaxVc
require K <= Vc && Vc <= L "need K ≤ MaxVc ≤ L"
require Cap >= L + 1 "Cmax cannot hold the L Tokens and the CToken of the initial configuration"
const MaxTa = min(2 * Vc, L)
const CTop = L + ctop

topology ring(n)
type Status = {Out, Request, In}
var STATE: Status
var NEED: 1..K
var Th: 0..K
var Td: 0..K
var MySeq: 0..MaxSeq
var MyOrder: 0..1
message CToken(seq: 0..MaxSeq)
message Enabled_Token
message Token
message Collect(tc: 0..Vc)
message Allocate(ta: 0..MaxTa, order: 0..1)
message Disable
channels capacity Cap overflow drop

// T-ENABLED(): the enabled tokens; what a grant of NEED must add to them.
def en = max(0, Th - Td)
def missing = max(0, NEED - en)
def seqNext = (MySeq + 1) mod (MaxSeq + 1)
// Function LOCK (with fix=1 on the enabled tokens), and the own tokens a
// Collect carrying tc disables.
def lockTh = Th - (if fix == 1 then Td else 0)
def lockd = STATE == Request && 0 < lockTh && lockTh < NEED
def own(tc) = if lockd then min(en, max(0, Vc - tc)) else 0
def waiting = STATE == Request && Td > 0
// A_l1 / A_l7's guard, where its statement does something.
def local = (Th != 0 || Td != 0) && (STATE == Out || STATE == Request && Th - Td >= NEED)

process 0 first_enabled {
  var Ce: 0..CTop
  var Cf: 0..CTop
  var MyTc: 0..Vc
  var MyTa: 0..MaxTa
  // START: disable or replenish, redistribute, collect, then the CToken.
  action A_c1: recv CToken(s) from pred, s == MySeq ->
    MySeq := seqNext,
    if Ce + Cf + MyTc + MyTa > L { send Disable to succ }
    else { repeat L - (Ce + Cf + MyTc + MyTa) { send Token to succ } },
    if MyTc + MyTa > 0 { send Allocate(min(MyTc + MyTa, MaxTa), MyOrder) to succ },
    send Collect(0) to succ,
    Ce := en, Cf := 0, MyTc := 0, MyTa := 0,
    send CToken(seqNext) to succ
  action A_c1_stale: recv CToken(s) from pred, s != MySeq -> skip
  action A_c2: recv Enabled_Token from pred -> Ce := min(Ce + 1, CTop)
  timeout action A_c3: forall p: msgs(CToken, p, succ(p)) == 0 ->
    MySeq := seqNext, send CToken(seqNext) to succ
  action A_l1: local ->
    if STATE == Out { repeat en { send Token to succ }, Td := 0, Th := 0 } else { STATE := In }
  action A_l2: recv Token from pred ->
    Cf := min(Cf + 1, CTop),
    if STATE != Request { send Token to succ }
    else if fix == 2 && Td > 0 { Td := Td - 1 }
    else if Th < NEED { Th := Th + 1 }
    else if Td > 0 { Td := Td - 1 }
    else { send Token to succ }
  // Root is the privileged processor.
  action A_l3: recv Allocate(ta, o) from pred, o == MyOrder ->
    if STATE != Request { MyOrder := 1 - o, MyTa := ta }
    else if ta >= missing {
      MyOrder := 1 - o, Th := NEED, Td := 0, MyTa := ta - missing, Ce := min(CTop, Ce + missing)
    } else {
      if Td >= ta { Td := Td - ta } else { Th := min(K, max(0, Th + ta - Td)), Td := 0 },
      MyTa := 0, Ce := min(CTop, Ce + ta)
    }
  action A_l4: recv Allocate(ta, o) from pred, o != MyOrder ->
    if waiting && ta >= missing {
      Th := NEED, Td := 0, MyTa := ta - missing, Ce := min(CTop, Ce + missing)
    } else { MyTa := ta }
  // The tokens Root disables leave its count (they are in MyT_c).
  action A_l5: recv Collect(tc) from pred ->
    Td := Td + own(tc), MyTc := tc + own(tc),
    if own(tc) <= Ce { Ce := Ce - own(tc) } else { Ce := 0, Cf := max(0, Cf - (own(tc) - Ce)) }
  action A_l6: recv Disable from pred ->
    Td := Th,
    if en <= Ce { Ce := Ce - en } else { Ce := 0, Cf := max(0, Cf - (en - Ce)) }
}

process 1..n-1 first_enabled {
  action A_c4: recv CToken(s) from pred, s != MySeq ->
    MySeq := s, repeat en { send Enabled_Token to succ }, send CToken(s) to succ
  action A_c4_dup: recv CToken(s) from pred, s == MySeq -> skip
  action A_c5: recv Enabled_Token from pred -> send Enabled_Token to succ
  action A_l7: local ->
    if STATE == Out { repeat en { send Token to succ }, Td := 0, Th := 0 } else { STATE := In }
  action A_l8: recv Token from pred ->
    if STATE != Request { send Token to succ }
    else if fix == 2 && Td > 0 { Td := Td - 1 }
    else if Th < NEED { Th := Th + 1 }
    else if Td > 0 { Td := Td - 1 }
    else { send Token to succ }
  action A_l9: recv Allocate(ta, o) from pred, o != MyOrder ->
    if STATE != Request { MyOrder := o, send Allocate(ta, o) to succ }
    else if ta >= missing {
      MyOrder := o, Th := NEED, Td := 0,
      if ta - missing > 0 { send Allocate(ta - missing, o) to succ }
    } else {
      if Td >= ta { Td := Td - ta } else { Th := min(K, max(0, Th + ta - Td)), Td := 0 }
    }
  action A_l10: recv Allocate(ta, o) from pred, o == MyOrder ->
    if waiting && ta >= missing {
      Th := NEED, Td := 0,
      if ta - missing > 0 { send Allocate(ta - missing, o) to succ }
    } else if ta > 0 { send Allocate(ta, o) to succ }
  action A_l11: recv Collect(tc) from pred -> Td := Td + own(tc), send Collect(tc + own(tc)) to succ
  action A_l12: recv Disable from pred -> Td := Th, send Disable to succ
}

// The application, outside the first-enabled rule.
process all {
  environment optional action request(k in 1..K): STATE == Out && Th == 0 && Td == 0 ->
    STATE := Request, NEED := k
  environment finite if staycs == 0 else optional action leave: STATE == In -> STATE := Out, NEED := 1
}

process n-1 {
  init: repeat L { send Token to succ }, send CToken(0) to succ
}

def unitsInUse = sum p: if STATE[p] == In then NEED[p] else 0
def grantableAt(p) = STATE[p] == Request && NEED[p] <= L - unitsInUse
// Legitimacy, with j the sender of the channel holding the CToken: what
// lies ahead of it is its channel's messages before it and every channel
// and process after j up to Root.
def seqAt(j) = first(CToken, j, succ(j)).seq
def ctAt(j) = pos(CToken, j, succ(j))
def allAhead(j) =
  (forall p: p >= j || msgs(Enabled_Token, p, succ(p)) + msgs(Collect, p, succ(p)) + msgs(Allocate, p, succ(p)) == 0) &&
  msgs(Enabled_Token, j, succ(j), ctAt(j)) == msgs(Enabled_Token, j, succ(j)) &&
  msgs(Collect, j, succ(j), ctAt(j)) == msgs(Collect, j, succ(j)) &&
  msgs(Allocate, j, succ(j), ctAt(j)) == msgs(Allocate, j, succ(j))
def collects = sum p: msgs(Collect, p, succ(p))
def allocates = sum p: msgs(Allocate, p, succ(p))
def carried = (sum p: (sum m in chan(Collect, p, succ(p)): m.tc)) + (sum p: (sum m in chan(Allocate, p, succ(p)): m.ta))
def realTokens = MyTc[0] + MyTa[0] + (sum p: Th[p] - Td[p]) + (sum p: msgs(Token, p, succ(p))) + carried
def pending(j) = (sum p: if p > j then Th[p] - Td[p] + msgs(Token, p, succ(p)) else 0) +
  msgs(Token, j, succ(j), ctAt(j)) + (sum p: msgs(Enabled_Token, p, succ(p))) + carried
def inRun =
  (forall p: forall m in chan(Allocate, p, succ(p)): m.ta != 0) && msgs(Enabled_Token, 0, succ(0)) == 0 &&
  (collects == 0 || MyTc[0] == 0) && (allocates == 0 || MyTa[0] == 0) && Ce[0] + Cf[0] >= Th[0] - Td[0]
def legit =
  (sum p: msgs(CToken, p, succ(p))) == 1 && (sum p: msgs(Disable, p, succ(p))) == 0 &&
  (forall p: Td[p] <= Th[p] && (STATE[p] != In || Th[p] == NEED[p] && Td[p] == 0) && (STATE[p] != Request || Th[p] <= NEED[p])) &&
  collects <= 1 && allocates <= 1 && realTokens == L && inRun &&
  (exists j: msgs(CToken, j, succ(j)) == 1 && allAhead(j) &&
    (forall p: MySeq[p] == (if p <= j then seqAt(j) else (seqAt(j) + MaxSeq) mod (MaxSeq + 1))) &&
    Ce[0] + Cf[0] + MyTc[0] + MyTa[0] + pending(j) == L)

invariant units_in_use "the units of the processes in their critical section (Σ NEED over STATE = In) never exceed ℓ": unitsInUse <= L
invariant cs_holds_k "a process in its critical section holds exactly its k enabled tokens (T_h = NEED, T_d = 0)":
  forall p: STATE[p] != In || Th[p] == NEED[p] && Td[p] == 0
legitimate "exactly one CToken, no Disable, at most one Collect and one Allocate, all Enabled_Token, Collect and Allocate messages ahead of the CToken; MySeq = v up to the CToken's sender and v-1 after it; T_d ≤ T_h, In ⇒ T_h = NEED ∧ T_d = 0, Request ⇒ T_h ≤ NEED; exactly ℓ tokens (Σ(T_h-T_d) + Token messages + Collect.T_c + Allocate.T_a + Root's MyT_c + MyT_a); and C_e + C_f + MyT_c + MyT_a + what Root will still count in this traversal = ℓ": legit
predicate requesting(p) "STATE = Request": STATE[p] == Request
predicate inCS(p) "STATE = In": STATE[p] == In
predicate grantable(p) "p ∈ J: STATE = Request and NEED ≤ α = ℓ − Σ NEED over the processes in their critical section": grantableAt(p)
predicate klWaiting(p) "p ∈ J and every requesting process is in J (no request that fairness could put before J's)":
  grantableAt(p) && (forall q: STATE[q] != Request || grantableAt(q))
predicate grantedOrOutgrown(p) "p is in its critical section, or no longer in J because α shrank below its NEED (another process entered)":
  STATE[p] == In || STATE[p] == Request && NEED[p] > L - unitsInUse

check safety, deadlock, starvation
claim safety holds from init with n = 3, L = 2, K = 2 "Definition 2.1 and §3: any resource unit is used by at most one process at a time"
claim deadlock holds from init with n = 3, L = 2, K = 2 "§3, Proof Outline: deadlock cannot occur (pre-empting tokens)"
claim starvation holds found violated from init fairness weak with n = 3, L = 2, K = 2 "§3, Proof Outline: the MyOrder construction makes every processor eventually privileged, so no starvation (Definition 2.2(a))"
// Closure is decided from the enumeration of L, on an instance small
// enough for the catalogue test (n=2, ℓ=K=1, with MaxSeq=9 as counter
// flushing needs there).
claim closure holds from all with n = 2, L = 1, K = 1, MaxSeq = 9 "§2.2 and §3: Controller ▷ ℓ-Token-Circulation is self-stabilizing (closure)"
// Decided from one configuration (no-convergence.json): the paper's
// protocol never stabilizes from it.
claim convergence holds found violated from "no-convergence.json" fairness strong with n = 3, L = 2, K = 2, MaxSeq = 20 "§3, Proof Outline: stabilizes from any configuration in at most 5n (five CToken traversals)"
bound "5n (five CToken traversals, §3 Proof Outline)" rounds 5 * n
// The links are reliable once the transient faults end.
links reliable enlarge Cmax = 32 fill Cap
