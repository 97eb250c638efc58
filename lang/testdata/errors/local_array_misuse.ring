spec broken
topology ring(3)
var x: 0..3
message m(v[0..2]: 0..3)
channels capacity 1
process all {
  action ok: true -> do { let t[0..2]: 0..3; let g[0..1][0..2]: 0..3 := 2; t[x] := 1; g[0][x] := t[x] + 1; send m(t) to succ; send m(g[1]) to succ }
  action outside: true -> let t[0..2]: 0..3, x := 1
  action clash: true -> do { let x[0..1]: 0..3; let t[0..1]: 0..3; let t := 2 }
  action domain: true -> do { let t[0..2]: 0..3 := 4; t[1] := 5; let u[0..1]: bool := 1; u[0] := 2 }
}
