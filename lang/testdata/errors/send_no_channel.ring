spec broken
topology ring(3)
message token
channels capacity 1
process all {
  action A: recv token from pred -> send token to pred
}
