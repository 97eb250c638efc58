// Dijkstra's self-stabilizing four-state machines (EWD392; the solution
// with four-state machines of "Self-stabilizing systems in spite of
// distributed control", CACM 17(11), 1974): machines 0..n-1 on a line,
// each with two booleans x and up.
// The bottom machine (0) has up true and the top machine (n-1) up false,
// for ever; every machine reads its neighbours' x and up.
spec ewd392 "Dijkstra's four-state machines on a line"
source "E. W. Dijkstra, EWD392 (four-state machines); Self-stabilizing systems in spite of distributed control, CACM 1974"

param n = 4 in 2..12 "number of machines"

topology line(n)

var x: bool

process 0 {        // the bottom machine
  const up = true
  action bottom: x == x[succ] && !up[succ] -> x := !x
}
process 1..n-2 {   // the other machines
  var up: bool
  action left:  x != x[pred] -> x := !x, up := true
  action right: x == x[succ] && up && !up[succ] -> up := false
}
process n-1 {      // the top machine
  const up = false
  action top: x != x[pred] -> x := !x
}

// A privilege is present where a guard holds: x != xL on machines 1..n-1,
// x = xR and up and not upR on machines 0..n-2 (the bottom's guard, as
// its up is true).
legitimate "exactly one privilege is present":
  (count p in 1..n-1: x[p] != x[p-1]) + (count p in 0..n-2: x[p] == x[p+1] && up[p] && !up[p+1]) == 1

check closure, convergence
claim closure holds from all with n = 4 "EWD392: a legitimate state stays legitimate"
claim convergence holds from all with n = 4 "EWD392: from any state a legitimate state is reached (central daemon)"
