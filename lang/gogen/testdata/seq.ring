spec seq "sequential blocks: locals, local arrays, shadows of variables and arrays, missing entries"
topology ring(3)
var x: 0..3
var a[0..2]: 0..3
var t: 0..1
process all {
  action shift: x < 3 -> do {
    let s := x + 1;
    let b[0..2]: 0..3;
    let m[0..1][0..1]: 0..3;
    for i in 0..2 { b[i] := a[i]; a[i] := a[(i + 1) % 3] };
    a[2] := b[0];
    m[1][0] := s;
    b[x] := m[1][0];
    if b[x] > a[x] { x := x + 1; a[x % 3] := b[x % 3] } else { x := s };
    t := 1 - t
  }
  action local: x == 3 && t == 0 -> do { let k := a[1] + 2; let c[0..1]: 0..1; c[k - 2] := 1; x := 0 }
  action shadow: x == 3 && t == 1 -> do { a[x] := 1; x := 0 }
  action over: x == 3 && a[0] == 3 -> do { let r: 0..2 := a[0]; x := r }
}
invariant small: forall p: a[p][0] + a[p][1] + a[p][2] <= 9
