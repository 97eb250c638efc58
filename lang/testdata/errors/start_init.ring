spec sets
topology ring(3)
var x: 0..2 = 1
process 0 { init: x := 2 }
init "x is 0 somewhere": exists p: x[p] == 0
init: true
start: x[0] + 1
