spec s
param n = 4 in 2..8
topology ring(n)
var x: 0..3
process all {
  action copy: x != x[pred] -> x := x[pred]
}
invariant root_small "the root's x stays small": x[0] < 3
symmetry rotation
