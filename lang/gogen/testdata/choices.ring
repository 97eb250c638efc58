spec choices "choices whose guards read the choice, receives of any type"
topology ring(3)
var x: 0..3
message A(v: 0..3)
message B
channels capacity 2 overflow drop
process all {
  action pick(k in 0..3): k != x && k >= x[pred] -> x := k, send A(k) to succ
  action emit(k in 1..2): x == k -> send B to succ
  action any: recv any except A from pred, x > 0 -> x := x - 1
  action a: recv A(v) from pred, v == x -> skip
  action b: recv A(v) from pred, v != x -> x := v
}
invariant ok: x[0] <= 3
