spec broken
topology ring(2)
message m(a: 0..0, b: 0..0, c: 0..0, d: 0..0, e: 0..0, f: 0..0, g: 0..0, h: 0..0, i: 0..0, j: 0..0, k: 0..0, l: 0..0, m: 0..0, n: 0..0, o: 0..0, p: 0..0, q: 0..0, r: 0..0, s: 0..0, t: 0..0, u: 0..0)
channels capacity 1
var x: 0..1
process all {
  action A: x == 0 -> x := 1, send m(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0) to succ
}
