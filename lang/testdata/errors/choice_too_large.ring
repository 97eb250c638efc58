spec broken
topology ring(2)
var x: 0..3
process all {
  action A(k in 0..1000000000): x == 0 -> x := 1
  action B(k in 1..4096): x == 1 -> x := 2
}
