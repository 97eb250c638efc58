spec broken
param big = 1000000 in 0..2000000
topology ring(3)
var x: 0..2
message M
channels capacity 2
process all {
  action A: x == 0 -> x := 1, repeat big { send M to succ }
  action B: x == 1 -> x := 2, repeat 2 - 3 { send M to succ }
  action C: x == 2 -> x := 0, repeat 1024 { send M to succ }, if big == 0 { repeat -1 { send M to succ } }
  init: repeat -2 { send M to succ }
}
