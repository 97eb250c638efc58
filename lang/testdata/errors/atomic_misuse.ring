spec broken
topology ring(4)
var q: 0..1
process all {
  action plain: q == 1 -> q := 0, q[succ] := 1
  atomic action far: q == 1 -> q := 0, q[succ(succ)] := 1
  atomic action twice: q == 1 -> q[succ] := 0, q[succ] := 1
  atomic action own: q == 1 -> q := 0, q[self] := 1
  atomic action loop: true -> for r in 0..1 { q[r] := 1 }
  atomic action domain: true -> q[pred] := 2
}
