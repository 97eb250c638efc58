spec broken
param n = 3 in 2..8
topology ring(n)
var x: 0..2 = 0
process all {
  action A: x == x[pred] -> x := (x + 1) mod 3
}
claim starvation holds fairness weak-action with n = 3
claim starvation holds fairness strong-action
claim leads-to holds fairness weak-actoin
claim starvation holds fairness weak_action
