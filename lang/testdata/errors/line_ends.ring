spec ends
param n = 4 in 2..8 "machines"
topology line(n)
var x: bool
process 0..n-2 {
  action a: x != x[pred] -> x := !x
}
process n-1 {
  action b: x != x[succ] -> x := !x
}
process 2 {
  action c: x[0] -> skip
}
process 1 {
  action d: x[pred(pred)] -> skip
}
invariant i: forall p: x[pred(p)]
invariant j: x[succ(n-1)] || x[pred(2)]
process n-1..n { var y: bool }
