package compile

import (
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/lang/check"
	"github.com/ringcheck/ringcheck/lang/syntax"
	"github.com/ringcheck/ringcheck/model"
)

// build checks and compiles src for its default parameters.
func build(t *testing.T, src string) (*compiler, *model.System) {
	t.Helper()
	f, err := syntax.Parse("s.ring", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	spec, err := check.Check(f, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := newCompiler(spec)
	sys, err := c.build()
	if err != nil {
		t.Fatal(err)
	}
	return c, sys
}

// TestPredicateDivisionByZero evaluates state predicates that divide by
// a variable on a configuration where it is 0: the predicate holds, and
// the next expansion of any configuration fails with the division's
// place and the predicate's name, as an action's division by zero does.
func TestPredicateDivisionByZero(t *testing.T) {
	// x is 1 initially and 0 after one step; the predicate is fine in
	// the initial configuration.
	const head = "spec s\ntopology ring(2)\nvar x: 0..1 = 1\nprocess all { action A: x == 1 -> x := 0 }\n"
	tests := []struct {
		name, decl string
		holds      func(sys *model.System, s *model.State) bool
		want       string
	}{
		{"invariant", "invariant div: forall p: 6 / x[p] > 0\n",
			func(sys *model.System, s *model.State) bool { return sys.Invariants[0].Holds(s) },
			"s.ring:5:28: division by zero in invariant div"},
		{"legitimate", "legitimate: (sum p: 6 % x[p]) == 0\n",
			func(sys *model.System, s *model.State) bool { return sys.Legitimate.Holds(s) },
			"s.ring:5:23: division by zero in the legitimacy predicate"},
		{"valid_end", "valid_end: x[1] mod x[0] == 0\n",
			func(sys *model.System, s *model.State) bool { return sys.ValidEnd.Holds(s) },
			"s.ring:5:17: division by zero in the valid_end predicate"},
		{"process predicate", "predicate inCS(p): 1 / x[p] == 1\n",
			func(sys *model.System, s *model.State) bool { return sys.ProcessPredicates[0].Holds(s, 0) },
			"s.ring:5:22: division by zero in predicate inCS(0)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, sys := build(t, head+tc.decl)
			if c.faults == nil {
				t.Fatal("no fault latch for a predicate that may divide by zero")
			}
			init := sys.Initial()[0]
			ex := sys.NewExpander()
			var zero *model.State
			if _, err := ex.Expand(init, func(_ *model.Step, next *model.State) bool {
				zero = next.Clone()
				return false
			}); err != nil {
				t.Fatalf("before the fault: %v", err)
			}
			if !tc.holds(sys, init) {
				t.Fatal("the predicate fails in the initial configuration")
			}
			if !tc.holds(sys, zero) {
				t.Fatal("a predicate whose evaluation failed does not hold")
			}
			_, err := ex.Expand(init, func(*model.Step, *model.State) bool { return true })
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Expand after the fault: %v, want %q", err, tc.want)
			}
			if _, _, err := ex.Count(init); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Count after the fault: %v, want %q", err, tc.want)
			}
			if _, err := ex.Enabled(init); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Enabled after the fault: %v, want %q", err, tc.want)
			}
		})
	}
}

// TestNoFaultLatch checks that a spec whose predicates cannot divide by
// zero has no fault latch (its actions are not wrapped).
func TestNoFaultLatch(t *testing.T) {
	src := "spec s\nparam K = 3 in 2..5\ntopology ring(2)\nvar x: 0..2\nprocess all { action A: x == 0 -> x := 6 / (x + 3) }\ninvariant i: forall p: x[p] mod K < 3 && x[p] / 2 < K\n"
	c, _ := build(t, src)
	if c.faults != nil {
		t.Fatal("a fault latch for predicates that divide by constants only")
	}
}

// TestActionDivisionByZero checks that an action's division by zero is
// reported at the division's place.
func TestActionDivisionByZero(t *testing.T) {
	src := "spec s\ntopology ring(2)\nvar x: 0..1\nvar y: 0..6\nprocess all { action A: x == 0 -> y := 6 / x }\n"
	_, sys := build(t, src)
	_, err := sys.NewExpander().Expand(sys.Initial()[0], func(*model.Step, *model.State) bool { return true })
	if want := "action A: s.ring:5:42: division by zero"; err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want %q", err, want)
	}
}

// TestActionFaultPlaces runs actions that fail as they run, in the
// guard or the effects: the error names the action once and gives the
// place of what failed (an array's index, a repeat's count) as
// file:line:col.
func TestActionFaultPlaces(t *testing.T) {
	const head = "spec s\ntopology ring(2)\nvar x: 0..5 = 3\nvar a[0..2]: 0..2\nmessage M\nchannels capacity 2 overflow drop\n"
	tests := []struct{ name, action, want string }{
		{"entry assigned", "x < 5 -> x := x + 1, a[x] := 1",
			"spec s, process 0: action A: s.ring:7:48: process 0 has no entry 3 of a"},
		{"entry read", "x < 5 -> x := a[x]",
			"spec s, process 0: action A: s.ring:7:41: process 0 has no entry 3 of a"},
		{"entry read in the guard", "a[x - 1] < a[x] -> x := 0",
			"spec s, process 0: action A: s.ring:7:38: process 0 has no entry 3 of a"},
		{"negative repeat", "x == 3 -> repeat x - 4 { send M to succ }",
			"spec s, process 0: action A: s.ring:7:42: repeat -1 times: a repeat count is not negative"},
		{"repeat beyond the bound", "x == 3 -> repeat x * 1000 { send M to succ }",
			"spec s, process 0: action A: s.ring:7:42: repeat 3000 times: a repeat runs at most 1024 times"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, sys := build(t, head+"process all { action A: "+tc.action+" }\n")
			_, err := sys.NewExpander().Expand(sys.Initial()[0], func(*model.Step, *model.State) bool { return true })
			if err == nil || err.Error() != tc.want {
				t.Fatalf("got %v, want %s", err, tc.want)
			}
		})
	}
}

// TestInitNegativeRepeat checks that an init whose repeat count is
// negative is refused, at the init's place.
func TestInitNegativeRepeat(t *testing.T) {
	src := "spec s\ntopology ring(2)\nvar x: 0..5 = 3\nmessage M\nchannels capacity 2\nprocess all { init: repeat x - 4 { send M to succ } }\n"
	f, err := syntax.Parse("s.ring", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	spec, err := check.Check(f, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = System(spec)
	if want := "s.ring:6:15: the initial configuration: process 0: repeat -1 times: a repeat count is not negative"; err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
}
