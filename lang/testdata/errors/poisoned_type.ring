spec broken
topology ring(3)
var x: state = idle
message M(f: colour)
channels capacity 1
process all {
  action A: x == 1 -> x := 2, send M(3) to succ
  action B: recv M(c) from pred, c > 0 -> skip
}
invariant i: x[0] != 7 && !x[1]
