package ringcheck_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/ringcheck/ringcheck"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/lang"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/reports"
	"github.com/ringcheck/ringcheck/specs"
)

// This file checks the classics written in the ring language
// (examples/ewd392.ring, ewd396.ring, herman.ring): figures computed by
// brute-force enumerations written here from the papers' algorithms,
// independently of the language, and both engines' agreement from every
// configuration and from a start predicate.

// ringSource reads a .ring file of the repository with more declared
// after it (a start predicate, say).
func ringSource(t *testing.T, path, more string) *specs.Spec {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := lang.Parse(path, append(src, "\n"+more+"\n"...))
	if err != nil {
		t.Fatal(err)
	}
	s, err := f.Spec()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// run runs req, failing the test on an error.
func run(t *testing.T, req ringcheck.Request) *ringcheck.Result {
	t.Helper()
	if req.Workers == 0 {
		req.Workers = 1
	}
	res, err := req.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// verdicts lists a report's verdicts, as "closure=holds convergence=violated".
func verdicts(rep *invariants.Report) string {
	s := ""
	for i, o := range rep.Outcomes {
		if i > 0 {
			s += " "
		}
		s += fmt.Sprintf("%s=%s", o.Property, o.Verdict)
	}
	return s
}

// ewd392Figures enumerates the configurations of Dijkstra's four-state
// machines (n machines, x of each, up of machines 1..n-2, up of the bottom
// true and of the top false) and returns how many there are, how many
// have exactly one privilege, and the number of steps of the central
// daemon from all of them (one per guard that holds).
func ewd392Figures(n int) (configs, legitimate, steps int) {
	for code := 0; code < 1<<(2*n-2); code++ {
		x := func(i int) bool { return code>>i&1 == 1 }
		up := func(i int) bool {
			switch i {
			case 0:
				return true
			case n - 1:
				return false
			}
			return code>>(n+i-1)&1 == 1
		}
		privileges := 0
		for i := range n {
			if i > 0 && x(i) != x(i-1) { // every machine but the bottom
				privileges++
			}
			if i < n-1 && x(i) == x(i+1) && up(i) && !up(i+1) { // every machine but the top
				privileges++
			}
		}
		configs++
		steps += privileges
		if privileges == 1 {
			legitimate++
		}
	}
	return configs, legitimate, steps
}

// ewd396Figures does the same for the three-state machines on a ring.
func ewd396Figures(n int) (configs, legitimate, steps int) {
	s := make([]int, n)
	for {
		privileges := 0
		for i := range n {
			l, r := s[(i+n-1)%n], s[(i+1)%n]
			switch {
			case i == 0:
				if (s[0]+1)%3 == r {
					privileges++
				}
			case i == n-1:
				if l == r && (l+1)%3 != s[i] {
					privileges++
				}
			default:
				if (s[i]+1)%3 == l {
					privileges++
				}
				if (s[i]+1)%3 == r {
					privileges++
				}
			}
		}
		configs++
		steps += privileges
		if privileges == 1 {
			legitimate++
		}
		i := 0
		for ; i < n; i++ {
			if s[i]++; s[i] < 3 {
				break
			}
			s[i] = 0
		}
		if i == n {
			return configs, legitimate, steps
		}
	}
}

// hermanFigures enumerates Herman's ring of n processes under the
// synchronous daemon: every process moves at every step, a process with a
// token (x_i = x_{i-1}) to either bit, the others copying x_{i-1}. It
// returns the configurations, those with one token, and the steps: 2 to
// the number of tokens from each configuration.
func hermanFigures(n int) (configs, legitimate, steps int) {
	for code := 0; code < 1<<n; code++ {
		tokens := 0
		for i := range n {
			if code>>i&1 == code>>((i+n-1)%n)&1 {
				tokens++
			}
		}
		configs++
		steps += 1 << tokens
		if tokens == 1 {
			legitimate++
		}
	}
	return configs, legitimate, steps
}

// TestClassicsFigures pins, for each classic, the configurations, the
// legitimate ones and the transitions from every configuration, as the
// explicit engine counts them, to the brute-force enumerations above;
// and, for Herman's ring under the synchronous daemon, to the closed form
// 3^n + 1 of the transitions (the number PRISM's case study reports for
// its DTMC of the ring: 28, 244 and 2188 for 3, 5 and 7 processes). With
// closure and convergence as the papers say: Dijkstra's machines
// stabilize under the central daemon; Herman's ring, whose coin is a
// choice here, is closed but does not converge, since an adversary
// choosing the coins keeps three tokens for ever (Herman's convergence
// is with probability 1).
func TestClassicsFigures(t *testing.T) {
	pow3 := func(n int) int {
		p := 1
		for range n {
			p *= 3
		}
		return p
	}
	for _, tc := range []struct {
		path    string
		n       int
		daemon  model.Daemon
		figures func(int) (int, int, int)
		want    string
	}{
		{"examples/ewd392.ring", 2, model.Central, ewd392Figures, "closure=holds convergence=holds"},
		{"examples/ewd392.ring", 5, model.Central, ewd392Figures, "closure=holds convergence=holds"},
		{"examples/ewd392.ring", 7, model.Central, ewd392Figures, "closure=holds convergence=holds"},
		{"examples/ewd396.ring", 3, model.Central, ewd396Figures, "closure=holds convergence=holds"},
		{"examples/ewd396.ring", 6, model.Central, ewd396Figures, "closure=holds convergence=holds"},
		{"examples/herman.ring", 3, model.Synchronous, hermanFigures, "closure=holds convergence=violated"},
		{"examples/herman.ring", 5, model.Synchronous, hermanFigures, "closure=holds convergence=violated"},
		{"examples/herman.ring", 7, model.Synchronous, hermanFigures, "closure=holds convergence=violated"},
	} {
		t.Run(fmt.Sprintf("%s n=%d", tc.path, tc.n), func(t *testing.T) {
			configs, legitimate, steps := tc.figures(tc.n)
			res := run(t, ringcheck.Request{Spec: ringSpec(t, tc.path), Params: map[string]int{"n": tc.n}, Daemon: tc.daemon,
				Properties: props(invariants.Closure, invariants.Convergence)})
			rep := res.Report
			if got := verdicts(rep); got != tc.want {
				t.Errorf("%s, want %s", got, tc.want)
			}
			if rep.Search.States != int64(configs) || rep.Search.Transitions != int64(steps) {
				t.Errorf("%d states, %d transitions; the enumeration finds %d and %d", rep.Search.States, rep.Search.Transitions, configs, steps)
			}
			if st := rep.Stabilization; st != nil && st.Legitimate != uint64(legitimate) {
				t.Errorf("%d legitimate configurations; the enumeration finds %d", st.Legitimate, legitimate)
			}
			if tc.path == "examples/herman.ring" {
				if steps != pow3(tc.n)+1 {
					t.Errorf("the enumeration finds %d transitions, not 3^%d + 1", steps, tc.n)
				}
				if conv := rep.Outcomes[1]; conv.Stuck != fmt.Sprint(configs-legitimate) {
					t.Errorf("%s configurations do not converge; want every one outside L, %d", conv.Stuck, configs-legitimate)
				}
			}
		})
	}
}

// TestClassicsEnginesAgree checks the classics with both engines, from
// every configuration and from a start predicate, and compares their
// verdicts, the configurations they count (from start: those reachable
// from the start configurations) and those that do not converge. A
// counterexample from start starts in a start configuration and replays.
func TestClassicsEnginesAgree(t *testing.T) {
	for _, tc := range []struct {
		name, path, start string
		n                 int
		daemon            model.Daemon
		fairness          invariants.Fairness
		from              invariants.From
		want              string
	}{
		{"ewd392 from all", "examples/ewd392.ring", "", 6, model.Central, "", invariants.FromAll, "convergence=holds"},
		{"ewd392 from start", "examples/ewd392.ring", `start "the ends agree": x[0] == x[n-1]`, 6, model.Central, "", invariants.FromStart, "convergence=holds"},
		{"ewd396 from start", "examples/ewd396.ring", `start "the bottom is 0": S[0] == 0`, 5, model.Central, "", invariants.FromStart, "convergence=holds"},
		{"ewd396 distributed", "examples/ewd396.ring", "", 4, model.Distributed, "", invariants.FromAll, ""},
		{"herman from all", "examples/herman.ring", "", 5, model.Synchronous, "", invariants.FromAll, "convergence=violated"},
		{"herman from one token", "examples/herman.ring", `start "one token": (count p: x[p] == x[p-1]) == 1`, 7, model.Synchronous, "", invariants.FromStart, "convergence=holds"},
		{"herman from three tokens", "examples/herman.ring", `start "three tokens": (count p: x[p] == x[p-1]) == 3`, 5, model.Synchronous, "", invariants.FromStart, "convergence=violated"},
		{"herman central, weak fairness, from start", "examples/herman.ring", `start "x[0] is 1": x[0] == 1`, 5, model.Central, invariants.WeakFairness, invariants.FromStart, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := ringSource(t, tc.path, tc.start)
			req := ringcheck.Request{Spec: spec, Params: map[string]int{"n": tc.n}, Daemon: tc.daemon, Fairness: tc.fairness, From: tc.from,
				Properties: props(invariants.Convergence)}
			explicit := run(t, req)
			req.Engine = ringcheck.EngineSymbolic
			symbolic := run(t, req)
			ev, sv := verdicts(explicit.Report), verdicts(symbolic.Report)
			if ev != sv || (tc.want != "" && ev != tc.want) {
				t.Fatalf("explicit %s, symbolic %s, want %s", ev, sv, tc.want)
			}
			if got, want := symbolic.Symbolic.Configurations.String(), fmt.Sprint(explicit.Report.Search.States); got != want {
				t.Errorf("the symbolic engine counts %s configurations, the explicit one %s", got, want)
			}
			eo, so := explicit.Report.Outcomes[0], symbolic.Report.Outcomes[0]
			if tc.from == invariants.FromAll && eo.Stuck != so.Stuck {
				t.Errorf("%s configurations do not converge for the explicit engine, %s for the symbolic one", eo.Stuck, so.Stuck)
			}
			if tc.from != invariants.FromStart {
				return
			}
			sys := explicit.System
			for _, o := range []invariants.Outcome{eo, so} {
				if o.Counterexample == nil {
					continue
				}
				if first := o.Counterexample.States[0]; !sys.Start.Holds(first) {
					t.Errorf("a counterexample from start starts where the start predicate does not hold")
				}
				tr := reports.NewTrace(sys, explicit.Values, string(o.Property), o.Counterexample)
				tr.Start, tr.Daemon = "start", tc.daemon.String()
				if err := ringcheck.Replay(spec, tr); err != nil {
					t.Errorf("the counterexample does not replay: %v", err)
				}
			}
		})
	}
}

// TestFromStartRules: a check from start needs a start predicate, and
// closure is not checked from start (it is about every legitimate
// configuration); both are fields errors naming From, found before
// anything runs. A start predicate that holds nowhere is an error.
func TestFromStartRules(t *testing.T) {
	convergence := props(invariants.Convergence)
	for _, tt := range []struct {
		name string
		req  ringcheck.Request
		msg  string
	}{
		{"no start predicate", ringcheck.Request{Spec: ringSpec(t, "examples/ewd392.ring"), Properties: convergence, From: invariants.FromStart},
			"From start: spec ewd392 declares no start predicate (start: EXPR in a .ring file)"},
		{"closure", ringcheck.Request{Spec: ringSource(t, "examples/ewd392.ring", "start: x[0]"), Properties: props(invariants.Closure), From: invariants.FromStart},
			"closure is about every legitimate configuration: check it From all, not From start"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.req.Workers = 1
			if err := tt.req.Validate(); err == nil || err.Error() != tt.msg {
				t.Errorf("got %v, want %q", err, tt.msg)
			}
		})
	}
	req := ringcheck.Request{Spec: ringSource(t, "examples/ewd392.ring", "start: x[0] && !x[0]"), Properties: convergence, From: invariants.FromStart, Workers: 1}
	if _, err := req.Run(context.Background()); err == nil || err.Error() != "spec ewd392: the start predicate: no configuration satisfies it" {
		t.Errorf("a start predicate that holds nowhere: %v", err)
	}
}
