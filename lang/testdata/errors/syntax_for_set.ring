spec loops "a for loop with no set"
topology ring(3)
var x[peers]: 0..1
process all {
  action a: true -> for j in { x[j] := 1 }
}
