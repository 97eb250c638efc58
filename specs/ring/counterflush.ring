// Varghese's counter flushing (G. Varghese, "Self-stabilization by counter
// flushing", SIAM J. Comput. 30(2), 2000), as Datta, Devismes, Horn and
// Larmore describe it (AlgoTel 2008): the twin of the Go spec counterflush,
// whose comment gives the readings this encoding shares (token passing,
// a perfect timer, dropped sends to a full channel).
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
