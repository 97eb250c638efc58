package ringcheck_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/specs/spectest"
)

// TestRequestReduce: Reduce runs partial-order reduction where it
// applies (by default too: the default is all), is an error naming
// Reduce (and the field at fault) where por is asked for and cannot run,
// and says why it does not run under all.
func TestRequestReduce(t *testing.T) {
	thiare := spectest.Builtin(t, "thiare")
	params := map[string]int{"n": 3, "requests": 2}
	for _, tc := range []struct {
		name   string
		props  []invariants.Property
		reduce ringcheck.Reduce
		from   invariants.From
		ran    string
		note   string
		err    string
	}{
		{"default", props(invariants.Safety, invariants.Deadlock), ringcheck.ReduceDefault, "", "partial-order", "", ""},
		{"none", props(invariants.Safety, invariants.Deadlock), ringcheck.ReduceNone, "", "", "", ""},
		{"por", props(invariants.Safety, invariants.Deadlock), ringcheck.ReducePOR, "", "partial-order", "", ""},
		{"all", props(invariants.Deadlock), ringcheck.ReduceAll, "", "partial-order", "", ""},
		{"por for starvation", props(invariants.Starvation), ringcheck.ReducePOR, "", "", "",
			"Reduce por: partial-order reduction cannot run: it keeps invariant violations and deadlocks only, and starvation needs every step of the state graph"},
		{"all for starvation", props(invariants.Safety, invariants.Starvation), ringcheck.ReduceAll, "", "",
			"no partial-order reduction: it keeps invariant violations and deadlocks only, and starvation needs every step of the state graph", ""},
		{"por from all", props(invariants.Deadlock), ringcheck.ReducePOR, invariants.FromAll, "", "",
			"Reduce por: partial-order reduction cannot run: it runs in a search from the initial configurations (From init), not from all"},
		{"unknown", props(invariants.Deadlock), "some", "", "", "", `Reduce "some" is not one of none, por, symmetry, all`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := ringcheck.Request{Spec: thiare, Params: params, Properties: tc.props, Reduce: tc.reduce, From: tc.from, Workers: 1}
			if tc.err != "" {
				err := req.Validate()
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %s", err, tc.err)
				}
				return
			}
			res, err := req.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if res.Reduction.Ran != tc.ran || res.Reduction.Note != tc.note {
				t.Errorf("reduction %+v, want ran %q note %q", res.Reduction, tc.ran, tc.note)
			}
			if got := res.Report.Search.PartialOrder; got != (tc.ran != "") {
				t.Errorf("the search ran partial-order reduction: %v", got)
			}
			for _, o := range res.Report.Outcomes {
				if o.Verdict != invariants.Holds {
					t.Errorf("%s: %s", o.Property, o.Verdict)
				}
			}
		})
	}
}
