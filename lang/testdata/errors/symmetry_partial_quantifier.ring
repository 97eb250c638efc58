spec s
param n = 4 in 2..8
topology ring(n)
var x: 0..3
process all {
  action copy: x != x[pred] -> x := x[pred]
}
predicate ahead(p) "p is ahead of the processes after it": forall q in 1..n-1: x[p] >= x[p + q]
valid_end: (sum q in 1..n-1: x[q] == 0) > 0
symmetry rotation
