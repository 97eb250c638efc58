spec arrays2 "two-dimensional array mistakes: indices"
topology ring(3)
var u[0..1][0..2]: 0..3
var q[0..1]: bool
var x: 0..3
process all {
  action a: u[1] > 0 -> x := 1
  action e: true -> u[1] := 2
  action f: true -> q[0][1] := true
  action g: q[pred][1][0] -> x[1][2] := 1
  action h: true -> for j in 0..2 { u[x][x] := j }
}
invariant bare: u[0][0] == 0
invariant other: forall p: u[p][1][0] == 0 && u[p][0] == 0
