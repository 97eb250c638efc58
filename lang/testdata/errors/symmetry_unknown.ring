spec s
param n = 4 in 2..8
topology ring(n)
var x: 0..3
process all {
  action copy: x != x[pred] -> x := x[pred]
}
symmetry rotation, translation
