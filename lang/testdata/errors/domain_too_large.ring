spec broken
topology ring(2)
var x: 0..2147483647
var y: -1..2147483646
var z: 1..2147483647
message m(f: 0..2147483647)
channels capacity 1
process all {
  action A: x == 0 -> x := 1, send m(0) to succ
}
