spec parts
param n = 4 in 3..8 "machines"
const M = 2
topology line(n)
process 0 { const up = true }
process 0..1 { var up: bool }
process 2 { var up: 0..3 }
process n-1 {
  const up = false
  action a: true -> up := true
}
process 1..2 { var v: 0..1 }
process 3 { var v: 0..2 }
process 1..3 { action b: true -> v := 0 }
process 1 {
  const k = v[1]
  const M = 3
}
process 2 { action c: up[succ] -> up[succ] := false }
invariant i: up
