spec closure-from
topology ring(3)
var x: 0..2
legitimate: x[0] == 0
closure: x[0] == 0
