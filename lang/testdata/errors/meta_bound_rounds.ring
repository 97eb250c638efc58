// The bound in rounds is an integer constant over the parameters.
spec b
param n = 3 in 2..6
topology ring(n)
var x: 0..2
bound "x rounds" rounds x
