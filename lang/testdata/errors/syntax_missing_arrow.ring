spec broken
param n = 3 in 2..5
topology ring(n)
var x: 0..2
process all {
  action A: x == x[pred] x := x
}
