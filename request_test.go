package ringcheck_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ringcheck/ringcheck"
	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/fields"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs/spectest"
)

func props(ps ...invariants.Property) []invariants.Property { return ps }

// TestValidateNamesFields: every rule on what a check may combine is
// reported as a fields error naming the request's fields at fault.
func TestValidateNamesFields(t *testing.T) {
	dij := spectest.Builtin(t, "dijkstra")
	drop := model.Drop
	tests := []struct {
		name   string
		req    ringcheck.Request
		fields []string
		msg    string
	}{
		{"no spec", ringcheck.Request{Workers: 1}, []string{"Spec"}, "Spec: no spec to check"},
		{"unknown parameter", ringcheck.Request{Spec: dij, Params: map[string]int{"m": 3}, Workers: 1}, nil,
			`spec dijkstra has no parameter "m" (it has n, K)`},
		{"unknown property", ringcheck.Request{Spec: dij, Properties: props("bogus"), Workers: 1}, []string{"Properties"}, ""},
		{"property twice", ringcheck.Request{Spec: dij, Properties: props(invariants.Safety, invariants.Safety), Workers: 1},
			[]string{"Properties"}, "Properties: safety is named twice"},
		{"convergence from init", ringcheck.Request{Spec: dij, Properties: props(invariants.Convergence), From: invariants.FromInit, Workers: 1},
			[]string{"From"}, "closure and convergence are about every configuration: they need From all"},
		{"random with safety", ringcheck.Request{Spec: dij, Properties: props(invariants.Safety), From: invariants.FromRandom, Workers: 1},
			[]string{"From", "Properties"}, ""},
		{"no samples", ringcheck.Request{Spec: dij, Properties: props(invariants.Convergence), From: invariants.FromRandom,
			Random: &ringcheck.Random{Samples: 0}, Workers: 1}, []string{"Random.Samples"}, "Random.Samples must be at least 1"},
		{"a sample without random", ringcheck.Request{Spec: dij, Random: &ringcheck.Random{Samples: 3}, Workers: 1},
			[]string{"Random", "From"}, ""},
		{"depth from all", ringcheck.Request{Spec: dij, Properties: props(invariants.Convergence), MaxDepth: 3, Workers: 1},
			[]string{"MaxDepth", "MaxStates", "TimeLimit"}, ""},
		{"fairness for safety", ringcheck.Request{Spec: dij, Properties: props(invariants.Safety), Fairness: invariants.WeakFairness, Workers: 1},
			[]string{"Fairness", "Properties"}, ""},
		{"starvation with convergence", ringcheck.Request{Spec: dij, Properties: props(invariants.Starvation, invariants.Convergence), Workers: 1},
			nil, ""},
		{"negative bound", ringcheck.Request{Spec: dij, MaxStates: -1, Workers: 1}, []string{"MaxDepth", "MaxStates", "TimeLimit"}, ""},
		{"no workers", ringcheck.Request{Spec: dij}, []string{"Workers"}, "Workers must be at least 1"},
		{"too many workers", ringcheck.Request{Spec: dij, Workers: 100000}, []string{"Workers"},
			"Workers is 100000, more than 256, the most goroutines a search runs"},
		{"the most workers", ringcheck.Request{Spec: dij, Workers: explore.MaxWorkers}, nil, "ok"},
		{"start and from", ringcheck.Request{Spec: dij, From: invariants.FromInit, Start: &ringcheck.Start{Trace: "t.json"}, Workers: 1},
			[]string{"Start.Trace", "From"}, ""},
		{"start index alone", ringcheck.Request{Spec: dij, Start: &ringcheck.Start{Index: 2}, Workers: 1},
			[]string{"Start.Index", "Start.Trace"}, ""},
		{"closure from a start", ringcheck.Request{Spec: dij, Properties: props(invariants.Closure), Start: &ringcheck.Start{Trace: "t.json"}, Workers: 1},
			[]string{"From", "Start.Trace"}, ""},
		{"leads-to predicate unknown", ringcheck.Request{Spec: dij, LeadsTo: invariants.LeadsTo{From: "requesting", To: "nope"}, Workers: 1},
			[]string{"LeadsTo"}, ""},
		{"distributed daemon on channels", ringcheck.Request{Spec: spectest.Builtin(t, "kl-naive"), Daemon: model.Distributed, Workers: 1}, nil, ""},
		{"overflow on a state-reading spec is harmless", ringcheck.Request{Spec: dij, Overflow: &drop, Workers: 1}, nil, "ok"},
		{"too large to sweep", ringcheck.Request{Spec: spectest.Builtin(t, "kl-dhv"), Properties: props(invariants.Convergence), Workers: 1},
			[]string{"Properties", "From", "Start.Trace"}, ""},
		{"reliable links on a spec without", ringcheck.Request{Spec: dij, Properties: props(invariants.Convergence), From: invariants.FromRandom,
			ReliableLinks: true, Workers: 1}, []string{"ReliableLinks"}, ""},
		{"reliable links with an overflow policy", ringcheck.Request{Spec: spectest.Builtin(t, "kl-ddhl"), Properties: props(invariants.Convergence), From: invariants.FromRandom,
			ReliableLinks: true, Overflow: &drop, Workers: 1}, []string{"ReliableLinks", "Overflow"}, ""},
		{"reliable links from init", ringcheck.Request{Spec: spectest.Builtin(t, "kl-ddhl"), Properties: props(invariants.Safety), ReliableLinks: true, Workers: 1},
			[]string{"ReliableLinks", "From", "Start.Trace"}, ""},
		{"symbolic rounds with the explicit engine", ringcheck.Request{Spec: dij, Properties: props(invariants.Convergence), SymbolicRounds: true, Workers: 1},
			[]string{"SymbolicRounds", "Engine"}, ""},
		{"reliable links from empty channels", ringcheck.Request{Spec: spectest.Builtin(t, "kl-ddhl"), Properties: props(invariants.Convergence), From: invariants.FromEmptyChannels,
			ReliableLinks: true, Workers: 1}, nil, "ok"},
		{"reliable links from random", ringcheck.Request{Spec: spectest.Builtin(t, "kl-ddhl"), Properties: props(invariants.Convergence), From: invariants.FromRandom,
			ReliableLinks: true, Workers: 1}, nil, "ok"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.req.Validate()
			if tt.msg == "ok" {
				if err != nil {
					t.Fatalf("rejected: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("accepted")
			}
			var fe *fields.Error
			if !errors.As(err, &fe) {
				t.Fatalf("%v: not a fields error", err)
			}
			if got := fe.Fields(); !slices.Equal(got, tt.fields) {
				t.Errorf("fields %q, want %q (%v)", got, tt.fields, err)
			}
			if tt.msg != "" && err.Error() != tt.msg {
				t.Errorf("message %q, want %q", err.Error(), tt.msg)
			}
		})
	}
}

// TestSystemAppliesDaemonAndOverflow: the spec builds with its parameters
// only; the request applies the daemon and the overflow policy.
func TestSystemAppliesDaemonAndOverflow(t *testing.T) {
	dij := spectest.Builtin(t, "dijkstra")
	errPolicy := model.Error
	sys, err := (&ringcheck.Request{Spec: spectest.Builtin(t, "kl-naive"), Overflow: &errPolicy}).System()
	if err != nil {
		t.Fatal(err)
	}
	for i, ch := range sys.Channels {
		if ch.Overflow != model.Error {
			t.Errorf("channel %d: policy %s, want error", i, ch.Overflow)
		}
	}
	sys, err = (&ringcheck.Request{Spec: dij, Daemon: model.Synchronous}).System()
	if err != nil {
		t.Fatal(err)
	}
	if sys.Daemon != model.Synchronous {
		t.Errorf("daemon %s, want synchronous", sys.Daemon)
	}
}

// TestReliableLinks: on reliable links the request enlarges the spec's
// parameters as its Links says, sets every channel's policy to error, and
// draws random configurations with at most the spec's own capacity a
// channel; the trace policy is error, and the key differs from the spec's
// own links'.
func TestReliableLinks(t *testing.T) {
	req := ringcheck.Request{Spec: spectest.Builtin(t, "kl-ddhl"), Params: map[string]int{"n": 2, "L": 1, "K": 1}, Properties: props(invariants.Convergence),
		From: invariants.FromRandom, Random: &ringcheck.Random{Samples: 2, Seed: 1}, Fairness: invariants.WeakFairness, ReliableLinks: true, Workers: 1}
	res, err := req.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Values["Cmax"] != 32 {
		t.Errorf("Cmax %d, want the enlarged 32", res.Values["Cmax"])
	}
	for i, ch := range res.System.Channels {
		if ch.Overflow != model.Error || ch.Capacity != 32 {
			t.Errorf("channel %d: capacity %d, policy %s; want 32, error", i, ch.Capacity, ch.Overflow)
		}
	}
	if res.Options.Fill != 4 {
		t.Errorf("fill %d, want L+3 = 4", res.Options.Fill)
	}
	if got := req.OverflowPolicy(); got != "error" {
		t.Errorf("overflow policy %q, want error", got)
	}
	lossy := req
	lossy.ReliableLinks = false
	other, err := lossy.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if other.Key == res.Key || other.Values["Cmax"] != 0 || other.Options.Fill != 0 {
		t.Errorf("the spec's own links: key %s (reliable %s), Cmax %d, fill %d", other.Key, res.Key, other.Values["Cmax"], other.Options.Fill)
	}
}

// TestRunDefaults: with no properties and no From, the spec's default
// checks run from where they are about, and the verdicts are computed.
func TestRunDefaults(t *testing.T) {
	dij := spectest.Builtin(t, "dijkstra")
	tests := []struct {
		name  string
		req   ringcheck.Request
		from  invariants.From
		props []invariants.Property
		want  []invariants.Verdict
	}{
		{"spec defaults from init", ringcheck.Request{Spec: dij, Params: map[string]int{"n": 4, "K": 4}, Workers: 2},
			invariants.FromInit, props(invariants.Safety, invariants.Deadlock), []invariants.Verdict{invariants.Holds, invariants.Holds}},
		{"convergence from all", ringcheck.Request{Spec: dij, Params: map[string]int{"n": 4, "K": 2}, Properties: props(invariants.Convergence), Workers: 2},
			invariants.FromAll, props(invariants.Convergence), []invariants.Verdict{invariants.Violated}},
		{"random sample", ringcheck.Request{Spec: dij, Params: map[string]int{"n": 4, "K": 4}, Properties: props(invariants.Convergence),
			From: invariants.FromRandom, Random: &ringcheck.Random{Samples: 2, Seed: 5}, Workers: 2},
			invariants.FromRandom, props(invariants.Convergence), []invariants.Verdict{invariants.Unknown}},
		{"leads-to added", ringcheck.Request{Spec: dij, Params: map[string]int{"n": 3, "K": 3}, Properties: props(invariants.Deadlock),
			LeadsTo: invariants.LeadsTo{From: "requesting", To: "inCS"}, Workers: 1},
			invariants.FromInit, props(invariants.Deadlock, invariants.LeadsToProperty), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := tt.req.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if res.Options.From != tt.from || !slices.Equal(res.Options.Properties, tt.props) {
				t.Fatalf("ran %v from %s, want %v from %s", res.Options.Properties, res.Options.From, tt.props, tt.from)
			}
			for i, want := range tt.want {
				if got := res.Report.Outcomes[i].Verdict; got != want {
					t.Errorf("%s: %s, want %s", tt.props[i], got, want)
				}
			}
		})
	}
}

// TestStartFromTrace: a start trace of another spec or other parameters is
// refused, naming Start.Trace and, for parameters, Params.
func TestStartFromTrace(t *testing.T) {
	dij := spectest.Builtin(t, "dijkstra")
	dir := t.TempDir()
	path := filepath.Join(dir, "t.json")
	trace := `{"spec":"dijkstra","params":{"K":3,"n":3},"property":"convergence","kind":"path",
"states":[{"processes":[{"id":0,"vars":{"x":0}},{"id":1,"vars":{"x":1}},{"id":2,"vars":{"x":2}}]}],"steps":[]}`
	if err := os.WriteFile(path, []byte(trace), 0o644); err != nil {
		t.Fatal(err)
	}
	req := ringcheck.Request{Spec: dij, Params: map[string]int{"n": 4}, Properties: props(invariants.Convergence),
		Start: &ringcheck.Start{Trace: path}, Workers: 1}
	err := req.Validate()
	var fe *fields.Error
	if !errors.As(err, &fe) || !slices.Equal(fe.Fields(), []string{"Start.Trace", "Params"}) {
		t.Fatalf("parameters differ: %v (fields %v)", err, fe.Fields())
	}
}

// TestKeyIdentifiesTheCheck: the key changes with anything that can change
// a verdict, and not with the number of workers or how a default is given.
func TestKeyIdentifiesTheCheck(t *testing.T) {
	dij := spectest.Builtin(t, "dijkstra")
	key := func(r ringcheck.Request) string {
		t.Helper()
		res, err := r.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return res.Key
	}
	base := ringcheck.Request{Spec: dij, Params: map[string]int{"n": 3, "K": 3}, Workers: 1}
	k := key(base)
	if len(k) != 16 {
		t.Fatalf("key %q is not 16 hex digits", k)
	}
	same := base
	same.Workers, same.Params = 2, map[string]int{"K": 3, "n": 3}
	for _, c := range dij.DefaultChecks {
		same.Properties = append(same.Properties, invariants.Property(c))
	}
	if key(same) != k {
		t.Error("the key depends on the workers or on how defaults are given")
	}
	other := base
	other.MaxStates = 1000
	if key(other) == k {
		t.Error("a bound does not change the key")
	}
	other = base
	other.Daemon = model.Distributed
	if key(other) == k {
		t.Error("the daemon does not change the key")
	}
}
