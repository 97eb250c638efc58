spec lines "two-dimensional array lines assigned twice in one step"
topology ring(2)
var u[0..1][0..2]: 0..3
var r: 0..1
process all {
  action a: true -> for j in 0..2 { u[0][j] := 1 }, u[0][2] := 2
  action b: true -> for j in 0..2 { u[1][j] := 1 }, for i in 0..1 { u[i][0] := 2 }
  action c: true -> for j in 0..2 { u[1][j] := 1 }, u[r][1] := 2
  action d: true -> for j in 0..2 { u[0][j] := 1 }, for j in 0..2 { u[0][j] := 2 }
  action e: true -> u[1][2] := 1, for i in 0..1 { u[i][1] := 2 }
}
