// ringcheck's spec dijkstra: Dijkstra's K-state self-stabilizing token ring
// (E. W. Dijkstra, "Self-stabilizing systems in spite of distributed
// control", CACM 17(11), 1974).
//
// The ring is unidirectional with n processes in the state-reading model;
// each process i has one variable x[i] in 0..K-1, and reads its predecessor.
// Process 0 is the root:
//
//	root:    privileged iff x[0] = x[n-1];   move x[0] := (x[0]+1) mod K
//	i > 0:   privileged iff x[i] ≠ x[i-1];   move x[i] := x[i-1]
//
// A configuration is legitimate iff exactly one process is privileged. The
// spec's safety invariant is that legitimacy predicate, so "safety holds
// from init" says that from the all-zero configuration the ring never holds
// more than one privilege. Every configuration has a privileged process (if
// no i>0 is, all x are equal and the root is), so the ring never deadlocks;
// there is no valid end state.
//
// For starvation, requesting(p) is always true and inCS(p) is "p is
// privileged": starvation freedom says every process is privileged
// infinitely often.
//
// Dijkstra's claim: self-stabilizing under the central daemon for K ≥ n (in
// fact K ≥ n-1 suffices); the regression manifest pins the verdicts.
spec dijkstra "Dijkstra's K-state self-stabilizing token ring"
source "E. W. Dijkstra, Self-stabilizing systems in spite of distributed control, CACM 1974 (K-state machine)"

param n = 5 in 2..32 "number of processes on the ring"
param K = 5 in 2..64 "number of states of each process's variable x"

topology ring(n)

var x: 0..K-1 = 0

// The root is privileged when it equals its predecessor; every other
// process when it differs from its predecessor.
def privileged(p) = if p == 0 then x[0] == x[n-1] else x[p] != x[p-1]

process 0 {
  action A: x == x[pred] -> x := (x + 1) mod K
}
process 1..n-1 {
  action A: x != x[pred] -> x := x[pred]
}

invariant one_privilege "exactly one process is privileged": (count p: privileged(p)) == 1
legitimate "exactly one process is privileged": (count p: privileged(p)) == 1
predicate requesting(p) "always true: every process wants the privilege": true
predicate inCS(p) "the process is privileged": privileged(p)

check safety, deadlock
claim safety holds from init with n = 5, K = 5 "from the all-zero configuration a single privilege circulates"
claim deadlock holds from all with n = 5, K = 5 "every configuration has a privileged process"
