spec broken
param N = 9 in 2..12
topology complete(N)
channels capacity 1
// 2 + 2·9 = 20 fields, 2·2·4^18 values: within the fields, past the values.
message Token(more: bool, r: 0..1, lastReqC[0..N-1]: 0..3, lastCS[0..N-1]: 0..3)
// 1 + 2·10 = 21 fields for N = 9.
message Wide(more: bool, a[0..N]: bool, b[0..N]: bool)
