spec broken
topology ring(3)
type status = {idle, busy}
var s: status = idle
var x: 0..2
process all {
  action A: s == 1 -> x := true
  action B: x && s == busy -> s := idle
}
