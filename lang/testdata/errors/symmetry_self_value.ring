spec s
param n = 4 in 2..8
topology ring(n)
var x: 0..3
process all {
  action inc: x == x[pred] -> x := (x + 1) mod 4
  action reset: x != x[pred] && self == 0 -> x := 0
}
invariant small: forall p: x[p] < 4
symmetry rotation
