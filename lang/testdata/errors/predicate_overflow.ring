spec broken
topology ring(3)
var x: 0..2 = 0
process all {
  action A: x == x[pred] -> x := (x + 1) mod 3
}
// (x + 1) * 2^63 wraps to -2^63 where x is 0: positive, in fact.
invariant pos "(x[0] + 1) * 2^63 is positive": (x[0] + 1) * 1073741824 * 1073741824 * 8 > 0
