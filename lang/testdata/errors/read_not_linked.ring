spec broken
topology ring(4)
var x: 0..3
process all {
  action A: x != x[succ] -> x := x[succ]
}
