spec bigchoice "choices of more than 16 values, generated once for every alternative"
topology ring(2)
var x: 0..16
var y: 0..3
var a[0..16]: 0..0
process all {
  action pick(k in 0..16): a[k] == 0 && (k == (x + 3 * y + 1) % 17 || k == (x + 5) % 17) -> x := k, y := k % 4
  action wipe(k in 2..18): x > 13 && k % 5 == y -> a[k - 2] := 0, x := (x + k + y) % 17
  action miss(k in 0..17): x == 16 && k > 15 -> a[k] := 0
}
invariant ok: forall p: x[p] <= 16
