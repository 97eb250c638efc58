spec broken
param N = 3 in 2..4
topology ring(2)
channels capacity 2
message Tok(more: bool, v[0..N-1]: 0..3, w: 0..1)
message Empty(e[1..0]: bool)
message Twice(x: bool, x[0..1]: bool)
var a[0..N-1]: 0..3
var b[0..1]: 0..3
var u[0..1][0..N-1]: 0..3
var k: 0..3
process all {
  action r1: recv Tok(_, vs, _) from pred -> skip
  action r2: recv run Tok while more from pred -> do { for m in run { k := m.v } }
  action r3: recv run Tok while more from pred -> do { for m in run { k := m.v[3] } }
  action r4: recv run Tok while more from pred -> do { for m in run { k := m.nope[k] } }
  action s1: k == 0 -> send Tok(true, b, 0) to succ
  action s2: k == 1 -> send Tok(true, k, 0) to succ
  action s3: k == 2 -> send Tok(true, u[0], 0) to succ, send Tok(true, a, 0, 1) to succ
}
invariant i: head(pred(0), 0).v[true] == 0
