// ringcheck's spec counterflush: Varghese's counter flushing (G. Varghese,
// "Self-stabilization by counter flushing", SIAM J. Comput. 30(2), 2000) as
// Datta, Devismes, Horn and Larmore describe it (AlgoTel 2008, the
// paragraph "Le protocole du jeton privilège"): a single privilege token
// simulated by messages that carry a counter value.
//
// The ring is unidirectional with n processes and one FIFO channel of
// capacity Cmax from each process to its successor. Each process i has a
// counter C in 0..M-1 with M = n(Cmax+1), the paper's "valeurs variant de 0
// à n(Cmax+1)-1": the n-1 non-root counters and the n·Cmax channel slots
// hold at most M-1 values, so at least one value is absent from an
// arbitrary configuration, which is what makes the root's counter flush the
// ring. Messages are Token(c), c in 0..M-1. Process 0 is the root.
//
// Actions (atomic, central daemon, interleaving; in declaration order):
//
//	root:    accept   head(in) = Token(c) ∧ c = C      → receive; C := (C+1) mod M; send Token(C+1 mod M)
//	         ignore   head(in) = Token(c) ∧ c ≠ C      → receive
//	         timeout  every channel is empty (Timeout) → C := (C+1) mod M; send Token(C+1 mod M)
//	i > 0:   accept   head(in) = Token(c) ∧ c ≠ C      → receive; C := c; send Token(c)
//	         ignore   head(in) = Token(c) ∧ c = C      → receive
//
// Choices the paper leaves open, pinned by tests:
//
//   - "Each process periodically sends C_i to its successor" is encoded as
//     token passing, the usual way to model-check counter flushing: a
//     process sends exactly when it accepts a valid message (it holds the
//     privilege, uses it atomically, and passes it on), and the root's
//     periodic retransmission is a Timeout action. Sending C_i at any time
//     (the literal reading) would let the holder of the privilege duplicate
//     the message in transit, so no configuration would have "exactly one
//     privilege" in a sense that every step preserves, and the state space
//     would be dominated by retransmissions that change nothing.
//   - The timeout's guard is the global predicate "every channel is empty":
//     a perfect timer, which fires only once every message has been
//     delivered or lost. A premature timeout (one that may fire while the
//     token is in transit) would be a transient fault: it duplicates the
//     token and leaves the legitimate set, so closure could not hold.
//   - On timeout the root increments C before sending it, as on an accept:
//     every message the root initiates carries a new counter value, as
//     Datta, Hadid and Villain (Euro-Par 2002) say of their Controller ("Every time Root initiates a CToken,
//     it uses a new sequence number", actions A_c1 and A_c3). A timeout that
//     resends the current C_0 unchanged livelocks: with every channel empty
//     and C_1 = C_0, process 1 ignores the resent message and the ring is
//     back where it was, forever, under any fairness (only processes 0
//     and 1 are ever enabled, and both move).
//   - A send to a full channel is dropped (message loss, a fault counter
//     flushing tolerates: the root's timeout regenerates the token). In a
//     legitimate configuration a single message is in transit, so no send
//     ever finds its channel full. Under block, a ring of full channels whose
//     heads are all valid for their receivers deadlocks (every accept must
//     send into a full channel); error would report those sends as
//     violations. The CLI's --overflow overrides the policy.
//   - A configuration is legitimate iff exactly one message is in transit
//     and, for some value v and process j, C_0 = … = C_j = v,
//     C_{j+1} = … = C_{n-1} = v-1 mod M, and the message is Token(v) in the
//     channel from j to j+1 mod n. Its receiver is the one process holding
//     the privilege: Token(v) is valid for it (v ≠ v-1 for j < n-1; v = C_0
//     for j = n-1), and nothing else is in transit. Every legitimate
//     configuration has exactly one successor, the pattern for (v, j+1), or
//     (v+1, 0) after the root accepts, which is legitimate: the n·M
//     legitimate configurations form a single cycle, so the set is closed.
//   - The spec's safety invariant is that legitimacy predicate, so "safety
//     holds from init" says the ring never leaves the legitimate cycle.
//     No configuration is a valid end state; none has no enabled step (a
//     message can always be received, and with every channel empty the
//     timeout is enabled), so deadlock holds even from every configuration.
//   - The initial configuration is the legitimate one with every counter 0
//     and Token(0) in the channel from n-1 to the root: the root is about to
//     accept. From it exactly the n·M legitimate configurations are
//     reachable.
//
// The paper's claims: from every configuration the ring reaches the
// legitimate set (convergence, with no fairness assumption: every infinite
// execution has the root increment its counter infinitely often, and the
// first value it sends that was absent from the ring flushes it) and stays
// in it (closure). Both hold for n=3, Cmax=1, with a worst case of 11
// steps. Seed 001 also cites a bound of 2n rounds from [Var00]; that bound
// is not pinned: in asynchronous rounds as ringcheck counts them (Dolev),
// where each receipt of a stale message and each timeout takes a round, the
// worst case is 5 rounds for n=2, Cmax=1 and 8 for n=3, Cmax=1, and it grows
// with Cmax, whereas [Var00]'s rounds are presumably message delays and
// timeout periods.
spec counterflush "Varghese's counter flushing: one privilege token from any configuration (seed 001)"
source "G. Varghese, Self-stabilization by counter flushing, SIAM J. Comput. 30(2), 2000, as described by Datta, Devismes, Horn, Larmore, AlgoTel 2008, \"Le protocole du jeton privilège\""

param n = 3 in 2..6 "number of processes on the ring"
param Cmax = 1 in 1..3 "channel capacity; counters range over 0..n(Cmax+1)-1"
const M = n * (Cmax + 1)

topology ring(n)
var C: 0..M-1 = 0
message Token(c: 0..M-1)
channels capacity Cmax overflow drop carry Token

process 0 {
  action accept: recv Token(v) from pred, v == C -> C := (C + 1) mod M, send Token((C + 1) mod M) to succ
  action ignore: recv Token(v) from pred, v != C -> skip
  // A perfect timer: it fires once every message has been delivered.
  timeout action timeout: (forall p: len(p, succ(p)) == 0) -> C := (C + 1) mod M, send Token((C + 1) mod M) to succ
}
process 1..n-1 {
  action accept: recv Token(v) from pred, v != C -> C := v, send Token(v) to succ
  action ignore: recv Token(v) from pred, v == C -> skip
}
// Every counter 0, Token(0) on its way to the root.
process n-1 {
  init: send Token(0) to succ
}

// Exactly one message in transit, Token(v) from j to j+1, with
// C_0..C_j = v and C_{j+1}..C_{n-1} = v-1 mod M.
def carried(j) = head(j, succ(j)).c
def legit = (sum p: len(p, succ(p))) == 1 &&
  (exists j: len(j, succ(j)) == 1 &&
    (forall i: C[i] == (if i <= j then carried(j) else (carried(j) + M - 1) mod M)))

invariant one_privilege "the configuration is legitimate (exactly one valid privilege)": legit
legitimate "exactly one message in transit, Token(v) from j to j+1, with C_0..C_j = v and C_{j+1}..C_{n-1} = v-1 mod n(Cmax+1)": legit

check deadlock, closure, convergence
claim safety holds from init with n = 3, Cmax = 1 "from a legitimate configuration a single privilege circulates"
claim deadlock holds from all with n = 3, Cmax = 1 "a message can always be received, and with every channel empty the root's timeout fires"
claim closure holds from all with n = 3, Cmax = 1 "every step from a legitimate configuration leads to a legitimate one (they form one cycle)"
claim convergence holds from all with n = 3, Cmax = 1 "[Var00] via seed 001: from any configuration the ring reaches a single circulating privilege"
bound "about 2n rounds ([Var00], cited by seed 001)"
