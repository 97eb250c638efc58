package klnaive_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/spectest"
)

// vars are the handles of the variables and message of kl-naive, by the
// names specs/ring/kl-naive.ring declares.
type vars struct {
	Need, Cnt model.VarID
	Token     model.MsgType
}

// build returns the catalogue's kl-naive (specs/ring/kl-naive.ring) for n,
// L and K, with channels that never fill (Cmax=0).
func build(t *testing.T, n, l, k int) (*model.System, vars) {
	t.Helper()
	sys := spectest.Build(t, "kl-naive", specs.Values{"n": n, "L": l, "K": k, "Cmax": 0})
	return sys, vars{Need: spectest.Var(t, sys, "need"), Cnt: spectest.Var(t, sys, "cnt"), Token: spectest.MsgType(t, sys, "Token")}
}

// TestInitialConfiguration pins the choice the paper leaves open: every
// process idle, token j on the link into process j mod n.
func TestInitialConfiguration(t *testing.T) {
	sys, v := build(t, 3, 5, 2)
	init := sys.Initial()
	if len(init) != 1 {
		t.Fatalf("%d initial configurations", len(init))
	}
	st := init[0]
	want := []int{2, 2, 1} // tokens into processes 0, 1, 2
	for p := 0; p < 3; p++ {
		if st.Get(p, v.Need) != 0 || st.Get(p, v.Cnt) != 0 {
			t.Errorf("process %d is not idle", p)
		}
		if got := st.Len(sys.ChanBetween((p+2)%3, p)); got != want[p] {
			t.Errorf("channel into %d holds %d tokens, want %d", p, got, want[p])
		}
	}
}

func checkDeadlock(t *testing.T, sys *model.System, workers int) *invariants.Outcome {
	t.Helper()
	rep, err := invariants.Check(context.Background(), sys, invariants.Options{
		Properties: []invariants.Property{invariants.Deadlock},
		From:       invariants.FromInit,
		Search:     explore.Options{Workers: workers},
	})
	if err != nil {
		t.Fatal(err)
	}
	return &rep.Outcomes[0]
}

// TestFigure1Deadlock reproduces the paper's Figure 1: n=5, L=5, K=3. The
// shortest deadlock has each process request and collect the token on its
// incoming link: 10 steps, after which every process holds one token of
// the two it needs and every channel is empty.
func TestFigure1Deadlock(t *testing.T) {
	sys, v := build(t, 5, 5, 3)
	o := checkDeadlock(t, sys, 2)
	if o.Verdict != invariants.Violated {
		t.Fatalf("deadlock %s, want violated", o.Verdict)
	}
	ce := o.Counterexample
	if len(ce.Steps) != 10 {
		t.Errorf("deadlock trace has %d steps, want the shortest, 10", len(ce.Steps))
	}
	replay(t, sys, ce)
	last := ce.States[len(ce.States)-1]
	for p := 0; p < 5; p++ {
		need, cnt := last.Get(p, v.Need), last.Get(p, v.Cnt)
		if !(0 < cnt && cnt < need) {
			t.Errorf("process %d: need=%d cnt=%d, want some but not all tokens", p, need, cnt)
		}
		if last.Len(model.ChanID(p)) != 0 {
			t.Errorf("channel %d is not empty", p)
		}
	}
	if n, _ := sys.NewExpander().Expand(last, func(*model.Step, *model.State) bool { return true }); n != 0 {
		t.Errorf("the last state has %d successors", n)
	}
}

// replay checks that the counterexample is a real execution: it starts in
// an initial configuration and every step is enabled and leads to the next
// state.
func replay(t *testing.T, sys *model.System, ce *invariants.Counterexample) {
	t.Helper()
	isInit := false
	for _, s := range sys.Initial() {
		isInit = isInit || s.Equal(ce.States[0])
	}
	if !isInit {
		t.Fatal("the trace does not start in an initial configuration")
	}
	if err := ce.Replay(sys); err != nil {
		t.Fatal(err)
	}
}

// TestDeterministicAcrossWorkers: the counterexample does not depend on
// the number of workers.
func TestDeterministicAcrossWorkers(t *testing.T) {
	sys, _ := build(t, 4, 4, 2)
	one, two := checkDeadlock(t, sys, 1), checkDeadlock(t, sys, 2)
	if one.Verdict != invariants.Violated || !reflect.DeepEqual(one.Counterexample.Steps, two.Counterexample.Steps) {
		t.Fatalf("workers=1 and workers=2 disagree: %v / %v", one.Counterexample.Steps, two.Counterexample.Steps)
	}
}

// TestNoDeadlockWithOneUnit: with K=1 no process ever waits for a second
// token, so the naive protocol is deadlock-free; tokens are conserved, so
// safety holds. Both verdicts come from a complete search.
func TestNoDeadlockWithOneUnit(t *testing.T) {
	sys, _ := build(t, 3, 2, 1)
	rep, err := invariants.Check(context.Background(), sys, invariants.Options{
		Properties: []invariants.Property{invariants.Safety, invariants.Deadlock},
		From:       invariants.FromInit,
		Search:     explore.Options{Workers: 2},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range rep.Outcomes {
		if o.Verdict != invariants.Holds {
			t.Errorf("%s %s, want holds", o.Property, o.Verdict)
		}
	}
}

func TestBoundsGiveUnknown(t *testing.T) {
	sys, _ := build(t, 5, 5, 3)
	for _, opts := range []explore.Options{
		{MaxDepth: 3},
		{MaxStates: 100},
	} {
		rep, err := invariants.Check(context.Background(), sys, invariants.Options{
			Properties: []invariants.Property{invariants.Safety, invariants.Deadlock},
			From:       invariants.FromInit,
			Search:     opts,
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range rep.Outcomes {
			if o.Verdict != invariants.Unknown {
				t.Errorf("%+v: %s %s, want unknown", opts, o.Property, o.Verdict)
			}
		}
		if rep.Search.Complete() {
			t.Errorf("%+v: search reported complete", opts)
		}
	}
}

// TestDepthBoundThatIsNotReached: a depth bound beyond the deepest state
// leaves the search complete, so verdicts may hold.
func TestDepthBoundThatIsNotReached(t *testing.T) {
	sys, _ := build(t, 2, 1, 1)
	rep, err := invariants.Check(context.Background(), sys, invariants.Options{
		Properties: []invariants.Property{invariants.Safety},
		From:       invariants.FromInit,
		Search:     explore.Options{MaxDepth: 1000},
	})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Search.Complete() || rep.Outcomes[0].Verdict != invariants.Holds {
		t.Fatalf("complete=%v verdict %s", rep.Search.Complete(), rep.Outcomes[0].Verdict)
	}
}

// TestInterruptedSearchIsUnknown: a cancelled search (Ctrl-C) reports
// unknown, never holds.
func TestInterruptedSearchIsUnknown(t *testing.T) {
	sys, _ := build(t, 5, 5, 3)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rep, err := invariants.Check(ctx, sys, invariants.Options{
		Properties: []invariants.Property{invariants.Safety},
		From:       invariants.FromInit,
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Search.Stop != explore.Interrupted || rep.Outcomes[0].Verdict != invariants.Unknown {
		t.Fatalf("stop %v verdict %s", rep.Search.Stop, rep.Outcomes[0].Verdict)
	}
}
