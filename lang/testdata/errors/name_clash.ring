spec broken
param n = 3 in 2..8
topology ring(n)
var x: 0..2 = 0
predicate f(p): x[p] == 0
def f(p) = x[p] == 1
def g(p) = x[p] == 1
predicate g(p): x[p] == 0
predicate y(p): true
process all {
  var y: 0..2 = 0
  action A: x == x[pred] -> x := (x + 1) mod 3, y := x
}
invariant i: forall p: f(p) || g(p)
