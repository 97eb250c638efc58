package compile

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/model"
)

// index2Src reads and assigns entries of a two-dimensional array and of
// a two-dimensional local array, in a sequential block, at indices known
// only as the step runs (x and y, which may lie outside the ranges).
const index2Src = `spec s
topology ring(2)
var u[0..1][0..2]: 0..7
var x: 0..3
var y: 0..3
var d: 0..1
process all {
  action a: d == 0 -> do {
    let i := x; let j := y;
    let w[0..1][0..2]: 0..7;
    w[i][j] := 5;
    u[i][j] := u[i][j] + w[i][j];
    d := 1
  }
}
`

// TestTwoDimensionalIndexCompilesSmall: the index of a two-dimensional
// entry at indices known as the step runs, which the checker writes as a
// conditional over both indices (each read three times), compiles to one
// closure over the two indices (index), and the entries read and written
// are those of the indices, a fault at the first index's place where one
// is outside its range.
func TestTwoDimensionalIndexCompilesSmall(t *testing.T) {
	c, sys := build(t, index2Src)
	c.nodes = 0
	c.action(c.spec.Actions[0])
	// With the five entries' indices compiled as the checker writes
	// them, the action takes 81 closures; with each one closure over its
	// two indices, 17.
	if c.nodes > 40 {
		t.Errorf("the action compiles to %d closures, want at most 40", c.nodes)
	}
	ex := sys.NewExpander()
	for x := 0; x <= 3; x++ {
		for y := 0; y <= 3; y++ {
			s := sys.Initial()[0]
			for p := 0; p < 2; p++ {
				s.Set(p, mustVar(t, sys, "x"), x)
				s.Set(p, mustVar(t, sys, "y"), y)
			}
			steps := stepsOf(sys, ex, s)
			got := strings.Join(steps, "\n")
			if x <= 1 && y <= 2 {
				if want := fmt.Sprintf("{u[%d][%d] 5 ", x, y); !strings.Contains(got, want) {
					t.Errorf("x=%d y=%d: %s, want %s", x, y, got, want)
				}
				continue
			}
			if want := "has no entry"; !strings.Contains(got, "fault: ") || !strings.Contains(got, want) || !strings.Contains(got, "s.ring:11:") {
				t.Errorf("x=%d y=%d: %s, want a fault at line 11 saying %q", x, y, got, want)
			}
		}
	}
}

// mustVar returns the id of sys's variable name.
func mustVar(t *testing.T, sys *model.System, name string) model.VarID {
	t.Helper()
	id, ok := sys.VarByName(name)
	if !ok {
		t.Fatalf("no variable %s", name)
	}
	return id
}
