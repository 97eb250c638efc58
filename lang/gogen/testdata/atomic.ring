spec atomic "atomic actions that write their neighbours"
topology ring(3)
var q: 0..1
var y: 0..2
process all {
  atomic action pass: q == 1 -> q := 0, q[succ] := 1
  atomic action both: q == 0 && y < 2 -> y := y + 1, y[succ] := 2, y[pred] := y
  atomic action reset: y == 2 -> y := 0, q[pred] := 1
}
legitimate: (sum p: q[p]) == 1
