spec broken
topology ring(3)
var x: 0..2 = 0
process all {
  action A: x == x[pred] -> x := (x + 1) mod 3
}
invariant div "6 / x[p] is never 0": forall p: 6 / x[p] != 0
