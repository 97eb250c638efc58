spec broken
topology ring(3)
var x: 0..2 = 0

message tok
process all {
  action A: x == x[pred] -> x := (x + 1) mod 3
}
