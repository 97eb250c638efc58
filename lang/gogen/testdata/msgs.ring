spec msgs "quantifiers over a channel's messages, runs of messages, array fields"
topology ring(2)
message Tok(more: bool, c: 0..3, v[0..1]: 0..3)
message Q(more: bool, s: 0..1)
channels capacity 3
var got: 0..7
var qs[0..1]: 0..1
var n: 0..3
var k: 0..1
var w[0..1]: 0..3
process all {
  action emit: n < 3 && (count m in chan(Tok, self, succ(self)): m.more) < 2 -> send Tok(n < 2, n, w) to succ, n := n + 1, w[k] := n
  action emitq: n < 3 && (forall m in chan(self, succ(self)): !m.more || m.c < 2) -> send Q(true, n % 2) to succ, n := n + 1
  action take: recv run Tok, Q while more from pred -> do {
    for m in run {
      if m is Tok { got := (got + m.c + m.v[k + qs[0]]) % 8 } else { qs[m.s] := 1 }
    };
    k := 1 - k
  }
  action reset: n == 3 && len(self, succ(self)) == 0 -> n := 0, k := 1 - k
}
invariant bounded: forall p: (sum m in chan(Tok, p, succ(p)): m.c) <= 9
invariant ends "channels between processes known only in the configuration": forall p: (count m in chan(Tok, p, p + 1 + 2 * k[p]): m.more) + len(p, p + k[p]) + pos(Q, p, p + k[p]) != 1 + k[p]
invariant some: forall p: !(exists m in chan(Tok, p, succ(p)): m.v[1] > 3)
