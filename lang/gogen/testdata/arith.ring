spec arith "overflow, division by zero, modulo, reads of processes not linked"
topology ring(3)
var x: 0..3
const H = 1073741824 * 1073741824 * 4
process all {
  action inc: x < 3 -> x := x + 1
  action ovf: x == 2 && x * H + H > 0 -> x := 0
  action div: x == 3 -> x := 6 / (x[pred] - x[pred])
  action modulo: x == 1 -> x := (x[pred] - 5) mod 3
  action negate: x == 0 && -x == 0 -> x := (sum p: x[p]) mod 4
}
invariant small: x[0] + x[1] <= 5
