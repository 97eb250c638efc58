package replay_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/internal/testsys"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/replay"
	"github.com/ringcheck/ringcheck/reports"
	"github.com/ringcheck/ringcheck/runs"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/spectest"
)

// gridTrace is the path (0,0) → (1,0) → (1,1) → (2,1) → (2,2) of
// testsys.Grid(t, 3), to its deadlock, as a trace.
func gridTrace(t *testing.T) (*model.System, *reports.Trace) {
	sys, a, b := testsys.Grid(t, 3)
	var states []*model.State
	for _, ab := range [][2]int{{0, 0}, {1, 0}, {1, 1}, {2, 1}, {2, 2}} {
		st := sys.Initial()[0].Clone()
		st.Set(0, a, ab[0])
		st.Set(0, b, ab[1])
		states = append(states, st)
	}
	steps, err := sys.StepsThrough(states, false)
	if err != nil {
		t.Fatal(err)
	}
	ce := &invariants.Counterexample{Kind: invariants.Path, States: states, Steps: steps}
	return sys, reports.NewTrace(sys, nil, "deadlock", ce)
}

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name   string
		mutate func(tr *reports.Trace)
		want   string // "" for a trace that replays
	}{
		{"the path as found", func(*reports.Trace) {}, ""},
		{"a value outside its domain", func(tr *reports.Trace) { tr.States[1].Processes[0].Vars[0].Value = "7" }, "state 1: process 0: a = 7 is outside 0..2"},
		{"an action the spec lacks", func(tr *reports.Trace) { tr.Steps[0].Action = "z" }, "step 1 (from state 0): z by process 0 is not an enabled step"},
		{"a step to another state", func(tr *reports.Trace) { tr.Steps[1].Action = "a" }, "step 2 (from state 1): a by process 0 does not lead to the next state"},
		{"a first state that is not initial", func(tr *reports.Trace) {
			tr.States, tr.Steps = tr.States[1:], tr.Steps[1:]
		}, "state 0: not an initial configuration of grid"},
		{"a first state said to be given", func(tr *reports.Trace) {
			tr.States, tr.Steps, tr.Start = tr.States[1:], tr.Steps[1:], "given"
		}, ""},
		{"a lasso that does not close", func(tr *reports.Trace) {
			zero := 0
			tr.States, tr.Steps = tr.States[:3], tr.Steps[:2]
			tr.Kind, tr.LoopStart = "lasso", &zero
			tr.Steps = append(tr.Steps, reports.TraceStep{Processes: []int{0}, Action: "a"})
		}, "step 3 (from state 2): a by process 0 does not lead to the next state"},
		{"another spec", func(tr *reports.Trace) { tr.Spec = "other" }, "a trace of other, not of grid"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys, tr := gridTrace(t)
			tc.mutate(tr)
			err := replay.Check(sys, tr)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("does not replay: %v", err)
			case tc.want == "":
			case err == nil:
				t.Fatalf("replays; want %q", tc.want)
			case !strings.Contains(err.Error(), tc.want):
				t.Fatalf("%v; want %q", err, tc.want)
			}
			var f *replay.Failure
			if err != nil && !errors.As(err, &f) {
				t.Fatalf("%v is not a *replay.Failure", err)
			}
		})
	}
}

// TestEmptyChannelsStart: a trace that says it starts from a
// configuration whose channels are empty replays only if they are.
func TestEmptyChannelsStart(t *testing.T) {
	b := model.NewBuilder("pinger", model.UniRing, 2)
	ping := b.Message("Ping")
	b.LinkChannels(2, model.Drop, ping)
	var sys *model.System
	b.Action(model.Action{Name: "ping", Guard: func(*model.Ctx) bool { return true },
		Effect: func(c *model.Ctx, _ int) { c.Send(c.Out((c.P+1)%2), sys.Msg(ping)) }}, 0)
	b.Initial(func(*model.System, *model.State) {})
	b.Legitimate(model.Predicate{Name: "never", Holds: func(*model.State) bool { return false }})
	var err error
	if sys, err = b.Build(); err != nil {
		t.Fatal(err)
	}
	s0 := sys.NewState()
	s1 := s0.Clone()
	s1.Push(sys.ChanBetween(0, 1), sys.Msg(ping))
	s2 := s1.Clone()
	s2.Push(sys.ChanBetween(0, 1), sys.Msg(ping))
	for _, tc := range []struct {
		name   string
		states []*model.State
		want   string
	}{
		{"empty channels", []*model.State{s0, s1, s2}, ""},
		{"a message in a channel", []*model.State{s1, s2}, "channel 0→1 holds 1 messages"},
	} {
		// A lasso whose loop pings a full channel: the message is lost,
		// and the configuration stays.
		last := tc.states[len(tc.states)-1]
		steps, err := sys.StepsThrough(append(slices.Clone(tc.states), last), false)
		if err != nil {
			t.Fatal(err)
		}
		tr := reports.NewTrace(sys, nil, "convergence", &invariants.Counterexample{Kind: invariants.Lasso, States: tc.states, Steps: steps, LoopStart: len(tc.states) - 1})
		tr.Start = "empty-channels"
		err = replay.Check(sys, tr)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestRounds: the rounds a trace claims are checked against the round
// model: the slowest of Dijkstra's runs replays with its rounds, in its
// order and with no order given; merged into one round, or with the
// order of the other sweep, it does not.
func TestRounds(t *testing.T) {
	sys := spectest.Build(t, "dijkstra", specs.Values{"n": 4, "K": 4})
	res, err := runs.SearchRounds(context.Background(), sys, runs.RoundOptions{Runs: 50, Seed: 3, MaxRounds: 50, Order: runs.Backward}, sys.Legitimate.Holds)
	if err != nil {
		t.Fatal(err)
	}
	w := res.Witness
	if w == nil || len(w.RoundEnds) < 2 {
		t.Fatalf("witness %+v: want one of two rounds or more", w)
	}
	for _, tc := range []struct {
		name   string
		mutate func(tr *reports.Trace)
		want   string
	}{
		{"its rounds, backward", func(*reports.Trace) {}, ""},
		{"no order", func(tr *reports.Trace) { tr.Order = "" }, ""},
		{"one round", func(tr *reports.Trace) { tr.RoundEnds = tr.RoundEnds[len(tr.RoundEnds)-1:] }, "not an execution in rounds"},
		{"an order it did not run in", func(tr *reports.Trace) { tr.Order = "sideways" }, `"order"`},
	} {
		tr := reports.NewTrace(sys, nil, "stabilization", &invariants.Counterexample{Kind: invariants.Path, States: w.States, Steps: w.Steps})
		tr.Start, tr.RoundEnds, tr.Order = "random", w.RoundEnds, w.Order.String()
		tc.mutate(tr)
		err := replay.Check(sys, tr)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}
