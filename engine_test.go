package ringcheck_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ringcheck/ringcheck"
	"github.com/ringcheck/ringcheck/fields"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/lang"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/symbolic"
)

// ringSpec reads a .ring file of the repository.
func ringSpec(t *testing.T, path string) *specs.Spec {
	t.Helper()
	f, err := lang.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := f.Spec()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSymbolicEngineRules: what the symbolic engine cannot run is a
// fields error naming Engine, found before anything runs.
func TestSymbolicEngineRules(t *testing.T) {
	ring := ringSpec(t, "specs/ring/dijkstra.ring")
	// A spec written in Go builds a model but has no IR for the engine.
	inGo := *ring
	inGo.Name, inGo.Instance = "custom", nil
	convergence := props(invariants.Convergence)
	for _, tt := range []struct {
		name string
		req  ringcheck.Request
		msg  string
	}{
		{"a spec written in Go", ringcheck.Request{Spec: &inGo, Properties: convergence},
			"Engine symbolic: spec custom is written in Go; the engine reads specs written in the ring language (.ring files)"},
		{"safety", ringcheck.Request{Spec: ring, Properties: props(invariants.Safety)},
			"Engine symbolic: it decides closure and convergence, not safety"},
		{"from random", ringcheck.Request{Spec: ring, Properties: convergence, From: invariants.FromRandom},
			"Engine symbolic: it decides from every configuration or from start, not from random"},
		{"strong fairness, distributed daemon", ringcheck.Request{Spec: ring, Properties: convergence, Fairness: invariants.StrongFairness, Daemon: model.Distributed},
			"Engine symbolic: strong fairness under the distributed daemon: not supported by the symbolic engine (the central daemon only)"},
		{"weak fairness, distributed daemon", ringcheck.Request{Spec: ring, Properties: convergence, Fairness: invariants.WeakFairness, Daemon: model.Distributed},
			"Engine symbolic: weak fairness under the distributed daemon: not supported by the symbolic engine (the central daemon only)"},
		{"fingerprints", ringcheck.Request{Spec: ring, Properties: convergence, Fingerprints: true}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.req.Engine, tt.req.Workers = ringcheck.EngineSymbolic, 1
			err := tt.req.Validate()
			var fe *fields.Error
			if !errors.As(err, &fe) {
				t.Fatalf("%v: not a fields error", err)
			}
			if tt.msg == "" {
				return // another rule came first
			}
			if !slices.Equal(fe.Fields(), []string{"Engine"}) || err.Error() != tt.msg {
				t.Errorf("got %q on %q, want %q", err, fe.Fields(), tt.msg)
			}
		})
	}
}

// TestSymbolicOverflow: the request's overflow policy replaces the spec's
// in the symbolic encoding as in the explicit model, so both engines
// decide the same: counter flushing converges when a send to a full
// channel is dropped (the spec's policy) and not when it blocks; under
// the error policy, 208 configurations outside L have a step that
// overflows, which leaves the model, so convergence is unknown.
func TestSymbolicOverflow(t *testing.T) {
	spec := ringSpec(t, "specs/ring/counterflush.ring")
	block, fail := model.Block, model.Error
	for _, tt := range []struct {
		name     string
		overflow *model.Overflow
		want     invariants.Verdict
		reason   string
	}{
		{"the spec's policy", nil, invariants.Holds, ""},
		{"block", &block, invariants.Violated, "a configuration outside L has no enabled step"},
		{"error", &fail, invariants.Unknown, "from 208 configurations outside L a step overflows a channel whose policy is error (or leaves a variable's domain), so some executions leave the model"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, engine := range []ringcheck.Engine{ringcheck.EngineExplicit, ringcheck.EngineSymbolic} {
				req := ringcheck.Request{Spec: spec, Params: map[string]int{"n": 2, "Cmax": 1}, Engine: engine, Workers: 1,
					Properties: props(invariants.Convergence), Overflow: tt.overflow}
				res, err := req.Run(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				if o := res.Report.Outcomes[0]; o.Verdict != tt.want || !strings.HasPrefix(o.Reason, tt.reason) {
					t.Errorf("%s engine: convergence %s (%s), want %s (%s)", engine, o.Verdict, o.Reason, tt.want, tt.reason)
				}
				if st := res.Report.Stabilization; (st != nil) != (tt.want == invariants.Holds) {
					t.Errorf("%s engine: convergence %s with a stabilization report %v", engine, tt.want, st)
				}
			}
		})
	}
}

// TestFaultyCycle: on the rearmer, the only cycle outside L sends into a
// full channel at every turn. Under the error policy each of those sends
// leaves the model, so both engines leave convergence unknown, saying the
// cycle found takes such a step; where the message is dropped, the cycle
// violates convergence.
func TestFaultyCycle(t *testing.T) {
	spec := ringSpec(t, "symbolic/testdata/rearmer.ring")
	drop := model.Drop
	for _, tt := range []struct {
		overflow *model.Overflow
		want     invariants.Verdict
		reason   string
	}{
		{nil, invariants.Unknown, "from 4 configurations outside L a step overflows a channel whose policy is error (or leaves a variable's domain), so some executions leave the model; the execution found that never reaches L takes such a step"},
		{&drop, invariants.Violated, "cycle of configurations outside L"},
	} {
		for _, engine := range []ringcheck.Engine{ringcheck.EngineExplicit, ringcheck.EngineSymbolic} {
			req := ringcheck.Request{Spec: spec, Engine: engine, Workers: 1, Properties: props(invariants.Convergence), Overflow: tt.overflow}
			res, err := req.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if o := res.Report.Outcomes[0]; o.Verdict != tt.want || !strings.Contains(o.Reason, tt.reason) {
				t.Errorf("%s engine, overflow %v: convergence %s (%s), want %s (%s)", engine, tt.overflow, o.Verdict, o.Reason, tt.want, tt.reason)
			}
		}
	}
}

// TestEngineAuto: auto runs the explicit engine where it can hold the
// space, the symbolic one where it cannot (10^10 configurations); both
// decide the same on an instance both can.
func TestEngineAuto(t *testing.T) {
	ring := ringSpec(t, "specs/ring/dijkstra.ring")
	run := func(engine ringcheck.Engine, n int, limit time.Duration) *ringcheck.Result {
		t.Helper()
		req := ringcheck.Request{Spec: ring, Params: map[string]int{"n": n, "K": n}, Engine: engine, Workers: 1,
			Properties: props(invariants.Closure, invariants.Convergence), TimeLimit: limit}
		res, err := req.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	explicit, symbolic := run(ringcheck.EngineAuto, 5, 0), run(ringcheck.EngineSymbolic, 5, 0)
	if explicit.Engine != ringcheck.EngineExplicit || symbolic.Engine != ringcheck.EngineSymbolic || symbolic.Symbolic == nil {
		t.Fatalf("engines %s and %s", explicit.Engine, symbolic.Engine)
	}
	for i, o := range explicit.Report.Outcomes {
		if s := symbolic.Report.Outcomes[i]; s.Property != o.Property || s.Verdict != o.Verdict {
			t.Errorf("explicit %s %s, symbolic %s %s", o.Property, o.Verdict, s.Property, s.Verdict)
		}
	}
	e, s := explicit.Report.Stabilization, symbolic.Report.Stabilization
	if e == nil || s == nil || e.WorstSteps != s.WorstSteps || e.Configurations != s.Configurations || e.Legitimate != s.Legitimate {
		t.Errorf("stabilization: explicit %+v, symbolic %+v", e, s)
	}
	if s != nil && (s.Witness == nil || len(s.Witness.Steps) != s.WorstSteps) {
		t.Errorf("the symbolic worst case has no witness of %d steps", s.WorstSteps)
	}
	large := run(ringcheck.EngineAuto, 10, time.Millisecond)
	if large.Engine != ringcheck.EngineSymbolic {
		t.Errorf("auto on 10^10 configurations ran the %s engine", large.Engine)
	}
	if !large.Report.Unknown() {
		t.Errorf("a symbolic run stopped by its time limit decided: %+v", large.Report.Outcomes)
	}
}

// TestSymbolicRounds: with SymbolicRounds the symbolic engine reports the
// worst case in rounds; without, the note says they were not asked for;
// and a stop while it computes them (here Ctrl-C, at its first rounds
// iteration) keeps convergence decided and says where the rounds stopped.
func TestSymbolicRounds(t *testing.T) {
	ring := ringSpec(t, "specs/ring/dijkstra.ring")
	run := func(ctx context.Context, rounds bool, progress func(symbolic.Progress)) *ringcheck.Result {
		t.Helper()
		req := ringcheck.Request{Spec: ring, Params: map[string]int{"n": 5, "K": 5}, Properties: props(invariants.Closure, invariants.Convergence),
			Engine: ringcheck.EngineSymbolic, SymbolicRounds: rounds, SymbolicProgress: progress, Workers: 1}
		res, err := req.Run(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if o := res.Report.Outcomes[1]; o.Verdict != invariants.Holds {
			t.Fatalf("convergence %s (%s)", o.Verdict, o.Reason)
		}
		return res
	}
	st := run(context.Background(), true, nil).Report.Stabilization
	if !st.RoundsComputed || st.WorstRounds != 7 || st.WorstSteps != 24 {
		t.Errorf("with rounds: %+v, want 24 steps and 7 rounds", st)
	}
	st = run(context.Background(), false, nil).Report.Stabilization
	if st.RoundsComputed || st.RoundsNote != ringcheck.SymbolicRoundsNotAsked {
		t.Errorf("without rounds: %+v", st)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st = run(ctx, true, func(p symbolic.Progress) {
		if strings.HasPrefix(p.Phase, "rounds") {
			cancel()
		}
	}).Report.Stabilization
	if st.RoundsComputed || !strings.HasPrefix(st.RoundsNote, "the symbolic engine stopped (interrupted) in rounds, round 1") {
		t.Errorf("interrupted in the rounds: %+v", st)
	}
}
