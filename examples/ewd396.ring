// Dijkstra's self-stabilizing three-state machines (EWD396; the solution
// with three-state machines of "Self-stabilizing systems in spite of
// distributed control", CACM 17(11), 1974): machines 0..n-1 on a ring,
// each with a state S in 0..2 and reading both its neighbours. The
// bottom machine (0) reads only its right-hand neighbour (1); the top
// machine (n-1) reads its left-hand neighbour (n-2) and, as its
// right-hand one, the bottom machine.
spec ewd396 "Dijkstra's three-state machines on a ring"
source "E. W. Dijkstra, EWD396 (three-state machines); Self-stabilizing systems in spite of distributed control, CACM 1974"

param n = 4 in 3..10 "number of machines"

topology biring(n)

var S: 0..2

process 0 {        // the bottom machine
  action bottom: (S + 1) mod 3 == S[succ] -> S := (S - 1) mod 3
}
process 1..n-2 {   // the other machines
  action left:  (S + 1) mod 3 == S[pred] -> S := S[pred]
  action right: (S + 1) mod 3 == S[succ] -> S := S[succ]
}
process n-1 {      // the top machine
  action top: S[pred] == S[succ] && (S[pred] + 1) mod 3 != S -> S := (S[pred] + 1) mod 3
}

// A privilege is present where a guard holds: (S + 1) mod 3 = R on
// machines 0..n-2, (S + 1) mod 3 = L on machines 1..n-2, and the top's.
legitimate "exactly one privilege is present":
  (count p in 0..n-2: (S[p] + 1) mod 3 == S[p+1]) + (count p in 1..n-2: (S[p] + 1) mod 3 == S[p-1])
  + (if S[n-2] == S[0] && (S[n-2] + 1) mod 3 != S[n-1] then 1 else 0) == 1

check closure, convergence
claim closure holds from all with n = 4 "EWD396: a legitimate state stays legitimate"
claim convergence holds from all with n = 4 "EWD396: from any state a legitimate state is reached (central daemon)"
