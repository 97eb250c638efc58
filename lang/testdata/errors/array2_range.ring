spec arrays2 "two-dimensional array mistakes: ranges"
topology ring(3)
var u[0..1][0..2]: 0..3
var x: 0..3
var big[0..8][0..7]: bool
var pp[0..1][peers]: bool
var e[1..0][0..1]: bool
process all {
  action b: true -> u[2][0] := 1
  action c: true -> u[0][3] := 1
  action d: x == u[0][-1] -> skip
  action i: true -> x := u[x][5]
  action j: true -> u[x][3] := 4
}
invariant other: forall p: u[p][2][x[p]] == 0
