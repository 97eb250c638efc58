spec broken
topology ring(2)
message m(a: 0..1, b: 0..1, c: 0..1, d: 0..1, e: 0..1, f: 0..1, g: 0..1, h: 0..1, i: 0..1)
channels capacity 1
var x: 0..1
process all {
  action A: x == 0 -> x := 1, send m(x, x, x, x, x, x, x, x, x) to succ
}
