// Datta, Hadid and Villain's self-stabilizing k-out-of-ℓ exclusion
// (Euro-Par 2002), Controller ▷ ℓ-Token-Circulation on a rooted
// unidirectional ring, process 0 being Root. The twin of the Go spec
// kl-dhv, whose package comment gives every reading this encoding shares
// (the reconstructed A_l3..A_l6, A_l10 and A_l11, sequence numbers modulo
// MaxSeq+1, Root's counters saturating at ℓ or ℓ+1 (ctop), lossy full
// channels, the first-enabled rule, the repairs fix=1 and fix=2). Actions
// keep the Go spec's names, with `_` for its `-` (A_c1_stale, A_c4_dup),
// and its order, which the first-enabled rule reads. Effects are
// simultaneous: every expression reads the configuration before the step.
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
claim closure holds from all with n = 2, L = 1, K = 1, MaxSeq = 9 "§2.2 and §3: Controller ▷ ℓ-Token-Circulation is self-stabilizing (closure)"
claim starvation holds found violated from init fairness weak with n = 3, L = 2, K = 2 "§3, Proof Outline: the MyOrder construction makes every processor eventually privileged, so no starvation (Definition 2.2(a))"
// Decided from one configuration (the Go spec's NoConvergence): the
// paper's protocol never stabilizes from it.
claim convergence holds found violated from "no-convergence.json" fairness strong with n = 3, L = 2, K = 2, MaxSeq = 20 "§3, Proof Outline: stabilizes from any configuration in at most 5n (five CToken traversals)"
bound "5n (five CToken traversals, §3 Proof Outline)" rounds 5 * n
// The links are reliable once the transient faults end.
links reliable enlarge Cmax = 32 fill Cap
