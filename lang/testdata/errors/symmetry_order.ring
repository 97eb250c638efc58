spec s
param n = 4 in 2..8
topology ring(n)
var x: 0..3
process all {
  action copy: x != x[pred] -> x := x[pred]
}
def before(p, q) = p < q && x[p] == x[q]
legitimate: (count p: exists q: before(p, q)) == 0
symmetry rotation
