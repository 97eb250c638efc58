package ring_test

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/lang"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/catalog"
	"github.com/ringcheck/ringcheck/specs/raynal"
)

func TestKLNaiveTwin(t *testing.T) {
	testTwin(t, twin{
		file: "kl-naive.ring", spec: "kl-naive",
		instances: []specs.Values{
			{"n": 3, "L": 3, "K": 2, "Cmax": 0}, {"n": 4, "L": 4, "K": 2, "Cmax": 0},
			{"n": 3, "L": 3, "K": 2, "Cmax": 1}, {"n": 4, "L": 3, "K": 3, "Cmax": 0},
		},
		fromInit:     []invariants.Property{invariants.Safety, invariants.Deadlock, invariants.Starvation},
		fairness:     invariants.WeakFairness,
		fromAll:      []invariants.Property{invariants.Deadlock},
		allInstances: []specs.Values{{"n": 2, "L": 2, "K": 1, "Cmax": 0}, {"n": 3, "L": 2, "K": 2, "Cmax": 2}, {"n": 2, "L": 3, "K": 3, "Cmax": 3}},
	})
}

func TestKLPusherTwin(t *testing.T) {
	testTwin(t, twin{
		file: "kl-pusher.ring", spec: "kl-pusher",
		instances: []specs.Values{
			{"n": 3, "L": 3, "K": 2, "Cmax": 0}, {"n": 2, "L": 2, "K": 2, "Cmax": 0},
			{"n": 3, "L": 3, "K": 2, "Cmax": 2}, {"n": 4, "L": 3, "K": 2, "Cmax": 0},
		},
		fromInit:     []invariants.Property{invariants.Safety, invariants.Deadlock, invariants.Starvation},
		fairness:     invariants.WeakFairness,
		fromAll:      []invariants.Property{invariants.Deadlock},
		allInstances: []specs.Values{{"n": 2, "L": 1, "K": 1, "Cmax": 0}, {"n": 2, "L": 2, "K": 2, "Cmax": 3}},
	})
}

func TestKLDDHLTwin(t *testing.T) {
	t.Parallel()
	testTwin(t, twin{
		file: "kl-ddhl.ring", spec: "kl-ddhl",
		instances: []specs.Values{
			{"n": 2, "L": 1, "K": 1, "Cmax": 0, "staycs": 0},
			{"n": 2, "L": 2, "K": 2, "Cmax": 0, "staycs": 0},
			{"n": 2, "L": 2, "K": 1, "Cmax": 6, "staycs": 1},
			{"n": 3, "L": 1, "K": 1, "Cmax": 0, "staycs": 0},
			// The resends and the root without its timeout (never enabled
			// from init: resend=1's sent fields make its space larger),
			// and counter domains of their own.
			{"n": 2, "L": 1, "K": 1, "resend": 1},
			{"n": 2, "L": 2, "K": 2, "resend": 2, "counters": 4},
			{"n": 2, "L": 2, "K": 1, "Cmax": 6, "staycs": 1, "resend": 1, "notimeout": 1},
			{"n": 3, "L": 1, "K": 1, "resend": 2, "notimeout": 1, "counters": 7},
		},
		fromInit: []invariants.Property{invariants.Safety, invariants.Deadlock, invariants.Starvation},
		fairness: invariants.WeakFairness,
	})
}

// TestKLDDHLTwinFromRandom compares the file and the Go spec kl-ddhl where
// the resends and the root's timeout act, after a fault: convergence
// decided from the same random configurations, on the spec's lossy links
// and on the paper's reliable ones, must find the same states,
// transitions, verdicts and counterexample lengths under each reading.
func TestKLDDHLTwinFromRandom(t *testing.T) {
	reg, err := catalog.Registry()
	if err != nil {
		t.Fatal(err)
	}
	goSpec, err := lookupGo(reg, "kl-ddhl")
	if err != nil {
		t.Fatal(err)
	}
	file, _, err := lang.Load("kl-ddhl.ring")
	if err != nil {
		t.Fatal(err)
	}
	// Samples (from a seed) whose executions are few enough to explore
	// in a second: each reading, converging or violating convergence.
	for _, tc := range []struct {
		values        specs.Values
		reliable      bool
		seed, samples int
	}{
		{specs.Values{"n": 2, "L": 1, "K": 1}, false, 1, 2},
		{specs.Values{"n": 2, "L": 1, "K": 1, "resend": 1}, false, 2, 2},
		{specs.Values{"n": 2, "L": 1, "K": 1, "resend": 2}, false, 5, 1},
		{specs.Values{"n": 2, "L": 1, "K": 1, "resend": 2}, false, 8, 1},
		{specs.Values{"n": 2, "L": 1, "K": 1, "resend": 1, "notimeout": 1}, false, 1, 2},
		{specs.Values{"n": 2, "L": 1, "K": 1, "resend": 1, "notimeout": 1}, false, 2, 2},
		{specs.Values{"n": 2, "L": 1, "K": 1, "resend": 2, "notimeout": 1}, false, 6, 1},
		{specs.Values{"n": 2, "L": 1, "K": 1, "resend": 2, "notimeout": 1}, false, 11, 1},
		{specs.Values{"n": 2, "L": 1, "K": 1, "resend": 1, "notimeout": 1, "counters": 12}, true, 1, 2},
		{specs.Values{"n": 2, "L": 1, "K": 1, "resend": 2, "notimeout": 1, "counters": 10}, true, 2, 2},
	} {
		random := func(spec *specs.Spec) outcome {
			req := &ringcheck.Request{
				Spec: spec, Params: tc.values, Properties: []invariants.Property{invariants.Convergence},
				From: invariants.FromRandom, Random: &ringcheck.Random{Samples: tc.samples, Seed: uint64(tc.seed)},
				ReliableLinks: tc.reliable, Fairness: invariants.WeakFairness, Workers: 1,
			}
			res, err := req.Run(context.Background())
			if err != nil {
				t.Fatalf("%s %v: %v", spec.Name, tc.values, err)
			}
			var o outcome
			if s := res.Report.Search; s != nil {
				o.states, o.transitions = s.States, s.Transitions
			}
			for _, out := range res.Report.Outcomes {
				o.verdicts += fmt.Sprintf("%s=%s (%s) ", out.Property, out.Verdict, out.Reason)
				if ce := out.Counterexample; ce != nil {
					o.lengths += fmt.Sprintf("%s:%d+%d ", out.Property, len(ce.Steps), ce.LoopStart)
				}
			}
			if st := res.Report.Stabilization; st != nil {
				o.worstSteps, o.legitimate = st.WorstSteps, st.Legitimate
			}
			return o
		}
		got, want := random(file), random(goSpec)
		if got != want {
			t.Errorf("%v reliable=%v seed %d:\n .ring %+v\n Go    %+v", tc.values, tc.reliable, tc.seed, got, want)
		}
		if got.states == 0 {
			t.Errorf("%v reliable=%v seed %d: no state explored", tc.values, tc.reliable, tc.seed)
		}
	}
}

func TestRaynalTwin(t *testing.T) {
	// §3 and §5.1, with and without the ghost counter: the variant's
	// safety violation (n=2, M=2, R=2) has the same shortest length in
	// both.
	testTwin(t, twin{
		file: "raynal.ring", spec: "raynal",
		instances: []specs.Values{
			{"n": 2, "M": 2, "K": 0, "requests": 2, "asked": 0, "count": 0, "Cmax": 0},
			{"n": 3, "M": 2, "K": 1, "requests": 1, "asked": 0, "count": 1, "Cmax": 0},
			{"n": 2, "M": 2, "K": 0, "requests": 2, "asked": 1, "count": 0, "Cmax": 0},
			{"n": 3, "M": 1, "K": 0, "requests": 1, "asked": 1, "count": 1, "Cmax": 0},
			{"n": 2, "M": 3, "K": 2, "requests": 2, "asked": 0, "count": 0, "Cmax": 2},
		},
		fromInit: []invariants.Property{invariants.Safety, invariants.Deadlock, invariants.Starvation},
		fairness: invariants.WeakFairness,
	})
}

func TestRaynalRecurringTwin(t *testing.T) {
	// §3 and §5.1 with recurring requests and modular clocks, with and
	// without the ghost: the Go spec's claim instance (weak fairness per
	// action), n=2 with M=2 (§5.1 unsafe there too), and windows too
	// small, where clock_window fails and starvation is not decided.
	testTwin(t, twin{
		file: "raynal.ring", spec: "raynal",
		instances: []specs.Values{
			{"n": 3, "M": 1, "K": 0, "requests": 0, "window": 0, "asked": 0, "count": 0, "Cmax": 0},
			{"n": 2, "M": 2, "K": 0, "requests": 0, "window": 0, "asked": 0, "count": 1, "Cmax": 0},
			{"n": 2, "M": 2, "K": 0, "requests": 0, "window": 0, "asked": 1, "count": 1, "Cmax": 0},
			{"n": 2, "M": 3, "K": 2, "requests": 0, "window": 1, "asked": 0, "count": 0, "Cmax": 0},
			{"n": 3, "M": 1, "K": 0, "requests": 0, "window": 2, "asked": 0, "count": 1, "Cmax": 0},
			{"n": 3, "M": 1, "K": 0, "requests": 0, "window": 3, "asked": 1, "count": 0, "Cmax": 0},
		},
		fromInit: []invariants.Property{invariants.Safety, invariants.Deadlock, invariants.Starvation},
		fairness: invariants.WeakActionFairness,
	})
}

func TestRaynalAndTwin(t *testing.T) {
	t.Parallel()
	// §6 with at most R demands: the Go spec's default instance (the
	// claims'), two and three types on two processes, and channels too
	// small (an overflow, with the same shortest length in both).
	testTwin(t, twin{
		file: "raynal-and.ring", spec: "raynal-and",
		instances: []specs.Values{
			{"n": 3, "types": 2, "M": 1, "K": 0, "requests": 1, "Cmax": 0},
			{"n": 2, "types": 2, "M": 1, "K": 0, "requests": 1, "Cmax": 0},
			{"n": 2, "types": 2, "M": 2, "K": 0, "requests": 1, "Cmax": 0},
			{"n": 2, "types": 3, "M": 2, "K": 1, "requests": 2, "Cmax": 0},
			{"n": 2, "types": 2, "M": 2, "K": 0, "requests": 2, "Cmax": 2},
		},
		fromInit: []invariants.Property{invariants.Safety, invariants.Deadlock, invariants.Starvation},
		fairness: invariants.WeakFairness,
	})
}

func TestRaynalAndRecurringTwin(t *testing.T) {
	// §6 with recurring demands and modular clocks: the Go spec's claim
	// instance (weak fairness per action), one type, and a window too
	// small, where clock_window fails and starvation is not decided.
	testTwin(t, twin{
		file: "raynal-and.ring", spec: "raynal-and",
		instances: []specs.Values{
			{"n": 2, "types": 2, "M": 2, "K": 0, "requests": 0, "window": 0, "Cmax": 0},
			{"n": 2, "types": 1, "M": 2, "K": 0, "requests": 0, "window": 2, "Cmax": 0},
			{"n": 2, "types": 2, "M": 1, "K": 0, "requests": 0, "window": 1, "Cmax": 0},
		},
		fromInit: []invariants.Property{invariants.Safety, invariants.Deadlock, invariants.Starvation},
		fairness: invariants.WeakActionFairness,
	})
}

// TestKLDDHLDeclaresTheGoSpecsParametersAndActions compares what
// kl-ddhl.ring declares with the Go spec kl-ddhl's catalogue entry and
// models, beyond TestTwinsDeclareTheGoSpecsMetadata: every parameter
// (name, default, range, doc, in order), the invariants' docs (with the
// file's "_" for the Go spec's "-"), and, for instances of each reading,
// every process's variables (names and domains) and actions (name, kind
// and liveness, in declaration order, which orders a process's actions in
// rounds).
func TestKLDDHLDeclaresTheGoSpecsParametersAndActions(t *testing.T) {
	reg, err := catalog.Registry()
	if err != nil {
		t.Fatal(err)
	}
	goSpec, err := lookupGo(reg, "kl-ddhl")
	if err != nil {
		t.Fatal(err)
	}
	file, _, err := lang.Load("kl-ddhl.ring")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprintf("%+v", file.Params), fmt.Sprintf("%+v", goSpec.Params); got != want {
		t.Errorf("parameters:\n the file's    %s\n the Go spec's %s", got, want)
	}
	for i, want := range goSpec.Invariants {
		name, doc, _ := strings.Cut(want, ":")
		want = strings.ReplaceAll(name, "-", "_") + ":" + doc
		if i >= len(file.Invariants) || file.Invariants[i] != want {
			t.Errorf("invariants: the file's %q, the Go spec's %q", file.Invariants, goSpec.Invariants)
			break
		}
	}
	if len(file.Invariants) != len(goSpec.Invariants) {
		t.Errorf("invariants: the file's %q, the Go spec's %q", file.Invariants, goSpec.Invariants)
	}
	describe := func(sys *model.System) []string {
		var out []string
		for p, proc := range sys.Processes {
			line := fmt.Sprintf("process %d:", p)
			for _, id := range proc.Vars {
				line += fmt.Sprintf(" %s %s", sys.Vars[id].Name, sys.Vars[id].Domain)
			}
			line += " |"
			for _, a := range proc.Actions {
				line += fmt.Sprintf(" %s/%v/%v/%d", a.Name, a.Kind, a.Liveness, a.Choices)
			}
			out = append(out, line)
		}
		return out
	}
	for _, values := range []specs.Values{
		{"n": 3, "L": 2, "K": 2},
		{"n": 2, "L": 1, "K": 1, "staycs": 1},
		{"n": 3, "L": 2, "K": 1, "resend": 1},
		{"n": 4, "L": 1, "K": 1, "resend": 2, "counters": 9},
		{"n": 3, "L": 2, "K": 2, "resend": 1, "notimeout": 1, "staycs": 1},
		{"n": 2, "L": 3, "K": 2, "Cmax": 7, "resend": 2, "notimeout": 1},
	} {
		gsys, rsys := twinSystems(t, "kl-ddhl.ring", "kl-ddhl", values)
		if got, want := describe(rsys), describe(gsys); !slices.Equal(got, want) {
			t.Errorf("%v:\n the file's    %q\n the Go spec's %q", values, got, want)
		}
	}
}

// TestRaynalDeclaresTheGoSpecsMetadata compares what raynal.ring declares
// about itself, as list shows it, with the Go spec raynal's catalogue
// entry: summary, source, model, default checks, parameters, invariants
// and claims, in order. The file's names say '_' where the Go spec's say
// '-', an invariant's condition opens its doc ("clock_window: (requests=0)
// ...") where the Go spec puts it after the name, the docs point to the
// file's comment rather than the Go package's, and the file also lists
// the ghost invariant count_sound and says Cmax's default with recurring
// requests.
func TestRaynalDeclaresTheGoSpecsMetadata(t *testing.T) {
	file, _, err := lang.Load("raynal.ring")
	if err != nil {
		t.Fatal(err)
	}
	g := raynal.Spec()
	norm := strings.NewReplacer("-", "_", "package comment", "comment at the top of the file",
		", or 4 with requests=0)", ")", "weak_action", "weak-action")
	for _, f := range []struct{ what, file, goSpec string }{
		{"summary", file.Summary, g.Summary},
		{"source", file.Source, g.Source},
		{"model", file.Communication, g.Communication},
		{"default checks", fmt.Sprint(file.DefaultChecks), fmt.Sprint(g.DefaultChecks)},
		{"parameters", norm.Replace(fmt.Sprint(file.Params)), norm.Replace(fmt.Sprint(g.Params))},
		{"invariants", strings.Join(file.Invariants[:len(g.Invariants)], "\n"), norm.Replace(strings.Join(g.Invariants, "\n"))},
	} {
		if f.what == "invariants" {
			// "name (cond): doc" is the file's "name: (cond) doc".
			f.goSpec = regexp.MustCompile(`(?m)^(\w+) (\([^)]*\)): `).ReplaceAllString(f.goSpec, "$1: $2 ")
		}
		if f.file != f.goSpec {
			t.Errorf("%s:\n the file's    %q\n the Go spec's %q", f.what, f.file, f.goSpec)
		}
	}
	if got := file.Invariants[len(file.Invariants)-1]; !strings.HasPrefix(got, "count_sound: ") {
		t.Errorf("last invariant %q, want count_sound", got)
	}
	var got, want []string
	for _, c := range file.Claims {
		got = append(got, describe(c))
	}
	for _, c := range g.Claims {
		want = append(want, describe(c))
	}
	if !slices.Equal(got, want) {
		t.Errorf("claims:\n the file's    %q\n the Go spec's %q", got, want)
	}
}
