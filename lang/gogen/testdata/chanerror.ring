spec chanerror "a send to a full channel is an error; receive guards read fields"
topology ring(3)
var c: 0..2
message M(v: 0..2, w: 0..1)
message P
channels capacity 1 overflow error
process all {
  action emit: c < 2 -> send M(c, 1) to succ, c := c + 1
  action take: recv M(v, w) from pred, v >= c && w == 1 -> c := v
  action pass: recv M(v, w) from pred, v < c -> send M(v, 0) to succ
  action fwd: recv M(v, w) from pred, v >= c && w == 0 -> send M(v, w) to succ
  action poke: c == 2 -> send P to succ, c := 0
  action eat: recv P from pred -> skip
}
invariant few: (sum p: len(p, succ(p))) <= 3
