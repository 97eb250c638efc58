// Thiare's several-tokens mutual exclusion on a logical ring (section 4,
// Rules 1-4). The twin of the Go spec thiare, whose comment gives the
// readings this encoding shares: own tokens recognised by originator and
// resource, Rule 2 as written (replace=1: an idle node sets SN := H) or
// as the proof's relations (6)-(7) forward (replace=0), the waiting node
// forwarding a token of higher priority and queueing one of lower, Rule
// 4's duplicate test on Resend = 1 tokens, a stale own token deleted, at
// most R requests per process or, with requests=0, recurring requests
// whose SeqNums are kept modulo W = 2·window+3 under the abstraction
// invariant seq_window. Process ids are 0..n-1, resources 0..resources-1.
//
// Q_i^r is the row q[r] of slots holding token codes 1 + ((SN-Lo)·n +
// PID)·F + Resend (0: empty), sorted by decreasing priority, empty slots
// last, as the Go spec's q slots (which label them "(SN,PID)"). Inserting
// a token is the Go spec's bubble through the slots: the token carried
// into slot k is the lowest in priority of the token and slots 0..k-1
// (carry below), which the queue's order makes exact on every reachable
// configuration. request(r=R) and leave(r=R) are the Go spec's request
// and leave (request[R], leave[R] with two resources); timeout(r=R) its
// timeout (Rule 4), declared there only with resend=1.
spec thiare "several-tokens mutual exclusion on a logical ring (seed 002), Rules 1-4, for at most R requests per process or, with requests=0, recurring requests"
source "O. Thiare, Several-Tokens Distributed Mutual Exclusion Algorithm in a Logical Ring Network, §3 (token, SeqNum, HSeqNumSeen, priorities) and §4 (Rules 1-4, Theorems 4.1 and 4.2)"

param n = 3 in 2..5 "number of nodes on the logical ring"
param requests = 2 in 0..3 "R ≥ 1: at most R requests per process, after which it stays idle; SeqNum and HSeqNumSeen range over 0..n·R. 0: requests recur for ever, with SeqNum and HSeqNumSeen kept modulo 2·window+3 under the invariant seq_window"
param window = 0 in 0..30 "with requests=0, the largest spread of the live sequence values the modular SeqNums represent exactly, checked by the invariant seq_window (0: 2n)"
param resources = 1 in 1..2 "number of resource types (one queue and one mutual exclusion per resource)"
param resend = 0 in 0..1 "1: Rule 4, a waiting node whose token is held in a queue may time out and resend it once with Resend = 1 (0: no timeout, the failure-free setting)"
param replace = 1 in 0..1 "1: Rule 2 as written, a node with no intention replaces the token's SeqNum by HSeqNumSeen; 0: it leaves SeqNum unchanged, as the proof's relations (6)-(7) forward"
param order = 1 in 0..1 "1: safety also checks Property 4.1's order of entry (invariant priority_order); 0: mutual exclusion alone"
param Cmax = 0 in 0..64 "channel capacity (0: n·R·(1+resend), every token that can exist; with requests=0, n·resources·(1+resend))"

const R = requests
const NR = resources
const F = 1 + resend
const Win = if window == 0 then 2 * n else window
const W = 2 * Win + 3
// The largest SeqNum, the smallest a token carries, the queue slots per
// resource and the tokens that can exist at once.
const S = if requests == 0 then W - 1 else n * R
const Lo = if requests == 0 then 0 else 1
const Q = if requests == 0 then (n - 1) * F else (n - 1) * R * F
const Tokens = if requests == 0 then n * NR * F else n * R * F
const C = if Cmax != 0 then Cmax else min(Tokens, 255)
const MaxCode = 1 + ((S - Lo) * n + n - 1) * F + F - 1

topology ring(n)
type St = {idle, waiting, cs}
var H: 0..S "HSeqNumSeen"
var used: 0..R "the requests made (0 for ever with requests=0)"
var state[0..NR - 1]: St "idle, waiting (token generated and not back) or cs, per resource"
var seq[0..NR - 1]: 0..S "the SeqNum of the node's copy of its own token (0 while idle)"
var resent[0..NR - 1]: bool "Rule 4: the current request's token was resent (false for ever with resend=0)"
var q[0..NR - 1][0..Q - 1]: 0..MaxCode "Q_i^r: token codes by decreasing priority, 0 for an empty slot"
var qover: 0..0 "0 for ever: inserting into a full queue assigns it 1, a range fault (the Go spec's slot -1)"
message Token(seq: Lo..S, pid: 0..n - 1, res: 0..NR - 1, resend: 0..resend)
channels capacity C overflow block if requests > 0 else error

// A token's code and its fields.
def code(s, p, x) = 1 + ((s - Lo) * n + p) * F + x
def csn(c) = (c - 1) / F / n + Lo
def cpid(c) = (c - 1) / F mod n
def crs(c) = (c - 1) mod F
// SeqNum difference, max and successor: modulo W with recurring requests.
def diff(x, y) = if requests > 0 then x - y else if (x - y) mod W > W / 2 then (x - y) mod W - W else (x - y) mod W
def smax(x, y) = if requests > 0 then max(x, y) else if diff(y, x) > 0 then y else x
def next(x) = if requests == 0 then (x + 1) mod W else x + 1
// Pri(s1, p1) > Pri(s2, p2).
def higher(s1, p1, s2, p2) = diff(s1, s2) < 0 || diff(s1, s2) == 0 && p1 < p2
// The queue order of codes: higher priority first, then Resend = 0.
def before(c1, c2) = if requests > 0 then c1 < c2 else
  diff(csn(c1), csn(c2)) < 0 || diff(csn(c1), csn(c2)) == 0 && (cpid(c1) < cpid(c2) || cpid(c1) == cpid(c2) && crs(c1) < crs(c2))
// Slots 0..k of q[r] all hold a token; the first empty slot (Q if none).
def full(r, k) = forall j in 0..Q - 1: j > k || q[r][j] != 0
def z(r) = count k in 0..Q - 1: full(r, k)
// Rule 4's duplicate: a token of p in Q_i^r, before its first empty slot.
def dup(r, p) = exists k in 0..Q - 1: full(r, k) && cpid(q[r][k]) == p
// Inserting c into q[r] is the Go spec's bubble: c is carried through
// the slots up to the first empty one (z), and where it comes before a
// slot's token, by before, the two swap places and the slot's token is
// carried on. Without recurring requests before is <, and the token
// carried into slot k is the largest of c and slots 0..k-1 (carry).
def carry(r, c, k) = if (forall j in 0..Q - 1: j >= k || !before(c, q[r][j])) then c else
  (sum j in 0..Q - 1: if j < k && before(c, q[r][j]) && (forall i in 0..Q - 1: i >= k || i == j || i < j && before(q[r][i], q[r][j]) || i > j && !before(q[r][j], q[r][i])) then q[r][j] else 0)
// With recurring requests before need not be transitive on a queue whose
// SeqNums spread past the window, so the swaps are found as they happen:
// the slots where the bubble swaps are the bits of a mask m (bit j for
// slot j, none at or after z), the one mask where each slot j < z swaps
// exactly when the token carried into it, last(r, c, m, j), comes before
// its own (Q ≤ 8 there).
def pw(j) = if j == 0 then 1 else if j == 1 then 2 else if j == 2 then 4 else if j == 3 then 8 else if j == 4 then 16 else if j == 5 then 32 else if j == 6 then 64 else 128
const Masks = if requests > 0 then 1 else if Q == 1 then 2 else if Q == 2 then 4 else if Q == 3 then 8 else if Q == 4 then 16 else if Q == 5 then 32 else if Q == 6 then 64 else if Q == 7 then 128 else 256
def bit(m, j) = m / pw(j) mod 2 == 1
def last(r, c, m, k) = if (forall i in 0..Q - 1: i >= k || !bit(m, i)) then c else
  (sum i in 0..Q - 1: if i < k && bit(m, i) && (forall h in 0..Q - 1: h <= i || h >= k || !bit(m, h)) then q[r][i] else 0)
def swaps(r, c, m) = forall j in 0..Q - 1: if j < z(r) then (bit(m, j) && before(last(r, c, m, j), q[r][j]) || !bit(m, j) && !before(last(r, c, m, j), q[r][j])) else !bit(m, j)
def bubble(r, c, k) = sum m in 0..Masks - 1: if swaps(r, c, m) then (if k == z(r) || bit(m, k) then last(r, c, m, k) else q[r][k]) else 0
// Slot k of q[r] after inserting c. Where q[r] is full the token carried
// out of the last slot is lost: the Go spec's insertion then writes -1
// into that slot, a range fault that keeps the slot as the bubble left
// it; the file's is qover's.
def ins(r, c, k) = if requests == 0 then (if k <= z(r) then bubble(r, c, k) else q[r][k])
  else if k < z(r) then (if before(carry(r, c, k), q[r][k]) then carry(r, c, k) else q[r][k])
  else if k == z(r) then carry(r, c, k) else q[r][k]
// The receipt cases: what the node does with its head token (t, p, r, x).
def other(p, r, x) = p != self && !(x == 1 && dup(r, p))
// SN within Win after s, for seq_window.
def within(x, s) = (x - s) mod W <= Win

process all {
  // Rule 1, relation (4).
  environment optional action request(r in 0..NR - 1): (requests == 0 || used < R) && state[r] == idle ->
    H := next(H),
    if requests > 0 { used := used + 1 },
    state[r] := waiting,
    seq[r] := next(H),
    if resend == 1 { resent[r] := false },
    send Token(next(H), self, r, 0) to succ
  // Rule 3: the own token back.
  action enter: recv Token(t, p, r, x) from pred, p == self && state[r] == waiting ->
    H := smax(H, t), state[r] := cs
  // A duplicate of the own token, the first copy served: deleted.
  action stale: recv Token(t, p, r, x) from pred, p == self && state[r] != waiting ->
    H := smax(H, t)
  // Rule 4: a resent token already in Q_i^r.
  action discard: recv Token(t, p, r, x) from pred, p != self && x == 1 && dup(r, p) ->
    H := smax(H, t)
  // Rule 2, bullet 1.
  action pass: recv Token(t, p, r, x) from pred, other(p, r, x) && state[r] == idle ->
    H := smax(H, t),
    send Token(if replace == 1 then smax(H, t) else t, p, r, x) to succ
  // Rule 2: in CS(r), or waiting with a token of lower priority.
  action queue: recv Token(t, p, r, x) from pred, other(p, r, x) && (state[r] == cs || state[r] == waiting && !higher(t, p, seq[r], self)) ->
    H := smax(H, t),
    if r == 0 {
      for k in 0..Q - 1 { q[0][k] := ins(0, code(t, p, x), k) }
    } else if NR > 1 {
      for k in 0..Q - 1 { q[1][k] := ins(1, code(t, p, x), k) }
    },
    if z(r) == Q { qover := z(r) - Q + 1 }
  // Rule 2, bullet 3, with relation (6).
  action forward: recv Token(t, p, r, x) from pred, other(p, r, x) && state[r] == waiting && higher(t, p, seq[r], self) ->
    H := smax(H, t),
    send Token(t, p, r, x) to succ
  // Rule 3: release Q_i^r, highest priority first.
  environment finite action leave(r in 0..NR - 1): state[r] == cs ->
    if r == 0 {
      for k in 0..Q - 1 { if full(0, k) { send Token(csn(q[0][k]), cpid(q[0][k]), 0, crs(q[0][k])) to succ, q[0][k] := 0 } }
    } else if NR > 1 {
      for k in 0..Q - 1 { if full(1, k) { send Token(csn(q[1][k]), cpid(q[1][k]), 1, crs(q[1][k])) to succ, q[1][k] := 0 } }
    },
    state[r] := idle,
    seq[r] := 0,
    if resend == 1 { resent[r] := false }
  // Rule 4: the token held in some queue, resent once.
  timeout action timeout(r in 0..NR - 1): resend == 1 && state[r] == waiting && !resent[r]
      && !(exists i: exists m in chan(i, succ(i)): m.pid == self && m.res == r) ->
    resent[r] := true,
    send Token(seq[r], self, r, resend) to succ
}

invariant mutex "for every resource r, at most one node is in CS(r)":
  forall r in 0..NR - 1: (count p: state[p][r] == cs) <= 1
invariant priority_order "order=1, Property 4.1: a node in CS(r) has priority over every node waiting for r, by the nodes' copies of their tokens":
  order == 0 || (forall r in 0..NR - 1: forall j: state[j][r] != cs || (forall i: state[i][r] != waiting || !higher(seq[i][r], i, seq[j][r], j)))
abstraction invariant seq_window "requests=0: the live sequence values (every H, seq[r] while waiting or in CS(r), the SN of every token in a channel or a queue) lie within window of each other, so SeqNums kept modulo 2·window+3 compare as unbounded ones":
  requests > 0 || (exists s in 0..W - 1: forall p: within(H[p], s)
    && (forall r in 0..NR - 1: (state[p][r] == idle || within(seq[p][r], s))
      && (forall k in 0..Q - 1: !(forall j in 0..Q - 1: j > k || q[p][r][j] > 0) || within(csn(q[p][r][k]), s)))
    && (forall m in chan(p, succ(p)): within(m.seq, s)))
valid_end "every node has made its R requests and is idle for every resource, and no token is in transit":
  requests > 0 && forall p: used[p] == R && (forall r in 0..NR - 1: state[p][r] == idle) && len(p, succ(p)) == 0
predicate requesting(p) "the node waits for its token for resource 0": state[p][0] == waiting
predicate inCS(p) "the node is in CS(0)": state[p][0] == cs

check safety, deadlock, starvation
claim safety holds from init with n = 3 "Theorem 4.1 (safety and fairness): at most one node executes CS(r) at a time"
claim deadlock holds from init with n = 3 "Theorem 4.2: the proposed algorithm is deadlock free"
claim starvation holds from init fairness weak with n = 3 "Theorem 4.2 (liveness): each requesting node obtains the CS in finite time; with at most R requests every execution is finite, so this says only that none ends waiting"
claim deadlock holds found violated from init with n = 5, requests = 1 "Theorem 4.2: the proposed algorithm is deadlock free (Rule 2 as written: an idle node raises a token's SeqNum)"
claim safety holds found violated from init with n = 3, requests = 2, resend = 1 "Theorem 4.1 with Rule 4: a resent token whose duplicate is discarded keeps mutual exclusion"
claim starvation holds from init fairness weak-action with n = 3, requests = 0 "Theorem 4.2 (liveness), with requests recurring for ever and every token received in finite time"
