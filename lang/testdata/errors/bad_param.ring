spec broken
param n = 9 in 2..5 "processes"
topology ring(n)
var x: 0..1
claim safety maybe from init with n = 3
