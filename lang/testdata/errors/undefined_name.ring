spec broken
param n = 3 in 2..5
topology ring(n)
var x: 0..K-1
process all {
  action A: y == x[pred] -> x := x[pred]
}
