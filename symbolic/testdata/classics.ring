// What the classics need, for the symbolic engine's agreement with the
// explicit one: a receive of any type but one, a guard that reads the
// choice, and quantifiers over a channel's messages.
spec classics "receives of any type, choices in guards, predicates over messages"
param n = 3 in 2..4
topology ring(n)
message T(v: 0..1)
message U
channels capacity 2
var x: 0..1
process all {
  // Drop anything but a T.
  action flush: recv any except T from pred -> skip
  // Keep a T's value only by the alternative that matches it.
  action take(k in 0..1): recv T(v) from pred, k == v -> x := k
  // Emit while the channel out holds only 1s.
  action emit: x == 1 && (forall m in chan(T, self, succ): m.v == 1) -> send T(1) to succ, x := 0
}
legitimate "no U in transit, and at most one message per channel":
  forall p: (count m in chan(U, p, succ(p)): true) == 0 && (sum m in chan(p, succ(p)): 1) <= 1
