spec broken
topology ring(3)
message T(v: 0..3)
message U
channels capacity 2
var s: 0..1
invariant a: forall m in chan(0, 1): m > 0
invariant b: forall m in chan(U, 0, 1): m.v > 0
invariant c: forall m in chan(0, 2): m.v > 0
invariant d: s[0] == 0 && s.v == 0
invariant e: forall m in chan(0, 1): m.w > 0
process all {
  action f: true -> for r in chan(pred, self) { skip }
}
