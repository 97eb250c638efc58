// Process 0 emits a Tick into a channel of one message when armed, and
// rearms whenever disarmed; process 1 takes the Tick. L is the empty
// channel. With the channel full, the only cycle outside L emits into the
// full channel again and again: every one of those sends overflows.
spec rearmer "sends into a full channel for ever"
topology ring(2)
var x: 0..1
message Tick
channels capacity 1 overflow error carry Tick

process 0 {
  action emit: x == 1 -> x := 0, send Tick to succ
  action rearm: x == 0 -> x := 1
}
process 1 {
  action take: recv Tick from pred -> skip
}

legitimate "the channel is empty": len(0, 1) == 0
