spec broken
param n = 3 in 2..8
topology ring(n)
var x: 0..2 = 0
process all {
  init: x := self + 1
  action A: x == x[pred] -> x := (x + 1) mod 3
}
