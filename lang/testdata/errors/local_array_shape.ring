spec broken
topology ring(3)
var x: 0..3
message m(v[0..2]: 0..3)
channels capacity 1
process all {
  action range: true -> do { let t[0..2]: 0..3; t[3] := 1; x := t[-1]; let g[0..1][0..2]: 0..3; g[1][3] := 0; x := g[2][0] }
  action indices: true -> do { let t[0..2]: 0..3; t[0][1] := 1; x := t[1][2]; let g[0..1][0..2]: 0..3; g[1] := 0; x := g[1] }
}
