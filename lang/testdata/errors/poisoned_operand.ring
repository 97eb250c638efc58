spec broken
topology ring(3)
var x: 0..2
var b: bool
process all {
  action A: x == 0 -> x := (x + 1) mod Q
  action B: x == 1 -> b := if x == 2 then f(x) else true
  action C: x == 2 -> x := -undefinedToo, b := -x[pred] + nope > 0 && true
}
invariant i: forall p: x[p] / (zero - 1) >= 0 || nope(p)
