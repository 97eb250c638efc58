spec closure-from
topology ring(3)
var x: 0..2
closure from "x at 0 everywhere": forall p: x[p] == 0
closure from: x[0] == 1 + true
