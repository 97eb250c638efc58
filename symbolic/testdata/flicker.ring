// Process 0 steps x round 0 → 1 → 2 → 0, and with back=1 may also step back
// from 1 to 0; process 1 can finish (done := 1, which is L) only while x
// is 2. On the cycle through 2, process 1 is enabled at one configuration
// of three: weakly fair (it is not enabled continuously), strongly unfair
// (it is enabled infinitely often). With back=1 the cycle 0 → 1 → 0 never
// enables it, and is fair under every fairness.
spec flicker "a process enabled now and then on a cycle"
param back = 0 in 0..1 "1: process 0 may also step back from x = 1 to x = 0"
topology ring(2)
var x: 0..2
var done: 0..1

process 0 {
  action step: done[1] == 0 -> x := (x + 1) mod 3
  action back: back == 1 && done[1] == 0 && x == 1 -> x := 0
}
process 1 {
  action finish: done == 0 && x[0] == 2 -> done := 1
}

legitimate "process 1 finished": done[1] == 1
