// A ring where only process 0 declares a variable: process 1's share of
// the encoding has no bits (an empty varset). Process 1 idles (a step
// that changes nothing) while x is 2, so a cycle outside L exists and
// convergence fails unless fairness obliges process 0 to move.
spec halfvar "only process 0 has a variable"
param idle = 0 in 0..1 "process 1 idles while x is 2"
topology ring(2)
process 0 {
  var x: 0..2
  action down: x > 0 -> x := x - 1
}
process 1 {
  action wait: idle == 1 && x[pred] == 2 -> skip
}
legitimate "x is 0": x[0] == 0
