package lang_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestManyFields sends and receives a message of 12 fields, the shape
// of Lejeune's token for N = 4 (4 + 2N fields): each field arrives with
// its value, and a field's value packs into the letter apart from the
// others'.
func TestManyFields(t *testing.T) {
	// The counters 0..3, the pairs 0..1: 4^4 * 2^8 values.
	var fields, names, args, reads, want []string
	for i := range 12 {
		hi, v := 1, i%2
		if i < 4 {
			hi, v = 3, 3-i
		}
		fields = append(fields, fmt.Sprintf("f%d: 0..%d", i, hi))
		names = append(names, fmt.Sprintf("v%d", i))
		args = append(args, fmt.Sprint(v))
		reads = append(reads, fmt.Sprintf("got[%d] := v%d", i, i))
		want = append(want, fmt.Sprintf("got[%d]=%d", i, v))
	}
	var initial []string
	for i := range 12 {
		initial = append(initial, fmt.Sprintf("got[%d]=0", i))
	}
	src := "topology ring(2)\nmessage T(" + strings.Join(fields, ", ") + ")\nchannels capacity 1\nvar got[0..11]: 0..12\n" +
		"process 1 { init: send T(" + strings.Join(args, ", ") + ") to succ }\n" +
		"process 0 { action take: recv T(" + strings.Join(names, ", ") + ") from pred -> " + strings.Join(reads, ", ") + " }"
	sent := "1→0 T(" + strings.Join(args, ",") + ")"
	runSeqCase(t, stepCase{
		name:    "twelve fields",
		src:     src,
		initial: strings.Join(initial, " ") + " | " + strings.Join(initial, " ") + " | " + sent,
		steps:   []string{"0 take: " + strings.Join(want, " ") + " | " + strings.Join(initial, " ")},
	})
}
