spec sets
topology ring(3)
var x: 0..2
legitimate: x[0] == 0
claim convergence holds from start
claim closure holds from everywhere
