// A test spec for the narrowed evaluation of sums (symbolic/interest.go):
// a ring whose legitimacy predicate adds and compares counts and fields of
// the messages of every channel with process variables, under each form.
spec sums "tokens held, in transit and pooled in messages, counted by sums over every channel"

param n = 2 in 2..4 "number of processes"
param Cap = 1 in 1..6 "channel capacity"
param W = 2 in 0..12 "the number of tokens"
param form = 0 in 0..4 "which legitimacy predicate: 0 ==, 1 <, 2 >= and !=, 3 -, 4 conditional and count"

topology ring(n)
var H: 0..2
var D: 0..2
message Token
message Pool(t: 0..2)
message Bag(t: 0..2, o: 0..1)
channels capacity Cap overflow drop

process all {
  action pass: recv Token from pred -> send Token to succ
  action pool: recv Pool(t) from pred -> H := t
  action bag: recv Bag(t, o) from pred -> D := t, send Pool(t) to succ
}

def held = sum p: H[p] - D[p]
def tokens = sum p: msgs(Token, p, succ(p))
def pooled = (sum p: (sum m in chan(Pool, p, succ(p)): m.t)) + (sum p: (sum m in chan(Bag, p, succ(p)): m.t))
def total = held + tokens + pooled
def legit =
  form == 0 && total == W ||
  form == 1 && total < W ||
  form == 2 && total >= W && tokens + pooled != W - 1 ||
  form == 3 && W - pooled - -held == tokens ||
  form == 4 && (sum p: if H[p] > D[p] then msgs(Token, p, succ(p)) else -(count m in chan(Bag, p, succ(p)): m.o == 1)) + pooled == W - 2

legitimate "the tokens add up as the form says": legit
