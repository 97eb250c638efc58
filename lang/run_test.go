package lang_test

import "testing"

// TestRunReceives pins the semantics of recv run M, ... while FIELD from
// Q: one step takes the head and each next message while the one before
// it has its chaining field set, up to the channel's end or a message of
// a type the run does not hold; for m in run reads them in order.
func TestRunReceives(t *testing.T) {
	const head = `topology ring(2)
message Tok(more: bool, c: 0..3)
message Q(more: 0..1, s: 0..1)
message Other(v: 0..1)
channels capacity 4
var got: 0..7
var qs[0..1]: 0..1
var n: 0..7
process 0 {
  action take: recv run Tok, Q while more from pred -> do {
    for m in run {
      n := n + 1;
      if m is Tok { got := got + m.c } else { qs[m.s] := 1 }
    }
  }
}
`
	const idle = "got=0 qs[0]=0 qs[1]=0 n=0"
	for _, tc := range []stepCase{{
		name:    "a run ends with the first message whose field is not set",
		src:     head + "process 1 { init: send Tok(true, 2) to succ, send Q(1, 1) to succ, send Q(0, 0) to succ, send Tok(false, 1) to succ }",
		initial: idle + " | " + idle + " | 1→0 Tok(true,2) Q(1,1) Q(0,0) Tok(false,1)",
		steps:   []string{"0 take: got=2 qs[0]=1 qs[1]=1 n=3 | " + idle + " | 1→0 Tok(false,1)"},
	}, {
		name:    "a run ends with the channel",
		src:     head + "process 1 { init: send Tok(true, 3) to succ, send Tok(true, 1) to succ }",
		initial: idle + " | " + idle + " | 1→0 Tok(true,3) Tok(true,1)",
		steps:   []string{"0 take: got=4 qs[0]=0 qs[1]=0 n=2 | " + idle},
	}, {
		name:    "a run ends before a message of a type it does not hold",
		src:     head + "process 1 { init: send Q(1, 0) to succ, send Other(1) to succ, send Tok(false, 1) to succ }",
		initial: idle + " | " + idle + " | 1→0 Q(1,0) Other(1) Tok(false,1)",
		steps:   []string{"0 take: got=0 qs[0]=1 qs[1]=0 n=1 | " + idle + " | 1→0 Other(1) Tok(false,1)"},
	}, {
		name:    "a head of another type: no step",
		src:     head + "process 1 { init: send Other(0) to succ, send Tok(false, 1) to succ }",
		initial: idle + " | " + idle + " | 1→0 Other(0) Tok(false,1)",
	}} {
		t.Run(tc.name, func(t *testing.T) { runSeqCase(t, tc) })
	}
}
