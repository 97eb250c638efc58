package invariants_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
)

// resetSize is the resetter's number of configurations: more than one
// chunk of the walks over every configuration, which look at their
// context before each.
const resetSize = 1 << 15

// resetter: one process with x in 0..resetSize-1 resets x to 0, which is
// L, in one step (and one round). Its guard calls third the third time it
// is evaluated in the configuration x = 2: with one worker, the sweep and
// the components search evaluate it once each, and the third is in the
// computation of the worst case in rounds.
func resetter(t *testing.T, third func()) *model.System {
	t.Helper()
	b := model.NewBuilder("resetter", model.UniRing, 1)
	x := b.Var("x", model.IntRange(0, resetSize-1))
	var seen atomic.Int32
	b.Action(model.Action{
		Name: "reset",
		Guard: func(c *model.Ctx) bool {
			if c.Get(x) == 2 && seen.Add(1) == 3 {
				third()
			}
			return c.Get(x) > 0
		},
		Effect: func(c *model.Ctx, _ int) { c.Set(x, 0) },
	})
	b.Legitimate(model.Predicate{Name: "zero", Holds: func(s *model.State) bool { return s.Get(0, x) == 0 }})
	b.Initial(func(*model.System, *model.State) {})
	sys, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// TestRoundsStoppedKeepTheVerdicts: a limit (Ctrl-C, the time limit) that
// stops the worst case in rounds, after closure and convergence over every
// configuration were decided, keeps both verdicts and the worst case in
// steps with its witness; the rounds are not computed, with a note that
// says the limit stopped them, and the search is marked as stopped by it,
// so that the report says it was cut.
func TestRoundsStoppedKeepTheVerdicts(t *testing.T) {
	const limit = 500 * time.Millisecond
	for _, tc := range []struct {
		name     string
		timeOut  bool
		wantStop explore.StopReason
	}{
		{"interrupted", false, explore.Interrupted},
		{"time limit", true, explore.TimeBound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, lim := newLimiter(tc.timeOut, limit)
			defer lim.cancel()
			sys := resetter(t, lim.hit)
			opts := invariants.Options{Properties: []invariants.Property{invariants.Closure, invariants.Convergence}, From: invariants.FromAll,
				Search: explore.Options{Workers: 1}}
			if tc.timeOut {
				opts.Search.TimeLimit = limit
			}
			rep, err := invariants.Check(ctx, sys, opts)
			if err != nil {
				t.Fatal(err)
			}
			if !lim.reached.Load() {
				t.Skipf("the analysis did not reach the rounds within the %s limit", limit)
			}
			for _, o := range rep.Outcomes {
				if o.Verdict != invariants.Holds {
					t.Errorf("%s %s (%s), want holds", o.Property, o.Verdict, o.Reason)
				}
			}
			st := rep.Stabilization
			if st == nil {
				t.Fatal("no stabilization figures")
			}
			wantNote := "the explicit engine stopped (" + tc.wantStop.String() + ") in the worst case in rounds"
			if st.WorstSteps != 1 || st.Witness == nil || len(st.Witness.Steps) != 1 || st.RoundsComputed || st.RoundsNote != wantNote {
				t.Errorf("stabilization %+v, want 1 step with its witness and the note %q", st, wantNote)
			}
			if rep.Search.Stop != tc.wantStop || !rep.Unknown() || rep.Search.States != resetSize {
				t.Errorf("the search stopped on %v (unknown %v) after %d configurations, want %v after %d", rep.Search.Stop, rep.Unknown(), rep.Search.States, tc.wantStop, resetSize)
			}
			if n := len(rep.Phases); n == 0 || !strings.Contains(rep.Phases[n-1].Name, "rounds") || rep.Phases[n-1].Done != 0 {
				t.Errorf("phases %+v, want the rounds last and not done", rep.Phases)
			}
		})
	}
}

// limiter stops a check where a test model calls hit: with timeOut it
// sleeps past the time limit the check was given, otherwise it cancels the
// check's context (Ctrl-C). reached reports whether the model called it.
type limiter struct {
	timeOut bool
	limit   time.Duration
	began   time.Time
	cancel  context.CancelFunc
	reached atomic.Bool
}

// newLimiter returns the context a check runs under and its limiter.
func newLimiter(timeOut bool, limit time.Duration) (context.Context, *limiter) {
	ctx, cancel := context.WithCancel(context.Background())
	return ctx, &limiter{timeOut: timeOut, limit: limit, began: time.Now(), cancel: cancel}
}

// hit is where the limit is to stop the check.
func (l *limiter) hit() {
	l.reached.Store(true)
	if l.timeOut {
		time.Sleep(time.Until(l.began.Add(l.limit + 100*time.Millisecond)))
	} else {
		l.cancel()
	}
}
