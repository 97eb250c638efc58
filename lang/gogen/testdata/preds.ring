spec preds "predicates that may fail, process, start, closure from and init predicates"
topology ring(3)
var x: 0..3
var y: 0..3
var a[0..2]: 0..1
process all {
  action up: x < 3 -> x := x + 1
  action down: x > 0 && y < 3 -> x := x - 1, y := y + 1, a[y % 3] := x % 2
}
invariant ratio: forall p: 6 / (4 - y[p]) <= 6
invariant div: forall p: 6 / (5 - x[p] - y[p]) >= -6
invariant runtime "a process and an entry known only in the configuration": forall p: x[(p + y[p]) % 3] - x[p] + a[p][x[p]] != y[p]
predicate low(p) "x below 2": x[p] < 2 && 3 / (x[p] + 1) > 0
start "a process at 1": exists p: x[p] == 1
legitimate "x below 3": forall p: x[p] < 3
closure from "no y at 3": forall p: y[p] < 3
init "x at most 1, y 0": forall p: x[p] <= 1 && y[p] == 0
