// Package ring_test proves each .ring file of this folder the same model as
// the Go spec it is the twin of: on several instances, the same states and
// transitions from the initial configurations (and over the full space
// where it is small enough), the same verdicts on every property the
// instance can decide, and counterexamples of the same length.
package ring_test

import (
	"context"
	"fmt"
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
			got := run(t, file, c.values, d, c.props, c.from, tw.fairness)
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
