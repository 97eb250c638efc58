spec broken
// On a ring of two processes, the predecessor is the successor.
topology ring(2)
var q: 0..1
process all {
  atomic action both: q == 1 -> q := 0, q[pred] := 1, q[succ] := 1
}
