spec arrays "array mistakes"
topology complete(3)
var used[peers]: 0..3
var q[0..1]: bool
var x: 0..3
process all {
  action a: used > 0 -> x := 1
  action b: true -> used[self] := 1
  action c: true -> for j in peers { x := used[j] }
  action d: true -> for j in peers { used[j] := 1 }, used[0] := 2
  action e: true -> q[2] := true
  action f(j in peers): used[j] == 0 -> used := 3
}
invariant bare: used[0] == 0
invariant wrong: forall p: forall k in peers: used[p][k] >= 0
