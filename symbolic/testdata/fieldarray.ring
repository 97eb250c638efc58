spec fieldarray "array fields of messages, read at constant and computed indices"
param n = 2 in 2..3
topology ring(n)
message Tok(v[0..1]: 0..1)
channels capacity 1
var x: 0..1
var a[0..1]: 0..1
process all {
  action take: recv Tok(_) from pred -> x := head(pred, self).v[x], a[1] := head(pred, self).v[0]
  action emit: len(self, succ) == 0 && a[0] != x -> send Tok(a) to succ, a[0] := x
}
legitimate "every token carries, at the receiver's x, the receiver's x": forall p: forall m in chan(pred(p), p): m.v[x[p]] == x[p]
