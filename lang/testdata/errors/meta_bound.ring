// The paper's bound: a text, and a bound in rounds of at least 1 that is
// a constant over the parameters; one per file.
spec b
param n = 3 in 2..6
topology ring(n)
var x: 0..2
bound "" rounds n - 3
bound "n rounds" rounds n
