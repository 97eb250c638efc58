spec broken
param n = 3 in 2..8
topology ring(n)
var x: 0..2 = 0
def f(p) = x[p] == 0
def g(p, q) = x[p] + x[q]
process all {
  action A: x == x[pred] -> x := (x + 1) mod 3
}
invariant i: f
invariant j: g(0) == 1
