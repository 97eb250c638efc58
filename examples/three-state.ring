// Dijkstra's self-stabilizing ring of three-state machines (EWD396):
// machines 0..n-1 on a bidirectional ring, each reading both neighbours.
spec three-state "Dijkstra's three-state machines"
param n = 4 in 3..8 "number of machines"
topology biring(n)
var s: 0..2

process 0 {        // the bottom machine
  action down: (s + 1) mod 3 == s[succ] -> s := (s + 2) mod 3
}
process 1..n-2 {   // the normal machines
  action left:  (s + 1) mod 3 == s[pred] -> s := s[pred]
  action right: (s + 1) mod 3 == s[succ] -> s := s[succ]
}
process n-1 {      // the top machine
  action up: s[pred] == s[succ] && s != (s[pred] + 1) mod 3 -> s := (s[pred] + 1) mod 3
}

// A normal machine may hold two privileges: count them all.
def privileges(p) =
  if p == 0 then (if (s[0] + 1) mod 3 == s[1] then 1 else 0)
  else if p == n - 1 then (if s[n-2] == s[0] && s[n-1] != (s[n-2] + 1) mod 3 then 1 else 0)
  else (if (s[p] + 1) mod 3 == s[p-1] then 1 else 0) + (if (s[p] + 1) mod 3 == s[p+1] then 1 else 0)
legitimate "exactly one privilege": (sum p: privileges(p)) == 1
