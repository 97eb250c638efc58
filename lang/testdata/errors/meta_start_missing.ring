// A claim's start file is read when the claim is checked, and by vet.
spec c
param n = 3 in 2..6
topology ring(n)
var x: 0..2
process all {
  action a: x != x[pred] -> x := x[pred]
}
legitimate: forall p: x[p] == x[0]
claim convergence holds found violated from "missing/nc.json" with n = 4
