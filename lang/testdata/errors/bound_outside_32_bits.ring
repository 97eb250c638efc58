spec bounds "bounds outside 32 bits, and abs of the least int64"
const H = 1073741824 * 1073741824 * 4
const MIN = -H - H
topology ring(3)
var x: 0..3
var y: 0..H
process all {
  action A(k in MIN..MIN + 1): x < 3 -> x := x + 1
}
invariant i: abs(MIN) > 0 && (sum p in H..H + 1: x[p]) >= 0
