package lang_test

import (
	"testing"
)

// TestArrayFields pins the semantics of a message's array fields: a field
// NAME[LO..HI] is the consecutive fields NAME[LO]..NAME[HI] (the packed
// message and its rendering are those of the scalar fields), its range
// may depend on the parameters, a send takes an array variable of the
// same range, a row of a two-dimensional one or a received array field,
// and m.NAME[I] reads entry I, a computed index outside the range being
// a fault of the action.
func TestArrayFields(t *testing.T) {
	const head = `param N = 3 in 2..4
topology ring(2)
message Tok(more: bool, v[0..N-1]: 0..3, w: 0..1)
channels capacity 4
var a[0..N-1]: 0..3
var rows[0..1][0..N-1]: 0..3
var got[0..N-1]: 0..3
var k: 0..3
var tot: 0..15
process 0 {
  action take: recv run Tok while more from pred -> do {
    for m in run {
      for i in 0..N-1 { got[i] := m.v[i] };
      tot := tot + m.v[k] + 4 * m.w
    }
  }
}
`
	const zero = "a[0]=0 a[1]=0 a[2]=0 rows[0][0]=0 rows[0][1]=0 rows[0][2]=0 rows[1][0]=0 rows[1][1]=0 rows[1][2]=0 got[0]=0 got[1]=0 got[2]=0"
	const p1 = "a[0]=1 a[1]=2 a[2]=3 rows[0][0]=0 rows[0][1]=0 rows[0][2]=0 rows[1][0]=3 rows[1][1]=0 rows[1][2]=1 got[0]=0 got[1]=0 got[2]=0 k=0 tot=0"
	for _, tc := range []stepCase{{
		name: "a send of an array variable and of a row of a two-dimensional one",
		src: head + `process 1 {
  init: do { a[0] := 1; a[1] := 2; a[2] := 3; rows[1][0] := 3; rows[1][2] := 1 }
  action pass: a[0] == 1 -> a[0] := 0, send Tok(true, a, 1) to succ, send Tok(false, rows[1], 0) to succ
}`,
		initial: zero + " k=0 tot=0 | " + p1,
		steps: []string{
			"1 pass: " + zero + " k=0 tot=0 | a[0]=0" + p1[len("a[0]=1"):] + " | 1→0 Tok(true,1,2,3,1) Tok(false,3,0,1,0)",
		},
	}, {
		name: "entries read at a computed index, message by message",
		src: head + `process 0 { init: k := 2 }
process 1 {
  init: do { a[0] := 1; a[1] := 2; a[2] := 3; rows[1][0] := 3; rows[1][2] := 1 }
  init: send Tok(true, a, 1) to succ, send Tok(false, rows[1], 0) to succ
}`,
		initial: zero + " k=2 tot=0 | " + p1 + " | 1→0 Tok(true,1,2,3,1) Tok(false,3,0,1,0)",
		// tot = (v[2] + 4·w of the first) + (v[2] + 4·w of the second)
		// = (3 + 4) + (1 + 0); got holds the second's entries.
		steps: []string{"0 take: a[0]=0 a[1]=0 a[2]=0 rows[0][0]=0 rows[0][1]=0 rows[0][2]=0 rows[1][0]=0 rows[1][1]=0 rows[1][2]=0 got[0]=3 got[1]=0 got[2]=1 k=2 tot=8 | " + p1},
	}, {
		name: "an index outside the array field's range is a fault at the index",
		src: head + `process 0 { init: k := 3 }
process 1 { init: send Tok(false, a, 0) to succ }`,
		initial: zero + " k=3 tot=0 | " + zero + " k=0 tot=0 | 1→0 Tok(false,0,0,0,0)",
		fault:   "case.ring:15:24: m.v has no entry 3 (its entries are 0..2)",
	}, {
		name: "a range that depends on a parameter, and a forwarded array field",
		src: `param N = 2 in 2..4
topology ring(3)
message Tok(more: bool, v[1..N]: 0..3)
channels capacity 2
var k: 1..2 = 1
var last: 0..6
var b[1..N]: 0..3
process 0 {
  action fwd: recv run Tok while more from pred -> do { for m in run { last := m.v[k] + m.v[2]; send Tok(false, m.v) to succ } }
}
process 1 { init: k := 2 }
process 2 { init: do { b[1] := 2; b[2] := 3; send Tok(false, b) to succ } }`,
		initial: "k=1 last=0 b[1]=0 b[2]=0 | k=2 last=0 b[1]=0 b[2]=0 | k=1 last=0 b[1]=2 b[2]=3 | 2→0 Tok(false,2,3)",
		steps:   []string{"0 fwd: k=1 last=5 b[1]=0 b[2]=0 | k=2 last=0 b[1]=0 b[2]=0 | k=1 last=0 b[1]=2 b[2]=3 | 0→1 Tok(false,2,3)"},
	}} {
		t.Run(tc.name, func(t *testing.T) { runSeqCase(t, tc) })
	}
}
