spec broken
topology ring(3)
var x: 0..2
process all {
  action A: x == 0 -> x := 7
}
channels capacity 0
