package lang_test

import "testing"

// TestTwoDimensionalArrays pins the semantics of arrays of two indices:
// their entries, reads and assignments at constant and dynamic indices,
// another process's entry, for loops and quantifiers over one index, and
// the fault of an index outside its range known only as the step runs.
func TestTwoDimensionalArrays(t *testing.T) {
	runStepCases(t, []stepCase{{
		name: "an entry per pair of indices, at its initial value",
		src: `topology ring(2)
var u[0..1][1..2]: 0..3 = 2`,
		initial: "u[0][1]=2 u[0][2]=2 u[1][1]=2 u[1][2]=2 | u[0][1]=2 u[0][2]=2 u[1][1]=2 u[1][2]=2",
	}, {
		name: "constant indices read and assign one entry",
		src: `topology ring(2)
var u[0..1][0..1]: 0..3
process 0 { action a: u[1][0] == 0 -> u[1][0] := 3, u[0][1] := u[1][0] + 1 }`,
		initial: "u[0][0]=0 u[0][1]=0 u[1][0]=0 u[1][1]=0 | u[0][0]=0 u[0][1]=0 u[1][0]=0 u[1][1]=0",
		steps:   []string{"0 a: u[0][0]=0 u[0][1]=1 u[1][0]=3 u[1][1]=0 | u[0][0]=0 u[0][1]=0 u[1][0]=0 u[1][1]=0"},
	}, {
		name: "dynamic indices pick the entry of their row and column",
		src: `topology ring(2)
var u[0..1][0..2]: 0..3
var r: 0..1 = 1
var c: 0..2 = 2
process 1 { init: u[0][1] := 1 }
process all { action a: u[r][c] == 0 -> u[r][c] := 3, r := 1 - u[succ][c - 2][r] }`,
		initial: "u[0][0]=0 u[0][1]=0 u[0][2]=0 u[1][0]=0 u[1][1]=0 u[1][2]=0 r=1 c=2 | u[0][0]=0 u[0][1]=1 u[0][2]=0 u[1][0]=0 u[1][1]=0 u[1][2]=0 r=1 c=2",
		steps: []string{
			"0 a: u[0][0]=0 u[0][1]=0 u[0][2]=0 u[1][0]=0 u[1][1]=0 u[1][2]=3 r=0 c=2 | u[0][0]=0 u[0][1]=1 u[0][2]=0 u[1][0]=0 u[1][1]=0 u[1][2]=0 r=1 c=2",
			"1 a: u[0][0]=0 u[0][1]=0 u[0][2]=0 u[1][0]=0 u[1][1]=0 u[1][2]=0 r=1 c=2 | u[0][0]=0 u[0][1]=1 u[0][2]=0 u[1][0]=0 u[1][1]=0 u[1][2]=3 r=1 c=2",
		},
	}, {
		name: "a for loop over the second index and a quantifier over the first",
		src: `topology ring(2)
var u[0..1][0..1]: 0..3
var r: 0..1 = 1
process 1 { init: u[0][1] := 2 }
process 0 { action a: (forall i in 0..1: u[i][0] == 0) && u[pred][0][1] == 2 -> for j in 0..1 { u[r][j] := j + 1 } }`,
		initial: "u[0][0]=0 u[0][1]=0 u[1][0]=0 u[1][1]=0 r=1 | u[0][0]=0 u[0][1]=2 u[1][0]=0 u[1][1]=0 r=1",
		steps:   []string{"0 a: u[0][0]=0 u[0][1]=0 u[1][0]=1 u[1][1]=2 r=1 | u[0][0]=0 u[0][1]=2 u[1][0]=0 u[1][1]=0 r=1"},
	}, {
		name: "for loops over the second index assign distinct rows in one step",
		src: `topology ring(2)
var u[0..1][0..1]: 0..3
process 0 { action a: u[0][0] == 0 -> for j in 0..1 { u[0][j] := 1 }, for j in 0..1 { u[1][j] := j + 2 } }`,
		initial: "u[0][0]=0 u[0][1]=0 u[1][0]=0 u[1][1]=0 | u[0][0]=0 u[0][1]=0 u[1][0]=0 u[1][1]=0",
		steps:   []string{"0 a: u[0][0]=1 u[0][1]=1 u[1][0]=2 u[1][1]=3 | u[0][0]=0 u[0][1]=0 u[1][0]=0 u[1][1]=0"},
	}, {
		name: "a second index outside its range, known only as the step runs, fails the step and is no other row's entry",
		src: `topology ring(2)
var u[0..1][0..1]: 0..3
var c: 0..2 = 2
process 0 { action a: true -> u[0][c] := 1 }`,
		initial: "u[0][0]=0 u[0][1]=0 u[1][0]=0 u[1][1]=0 c=2 | u[0][0]=0 u[0][1]=0 u[1][0]=0 u[1][1]=0 c=2",
		fault:   "action a: case.ring:5:33: process 0 has no entry of u outside [0..1][0..1]",
	}, {
		name: "a first index outside its range, read as the step runs, fails the step",
		src: `topology ring(2)
var u[0..1][0..1]: 0..3
var r: 0..2 = 2
var x: 0..3
process 0 { action a: true -> x := u[r][0] }`,
		initial: "u[0][0]=0 u[0][1]=0 u[1][0]=0 u[1][1]=0 r=2 x=0 | u[0][0]=0 u[0][1]=0 u[1][0]=0 u[1][1]=0 r=2 x=0",
		fault:   "action a: case.ring:6:38: process 0 has no entry of u outside [0..1][0..1]",
	}})
}
