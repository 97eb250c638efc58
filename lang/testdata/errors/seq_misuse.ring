spec broken
topology ring(3)
var x: 0..3
var y: 0..3
var a[0..2]: 0..3
process all {
  action ok: true -> do { x := 1; x := x + 1; a[x] := 2; a[0] := a[x] }
  action twice: true -> do { x := 1 }, x := 2
  action outside: true -> let t := 1, x := t
  action clash: true -> do { let x := 1; let t := 2; let t := 3 }
  action domain: true -> do { let t: 0..3 := x; t := 4; let u: 0..1 := 2; u := true }
  action indexed: true -> do { let t := 1; t[0] := 1 }
  action loop: true -> for q in 0..1 { do { y := q } }
  atomic action peer: true -> do { x[succ] := 1 }
}
