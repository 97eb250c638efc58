spec broken
topology ring(3)
var x: 0..2
process all {
  action A: true -> x := 1, x := 2
}
