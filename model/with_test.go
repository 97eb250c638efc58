package model_test

import (
	"testing"

	"github.com/ringcheck/ringcheck/model"
)

// flip is a state-reading ring of two processes that both may always flip
// their bit: under the central daemon a step moves one process, under the
// distributed daemon one or both, under the synchronous daemon both.
func flip(t *testing.T) *model.System {
	t.Helper()
	b := model.NewBuilder("flip", model.UniRing, 2)
	x := b.Var("x", model.Bool())
	b.Action(model.Action{Name: "flip", Guard: func(*model.Ctx) bool { return true },
		Effect: func(c *model.Ctx, _ int) { c.Set(x, 1-c.Get(x)) }})
	b.Initial(func(*model.System, *model.State) {})
	sys, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

func TestWithDaemonSchedulesSteps(t *testing.T) {
	tests := []struct {
		daemon model.Daemon
		steps  int // steps from the initial configuration
	}{
		{model.Central, 2},
		{model.Distributed, 3},
		{model.Synchronous, 1},
	}
	base := flip(t)
	for _, tt := range tests {
		t.Run(tt.daemon.String(), func(t *testing.T) {
			sys, err := base.WithDaemon(tt.daemon)
			if err != nil {
				t.Fatal(err)
			}
			if sys.Daemon != tt.daemon || base.Daemon != model.Central {
				t.Fatalf("daemon %s, base %s: want %s and central", sys.Daemon, base.Daemon, tt.daemon)
			}
			n, _, err := sys.NewExpander().Count(sys.Initial()[0])
			if err != nil {
				t.Fatal(err)
			}
			if n != tt.steps {
				t.Fatalf("%d steps from the initial configuration, want %d", n, tt.steps)
			}
		})
	}
}

func TestWithDaemonRejectsChannels(t *testing.T) {
	sys := tiny(t)
	if _, err := sys.WithDaemon(model.Central); err != nil {
		t.Fatalf("central daemon on channels: %v", err)
	}
	for _, d := range []model.Daemon{model.Distributed, model.Synchronous, model.Daemon(7)} {
		if _, err := sys.WithDaemon(d); err == nil {
			t.Errorf("%s daemon on a system with channels: accepted", d)
		}
	}
}

func TestWithOverflowReplacesEveryPolicy(t *testing.T) {
	base := tiny(t)
	for _, o := range []model.Overflow{model.Block, model.Drop, model.Error} {
		sys, err := base.WithOverflow(o)
		if err != nil {
			t.Fatal(err)
		}
		for i, ch := range sys.Channels {
			if ch.Overflow != o {
				t.Errorf("%s: channel %d has policy %s", o, i, ch.Overflow)
			}
			if base.Channels[i].Overflow != model.Drop {
				t.Errorf("%s: the original system's channel %d changed to %s", o, i, base.Channels[i].Overflow)
			}
		}
	}
	if _, err := base.WithOverflow(model.Overflow(9)); err == nil {
		t.Error("unknown policy accepted")
	}
}
