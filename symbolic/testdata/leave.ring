// A process in 1..2 flips between them until it leaves, a finite action
// (always weakly fair): the flipping cycle is unfair under every fairness,
// so only the configurations that reach x = 3, dead outside L, do not
// converge.
spec leave "a dead end and an unfair cycle"
param n = 2 in 2..3 "number of processes"
topology ring(n)
var x: 0..3 = 0
process all {
  action flip: x == 1 -> x := 2
  action flop: x == 2 -> x := 1
  environment finite action leave: x == 1 || x == 2 -> x := 0
}
legitimate "every x is 0": (forall p: x[p] == 0)
