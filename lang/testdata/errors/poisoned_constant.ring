spec broken
param n = Q in 2..5
const K = Q * 2
topology ring(K)
require K > 2 "K is greater than 2"
