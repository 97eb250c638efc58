spec s
param n = 4 in 2..8
topology biring(n)
var x: 0..3
var seen[peers]: bool
process all {
  action look: x != x[pred] -> x := x[pred], seen[pred] := true
}
symmetry rotation
