// Package lejeune encodes the multi-resource allocation algorithm of
// Lejeune, Arantes, Sopena and Sens, "Reducing synchronization cost in
// distributed multi-resource allocation problem" (Inria RR-8689, 2015),
// from its pseudo-code (Annex A, Figures 8–12): one token per
// resource carrying the resource's counter, a prioritized token tree per
// resource (tokDir), the messages ReqCnt, Counter, ReqRes, ReqLoan and
// Token, the function A (the average of the non-zero counters of the
// request's vector, the paper's choice in §5), and the loan mechanism with
// its threshold as the parameter loan (0: off).
//
// With requests = R ≥ 1 every result holds for at most R requests per
// process: after R requests a process stays idle for ever, every
// execution is finite, and starvation freedom says no more than deadlock
// freedom. With requests=0 requests recur for ever (N=2, M=1 only; see
// "Recurring requests" below).
//
// Parameters: N processes on a complete graph with one FIFO channel per
// ordered pair; M resources; R requests per process (0: recurring);
// window, the abstraction's window with recurring requests; loan, the
// threshold of line 251; Cmax, the channel capacity; strict, whether
// safety includes the pseudo-code invariant below; line260, a reading of
// lines 260–261.
//
// Variables of process i (Figure 9): state ∈ {Idle, waitS, waitCS, inCS},
// TRequired, CntNeeded, TLent (sets of resources), curId, loanAsked,
// tokDir[r] (a site, or nil: i holds token r, so TOwned is {r : tokDir[r] =
// nil}), MyVector[r], lastTok[r] (counter, lastReqC[s], lastCS[s],
// wQueue, wLoan, lender), pendingReq[r], and err (below).
//
// Actions of process i, each one atomic step:
//
//	request(D)         environment, optional   Idle ∧ (curId < R ∨ R = 0) → Request_CS(D) up to its wait (lines 68–84),
//	                                            and state ← inCS at once if D ⊆ TOwned (line 85)
//	leave              environment, finite     inCS → Release_CS (lines 88–106)
//	recvReq(from q)    protocol                head of q→i is a request → Receive Request (lines 159–189)
//	recvCounter(from q) protocol               head of q→i is a Counter → Receive Counter (lines 255–262)
//	recvToken(from q)  protocol                head of q→i is a Token → Receive Token (lines 208–254)
//
// Choices the paper leaves open, each pinned by a test:
//
//   - Aggregation (§4.2.2) is modelled, because it changes what a step
//     does: buffer() calls are collected during a step and SendBufReq(V) /
//     SendBuf() send, for each destination in the order of its first
//     buffer call, one aggregate of its requests (with the one visited set
//     V), one of its Counters and one of its Tokens. An aggregate is a run
//     of consecutive messages linked by a field more; one receive step
//     consumes the whole run ("Receive Token (ToksRcv : set of Tok)"). Lent
//     tokens thus arrive together, as the loan mechanism needs. A token
//     travels as a Token header (counter, lastReqC, lastCS, lender)
//     followed by one Token.wQueue message per queue entry and one
//     Token.wLoan message per loan entry.
//   - wQueue, wLoan and pendingReq keep one entry per initiating site:
//     the proof of Lemma 4 states that a site never has two requests in a
//     queue (s_init ∉ N_r). Adding an entry equal to the present one
//     changes nothing (the pseudo-code tests "req ∉ wQueue"); adding a
//     different one raises the flag slot-clash and replaces it. In
//     pendingReq a newer id replaces an older one (the older is obsolete for
//     every later token, since its release set lastCS).
//   - A request is obsolete (lines 152, 165, 196) iff id ≤ lastCS[s_init],
//     or it is a ReqCnt and id ≤ lastReqC[s_init] (§4.2.1), tested against
//     lastTok[r]: the token if the process holds it, its last snapshot
//     otherwise (line 165 runs before the ownership test). lastCS and
//     lastReqC only grow along the token's history, so an obsolete entry of
//     pendingReq stays obsolete: it is dropped when the token is processed
//     (line 152), and so is a ReqCnt once answered (it is then obsolete).
//   - When a process sends token r, its own lastTok[r] keeps lastReqC and
//     lastCS (read by the obsolescence test) and resets counter, queues and
//     lender, which nothing reads before the next receipt overwrites them.
//   - A(V) is stored as L·A(V), L = lcm(1..M), an integer; requests are
//     ordered by (mark, site) (§3.3.2).
//   - Line 201, "wQueue − {req}" with req a ReqLoan, removes the
//     borrower's entry (by site), as line 100 removes the lender's.
//   - A failed loan (lines 217–224): "SendToken(slender, r)" literally
//     returns the token with lender still set to the lender, which would
//     then send it to itself (lines 99–103 or 218–223). The model clears
//     lender first, as line 102 does on release. An idle process holding a
//     borrowed token returns it the same way.
//   - Line 213, "if TRequired ⊆ TOwned then state ← inCS", applies to a
//     waiting process only: for an idle one ∅ ⊆ TOwned would make it enter
//     a critical section it never asked for.
//   - The branch "IMPOSSIBLE" of line 241 (a holder in inCS, or idle, with a
//     non-empty wQueue) is reachable (a process enters on its last token
//     while holding another with a queue); it does nothing.
//   - Lines 260–261 have two readings, the parameter line260. With 0 (the
//     default), literally: line 260 "tokDir[r] ← sfrom" is read as
//     tokDir[c.r] even when the process holds token c.r, and line 261
//     calls processCntNeededEmpty whatever the state; its stated
//     precondition (state = waitS, line 111) is checked: a call outside
//     waitS raises the flag precondition. With 1, within their
//     preconditions: tokDir[c.r] is set only for a resource still in
//     CntNeeded whose token the process does not hold, and
//     processCntNeededEmpty is called only in waitS. So does a SendToken without the
//     token (line 104's precondition), which is then not sent.
//   - "foreach r ∈ TOwned" runs over resources in increasing order and
//     tests ownership at each r; the copy of wLoan (line 246) is processed
//     in ◁ order; pendingReq by site, ReqCnt then ReqRes then ReqLoan. A
//     loan request that would be queued for a token the process has just
//     lent (only in that loop) is dropped, as the literal add goes to the
//     stale snapshot.
//   - Line 251 asks a loan when |MissingRes| = threshold (the prose of
//     §4.5 says ≤; for threshold 1 they agree); loan = 0 never asks.
//   - The optimisations of §4.6 (single-resource shortcut, stopping the
//     forwarding early) are not modelled.
//   - Initial configuration (Figure 9): process 0 is the elected node and
//     holds every token, every other tokDir[r] is 0, counters are 1,
//     everything else empty or zero.
//   - A configuration is a valid end state iff every process has made its
//     R requests, is idle, and every channel is empty; any other
//     configuration without an enabled step is a deadlock (with recurring
//     requests none is a valid end state). "requesting" is
//     state ∈ {waitS, waitCS} and "inCS" is state = inCS.
//
// Bounds (R ≥ 1): curId ≤ R. A request takes at most two values of a resource's
// counter: one from the token itself (line 75 or 146, exclusive, guarded by
// CntNeeded) and one from a Counter message (line 174 or 156, both setting
// lastReqC[s_init] = id, after which every ReqCnt of that id is obsolete
// for the token's whole future). So counters stay within C = 1+2·N·R.
// Increments saturate at C+1, which the invariant counter-bound rejects:
// a counter is never wrapped. Marks lie in 0..L·(C+1). Channels hold Cmax
// messages (default 4+2·N·M); a send to a full channel is an error, a
// safety violation.
//
// Recurring requests (requests=0). An idle process may always request
// again, so each site's request ids (curId and its copies: lastReqC and
// lastCS in tokens and snapshots, queue and pendingReq entries, requests
// in transit) and each resource's counter (and the marks taken from it)
// grow without bound. The model keeps both modulo W = 2·window+3, as
// residues in 1..W (W stands for 0; 0 keeps meaning "none" in a slot or
// MyVector), computes the next one as x mod W + 1 and compares two by
// their difference modulo W (modclock.Ring.Diff). That is sound where two
// abstraction invariants hold in every reachable configuration:
//
//   - Ids. An id of site s is compared only with ids of site s (line 165's
//     obsolescence test id ≤ lastCS[s], id ≤ lastReqC[s]; a newer entry in
//     pendingReq; equality of queue entries), and a step makes at most one
//     new id (curId+1). Two reductions keep the live ids of a site close,
//     each shown not to change any step: lastReqC[s] is kept as
//     max(lastReqC[s], lastCS[s]) (Vars.EffReqC: the test above reads the
//     pair only through that maximum, and every later assignment keeps it),
//     which releaseCS maintains, where the literal lastReqC of a site that
//     takes its counters from the token it holds would lag for ever; and a
//     process that sends a token resets the snapshot values nothing reads
//     before the token comes back (Vars.SnapshotDead: its own site's, and
//     with N=2 every site's), where the snapshot of a process that never
//     gets the token again would keep its old ids for ever. The invariant
//     id-window checks that the live ids of each site (Vars.EachID) lie
//     within window of each other; where it holds in every reachable
//     configuration, the ids' spread stays below W/2 from one step to the
//     next (a step widens it by at most one), so by induction on an
//     execution every comparison sees the integers' order and the modular
//     ids are the unbounded ones up to a shift per site.
//   - Counters and marks. The live counter values have no bounded spread,
//     even for N=2 (TestCounterLagN2: a Counter waits in a channel while
//     the holder enters k times; the gap is k+1), so no window bounds them.
//     With M=1 a mark is the counter value its request took (L=1), and a
//     counter is only copied, incremented and compared through marks;
//     marks are compared by ◁ (the head of a wQueue on release and on
//     receipt of a token, a waiting holder's own mark against a ReqRes or
//     a queue's head, and canLend with loans, off with M=1) and for
//     equality between entries of one site with one id. The invariant marks-unordered (Vars.MarksUnordered)
//     checks that no process raised an error flag (so every copy of a
//     request carries the one counter value it took, and entries with equal
//     ids carry equal marks), that no process in waitCS holds a token, and
//     that at most one request is queued or pending per token: then no
//     step compares two marks by ◁, so counters and marks modulo any W
//     behave as integers.
//
// A configuration of the unbounded model maps to the modular one by
// taking every id and counter modulo W, EffReqC and the dead snapshot
// values reset; TestModularMatchesUnbounded checks with
// spectest.MatchesAbstraction, on every configuration the unbounded model
// reaches with R = 5..7 requests per process (ids and counters wrap), that
// the steps and successors are the same up to that map and that no step
// widens the id spread by more than one.
//
// Where the invariants fail, a liveness verdict is unknown. Recurring
// requests are refused outside N=2, M=1:
//
//   - M ≥ 2: a mark averages the counters of the requested resources; the
//     average of residues is not the residue of the average, and the
//     counters of two resources drift apart without bound (requests for
//     one of them only), so no common shift brings them within a window.
//   - N ≥ 3: a Token carrying lastReqC and lastCS for every site exceeds
//     the model's 2^20 values already at window 1; and marks-unordered
//     would fail, since two ReqRes queued at one holder are compared by ◁
//     while their marks lie arbitrarily far apart (TestComparedMarksGrowN3:
//     one waits in a channel while two other processes pass the token k
//     times; the gap is 2+2k), so no window of marks holds either.
//
// With N=2, M=1 both invariants hold in every reachable configuration for
// window 1..3, and the verdicts (TestRecurringVerdicts) are the unbounded
// algorithm's: deadlock freedom, and starvation freedom under weak,
// strong, weak-action and strong-action fairness (9,520 states at the
// default window 2); without fairness a requesting process may wait for
// ever. There marks are never compared (a holder never waits, a queue
// holds the other site only), so the instance exercises the token tree,
// the counters and the obsolescence tests, not the priority order.
//
// Safety invariants: exclusion (Theorem 1: no two processes in their
// critical sections request a common resource), one-token (Lemmas 1–3:
// every resource has exactly one token, held or in transit),
// counter-bound (R ≥ 1) or id-window and marks-unordered (recurring), and,
// with strict=1, pseudo-code: no process raised an
// error flag (dup-counter: a Counter for a resource not in CntNeeded, which
// §4.2.1 says lastReqC prevents; slot-clash; precondition; self-send).
//
// Findings (see findings_test.go):
//
//   - N=3, M=2, R=1, either loan setting: a request obtains two counter
//     values for one resource (16 steps). p2's ReqCnt(r0) is forwarded by
//     p0, which keeps it in pendingReq, to the holder p1, which, idle, sends
//     p2 the token itself (line 171) without setting lastReqC[2]; p2 takes
//     its counter from the token (line 146), again without lastReqC. When
//     p0 later holds the token, the pending ReqCnt is not obsolete and p0
//     sends a second Counter (line 156). p2 overwrites MyVector[r0], calls
//     processCntNeededEmpty in waitCS and sends a second ReqRes with a new
//     mark: two requests of one site for one queue, against Lemma 4's proof.
//     Safety with strict=1 is violated; exclusion, one token per resource,
//     deadlock freedom and starvation freedom still hold on N=3, M=2, R=1.
//   - N=4, M=2, R=1, either loan setting: the duplicate Counter reaches p2
//     while it is in its critical section with both tokens (23 steps).
//     Line 260 sets tokDir[r0] ← p0 although p2 holds token r0, and line 261
//     puts p2 back to waitCS: token r0 is lost (one-token is violated, a
//     counterexample to Lemmas 1–3) and the system deadlocks, against
//     Theorem 2 and Theorem 3. The shortest deadlock (25 steps, found by the
//     deadlock check with loan=0) is the same duplicate reaching a process
//     that has already left its critical section: it loses token r0 and
//     processCntNeededEmpty puts the idle process in waitCS with TRequired
//     = ∅, for ever.
//
// The reduction that keeps one queue entry per site means that, after a
// slot-clash (a second ReqRes of one request with another mark), the model
// keeps the newer entry only, where the paper's sorted list would hold both;
// verdicts with strict=0 after such a clash are for that reading.
//
// The catalogue serves specs/ring/lejeune.ring, which says this package
// in the ring language: specs/ring's twin tests check that the two take
// the same steps, and this package's tests (findings_test.go and the
// others) pin the file.
package lejeune
