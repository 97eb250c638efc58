spec broken
topology ring(3)
channels capacity 1
message Large(a: 0..1023, b: 0..1023, c: 0..3)
message A(a: 0..1023, b: 0..1023)
message B(a: 0..1023, b: 0..1023)
message C(a: 0..1023, b: 0..1023)
message D(a: 0..1023, b: 0..1023)
message E(a: 0..1)
