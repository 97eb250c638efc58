package symbolic_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/lang"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/symbolic"
)

// TestRefusesAnEntryOutsideATwoDimensionalArray: a two-dimensional
// array's index that may leave its range, read or assigned, is refused
// with ErrUnsupported, naming the array and the ranges; within them it is
// encoded.
func TestRefusesAnEntryOutsideATwoDimensionalArray(t *testing.T) {
	for _, tt := range []struct {
		name, effect, want string
	}{
		{"read", "x := u[1][c]", "array u may be read where it has no entry (outside [0..1][0..1])"},
		{"assigned", "u[c][0] := 1", "it may set an entry of u that process 0 lacks (outside [0..1][0..1])"},
		{"within", "u[1][c % 2] := u[c % 2][1]", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			src := `spec s "s"
topology ring(2)
var u[0..1][0..1]: 0..1
var c: 0..2
var x: 0..1
process all { action a: true -> ` + tt.effect + ` }
legitimate: true
`
			f, err := lang.Parse("s.ring", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			spec, err := f.Instance(nil)
			if err != nil {
				t.Fatal(err)
			}
			_, err = symbolic.Encode(context.Background(), spec, symbolic.Options{Daemon: model.Central})
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, symbolic.ErrUnsupported) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Encode: %v, want ErrUnsupported with %q", err, tt.want)
			}
		})
	}
}
