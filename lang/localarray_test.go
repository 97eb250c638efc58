package lang_test

import "testing"

// TestLocalArrays pins the semantics of a sequential block's local
// arrays, let t[LO..HI] [[LO2..HI2]]: TYPE [:= EXPR]: not stored (the
// configurations hold the variables only), every entry starting at EXPR
// or the type's first value at each run of the let, assigned and read
// per entry at indices known as the step runs, sent whole (or a row) as
// an array field, an entry's range fault dropping the assignment, and an
// index that is no entry stopping the check at the index.
func TestLocalArrays(t *testing.T) {
	for _, tc := range []stepCase{{
		name: "entries start at the type's first value and are assigned and read at computed indices",
		src: `topology ring(2)
var x: 0..3 = 1
var y: 0..99
process 0 { action a: y == 0 -> do { let t[1..4]: 0..9; t[x + 1] := 5; t[t[2] - 1] := t[2] + x; y := 10 * t[4] + t[1] + t[2] } }`,
		initial: "x=1 y=0 | x=1 y=0",
		steps:   []string{"0 a: x=1 y=65 | x=1 y=0"},
	}, {
		name: "every entry starts at EXPR, again at each run of the let in a loop",
		src: `topology ring(2)
var y: 0..60
process 0 { action a: y == 0 -> do { for k in 1..3 { let t[0..2]: 0..9 := k; t[k - 1] := 0; y := y + t[0] + t[1] + t[2] } } }`,
		initial: "y=0 | y=0",
		steps:   []string{"0 a: y=12 | y=0"},
	}, {
		name: "a boolean local array starts false",
		src: `topology ring(2)
var y: 0..3
process 0 { action a: y == 0 -> do { let f[0..2]: bool; f[1] := true; y := count i in 0..2: f[i] || i == 2 } }`,
		initial: "y=0 | y=0",
		steps:   []string{"0 a: y=2 | y=0"},
	}, {
		name: "a two-dimensional local array, its entries at computed indices and a row sent as an array field",
		src: `topology ring(2)
var x: 0..3 = 1
var y: 0..30
message m(v[0..2]: 0..9)
channels capacity 1
process 0 { action a: y == 0 -> do { let g[0..1][0..2]: 0..9 := 1; g[x][x + 1] := 7; g[0][x] := g[x][2] + 1; y := g[0][1] + g[1][2] + g[0][0]; send m(g[x - 1]) to succ } }`,
		initial: "x=1 y=0 | x=1 y=0",
		steps:   []string{"0 a: x=1 y=16 | x=1 y=0 | 0→1 m(1,8,1)"},
	}, {
		name: "a local array sent whole as an array field",
		src: `topology ring(2)
var y: 0..1
message m(v[0..2]: 0..9)
channels capacity 1
process 0 { action a: y == 0 -> do { let b[0..2]: 0..9; for i in 0..2 { b[i] := 3 * i }; send m(b) to succ; y := 1 } }`,
		initial: "y=0 | y=0",
		steps:   []string{"0 a: y=1 | y=0 | 0→1 m(0,3,6)"},
	}, {
		name: "a loop compiled as a loop keeps its local above the block's local arrays",
		src: `topology ring(2)
var y: 0..200
process 0 { action a: y == 0 -> do { let t[0..11]: 0..20; for i in 0..11 { for j in 0..11 { if j == y + 11 { t[i] := i + j - 10 } } }; y := sum i in 0..11: t[i] } }`,
		initial: "y=0 | y=0",
		steps:   []string{"0 a: y=78 | y=0"},
	}, {
		name:    "init runs a block with a local array",
		src:     "topology ring(2)\nvar y: 0..30\nprocess 1 { init: do { let t[0..2]: 0..9 := 2; t[1] := t[0] + 3; y := t[0] + t[1] + t[2] } }",
		initial: "y=0 | y=9",
	}, {
		name:    "an entry's range fault drops the assignment: the block goes on with the old value",
		src:     "topology ring(2)\nvar x: 0..7 = 6\nprocess 0 { action a: x == 6 -> do { let t[0..1][0..1]: 0..7 := 1; t[1][x - 5] := x + 2; x := t[1][1] } }",
		initial: "x=6 | x=6",
		steps:   []string{"0 a: x=1 | x=6 ! process 0 sets local t[1][1] to 8, outside 0..7"},
	}, {
		name:    "a let's range fault: the entries start at the type's first value",
		src:     "topology ring(2)\nvar x: 0..7 = 6\nprocess 0 { action a: x > 0 -> do { let t[0..1]: 2..7 := x + 3; x := t[1] } }",
		initial: "x=6 | x=6",
		steps:   []string{"0 a: x=2 | x=6 ! process 0 sets local t to 9, outside 2..7"},
	}, {
		name:    "an index that is no entry stops the check at the index",
		src:     "topology ring(2)\nvar x: 0..7 = 4\nprocess 0 { action a: true -> do { let t[0..3]: 0..7; t[x - 1] := 1; x := t[x] } }",
		initial: "x=4 | x=4",
		fault:   "case.ring:4:77: local t has no entry 4 (its entries are 0..3)",
	}, {
		name:    "an assignment at an index that is no entry stops the check at the index",
		src:     "topology ring(2)\nvar x: 0..7 = 4\nprocess 0 { action a: true -> do { let t[0..3]: 0..7; t[x] := 1 } }",
		initial: "x=4 | x=4",
		fault:   "case.ring:4:57: local t has no entry 4 (its entries are 0..3)",
	}, {
		name:    "a two-dimensional index outside its range is no entry, not another row's",
		src:     "topology ring(2)\nvar x: 0..7 = 3\nprocess 0 { action a: true -> do { let t[0..1][0..2]: 0..7; x := t[0][x] } }",
		initial: "x=3 | x=3",
		fault:   "case.ring:4:68: local t has no entry outside [0..1][0..2]",
	}} {
		t.Run(tc.name, func(t *testing.T) { runSeqCase(t, tc) })
	}
}
