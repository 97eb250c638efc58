// Links are reliable; each parameter is enlarged once, within its range,
// and a channel of a random configuration holds at least 1 message.
spec l
param n = 3 in 2..6
param Cmax = 1 in 1..4
topology ring(n)
message M
channels capacity Cmax
links lossy enlarge Cmax = 5, nope = 2, Cmax = 3, n = 6 fill Cmax - 1
links reliable
