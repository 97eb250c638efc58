spec broken
topology ring(3)
var x: 0..2
process all { action A: x == 0 -> x := 1 }
invariant safe: x[0] >= 0
invariant safe: x[1] >= 0
predicate requesting(p): x[p] == 1
check safety, deadlock, safety
check starvation
check closure
