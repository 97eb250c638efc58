spec broken
topology ring(3)
var x: 0..2
invariant ordered: forall p: 0 < x[p] < 2
