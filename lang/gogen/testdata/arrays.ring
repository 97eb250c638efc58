spec arrays "array entries, a missing one"
topology ring(3)
var x: 0..2
var a[0..1]: 0..2
process all {
  action set: x < 2 -> a[x] := a[x] + 1, x := x + 1
  action miss: x == 2 -> for i in 0..2 { a[i] := 0 }
  action back: x == 2 && a[0] == 2 -> x := 0
}
invariant bounded: forall p: a[p][0] + a[p][1] <= 4
