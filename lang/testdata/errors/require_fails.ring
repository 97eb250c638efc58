spec broken
param L = 2 in 1..5
param K = 3 in 1..5
require K <= L "need 1 ≤ K ≤ L"
topology ring(3)
