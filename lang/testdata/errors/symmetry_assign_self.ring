spec s
param n = 4 in 2..8
topology ring(n)
var x: 0..7
process all {
  action mark: x == 0 -> x := self
}
symmetry rotation
