// A ring where a configuration outside L can be dead (every x in {0, 4})
// or cycle for ever (an x in {2, 3}): from every configuration with an x
// in 2..4, some execution, fair under every fairness, never reaches L.
spec stuck "dead configurations and cycles outside L"
param n = 2 in 2..3 "number of processes"
topology ring(n)
var x: 0..4 = 0
process all {
  action down: x == 1 -> x := 0
  action turn: x == 2 -> x := 3
  action back: x == 3 -> x := 2
}
legitimate "every x is 0": (forall p: x[p] == 0)
