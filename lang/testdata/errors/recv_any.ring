spec broken
topology ring(3)
message T
channels capacity 2
var s: 0..1
process all {
  action flush: recv any except V from pred -> s := 1
  action back: recv any from succ -> s := 0
}
