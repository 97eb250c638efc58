// Package ring_test proves each .ring file of this folder the same model as
// the Go spec it is the twin of: on several instances, the same states and
// transitions from the initial configurations (and over the full space
// where it is small enough), the same verdicts on every property the
// instance can decide, and counterexamples of the same length.
package ring_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ringcheck/ringcheck"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/lang"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/catalog"
)

// twin is a .ring file, the built-in spec it encodes, and what to compare.
type twin struct {
	file, spec string
	instances  []specs.Values
	// fromInit are the properties checked from the initial configurations
	// of every instance; fromAll those checked from every configuration of
	// the instances whose full space is small enough to sweep, allInstances
	// (instances when nil).
	fromInit, fromAll []invariants.Property
	allInstances      []specs.Values
	// daemons, if set, are the daemons every instance is compared under
	// (default: the central daemon alone).
	daemons []model.Daemon
	// fairness qualifies the liveness properties.
	fairness invariants.Fairness
	// renamed maps a Go spec's parameter to the .ring file's name for it,
	// where the Go name is a reserved word of the language.
	renamed map[string]string
}

// ringValues returns values with the parameters the .ring file names
// differently renamed.
func (tw twin) ringValues(values specs.Values) specs.Values {
	out := specs.Values{}
	for k, v := range values {
		if r, ok := tw.renamed[k]; ok {
			k = r
		}
		out[k] = v
	}
	return out
}

// outcome is what two twins must agree on for one check.
type outcome struct {
	states, transitions int64
	verdicts            string
	// lengths are the counterexamples' steps, per property.
	lengths    string
	worstSteps int
	legitimate uint64
}

func run(t *testing.T, spec *specs.Spec, values specs.Values, d model.Daemon, props []invariants.Property, from invariants.From, fairness invariants.Fairness) outcome {
	t.Helper()
	req := &ringcheck.Request{Spec: spec, Params: values, Properties: props, From: from, Daemon: d, Workers: 1}
	for _, p := range props {
		if p == invariants.Starvation || p == invariants.Convergence {
			req.Fairness = fairness
		}
	}
	res, err := req.Run(context.Background())
	if err != nil {
		t.Fatalf("%s %v: %v", spec.Name, values, err)
	}
	var o outcome
	if s := res.Report.Search; s != nil {
		o.states, o.transitions = s.States, s.Transitions
	}
	for _, out := range res.Report.Outcomes {
		o.verdicts += fmt.Sprintf("%s=%s ", out.Property, out.Verdict)
		if ce := out.Counterexample; ce != nil {
			o.lengths += fmt.Sprintf("%s:%d+%d ", out.Property, len(ce.Steps), ce.LoopStart)
		}
	}
	if st := res.Report.Stabilization; st != nil {
		o.worstSteps, o.legitimate = st.WorstSteps, st.Legitimate
	}
	return o
}

func TestDijkstraTwin(t *testing.T) {
	testTwin(t, twin{
		file: "dijkstra.ring", spec: "dijkstra",
		instances: []specs.Values{{"n": 3, "K": 3}, {"n": 4, "K": 2}, {"n": 5, "K": 4}, {"n": 6, "K": 5}},
		fromInit:  []invariants.Property{invariants.Safety, invariants.Deadlock, invariants.Starvation},
		fromAll:   []invariants.Property{invariants.Closure, invariants.Convergence},
		daemons:   []model.Daemon{model.Central, model.Distributed, model.Synchronous},
	})
}

func TestCounterflushTwin(t *testing.T) {
	testTwin(t, twin{
		file: "counterflush.ring", spec: "counterflush",
		instances:    []specs.Values{{"n": 2, "Cmax": 1}, {"n": 3, "Cmax": 1}, {"n": 2, "Cmax": 2}, {"n": 3, "Cmax": 2}, {"n": 5, "Cmax": 3}},
		fromInit:     []invariants.Property{invariants.Safety, invariants.Deadlock},
		fromAll:      []invariants.Property{invariants.Deadlock, invariants.Closure, invariants.Convergence},
		allInstances: []specs.Values{{"n": 2, "Cmax": 1}, {"n": 3, "Cmax": 1}, {"n": 2, "Cmax": 2}},
	})
}

// testTwin checks that tw's file and Go spec are the same model.
func testTwin(t *testing.T, tw twin) {
	t.Helper()
	reg, err := catalog.Registry()
	if err != nil {
		t.Fatal(err)
	}
	file, _, err := lang.Load(tw.file)
	if err != nil {
		t.Fatal(err)
	}
	goSpec, err := reg.Lookup(tw.spec)
	if err != nil {
		t.Fatal(err)
	}
	daemons := tw.daemons
	if daemons == nil {
		daemons = []model.Daemon{model.Central}
	}
	all := tw.allInstances
	if all == nil {
		all = tw.instances
	}
	type check struct {
		values specs.Values
		from   invariants.From
		props  []invariants.Property
	}
	var checks []check
	for _, v := range tw.instances {
		checks = append(checks, check{v, invariants.FromInit, tw.fromInit})
	}
	for _, v := range all {
		if len(tw.fromAll) > 0 {
			checks = append(checks, check{v, invariants.FromAll, tw.fromAll})
		}
	}
	for _, c := range checks {
		for _, d := range daemons {
			got := run(t, file, tw.ringValues(c.values), d, c.props, c.from, tw.fairness)
			want := run(t, goSpec, c.values, d, c.props, c.from, tw.fairness)
			if got != want {
				t.Errorf("%v %v from %s:\n .ring %+v\n Go    %+v", c.values, d, c.from, got, want)
			}
			if got.states == 0 {
				t.Errorf("%v %v from %s: no state explored", c.values, d, c.from)
			}
		}
	}
}

// testSameSteps checks, on random configurations of the Go spec's model
// (channels filled up to fill messages), that the .ring twin has the same
// steps: the same actions of the same processes leading to the same
// configurations, and the same invariants, legitimacy and process
// predicates. Random configurations reach what executions from the initial
// ones never do (corrupt local states, the recovery of a
// self-stabilizing protocol).
func testSameSteps(t *testing.T, file, spec string, values specs.Values, fill, samples int) {
	t.Helper()
	reg, err := catalog.Registry()
	if err != nil {
		t.Fatal(err)
	}
	ringSpec, _, err := lang.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	goSpec, err := reg.Lookup(spec)
	if err != nil {
		t.Fatal(err)
	}
	gsys, err := goSpec.Build(values)
	if err != nil {
		t.Fatal(err)
	}
	rsys, err := ringSpec.Build(values)
	if err != nil {
		t.Fatal(err)
	}
	steps := func(sys *model.System, st *model.State) []string {
		var out []string
		if _, err := sys.NewExpander().Expand(st, func(s *model.Step, next *model.State) bool {
			out = append(out, fmt.Sprintf("%v %s %v %s -> %v", s.Procs(), sys.Label(s), s.Overflow, s.RangeFault, sys.Decode(next)))
			return true
		}); err != nil {
			t.Fatalf("%s: %v", sys.Name, err)
		}
		slices.Sort(out)
		return out
	}
	holds := func(sys *model.System, st *model.State) string {
		out := ""
		for _, inv := range sys.Invariants {
			out += fmt.Sprint(inv.Holds(st))
		}
		if sys.Legitimate != nil {
			out += fmt.Sprint(" L=", sys.Legitimate.Holds(st))
		}
		for _, pp := range sys.ProcessPredicates {
			for p := range sys.N() {
				out += fmt.Sprint(" ", pp.Name, p, "=", pp.Holds(st, p))
			}
		}
		return out
	}
	rng := rand.New(rand.NewPCG(7, uint64(len(file))))
	gst := gsys.NewState()
	for i := range samples {
		gsys.RandomConfigurationUpTo(rng, gst, fill)
		rst, err := rsys.Encode(gsys.Decode(gst))
		if err != nil {
			t.Fatalf("sample %d: %v", i, err)
		}
		if g, r := steps(gsys, gst), steps(rsys, rst); !slices.Equal(g, r) {
			t.Fatalf("sample %d, %v:\n Go    %q\n .ring %q", i, gsys.Decode(gst), g, r)
		}
		if g, r := holds(gsys, gst), holds(rsys, rst); g != r {
			t.Fatalf("sample %d, %v: predicates\n Go    %s\n .ring %s", i, gsys.Decode(gst), g, r)
		}
	}
}

func TestTwinsTakeTheSameSteps(t *testing.T) {
	for _, tc := range []struct {
		file, spec string
		values     specs.Values
		fill       int
	}{
		{"dijkstra.ring", "dijkstra", specs.Values{"n": 5, "K": 4}, 0},
		{"counterflush.ring", "counterflush", specs.Values{"n": 3, "Cmax": 2}, 2},
		{"kl-naive.ring", "kl-naive", specs.Values{"n": 3, "L": 3, "K": 2, "Cmax": 3}, 3},
		{"kl-pusher.ring", "kl-pusher", specs.Values{"n": 3, "L": 3, "K": 2, "Cmax": 4}, 3},
		{"kl-ddhl.ring", "kl-ddhl", specs.Values{"n": 3, "L": 2, "K": 2, "Cmax": 5, "staycs": 0}, 3},
		{"kl-ddhl.ring", "kl-ddhl", specs.Values{"n": 2, "L": 1, "K": 1, "Cmax": 4, "staycs": 1}, 4},
	} {
		t.Run(tc.file, func(t *testing.T) { testSameSteps(t, tc.file, tc.spec, tc.values, tc.fill, 3000) })
	}
}
