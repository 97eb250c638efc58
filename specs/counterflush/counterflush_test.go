package counterflush_test

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/spectest"
)

// vars are the handles of counter flushing's variable, message and
// channels, by the names specs/ring/counterflush.ring declares.
type vars struct {
	// C is every process's counter.
	C model.VarID
	// Token is the only message type; its field 0 is the counter value.
	Token model.MsgType
	// Out[i] is the channel from process i to its successor.
	Out []model.ChanID
	// M is the counter domain's size, n(Cmax+1).
	M int
}

// build returns the catalogue's counterflush (specs/ring/counterflush.ring)
// for n and Cmax; overflow, if given, replaces every channel's policy, as
// --overflow does.
func build(t *testing.T, n, cmax int, overflow ...model.Overflow) (*model.System, vars) {
	t.Helper()
	sys := spectest.Build(t, "counterflush", specs.Values{"n": n, "Cmax": cmax})
	v := vars{C: spectest.Var(t, sys, "C"), Token: spectest.MsgType(t, sys, "Token"), M: n * (cmax + 1)}
	for i := range n {
		v.Out = append(v.Out, sys.ChanBetween(i, (i+1)%n))
	}
	if len(overflow) > 0 {
		var err error
		if sys, err = sys.WithOverflow(overflow[0]); err != nil {
			t.Fatal(err)
		}
	}
	return sys, v
}

// config builds a configuration: c[i] is process i's counter, chans[i] the
// values carried by the channel from i to i+1, head first.
func config(t *testing.T, sys *model.System, v vars, c []int, chans [][]int) *model.State {
	t.Helper()
	s := sys.NewState()
	for i, val := range c {
		s.Set(i, v.C, val)
	}
	for i, msgs := range chans {
		for _, val := range msgs {
			if !s.Push(v.Out[i], sys.Msg(v.Token, val)) {
				t.Fatalf("channel %d→%d is full", i, (i+1)%len(c))
			}
		}
	}
	if err := sys.Validate(s); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestDomainAndChannels pins the counter domain n(Cmax+1), the channels
// (one per link, capacity Cmax, carrying Token only) and the overflow
// policy: drop, unless the command line overrides it.
func TestDomainAndChannels(t *testing.T) {
	for n := 2; n <= 6; n++ {
		for cmax := 1; cmax <= 3; cmax++ {
			sys, v := build(t, n, cmax)
			m := n * (cmax + 1)
			if v.M != m || sys.Vars[v.C].Domain.String() != fmt.Sprintf("0..%d", m-1) {
				t.Errorf("n=%d Cmax=%d: counter domain %s, M=%d, want 0..%d", n, cmax, sys.Vars[v.C].Domain, v.M, m-1)
			}
			if f := sys.Messages[v.Token].Fields; len(sys.Messages) != 1 || len(f) != 1 || f[0].Domain.String() != fmt.Sprintf("0..%d", m-1) {
				t.Errorf("n=%d Cmax=%d: messages %+v", n, cmax, sys.Messages)
			}
			if len(sys.Channels) != n {
				t.Fatalf("n=%d: %d channels", n, len(sys.Channels))
			}
			for i, ch := range sys.Channels {
				if ch.From != i || ch.To != (i+1)%n || ch.Capacity != cmax || ch.Overflow != model.Drop || sys.ChanBetween(i, (i+1)%n) != v.Out[i] {
					t.Errorf("n=%d Cmax=%d: channel %d is %+v", n, cmax, i, ch)
				}
			}
		}
	}
	block := model.Block
	sys, _ := build(t, 3, 1, block)
	for _, ch := range sys.Channels {
		if ch.Overflow != model.Block {
			t.Errorf("--overflow block not applied: %+v", ch)
		}
	}
	if _, err := sys.WithDaemon(model.Distributed); err == nil {
		t.Error("a message-passing ring built under the distributed daemon")
	}
}

// TestInitialConfiguration pins the choice of initial configuration: every
// counter 0 and Token(0) in the channel from n-1 to the root, a legitimate
// configuration in which the root is about to accept.
func TestInitialConfiguration(t *testing.T) {
	sys, v := build(t, 4, 2)
	init := sys.Initial()
	if len(init) != 1 {
		t.Fatalf("%d initial configurations", len(init))
	}
	want := config(t, sys, v, []int{0, 0, 0, 0}, [][]int{nil, nil, nil, {0}})
	if !init[0].Equal(want) {
		t.Fatalf("initial configuration %+v", sys.Decode(init[0]))
	}
	if !sys.Legitimate.Holds(init[0]) {
		t.Fatal("the initial configuration is not legitimate")
	}
}

type succ struct {
	proc  int
	label string
	state *model.State
}

func successors(t *testing.T, sys *model.System, s *model.State) []succ {
	t.Helper()
	var out []succ
	_, err := sys.NewExpander().Expand(s, func(step *model.Step, next *model.State) bool {
		out = append(out, succ{int(step.Moves[0].Proc), sys.Label(step), next.Clone()})
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestActionSemantics runs every action on hand-built configurations of
// the ring n=3, Cmax=1 (M=6) and compares the successors, in expansion
// order, with what the doc comment's table says.
func TestActionSemantics(t *testing.T) {
	sys, v := build(t, 3, 1)
	cfg := func(c []int, chans ...[]int) *model.State {
		for len(chans) < 3 {
			chans = append(chans, nil)
		}
		return config(t, sys, v, c, chans)
	}
	type want struct {
		proc  int
		label string
		state *model.State
	}
	cases := []struct {
		name string
		from *model.State
		want []want
	}{
		{"root accepts c = C_0, increments and sends the new value",
			cfg([]int{2, 4, 4}, nil, nil, []int{2}),
			[]want{{0, "accept", cfg([]int{3, 4, 4}, []int{3})}}},
		{"root's increment wraps around mod M",
			cfg([]int{5, 1, 1}, nil, nil, []int{5}),
			[]want{{0, "accept", cfg([]int{0, 1, 1}, []int{0})}}},
		{"root ignores c ≠ C_0: consumed and dropped",
			cfg([]int{2, 4, 4}, nil, nil, []int{3}),
			[]want{{0, "ignore", cfg([]int{2, 4, 4})}}},
		{"non-root accepts c ≠ C_i, adopts c and forwards it",
			cfg([]int{2, 1, 1}, []int{2}),
			[]want{{1, "accept", cfg([]int{2, 2, 1}, nil, []int{2})}}},
		{"non-root ignores c = C_i",
			cfg([]int{2, 2, 1}, []int{2}),
			[]want{{1, "ignore", cfg([]int{2, 2, 1})}}},
		{"a forward into a full channel is lost (drop), the counter still adopts c",
			cfg([]int{0, 4, 3}, []int{1}, []int{5}),
			[]want{
				{1, "accept", cfg([]int{0, 1, 3}, nil, []int{5})},
				{2, "accept", cfg([]int{0, 4, 5}, []int{1}, nil, []int{5})},
			}},
		{"timeout fires when every channel is empty: the root increments and sends",
			cfg([]int{4, 1, 0}),
			[]want{{0, "timeout", cfg([]int{5, 1, 0}, []int{5})}}},
		{"timeout is disabled while any channel, even one far from the root, holds a message",
			cfg([]int{4, 1, 0}, nil, []int{3}),
			[]want{{2, "accept", cfg([]int{4, 1, 3}, nil, nil, []int{3})}}},
		{"every process with a message moves, each forward into a full channel is lost; no timeout",
			cfg([]int{1, 1, 0}, []int{0}, []int{1}, []int{1}),
			[]want{
				{0, "accept", cfg([]int{2, 1, 0}, []int{0}, []int{1})},
				{1, "accept", cfg([]int{1, 0, 0}, nil, []int{1}, []int{1})},
				{2, "accept", cfg([]int{1, 1, 1}, []int{0}, nil, []int{1})},
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := successors(t, sys, tc.from)
			if len(got) != len(tc.want) {
				t.Fatalf("%d successors, want %d: %v", len(got), len(tc.want), got)
			}
			for i, w := range tc.want {
				g := got[i]
				if g.proc != w.proc || g.label != w.label || !g.state.Equal(w.state) {
					t.Errorf("successor %d: p%d %s → %+v; want p%d %s → %+v", i,
						g.proc, g.label, sys.Decode(g.state), w.proc, w.label, sys.Decode(w.state))
				}
			}
		})
	}
	// The root's third action is the timeout, of kind Timeout; no other
	// process has one.
	for p, proc := range sys.Processes {
		for _, a := range proc.Actions {
			if (a.Kind == model.Timeout) != (p == 0 && a.Name == "timeout") {
				t.Errorf("process %d action %s has kind %s", p, a.Name, a.Kind)
			}
		}
	}
}

// TestResendOnlyTimeoutWouldLivelock pins why the timeout increments C_0.
// In the configuration C = (0, 0, 1) with every channel empty, the
// timeout sends Token(1), which process 1 accepts. Had it resent Token(0)
// unchanged, process 1 (C_1 = 0) would ignore it and the ring would be back
// in the configuration the timeout fired in: a cycle outside the legitimate
// set, under any fairness.
func TestResendOnlyTimeoutWouldLivelock(t *testing.T) {
	sys, v := build(t, 3, 1)
	stuck := config(t, sys, v, []int{0, 0, 1}, [][]int{nil, nil, nil})
	got := successors(t, sys, stuck)
	if len(got) != 1 || got[0].label != "timeout" || !got[0].state.Equal(config(t, sys, v, []int{1, 0, 1}, [][]int{{1}, nil, nil})) {
		t.Fatalf("timeout: %v", got)
	}
	resent := config(t, sys, v, []int{0, 0, 1}, [][]int{{0}, nil, nil})
	got = successors(t, sys, resent)
	if len(got) != 1 || got[0].label != "ignore" || !got[0].state.Equal(stuck) {
		t.Fatalf("a resent Token(0): %v", got)
	}
}

// legitimate is the legitimacy predicate written from the paper, apart
// from the file's: exactly one Token in transit, on the link out of j,
// carrying val, the processes up to j holding val and those after it
// val-1 (mod M).
func legitimate(sys *model.System, v vars, s *model.State) bool {
	j, total := -1, 0
	for i, ch := range v.Out {
		if l := s.Len(ch); l > 0 {
			j, total = i, total+l
		}
	}
	if total != 1 {
		return false
	}
	val := sys.Field(s.At(v.Out[j], 0), 0)
	prev := (val + v.M - 1) % v.M
	for i := range v.Out {
		want := val
		if i > j {
			want = prev
		}
		if s.Get(i, v.C) != want {
			return false
		}
	}
	return true
}

// TestLegitimacyPredicate spells out the predicate on n=3, Cmax=1 (M=6):
// every pattern (v, j) is legitimate, and each way of breaking one is not.
func TestLegitimacyPredicate(t *testing.T) {
	sys, v := build(t, 3, 1)
	check := func(c []int, chans [][]int, want bool) {
		t.Helper()
		s := config(t, sys, v, c, chans)
		if got := legitimate(sys, v, s); got != want {
			t.Errorf("C=%v channels=%v: legitimate %v, want %v", c, chans, got, want)
		}
		if sys.Legitimate.Holds(s) != legitimate(sys, v, s) {
			t.Errorf("C=%v channels=%v: the declared predicate disagrees", c, chans)
		}
	}
	for val := 0; val < 6; val++ {
		prev := (val + 5) % 6
		for j := 0; j < 3; j++ {
			c := []int{val, prev, prev}
			for i := 1; i <= j; i++ {
				c[i] = val
			}
			chans := make([][]int, 3)
			chans[j] = []int{val}
			check(c, chans, true)
		}
	}
	for _, tc := range []struct {
		c     []int
		chans [][]int
		why   string
	}{
		{[]int{1, 0, 0}, [][]int{nil, nil, nil}, "no message in transit (the token was lost)"},
		{[]int{1, 0, 0}, [][]int{{1}, nil, {3}}, "a second, invalid, message"},
		{[]int{1, 0, 0}, [][]int{{1}, {0}, nil}, "a second message behind the token"},
		{[]int{0, 0, 5}, [][]int{nil, {0}, {0}}, "a duplicate privilege"},
		{[]int{1, 0, 0}, [][]int{{0}, nil, nil}, "Token(v-1), invalid for process 1"},
		{[]int{0, 0, 0}, [][]int{nil, nil, {1}}, "Token(C_0+1), invalid at the root"},
		{[]int{1, 1, 0}, [][]int{{1}, nil, nil}, "Token(v) in the wrong channel"},
		{[]int{1, 0, 0}, [][]int{nil, {1}, nil}, "Token(v) skipped process 1"},
		{[]int{2, 0, 0}, [][]int{{2}, nil, nil}, "C_1 is not v-1"},
		{[]int{1, 1, 1}, [][]int{nil, {1}, nil}, "C_2 = v where v-1 is due"},
		{[]int{0, 5, 4}, [][]int{{0}, nil, nil}, "C_2 is not v-1"},
		{[]int{0, 1, 2}, [][]int{{3}, {4}, {5}}, "arbitrary"},
	} {
		check(tc.c, tc.chans, false)
	}
}

// forEachConfiguration calls f on every configuration of sys's full
// space, in rank order; f must not keep s.
func forEachConfiguration(t *testing.T, sys *model.System, f func(rank uint64, s *model.State)) uint64 {
	t.Helper()
	total, ok := sys.Configurations()
	if !ok {
		t.Fatal("configuration space too large")
	}
	s := sys.NewState()
	if err := sys.Unrank(0, s); err != nil {
		t.Fatal(err)
	}
	var r uint64
	for {
		f(r, s)
		r++
		if !sys.NextRank(s) {
			break
		}
	}
	if r != total {
		t.Fatalf("enumerated %d configurations, Configurations says %d", r, total)
	}
	return r
}

// TestClosureBruteForce enumerates every configuration of small rings and
// expands each legitimate one: there are n·M of them, each has exactly one
// successor and it is legitimate.
func TestClosureBruteForce(t *testing.T) {
	for _, nc := range [][2]int{{3, 1}, {2, 1}, {2, 2}} {
		n, cmax := nc[0], nc[1]
		t.Run(fmt.Sprintf("n=%d/Cmax=%d", n, cmax), func(t *testing.T) {
			sys, v := build(t, n, cmax)
			ex := sys.NewExpander()
			legit := 0
			forEachConfiguration(t, sys, func(_ uint64, s *model.State) {
				if !sys.Legitimate.Holds(s) {
					return
				}
				legit++
				count, err := ex.Expand(s, func(step *model.Step, next *model.State) bool {
					if !sys.Legitimate.Holds(next) {
						t.Errorf("%+v --%s--> %+v leaves the legitimate set", sys.Decode(s), sys.Label(step), sys.Decode(next))
					}
					if step.Overflow {
						t.Errorf("%+v: %s overflows a channel", sys.Decode(s), sys.Label(step))
					}
					return true
				})
				if err != nil {
					t.Fatal(err)
				}
				if count != 1 {
					t.Errorf("%+v has %d successors, want 1", sys.Decode(s), count)
				}
			})
			if legit != n*v.M {
				t.Errorf("%d legitimate configurations, want n·M = %d", legit, n*v.M)
			}
		})
	}
}

// TestReachableFromInit: from the initial configuration (v=0, j=n-1) the
// ring walks the legitimate cycle. Each step either moves the token one
// process on (j → j+1) or, at the root, starts a new value (v → v+1 mod M,
// j = 0), so it visits every pattern (v, j), v in 0..M-1, j in 0..n-1,
// and nothing else: n·M = n·n(Cmax+1) states and as many transitions (one
// successor each). For n=3, Cmax=1: 3·6 = 18.
func TestReachableFromInit(t *testing.T) {
	for _, nc := range [][2]int{{3, 1}, {2, 1}, {3, 3}, {5, 2}, {6, 3}} {
		n, cmax := nc[0], nc[1]
		sys, _ := build(t, n, cmax)
		res, err := explore.BFS(context.Background(), sys, spectest.NopMonitor{}, explore.Options{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		want := int64(n * n * (cmax + 1))
		if res.States != want || res.Transitions != want || !res.Complete() || res.MaxDepth != int(want-1) {
			t.Errorf("n=%d Cmax=%d: %d states %d transitions depth %d complete=%v; want %d states and transitions, depth %d",
				n, cmax, res.States, res.Transitions, res.MaxDepth, res.Complete(), want, want-1)
		}
	}
}

// TestSafetyAndDeadlockFromInit: the checker's verdicts on the default
// checks from the initial configuration.
func TestSafetyAndDeadlockFromInit(t *testing.T) {
	sys, _ := build(t, 3, 1)
	rep, err := invariants.Check(context.Background(), sys, invariants.Options{
		Properties: []invariants.Property{invariants.Safety, invariants.Deadlock},
		From:       invariants.FromInit,
		Search:     explore.Options{Workers: 2},
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Search.States != 18 {
		t.Errorf("%d states, want 18", rep.Search.States)
	}
	for _, o := range rep.Outcomes {
		if o.Verdict != invariants.Holds {
			t.Errorf("%s %s (%s), want holds", o.Property, o.Verdict, o.Reason)
		}
	}
}

// TestDeadlockFromAll pins the overflow choice. Under drop no
// configuration is a deadlock; under block, a ring of full channels whose
// heads are all valid for their receivers is one: every accept must send
// into a full channel.
func TestDeadlockFromAll(t *testing.T) {
	check := func(sys *model.System) *invariants.Outcome {
		t.Helper()
		rep, err := invariants.Check(context.Background(), sys, invariants.Options{
			Properties: []invariants.Property{invariants.Deadlock},
			From:       invariants.FromAll,
			Search:     explore.Options{Workers: 2},
		})
		if err != nil {
			t.Fatal(err)
		}
		return &rep.Outcomes[0]
	}
	sys, _ := build(t, 3, 1)
	if o := check(sys); o.Verdict != invariants.Holds {
		t.Errorf("drop: deadlock %s, want holds", o.Verdict)
	}
	block := model.Block
	sys, v := build(t, 2, 1, block)
	o := check(sys)
	if o.Verdict != invariants.Violated || len(o.Counterexample.States) != 1 {
		t.Fatalf("block: deadlock %s, want violated with a single configuration", o.Verdict)
	}
	dead := o.Counterexample.States[0]
	for i := 0; i < 2; i++ {
		if dead.Len(v.Out[i]) != 1 {
			t.Errorf("block: the deadlock %+v does not have every channel full", sys.Decode(dead))
		}
	}
}

// TestConvergenceBruteForce decides convergence with no fairness
// assumption, independently of the invariants package: a configuration
// converges if it is legitimate, or if it has a successor and all of its
// successors converge. The least fixpoint is computed by repeated passes
// over the full space; a configuration left out of it either is a deadlock
// outside the legitimate set or starts an infinite execution that avoids
// it. Along the way it computes the worst case, over configurations and
// schedules, of the number of steps to reach the legitimate set.
func TestConvergenceBruteForce(t *testing.T) {
	for _, tc := range []struct{ n, cmax, worst int }{
		{2, 1, 6}, {2, 2, 12}, {3, 1, 11},
	} {
		t.Run(fmt.Sprintf("n=%d/Cmax=%d", tc.n, tc.cmax), func(t *testing.T) {
			sys, _ := build(t, tc.n, tc.cmax)
			total, _ := sys.Configurations()
			const unknown = -1
			steps := make([]int16, total)
			for i := range steps {
				steps[i] = unknown
			}
			ex := sys.NewExpander()
			for pass, changed := 0, true; changed; pass++ {
				changed = false
				forEachConfiguration(t, sys, func(r uint64, s *model.State) {
					if steps[r] != unknown {
						return
					}
					if sys.Legitimate.Holds(s) {
						steps[r], changed = 0, true
						return
					}
					worst, ok := int16(0), true
					count, err := ex.Expand(s, func(_ *model.Step, next *model.State) bool {
						d := steps[sys.Rank(next)]
						if d == unknown {
							ok = false
							return false
						}
						worst = max(worst, d)
						return true
					})
					if err != nil {
						t.Fatal(err)
					}
					if ok && count > 0 {
						steps[r], changed = worst+1, true
					}
				})
			}
			worst, stuck := int16(0), 0
			for _, d := range steps {
				if d == unknown {
					stuck++
				}
				worst = max(worst, d)
			}
			if stuck > 0 {
				t.Fatalf("%d of %d configurations do not converge", stuck, total)
			}
			t.Logf("n=%d Cmax=%d: %d configurations, every one converges, worst case %d steps", tc.n, tc.cmax, total, worst)
			if int(worst) != tc.worst {
				t.Errorf("worst case %d steps, want %d", worst, tc.worst)
			}
		})
	}
}

// TestConfigurationSpace checks the size of the full space against its
// formula: M^n counters times, for each of the n channels, the number of
// sequences of at most Cmax letters of the M-letter alphabet.
func TestConfigurationSpace(t *testing.T) {
	for n := 2; n <= 6; n++ {
		for cmax := 1; cmax <= 3; cmax++ {
			sys, v := build(t, n, cmax)
			want := big.NewInt(1)
			m := big.NewInt(int64(v.M))
			contents := new(big.Int)
			for l := 0; l <= cmax; l++ {
				contents.Add(contents, new(big.Int).Exp(m, big.NewInt(int64(l)), nil))
			}
			for i := 0; i < n; i++ {
				want.Mul(want, m)
				want.Mul(want, contents)
			}
			ok := want.Cmp(new(big.Int).SetUint64(math.MaxInt64)) <= 0
			got, gotOK := sys.Configurations()
			if gotOK != ok || (ok && got != want.Uint64()) {
				t.Errorf("n=%d Cmax=%d: %d (ok=%v), want %s (ok=%v)", n, cmax, got, gotOK, want, ok)
			}
			if n <= 5 && cmax <= 2 {
				t.Logf("n=%d Cmax=%d M=%d: %s configurations", n, cmax, v.M, want)
			}
		}
	}
}
