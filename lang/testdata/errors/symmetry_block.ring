spec s
param n = 4 in 2..8
topology ring(n)
var x: 0..3
process 0 {
  action root: x == x[pred] -> x := (x + 1) mod 4
}
process 1..n-1 {
  action copy: x != x[pred] -> x := x[pred]
}
symmetry rotation
