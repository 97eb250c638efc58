// kl-ddhl: the full self-stabilizing k-out-of-ℓ exclusion protocol of
// Datta, Devismes, Horn and Larmore, "K-parmi-L exclusion
// auto-stabilisante" (AlgoTel 2008), §2: the naive token collection of
// kl-naive, the pusher token of kl-pusher, the priority token, and the
// self-stabilizing regulator built on Varghese's counter flushing
// (counterflush). This file is the spec; its comments give every reading
// of the paper it makes.
//
// The ring is unidirectional with n processes, process 0 the root, one FIFO
// channel of capacity Cap (Cmax, or L+3 when Cmax is 0) from each process to
// its successor. Messages:
//
//	Token                     a resource unit (L of them)
//	Pusher                    the pusher token ("jeton pousseur")
//	Priority                  the priority token ("jeton priorité")
//	Priv(c, tok, pri, mark)   the privilege of counter flushing: counter c in
//	                          0..M-1 with M = n(Cap+1) (or counters), the numbers
//	                          of resource tokens (0..L+1) and priority tokens
//	                          (0..2) it overtook, and the reset mark
//
// Every process has need (0..K+1: K+1 stands for any corrupted request above
// K), cnt (0..K, the tokens it reserved), prio (it holds the priority
// token) and C (its counter-flushing value). The root also has tok (0..L+1),
// pri (0..2) and push (0..2), the resource, priority and pusher tokens it
// counted since the privilege last left it, and reset (it is flushing the
// ring). Counts saturate at their top value, which means "too many".
//
// Actions of process i (atomic, central daemon, interleaving):
//
//	cancel     protocol     need > K ∨ cnt > need ∨ (prio ∧ ¬waiting)
//	                        → if need > K ∨ cnt > need: send cnt Tokens, need, cnt := 0, 0;
//	                          if prio is not needed any more: send Priority, prio := false
//	request(k) environment  need = 0 ∧ cnt = 0 → need := k (k in 1..K)
//	collect    protocol     head = Token ∧ waiting → receive; cnt := cnt+1;
//	                        on entering the CS (cnt = need) with prio: send Priority, prio := false
//	forward    protocol     head = Token ∧ ¬waiting → receive; send Token
//	push       protocol     head = Pusher → receive; if 0 < cnt < need ∧ ¬prio: send cnt Tokens,
//	                        cnt := 0; send Pusher
//	priority   protocol     head = Priority → receive; if waiting ∧ ¬prio: prio := true
//	                        else send Priority
//	leave      environment  0 < need = cnt → send cnt Tokens; need, cnt := 0, 0
//	accept     protocol     head = Priv(c,…) valid (root: c = C; others: c ≠ C) → see below
//	ignore     protocol     head = Priv(c,…) not valid → receive
//	flush      protocol     root only: reset ∧ head is a Token, Pusher or Priority → receive (delete)
//	resend     timeout      resend ≥ 1 only: the successor misses the privilege the process
//	                        last sent → send it again (see "resend" below)
//	timeout    timeout      root only, unless notimeout=1: no Priv message anywhere → start a new tour
//
// where waiting is 0 < need ≤ K ∧ cnt < need. The root also counts what it
// receives: every Token it collects or forwards adds one to tok, the Pusher
// one to push, the Priority one to pri.
//
// A non-root process accepting Priv(c, tok, pri, mark) sets C := c; if the
// privilege is marked it destroys its reserved tokens and the priority
// token (cnt := 0, prio := false) and forwards the privilege unchanged;
// otherwise it keeps its tokens and forwards Priv(c, tok+cnt, pri+prio, 0)
// ("le processeur met à jour le champ « nombre de jetons doublés »").
//
// The root accepting Priv(c, tok', pri', mark) ends a tour: C := C+1 mod M,
// and
//   - if reset (its marked privilege is back, the ring is empty): it creates
//     exactly L Tokens, one Pusher and one Priority, reset := false;
//   - otherwise it adds the counts the privilege carries to its own,
//     tok+tok', pri+pri', push: if one of them is too high (above L, 1, 1) it
//     starts a reset: reset := true, it destroys its reserved tokens and the
//     priority token, and the privilege it sends is marked; if some are too
//     low it creates the missing Tokens, Pusher or Priority;
//
// then starts a new tour: tok := cnt, pri := prio, push := 0 (it counts
// what it holds), and sends the messages it created, then
// Priv(C, 0, 0, mark). The timeout starts a tour the same way without
// judging the incomplete counts and clears reset.
//
// Choices the paper leaves open, pinned by tests:
//   - The paper counts "each kind of token" and, for too many, marks the
//     privilege to reset; it does not say whether a reset is per kind. Here
//     one mark resets the whole ring: the root recreates L Tokens, the
//     Pusher and the Priority. A reset never happens in a legitimate
//     execution, so the choice only affects recovery.
//   - Created messages are sent before the new privilege, so they travel
//     ahead of it and are counted during the next tour (sent behind it, they
//     would be missed, and the root would create them again).
//   - The pusher is never held (it is forwarded in the step that receives
//     it), so the privilege never overtakes it and carries no pusher count.
//   - The priority token is kept by a process with an unsatisfied request
//     ("conservé par le processeur jusqu'à satisfaction de la demande") and
//     sent on in the step in which that process enters its critical section
//     ("il ne sera relâché que lorsque le processeur entrera en section
//     critique"). A second priority token reaching a holder is forwarded.
//   - "Requests above K are cancelled": need ranges over 0..K+1, K+1
//     standing for every corrupted value above K. cancel also repairs the
//     other local states no execution from a correct state produces (more
//     tokens reserved than needed, the priority token held without an
//     unsatisfied request): the tokens go on as after a critical section.
//     "Le processeur annule alors cette demande" (§2), "en au plus 1
//     ronde": the repair comes before anything else the process does, so
//     while cancel is enabled no other protocol action of the process is
//     (every other protocol and timeout guard says !corrupt;
//     TestCancelComesFirst). Without that
//     precedence, weak fairness per process lets a corrupted process keep
//     forwarding messages and never cancel, and convergence fails from
//     configurations where a request above K is never cancelled (a lasso
//     check --start finds from a random configuration); no execution from
//     a correct configuration is affected, since cancel is never enabled
//     there.
//   - A marked privilege makes a process in its critical section lose its
//     tokens (cnt := 0): they are "jetons réservés" like any other, and
//     keeping them would leave more than L tokens after the root recreates L.
//   - The privilege is token passing and the root's periodic
//     retransmission a timeout action whose guard is "no Priv message is in
//     any channel", a perfect timer, as in counterflush (which explains
//     why). Like every timeout it is weakly fair on its own: while no
//     privilege exists it fires, however busy the root is forwarding
//     tokens (per-process fairness alone let the root defer it forever, a
//     lasso outside L that check --from random found).
//   - The parameter resend chooses who retransmits. The paper's counter
//     flushing has every processor send its C_i to its successor
//     "périodiquement"; it does not say what a privilege sent again
//     carries in its counting fields (tok, pri, mark). With resend=0 (the
//     default) only the root's timeout above retransmits. With resend=1
//     or 2 every process also has a resend action, a timeout, that sends
//     again the privilege it last sent, with its current counter C_i:
//     resend=1 a copy of that privilege, counts and mark included (each
//     process other than the root keeps the fields it last sent in sentTok,
//     sentPri and sentMark, variables that exist only with resend=1; a
//     count carried twice is what the root's "too many" test treats as an
//     excess); resend=2 Priv(C_i, 0, 0, 0), the counter alone, with no
//     counts and no mark. The root's privileges carry no counts and its
//     mark is its reset flag, so the root resends Priv(C_0, 0, 0, reset)
//     under both readings.
//     The timer is periodic, but only the resends that can change anything
//     are modelled: the guard is "the successor misses my privilege", no
//     Priv message is on the process's own link and the successor would
//     accept C_i (C_{i+1} ≠ C_i, or C_0 = C_{n-1} for the root as
//     successor). A resend while a privilege is still on the link arrives
//     behind it and is ignored, as is one whose counter the successor
//     already took; leaving them out keeps every legitimate configuration's
//     one privilege (the resend is never enabled in L: the process whose
//     successor misses its counter is the one whose link carries the
//     privilege) and bounds the resends to one per link in flight, where
//     an unconditionally enabled resend would fill every channel with
//     stale privileges. So L, closure and every check from init are those
//     of resend=0: the resend only acts after a privilege is lost, the
//     perfect timer per link that the root's timeout is for the whole
//     ring. In rounds (one resend per process action, "a timer expires
//     once") it is a resend every round by each process whose last
//     privilege was lost. The root's resend is declared before its
//     timeout, so in rounds a root whose privilege was lost on its own
//     link resends it rather than starting a new tour.
//   - The parameter notimeout=1 (with resend=1 or 2 only) removes the
//     root's timeout, leaving every processor's periodic send and nothing
//     else, counter flushing as the paper describes it, where the root
//     increments its counter only on receiving its own value. The resends
//     suffice: with no Priv message anywhere and no corrupt state to
//     cancel, either some process i < n-1 has C_{i+1} ≠ C_i, or every
//     counter is equal and process n-1's resend is accepted by the root.
//     The root's timeout is a perfect timer that fires at the root's next
//     step once no privilege exists, so with it, in rounds, the root
//     restarts the tour (discarding its counts) whenever it acts before
//     the process that lost the privilege resends it; notimeout=1 measures
//     the resends without that race. The timeout is never enabled in L,
//     so L, closure and the checks from init are unchanged.
//   - Channels are FIFO, and a send to a full channel is lost (drop). Cmax
//     defaults to L+3, so every message of a legitimate configuration (L
//     Tokens, the Pusher, the Priority and the privilege) fits in any one
//     channel: no send from a legitimate configuration ever finds its
//     channel full, and the policy only matters after a fault. There, block
//     deadlocks: with every channel full and every head a message whose
//     receipt sends (a valid privilege, a token to forward), no process can
//     move (ringcheck simulate finds such configurations at once; the
//     test TestBlockingDeadlocksAfterAFault keeps one). Loss is
//     what counter flushing tolerates (the root's timeout regenerates the
//     privilege, and the regulator recreates lost tokens). The counter
//     domain is n(Cmax+1), as the paper says, unless the parameter
//     counters sets it: on reliable links (channels enlarged so that no
//     send is lost) the paper's Cmax is no longer the channels' capacity,
//     and counters = n(L+4) keeps the domain of the smallest capacity that
//     holds a legitimate configuration.
//   - The initial configuration is the one the root produces at the end of
//     a reset: every process idle, all counters C_i = M-1 except C_0 = 0, and
//     in the channel from 0 to 1 the L Tokens, the Pusher, the Priority and
//     Priv(0, 0, 0, 0), in that order; the root's counts are 0.
//   - A configuration is legitimate (legit below) when: exactly one Priv
//     message is in transit and the counters form counter flushing's
//     legitimate pattern (see counterflush); the privilege is unmarked and
//     the root is not resetting; every process's local state is one the
//     protocol produces (need ≤ K, cnt ≤ need, prio only while waiting);
//     the ring holds exactly L Tokens (in channels or reserved), one Pusher
//     and one Priority; and the root's counts are exact: its counts plus
//     the privilege's plus everything still ahead of the privilege
//     (messages before it in its channel, the channels after it up to the
//     root, the tokens held by the processes it has yet to visit) are
//     exactly L, 1 and 1. From such a configuration the root finds the
//     right numbers at the end of every tour, so it never creates nor
//     destroys a token. L says nothing of sentTok, sentPri and sentMark.
//   - Closure is decided over every legitimate configuration, which
//     ringcheck enumerates from the BDD of L, although the full space
//     (about 10^49 configurations for n=3, L=K=2) cannot be swept. Tests
//     (specs/klddhl) compare that enumeration with one written by hand
//     (each process's consistent local state, every arrangement of the
//     messages left in transit over the channels, every counter value and
//     privilege count, with the root's counts solved from the equations
//     above), and check that each is legitimate, none comes twice, every
//     configuration reachable from init is among them, and no legitimate
//     configuration one edit away from one of them is missing. With
//     resend=1, L leaves sentTok, sentPri and sentMark free, so L holds
//     (L+2)·3·2 times as many configurations per process 1..n-1 as with
//     resend=0 (18 times as many for n=2, L=K=1); closure is decided from
//     those where they are 0 (closure from, below): no step from L reads
//     them (the resend that sends them is never enabled in L) before the
//     process's next accept writes them, so every value of them takes the
//     same steps. Convergence needs the whole space and stays out of
//     reach.
//   - Requesting is optional and leaving the critical section finite,
//     except with staycs=1, where leaving is optional too: processes may
//     stay in their critical section forever, the assumption under which
//     Datta, Hadid and Villain (Euro-Par 2002) define (k,ℓ)-liveness.
//   - No configuration is a valid end state.
spec kl-ddhl "self-stabilizing k-out-of-L exclusion: pusher, priority and a counter-flushing regulator (seed 001)"
source "Datta, Devismes, Horn, Larmore, K-parmi-L exclusion auto-stabilisante, AlgoTel 2008, §2 (full protocol)"

param n = 3 in 2..6 "number of processes on the ring"
param L = 2 in 1..6 "number of resource units (tokens)"
param K = 2 in 1..6 "largest request, 1 ≤ K ≤ L"
param Cmax = 0 in 0..32 "channel capacity (0: L+3, every message of a legitimate configuration fits); counters range over 0..n(Cmax+1)-1 unless counters says otherwise"
param counters = 0 in 0..198 "the counter domain: counters range over 0..counters-1 (0: n(Cmax+1), the paper's; with reliable links, whose channels are enlarged, counters=n(L+4) keeps the domain of the smallest capacity)"
param staycs = 0 in 0..1 "1: processes may stay in their critical section forever (leaving is optional), for (k,L)-liveness"
param notimeout = 0 in 0..1 "0: the root's timeout starts a new tour when no privilege exists anywhere; 1: the root has no timeout, the resends alone regenerate a lost privilege, as in Varghese's counter flushing where the root increments only on receiving its own value (needs resend=1 or 2)"
param resend = 0 in 0..2 "who retransmits the privilege: 0 the root's timeout alone; 1 also every process whose successor misses the privilege it last sent (none on its link, the successor would accept C_i) resends a copy, counts and mark included; 2 the same, resending Priv(C_i, 0, 0, 0) (the root resends Priv(C_0, 0, 0, reset) under both)"
require K <= L "need 1 ≤ K ≤ L"
const Cap = if Cmax == 0 then L + 3 else Cmax
require Cap >= L + 3 "Cmax cannot hold the initial configuration's L+3 messages on the link from the root"
require counters != 1 "need counters ≥ 2 (or 0 for n(Cmax+1))"
require notimeout == 0 || resend > 0 "notimeout=1 needs resend=1 or 2 (without the root's timeout only the resends regenerate a lost privilege)"
const M = if counters > 0 then counters else n * (Cap + 1)
// The blocks that exist for some parameters only: a block LO..HI with HI
// below LO has no process. Processes 1..Copiers keep what they last sent
// (resend=1), processes Plain..n-1 do not; processes 1..Counters resend
// their counter alone (resend=2); the root resends when RootResends is 0
// and has its timeout when RootTimer is 0.
const Copiers = if resend == 1 then n - 1 else 0
const Plain = Copiers + 1
const Counters = if resend == 2 then n - 1 else 0
const RootResends = if resend > 0 then 0 else -1
const RootTimer = if notimeout == 0 then 0 else -1

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
def holding = if prio then 1 else 0

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
  environment finite if staycs == 0 else optional action leave: need > 0 && cnt == need ->
    repeat cnt { send Token to succ }, need := 0, cnt := 0
}

// The resend's guard: no corrupt state to cancel first, no Priv message on
// the process's own link, and the successor would accept C (the root its
// own counter, another process a value different from its counter): the
// privilege the process last sent is lost.
def misses = !corrupt && msgs(Priv, self, succ) == 0 &&
  (if self == n - 1 then C[succ] == C else C[succ] != C)

// The privilege: counter flushing, the root ending and starting tours.
process 0 {
  action accept: recv Priv(pc, pt, pp, pm) from pred, !corrupt && pc == C ->
    C := (C + 1) mod M,
    if reset {
      repeat L { send Token to succ }, send Pusher to succ, send Priority to succ,
      reset := false, tok := cnt, pri := holding, push := 0,
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
      tok := cnt, pri := holding, push := 0,
      send Priv((C + 1) mod M, 0, 0, 0) to succ
    }
  action ignore: recv Priv(pc, _, _, _) from pred, !corrupt && pc != C -> skip
  // Resetting, the root deletes every message but the privilege.
  action flush: recv any except Priv from pred, reset && !corrupt -> skip
  // The end of a reset: every message in the channel from the root.
  init: C := 0, repeat L { send Token to succ }, send Pusher to succ, send Priority to succ,
    send Priv(0, 0, 0, 0) to succ
}
// The root's privileges carry no counts, and its mark is its reset flag.
// Its resend comes before its timeout.
process 0..RootResends {
  timeout action resend: misses -> send Priv(C, 0, 0, if reset then 1 else 0) to succ
}
process 0..RootTimer {
  // A perfect timer: no privilege anywhere.
  timeout action timeout: !corrupt && (forall p: msgs(Priv, p, succ(p)) == 0) ->
    C := (C + 1) mod M, reset := false, tok := cnt, pri := holding, push := 0,
    send Priv((C + 1) mod M, 0, 0, 0) to succ
}

// The privilege a process other than the root passes on: unchanged if it
// is marked (the process loses what it holds), otherwise with the tokens
// and the priority token the process holds added to its counts.
def passTok(pt, pm) = if pm == 1 then pt else min(pt + cnt, L + 1)
def passPri(pp, pm) = if pm == 1 then pp else min(pp + holding, 2)
process 1..Copiers {
  // The tok, pri and mark fields of the privilege the process last sent.
  var sentTok: 0..L+1
  var sentPri: 0..2
  var sentMark: 0..1
  action accept: recv Priv(pc, pt, pp, pm) from pred, !corrupt && pc != C ->
    C := pc,
    if pm == 1 { cnt := 0, prio := false },
    send Priv(pc, passTok(pt, pm), passPri(pp, pm), pm) to succ,
    sentTok := passTok(pt, pm), sentPri := passPri(pp, pm), sentMark := pm
}
process Plain..n-1 {
  action accept: recv Priv(pc, pt, pp, pm) from pred, !corrupt && pc != C ->
    C := pc,
    if pm == 1 { cnt := 0, prio := false },
    send Priv(pc, passTok(pt, pm), passPri(pp, pm), pm) to succ
}
process 1..n-1 {
  action ignore: recv Priv(pc, _, _, _) from pred, !corrupt && pc == C -> skip
}
process 1..Copiers {
  timeout action resend: misses -> send Priv(C, sentTok, sentPri, sentMark) to succ
}
process 1..Counters {
  timeout action resend: misses -> send Priv(C, 0, 0, 0) to succ
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
closure from "the fields a process last sent (resend=1) at 0: no step from L reads them": forall p: sentTok[p] == 0 && sentPri[p] == 0 && sentMark[p] == 0
predicate requesting(p) "the process has an unsatisfied request (0 < need ≤ K, cnt < need)": waitingAt(p)
predicate inCS(p) "the process is in its critical section (0 < need = cnt)": inCSAt(p)
predicate servedOrFull(p) "the process is in its critical section or needs more units than are free (need > L - units in use); requesting ~> servedOrFull is (k,L)-liveness for the process": inCSAt(p) || need[p] > L - unitsInUse

check safety, deadlock, starvation
claim safety holds from init with n = 3, L = 2, K = 2 "§1: each unit used by at most one process, at most L units at once"
claim deadlock holds from init with n = 3, L = 2, K = 2 "§2: the pusher token prevents global deadlock"
claim starvation holds from init fairness weak with n = 3, L = 2, K = 2 "§1 vivacité and §2: the priority token cancels the pusher's starvation (Figure 2)"
claim closure holds from all with n = 3, L = 2, K = 2 "§2: once the counts are right the system is stabilized"
claim convergence holds found out-of-reach from all with n = 3, L = 2, K = 2 "§2: stabilizes from any configuration in at most 4n rounds"
bound "4n rounds (seed 001, §2)" rounds 4 * n
// §2: the links are reliable once the transient faults end.
links reliable enlarge Cmax = 32 fill Cap
