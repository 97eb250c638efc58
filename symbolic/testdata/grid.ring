// A two-dimensional array per process, for the agreement of the engines:
// entries read and assigned at constant and dynamic indices, another
// process's entry, a for loop over the second index and quantifiers over
// both. No step sets an entry of row 0 to 1; spread sets one of row 1
// where row 0 holds 1, and row 1 is cleared only below a 0 of row 0:
// every execution converges, in a number of steps both engines count.
spec grid "a two-dimensional array per process, cleared entry by entry"
param n = 2 in 2..3 "processes"
topology ring(n)
var u[0..1][0..1]: 0..1
var c: 0..1
process all {
  action clear(r in 0..1): u[r][c] == 1 && (r == 0 || u[0][c] == 0) -> u[r][c] := 0
  action turn: (forall r in 0..1: u[r][c] == 0) && (exists r in 0..1: u[r][1 - c] == 1) -> c := 1 - c
  action spread: u[pred][0][c] == 1 && u[0][c] == 1 && u[1][c] == 0 -> u[1][c] := 1
  action wipe: u[1][0] + u[1][1] == 2 && u[0][0] + u[0][1] < 2 -> for k in 0..1 { u[1][k] := u[0][k] }
}
legitimate "every entry 0": forall p: forall r in 0..1: forall k in 0..1: u[p][r][k] == 0
