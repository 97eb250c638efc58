spec broken
topology ring(3)
var x: 0..3
message m(v[0..2]: 0..3)
channels capacity 1
process all {
  action whole: true -> do { let t[0..2]: 0..3; t := 1; x := t; let z: 0..3 := t[0] + t }
  action sends: true -> do { let t[0..1]: 0..3; let g[0..1][0..1]: 0..3; send m(t) to succ; send m(g[0]) to succ }
  action dims: true -> do { let t[3..1]: 0..3; let u[peers]: 0..3; let w[0..9][0..9]: 0..3; let v[0..x]: 0..3 }
}
