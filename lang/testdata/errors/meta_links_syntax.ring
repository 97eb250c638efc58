// enlarge names parameters.
spec l
param Cmax = 1 in 1..4
topology ring(3)
links reliable enlarge 2 = Cmax
