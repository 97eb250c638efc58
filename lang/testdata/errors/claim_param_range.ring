spec broken
param n = 3 in 2..8
param K = 3 in 1..5
topology ring(n)
var x: 0..2 = 0
process all {
  action A: x == x[pred] -> x := (x + 1) mod 3
}
claim safety holds with n = 99
claim safety holds with K = 0, n = 4
claim safety holds with m = 1
