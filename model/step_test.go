package model_test

import (
	"errors"
	"sort"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/model"
)

// flipRing: n processes on a unidirectional ring, each with x in 0..1. Every
// process may "set" x := 1 when x = 0 (two alternatives when choices = 2:
// x := 1 either way, labelled differently), and a process whose
// predecessor differs may "copy" it; with first set, only the first enabled
// action of a process fires.
func flipRing(t *testing.T, n int, d model.Daemon, choices int, first bool) (*model.System, model.VarID) {
	t.Helper()
	b := model.NewBuilder("flip", model.UniRing, n)
	b.Daemon(d)
	x := b.Var("x", model.IntRange(0, 1))
	b.Action(model.Action{
		Name: "set", Choices: choices,
		Guard:  func(c *model.Ctx) bool { return c.Get(x) == 0 },
		Effect: func(c *model.Ctx, _ int) { c.Set(x, 1) },
	})
	b.Action(model.Action{
		Name:   "copy",
		Guard:  func(c *model.Ctx) bool { return c.Get(x) != c.Read(c.Pred(), x) },
		Effect: func(c *model.Ctx, _ int) { c.Set(x, c.Read(c.Pred(), x)) },
	})
	if first {
		b.FirstEnabledOnly()
	}
	b.Initial(func(*model.System, *model.State) {})
	sys, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return sys, x
}

func successors(t *testing.T, sys *model.System, st *model.State) []string {
	t.Helper()
	var out []string
	ex := sys.NewExpander()
	n, err := ex.Expand(st, func(step *model.Step, next *model.State) bool {
		var vals []string
		for _, p := range sys.Decode(next).Processes {
			vals = append(vals, p.Vars[0].Text)
		}
		out = append(out, sys.Label(step)+"→"+strings.Join(vals, ""))
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != len(out) {
		t.Fatalf("Expand returned %d, yielded %d", n, len(out))
	}
	sort.Strings(out)
	return out
}

func TestDaemons(t *testing.T) {
	tests := []struct {
		name    string
		daemon  model.Daemon
		choices int
		first   bool
		x       []int
		want    []string
	}{
		{"central: one process per step", model.Central, 1, false, []int{0, 0, 0},
			[]string{"set→001", "set→010", "set→100"}},
		{"distributed: every non-empty subset", model.Distributed, 1, false, []int{0, 0, 0},
			[]string{"p0:set p1:set p2:set→111", "p0:set p1:set→110", "p0:set p2:set→101",
				"p1:set p2:set→011", "set→001", "set→010", "set→100"}},
		{"synchronous: all enabled at once", model.Synchronous, 1, false, []int{0, 0, 0},
			[]string{"p0:set p1:set p2:set→111"}},
		{"central: alternatives are separate steps", model.Central, 2, false, []int{1, 0, 1},
			[]string{"copy→100", "copy→111", "set(0)→111", "set(1)→111"}},
		// p1 may set or copy; p2 (x=1, predecessor 0) may copy.
		{"central: both actions enabled", model.Central, 1, false, []int{1, 0, 1},
			[]string{"copy→100", "copy→111", "set→111"}},
		{"first enabled action only", model.Central, 1, true, []int{1, 0, 1},
			[]string{"copy→100", "set→111"}},
		// Under the synchronous daemon every process reads the configuration
		// before the step: copying the predecessor rotates the ring.
		{"synchronous reads the old configuration", model.Synchronous, 1, true, []int{1, 1, 0},
			[]string{"p0:copy p2:set→011"}},
		{"distributed with alternatives", model.Distributed, 2, true, []int{1, 1, 0},
			[]string{"copy→010", "p0:copy p2:set(0)→011", "p0:copy p2:set(1)→011", "set(0)→111", "set(1)→111"}},
		{"no enabled process: no successor", model.Central, 1, false, []int{1, 1, 1}, nil},
		{"no enabled process, synchronous", model.Synchronous, 1, false, []int{1, 1, 1}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sys, x := flipRing(t, 3, tt.daemon, tt.choices, tt.first)
			st := sys.NewState()
			for p, v := range tt.x {
				st.Set(p, x, v)
			}
			got := successors(t, sys, st)
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Fatalf("successors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// sender: process 0 sends a message to process 1 whenever it likes; the
// channel has capacity 1 and the given overflow policy.
func sender(t *testing.T, policy model.Overflow) (*model.System, model.MsgType) {
	t.Helper()
	b := model.NewBuilder("sender", model.UniRing, 2)
	m := b.Message("M", model.Var{Name: "v", Domain: model.IntRange(0, 2)})
	b.Channel(model.Channel{From: 0, To: 1, Capacity: 1, Overflow: policy})
	b.Action(model.Action{
		Name:   "send",
		Guard:  func(*model.Ctx) bool { return true },
		Effect: func(c *model.Ctx, _ int) { c.Send(c.Out(1), c.Msg(m, 2)) },
	}, 0)
	b.Action(model.Action{
		Name:  "recv",
		Guard: func(c *model.Ctx) bool { return c.HeadIs(c.In(0), m) },
		Effect: func(c *model.Ctx, _ int) {
			if got := c.Field(c.Receive(c.In(0)), 0); got != 2 {
				panic("field lost")
			}
		},
	}, 1)
	b.Initial(func(*model.System, *model.State) {})
	sys, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return sys, m
}

func TestOverflowPolicies(t *testing.T) {
	tests := []struct {
		policy   model.Overflow
		wantFull []string // successors of the state with a full channel
		overflow bool
	}{
		{model.Block, []string{"recv"}, false},
		{model.Drop, []string{"recv", "send"}, false},
		{model.Error, []string{"recv", "send"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.policy.String(), func(t *testing.T) {
			sys, m := sender(t, tt.policy)
			full := sys.NewState()
			full.Push(0, sys.Msg(m, 2))
			var got []string
			overflowed := false
			_, err := sys.NewExpander().Expand(full, func(step *model.Step, next *model.State) bool {
				got = append(got, sys.Label(step))
				if step.Overflow {
					overflowed = true
					if next.Len(0) != 1 {
						t.Errorf("an overflowing send changed the channel: %d messages", next.Len(0))
					}
				}
				return true
			})
			if err != nil {
				t.Fatal(err)
			}
			sort.Strings(got)
			if strings.Join(got, ",") != strings.Join(tt.wantFull, ",") || overflowed != tt.overflow {
				t.Fatalf("got %v overflow=%v, want %v overflow=%v", got, overflowed, tt.wantFull, tt.overflow)
			}
		})
	}
}

func TestFIFOOrder(t *testing.T) {
	b := model.NewBuilder("fifo", model.UniRing, 2)
	m := b.Message("M", model.Var{Name: "v", Domain: model.IntRange(0, 3)})
	b.Channel(model.Channel{From: 0, To: 1, Capacity: 3})
	b.Action(model.Action{Name: "a", Guard: func(*model.Ctx) bool { return false }, Effect: func(*model.Ctx, int) {}})
	b.Initial(func(*model.System, *model.State) {})
	sys, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	st := sys.NewState()
	for v := 1; v <= 3; v++ {
		if !st.Push(0, sys.Msg(m, v)) {
			t.Fatalf("push %d refused", v)
		}
	}
	if st.Push(0, sys.Msg(m, 0)) {
		t.Fatal("push beyond capacity accepted")
	}
	for v := 1; v <= 3; v++ {
		got, ok := st.Pop(0)
		if !ok || sys.Field(got, 0) != v {
			t.Fatalf("pop %d: got %d ok=%v", v, sys.Field(got, 0), ok)
		}
	}
	if _, ok := st.Pop(0); ok {
		t.Fatal("pop from empty channel succeeded")
	}
}

func TestSpecFaultsAreErrors(t *testing.T) {
	tests := []struct {
		name   string
		effect func(x, y model.VarID) func(*model.Ctx, int)
		guard  func(x, y model.VarID) func(*model.Ctx) bool
		want   string
	}{
		{"set outside the domain",
			func(x, _ model.VarID) func(*model.Ctx, int) { return func(c *model.Ctx, _ int) { c.Set(x, 7) } },
			func(_, _ model.VarID) func(*model.Ctx) bool { return func(*model.Ctx) bool { return true } },
			"outside 0..1"},
		{"read of a process not linked",
			func(_, _ model.VarID) func(*model.Ctx, int) { return func(*model.Ctx, int) {} },
			func(x, _ model.VarID) func(*model.Ctx) bool {
				return func(c *model.Ctx) bool { return c.Read(c.Succ(), x) == 0 }
			},
			"fault in a guard or effect"},
		{"read of an undeclared variable",
			func(_, _ model.VarID) func(*model.Ctx, int) { return func(*model.Ctx, int) {} },
			func(_, y model.VarID) func(*model.Ctx) bool {
				return func(c *model.Ctx) bool { return c.Get(y) == 0 }
			},
			"fault in a guard or effect"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := model.NewBuilder("faulty", model.UniRing, 3)
			x := b.Var("x", model.IntRange(0, 1))
			y := b.Var("y", model.IntRange(0, 1), 0)
			b.Action(model.Action{Name: "a", Guard: tt.guard(x, y), Effect: tt.effect(x, y)}, 1)
			b.Initial(func(*model.System, *model.State) {})
			sys, err := b.Build()
			if err != nil {
				t.Fatal(err)
			}
			_, err = sys.NewExpander().Expand(sys.NewState(), func(*model.Step, *model.State) bool { return true })
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// TestFirstEnabledOnlyLeavesTheEnvironmentOut: under FirstEnabledOnly the
// first enabled protocol or timeout action hides the later ones, but an
// environment action fires whenever its guard holds, wherever it is
// declared; Expand, Count and the distributed daemon agree.
func TestFirstEnabledOnlyLeavesTheEnvironmentOut(t *testing.T) {
	for _, d := range []model.Daemon{model.Central, model.Distributed} {
		b := model.NewBuilder("first", model.UniRing, 2)
		b.Daemon(d)
		x := b.Var("x", model.IntRange(0, 3))
		always := func(*model.Ctx) bool { return true }
		set := func(v int) func(*model.Ctx, int) { return func(c *model.Ctx, _ int) { c.Set(x, v) } }
		b.Action(model.Action{Name: "request", Kind: model.Environment, Guard: always, Effect: set(1)}, 0)
		b.Action(model.Action{Name: "a", Guard: always, Effect: set(2)}, 0)
		b.Action(model.Action{Name: "leave", Kind: model.Environment, Guard: always, Effect: set(3)}, 0)
		b.Action(model.Action{Name: "b", Guard: always, Effect: set(0)}, 0)
		b.FirstEnabledOnly(0)
		b.Initial(func(*model.System, *model.State) {})
		sys, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		st := sys.Initial()[0]
		got := successors(t, sys, st)
		want := []string{"a→20", "leave→30", "request→10"}
		if strings.Join(got, " | ") != strings.Join(want, " | ") {
			t.Errorf("%v: successors %v, want %v", d, got, want)
		}
		if n, _, err := sys.NewExpander().Count(st); err != nil || n != len(want) {
			t.Errorf("%v: Count = %d (%v), want %d", d, n, err, len(want))
		}
	}
}

// TestMemoLastsOneProcessOfOneConfiguration checks that a value kept with
// Ctx.SetMemo is seen by the later guards and effects of the same process
// in the same configuration, and by no other process or configuration.
func TestMemoLastsOneProcessOfOneConfiguration(t *testing.T) {
	b := model.NewBuilder("memo", model.UniRing, 3)
	b.MemoSlots(1)
	x := b.Var("x", model.IntRange(0, 9))
	var fresh, kept int
	// first stores the process's x + 1; second must find it.
	b.Action(model.Action{
		Name: "first",
		Guard: func(c *model.Ctx) bool {
			if _, ok := c.Memo(0); ok {
				t.Errorf("process %d finds a value it did not store", c.P)
			}
			fresh++
			c.SetMemo(0, c.Get(x)+1)
			return false
		},
		Effect: func(*model.Ctx, int) {},
	})
	b.Action(model.Action{
		Name: "second",
		Guard: func(c *model.Ctx) bool {
			v, ok := c.Memo(0)
			if !ok || v != c.Get(x)+1 {
				t.Errorf("process %d finds (%d, %v), want (%d, true)", c.P, v, ok, c.Get(x)+1)
			}
			kept++
			return true
		},
		Effect: func(c *model.Ctx, _ int) {
			if v, ok := c.Memo(0); !ok || v != c.Get(x)+1 {
				t.Errorf("the effect of process %d finds (%d, %v)", c.P, v, ok)
			}
			c.Set(x, (c.Get(x)+1)%10)
		},
	})
	b.Initial(func(sys *model.System, s *model.State) {
		for p := range 3 {
			s.Set(p, x, p)
		}
	})
	sys, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	ex := sys.NewExpander()
	s := sys.Initial()[0].Clone()
	for range 4 {
		var next *model.State
		if _, err := ex.Expand(s, func(_ *model.Step, succ *model.State) bool {
			next = succ.Clone()
			return true
		}); err != nil {
			t.Fatal(err)
		}
		s = next
	}
	if fresh != 12 || kept != 12 {
		t.Fatalf("%d fresh and %d kept guards, want 12 and 12", fresh, kept)
	}
}

// TestGuardFaultStopsEveryExpansion: a fault reported by a guard that
// then says false (a read it could not make) stops Expand and Count
// alike, with the fault, whatever the daemon. (Enabled stops at a
// process's first enabled action, so it may not run that guard.)
func TestGuardFaultStopsEveryExpansion(t *testing.T) {
	fault := errors.New("a read the guard could not make")
	for _, d := range []model.Daemon{model.Central, model.Distributed, model.Synchronous} {
		b := model.NewBuilder("guardfault", model.UniRing, 2)
		x := b.Var("x", model.IntRange(0, 1))
		// The last guard looked at fails: no effect runs after it.
		b.Action(model.Action{Name: "ok", Guard: func(c *model.Ctx) bool { return c.Get(x) == 0 },
			Effect: func(c *model.Ctx, _ int) { c.Set(x, 1) }}, 0, 1)
		b.Action(model.Action{Name: "bad", Guard: func(c *model.Ctx) bool { c.Fail(fault); return false },
			Effect: func(*model.Ctx, int) {}}, 1)
		b.Initial(func(*model.System, *model.State) {})
		sys, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		if sys, err = sys.WithDaemon(d); err != nil {
			t.Fatal(err)
		}
		st, ex := sys.Initial()[0], sys.NewExpander()
		if _, err := ex.Expand(st, func(*model.Step, *model.State) bool { return true }); !errors.Is(err, fault) {
			t.Errorf("%v: Expand: %v, want the fault", d, err)
		}
		if _, _, err := ex.Count(st); !errors.Is(err, fault) {
			t.Errorf("%v: Count: %v, want the fault", d, err)
		}
	}
}
