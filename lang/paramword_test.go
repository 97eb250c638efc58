package lang_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/lang"
	"github.com/ringcheck/ringcheck/model"
)

// TestParameterNamedByAQuantifier checks that a parameter may be named
// count, a quantifier's word, as raynal's parameter is: the
// file reads it as a value, still counts with `count q: ...` and
// `count q in SET: ...`, gives it a value in a claim, and ends an
// expression with it before a declaration that opens with a colon.
func TestParameterNamedByAQuantifier(t *testing.T) {
	src := `spec case "a case"
param n = 3 in 2..4 "processes"
param count = 0 in 0..1 "1: a ghost"
topology complete(n)
var x: bool
var g: 0..2 * count "a ghost counter"
def tally(v) = if count == 1 then v else 0
process all {
  action A: !x -> x := true, g := tally(count q in peers: !x[q])
}
invariant few "at most count ghosts": (count p: g[p] > 0) <= n * count
legitimate "every x": forall p: x[p] && count >= 0 && g[p] <= 2 * count
start: (sum p: g[p]) <= 2 * n * count
claim safety holds with n = 2, count = 1
`
	f, err := lang.Parse("case.ring", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	s, err := f.Spec()
	if err != nil {
		t.Fatal(err)
	}
	if p := s.Params[1]; p.Name != "count" || p.Max != 1 {
		t.Errorf("parameter %+v, want count in 0..1", p)
	}
	if c := s.Claims[0]; c.Params["count"] != 1 {
		t.Errorf("claim params %v, want count = 1", c.Params)
	}
	// legitimate's expression ends at count: start is a declaration, not
	// the name a quantifier binds.
	if inst, err := f.Instance(nil); err != nil || inst.Start == nil {
		t.Errorf("no start predicate (%v)", err)
	}
	for count, want := range []string{"0..0", "0..2"} {
		sys, err := f.Build(map[string]int{"n": 3, "count": count})
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range sys.Vars {
			if v.Name == "g" && v.Domain.String() != want {
				t.Errorf("count=%d: g in %s, want %s", count, v.Domain, want)
			}
		}
		// From the initial configuration, process 0 counts its two
		// peers whose x is false when the ghost is on.
		st := sys.Initial()[0]
		var g []string
		sys.NewExpander().Expand(st, func(_ *model.Step, next *model.State) bool {
			g = append(g, fmt.Sprint(sys.Decode(next).Processes[0].Vars[1].Int))
			return false
		})
		if want := fmt.Sprint(2 * count); len(g) != 1 || g[0] != want {
			t.Errorf("count=%d: g of process 0 after its step %v, want %s", count, g, want)
		}
	}
	// Without a parameter count, count still opens a quantifier only.
	bad := strings.Replace(src, `param count = 0 in 0..1 "1: a ghost"`, "", 1)
	if _, err := lang.Parse("bad.ring", []byte(bad)); err == nil || !strings.Contains(err.Error(), "bad.ring:") {
		t.Errorf("a file without the parameter count: %v, want an error at its place", err)
	}
}
