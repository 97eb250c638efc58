spec broken
param n = 3 in 2..4
topology ring(n)
var x: 0..1
process all {
  environment finite if n else optional action a: x == 0 -> x := 1
  environment finite if x == 1 else optional action b: x == 0 -> x := 1
}
