package klpusher_test

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/spectest"
)

// vars are the handles of the variables and messages of kl-pusher, by the
// names specs/ring/kl-pusher.ring declares.
type vars struct {
	Need, Cnt     model.VarID
	Token, Pusher model.MsgType
}

// buildC returns the catalogue's kl-pusher (specs/ring/kl-pusher.ring) for
// n, L, K and Cmax.
func buildC(t testing.TB, n, l, k, cmax int) (*model.System, vars) {
	t.Helper()
	sys := spectest.Build(t, "kl-pusher", specs.Values{"n": n, "L": l, "K": k, "Cmax": cmax})
	return sys, vars{
		Need: spectest.Var(t, sys, "need"), Cnt: spectest.Var(t, sys, "cnt"),
		Token: spectest.MsgType(t, sys, "Token"), Pusher: spectest.MsgType(t, sys, "Pusher"),
	}
}

func build(t testing.TB, n, l, k int) (*model.System, vars) {
	t.Helper()
	return buildC(t, n, l, k, 0)
}

// msgs is a channel's contents written as a string, head first: 'T' a
// Token, 'P' the Pusher.
func msgs(sys *model.System, v vars, s *model.State, c model.ChanID) string {
	out := ""
	for i := 0; i < s.Len(c); i++ {
		switch sys.TypeOf(s.At(c, i)) {
		case v.Token:
			out += "T"
		case v.Pusher:
			out += "P"
		default:
			out += "?"
		}
	}
	return out
}

// config is a configuration of an n-process ring written by hand: need and
// cnt per process and the contents of the channel INTO each process.
type config struct {
	need, cnt []int
	in        []string
}

func (cf config) state(t testing.TB, sys *model.System, v vars) *model.State {
	t.Helper()
	n := sys.N()
	s := sys.NewState()
	for p := 0; p < n; p++ {
		s.Set(p, v.Need, cf.need[p])
		s.Set(p, v.Cnt, cf.cnt[p])
		c := sys.ChanBetween((p+n-1)%n, p)
		for _, r := range cf.in[p] {
			m := sys.Msg(v.Token)
			if r == 'P' {
				m = sys.Msg(v.Pusher)
			}
			if !s.Push(c, m) {
				t.Fatalf("channel into %d is full", p)
			}
		}
	}
	if err := sys.Validate(s); err != nil {
		t.Fatal(err)
	}
	return s
}

func (cf config) matches(sys *model.System, v vars, s *model.State) bool {
	n := sys.N()
	for p := 0; p < n; p++ {
		if s.Get(p, v.Need) != cf.need[p] || s.Get(p, v.Cnt) != cf.cnt[p] ||
			msgs(sys, v, s, sys.ChanBetween((p+n-1)%n, p)) != cf.in[p] {
			return false
		}
	}
	return true
}

func (cf config) String() string { return fmt.Sprintf("need=%v cnt=%v in=%q", cf.need, cf.cnt, cf.in) }

// TestPush drives the push action on hand-built configurations of a
// 3-process ring (process 1 receives the pusher from 0 and sends to 2).
func TestPush(t *testing.T) {
	for _, tc := range []struct {
		name          string
		l, k, cmax    int
		before, after config
		blocked       bool
	}{
		{
			name:   "holder releases its one token, then the pusher",
			l:      3,
			k:      2,
			before: config{need: []int{0, 2, 0}, cnt: []int{0, 1, 0}, in: []string{"T", "P", "T"}},
			after:  config{need: []int{0, 2, 0}, cnt: []int{0, 0, 0}, in: []string{"T", "", "TTP"}},
		},
		{
			name:   "holder releases all its tokens, ahead of the pusher",
			l:      3,
			k:      3,
			before: config{need: []int{0, 3, 0}, cnt: []int{0, 2, 0}, in: []string{"", "PT", ""}},
			after:  config{need: []int{0, 3, 0}, cnt: []int{0, 0, 0}, in: []string{"", "T", "TTP"}},
		},
		{
			name:   "process in its critical section keeps its tokens",
			l:      3,
			k:      2,
			before: config{need: []int{0, 2, 0}, cnt: []int{0, 2, 0}, in: []string{"T", "P", ""}},
			after:  config{need: []int{0, 2, 0}, cnt: []int{0, 2, 0}, in: []string{"T", "", "P"}},
		},
		{
			name:   "idle process just forwards the pusher",
			l:      3,
			k:      2,
			before: config{need: []int{0, 0, 0}, cnt: []int{0, 0, 0}, in: []string{"T", "P", "TT"}},
			after:  config{need: []int{0, 0, 0}, cnt: []int{0, 0, 0}, in: []string{"T", "", "TTP"}},
		},
		{
			name:   "requesting process holding nothing just forwards the pusher",
			l:      3,
			k:      2,
			before: config{need: []int{0, 2, 0}, cnt: []int{0, 0, 0}, in: []string{"TTT", "P", ""}},
			after:  config{need: []int{0, 2, 0}, cnt: []int{0, 0, 0}, in: []string{"TTT", "", "P"}},
		},
		{
			name:    "a full outgoing channel blocks the whole step (Cmax=2)",
			l:       3,
			k:       2,
			cmax:    2,
			before:  config{need: []int{0, 2, 0}, cnt: []int{0, 1, 0}, in: []string{"", "P", "T"}},
			blocked: true,
		},
		{
			name:    "the pusher behind a token is not received first",
			l:       3,
			k:       2,
			before:  config{need: []int{0, 0, 0}, cnt: []int{0, 0, 0}, in: []string{"", "TP", "TT"}},
			blocked: true,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys, v := buildC(t, 3, tc.l, tc.k, tc.cmax)
			st := tc.before.state(t, sys, v)
			push := spectest.ActionIndex(t, sys, 1, "push")
			var got []*model.State
			_, err := sys.NewExpander().Expand(st, func(step *model.Step, next *model.State) bool {
				if m := step.Moves[0]; m.Proc == 1 && m.Action == push {
					got = append(got, next.Clone())
				}
				return true
			})
			if err != nil {
				t.Fatal(err)
			}
			if tc.blocked {
				if len(got) != 0 {
					t.Fatalf("push is enabled, want it disabled")
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("push has %d steps, want 1", len(got))
			}
			if !tc.after.matches(sys, v, got[0]) {
				t.Errorf("after push: need=[%d %d %d] cnt=[%d %d %d] in=[%q %q %q], want %v",
					got[0].Get(0, v.Need), got[0].Get(1, v.Need), got[0].Get(2, v.Need),
					got[0].Get(0, v.Cnt), got[0].Get(1, v.Cnt), got[0].Get(2, v.Cnt),
					msgs(sys, v, got[0], 2), msgs(sys, v, got[0], 0), msgs(sys, v, got[0], 1), tc.after)
			}
			for _, inv := range sys.Invariants {
				if !inv.Holds(got[0]) {
					t.Errorf("invariant %s fails after push", inv.Name)
				}
			}
		})
	}
}

// TestInitialConfiguration pins the choice the paper leaves open: every
// process idle, token j on the link into process j mod n, the pusher at the
// tail of the link into process 0; Cmax = L+1 by default.
func TestInitialConfiguration(t *testing.T) {
	for _, tc := range []struct {
		n, l int
		want config
	}{
		// Figure 2's placement: a token on each link, the pusher behind
		// the token on the link from 2 to 0.
		{3, 3, config{need: []int{0, 0, 0}, cnt: []int{0, 0, 0}, in: []string{"TP", "T", "T"}}},
		{2, 5, config{need: []int{0, 0}, cnt: []int{0, 0}, in: []string{"TTTP", "TT"}}},
		{4, 2, config{need: []int{0, 0, 0, 0}, cnt: []int{0, 0, 0, 0}, in: []string{"TP", "T", "", ""}}},
	} {
		sys, v := build(t, tc.n, tc.l, 1)
		init := sys.Initial()
		if len(init) != 1 {
			t.Fatalf("n=%d L=%d: %d initial configurations", tc.n, tc.l, len(init))
		}
		if !tc.want.matches(sys, v, init[0]) {
			t.Errorf("n=%d L=%d: initial configuration is not %v", tc.n, tc.l, tc.want)
		}
		for _, ch := range sys.Channels {
			if ch.Capacity != tc.l+1 || ch.Overflow != model.Block || len(ch.Types) != 2 {
				t.Errorf("n=%d L=%d: channel %d→%d has capacity %d, policy %s, types %v; want %d, block, Token and Pusher",
					tc.n, tc.l, ch.From, ch.To, ch.Capacity, ch.Overflow, ch.Types, tc.l+1)
			}
		}
		for _, inv := range sys.Invariants {
			if !inv.Holds(init[0]) {
				t.Errorf("n=%d L=%d: invariant %s fails initially", tc.n, tc.l, inv.Name)
			}
		}
	}
	spec := spectest.Builtin(t, "kl-pusher")
	if _, err := spec.Build(specs.Values{"n": 2, "L": 5, "K": 1, "Cmax": 3}); err == nil {
		t.Error("Cmax=3 builds for n=2, L=5, whose link into 0 starts with 3 tokens and the pusher")
	}
	if _, err := spec.Build(specs.Values{"n": 3, "L": 2, "K": 3, "Cmax": 0}); err == nil {
		t.Error("K=3 > L=2 builds")
	}
}

// TestOnePusherInvariant: the invariant counts Pushers in every channel.
func TestOnePusherInvariant(t *testing.T) {
	sys, v := build(t, 3, 3, 2)
	var one *model.Predicate
	for i := range sys.Invariants {
		if sys.Invariants[i].Name == "one_pusher" {
			one = &sys.Invariants[i]
		}
	}
	if one == nil {
		t.Fatal("no one_pusher invariant")
	}
	for _, tc := range []struct {
		in   []string
		want bool
	}{
		{[]string{"TP", "T", "T"}, true},
		{[]string{"T", "TTP", ""}, true},
		{[]string{"T", "T", "T"}, false},
		{[]string{"TP", "P", "T"}, false},
	} {
		cf := config{need: []int{0, 0, 0}, cnt: []int{0, 0, 0}, in: tc.in}
		if got := one.Holds(cf.state(t, sys, v)); got != tc.want {
			t.Errorf("%q: one_pusher %v, want %v", tc.in, got, tc.want)
		}
	}
}

// TestSafetyAndDeadlockHold: for Figure 2's ring (n=3, L=3, K=2) the units
// in use never exceed L, exactly one pusher exists, and the pusher leaves
// no deadlock, each from a complete search.
func TestSafetyAndDeadlockHold(t *testing.T) {
	sys, _ := build(t, 3, 3, 2)
	rep := spectest.CheckComplete(t, sys, invariants.Options{
		Properties: []invariants.Property{invariants.Safety, invariants.Deadlock},
		From:       invariants.FromInit,
		Search:     explore.Options{Workers: spectest.Workers},
	})
	for _, o := range rep.Outcomes {
		if o.Verdict != invariants.Holds {
			t.Errorf("%s %s, want holds", o.Property, o.Verdict)
		}
	}
}

// TestFigure1ConfigurationIsNoTrap: where kl-naive deadlocks (every process
// requesting 2 and holding 1 token), the pusher gets some process into its
// critical section: from that configuration of n=3, L=3, K=2, with the
// pusher anywhere, a configuration with a process in its critical section is
// reachable using protocol actions alone.
func TestFigure1ConfigurationIsNoTrap(t *testing.T) {
	sys, v := build(t, 3, 3, 2)
	for at := 0; at < 3; at++ {
		in := []string{"", "", ""}
		in[at] = "P"
		start := config{need: []int{2, 2, 2}, cnt: []int{1, 1, 1}, in: in}.state(t, sys, v)
		ex := sys.NewExpander()
		seen := map[string]bool{}
		queue := []*model.State{start}
		found := false
		for len(queue) > 0 && !found {
			s := queue[0]
			queue = queue[1:]
			for p := 0; p < 3; p++ {
				if nd := s.Get(p, v.Need); nd > 0 && s.Get(p, v.Cnt) == nd {
					found = true
				}
			}
			_, err := ex.Expand(s, func(step *model.Step, next *model.State) bool {
				if sys.Processes[step.Moves[0].Proc].Actions[step.Moves[0].Action].Kind != model.Protocol {
					return true
				}
				key := fmt.Sprint(next.Vars, next.Lens, next.Msgs)
				if !seen[key] {
					seen[key] = true
					queue = append(queue, next.Clone())
				}
				return true
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		if !found {
			t.Errorf("pusher into %d: no process ever enters its critical section", at)
		}
	}
}

// figure2a is the paper's Figure 2, configuration (a), for n=3, L=3, K=2:
// processes 0 and 1 request one unit, process 2 two, none holds a token,
// there is a token on each link and the pusher is behind the token on the
// link from 2 to 0.
var figure2a = config{need: []int{1, 1, 2}, cnt: []int{0, 0, 0}, in: []string{"TP", "T", "T"}}

// findMonitor records the least id of a visited state matching a
// configuration.
type findMonitor struct {
	sys   *model.System
	v     vars
	want  config
	found atomic.Int64 // id+1, 0 while none
}

func (m *findMonitor) Observe(v *explore.Visit) {
	if m.want.matches(m.sys, m.v, v.State) {
		id := int64(v.ID) + 1
		for {
			old := m.found.Load()
			if old != 0 && old <= id || m.found.CompareAndSwap(old, id) {
				return
			}
		}
	}
}

func (m *findMonitor) Decided() bool { return m.found.Load() != 0 }

// TestFigure2ConfigurationReachable: configuration (a) of Figure 2 is
// reachable from the initial configuration, by the three requests (the
// tokens and the pusher start where (a) has them).
func TestFigure2ConfigurationReachable(t *testing.T) {
	sys, v := build(t, 3, 3, 2)
	mon := &findMonitor{sys: sys, v: v, want: figure2a}
	res, err := explore.BFS(context.Background(), sys, mon, explore.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	id := mon.found.Load() - 1
	if id < 0 {
		t.Fatalf("configuration (a) of Figure 2 is not reachable (%d states)", res.States)
	}
	states, steps, err := res.Path(explore.StateID(id))
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != 3 {
		t.Errorf("shortest path to (a) has %d steps, want the 3 requests", len(steps))
	}
	for i := range steps {
		t.Logf("step %d: p%d %s", i+1, steps[i].Moves[0].Proc, sys.Label(&steps[i]))
	}
	if !figure2a.matches(sys, v, states[len(states)-1]) {
		t.Error("the path does not end in (a)")
	}
}

// TestFigure2Lasso replays the starvation cycle of Figure 2 step by step
// from configuration (a): (b) every process collects the token on its
// incoming link, so 0 and 1 enter their critical sections and 2 holds one
// of its two; (c), (d) the pusher passes 0 and 1, which keep their tokens;
// (e) process 2 receives it and releases its token; 0 and 1 leave and
// request one unit again: (f) = (a). Process 2 requests throughout and
// never enters; the cycle is weakly fair in ringcheck's sense (every
// process's protocol actions are taken in it, and every finite action,
// leave, is taken or disabled somewhere in it).
func TestFigure2Lasso(t *testing.T) {
	sys, v := build(t, 3, 3, 2)
	type move struct {
		p      int
		action string
		choice int
	}
	cycle := []move{
		{0, "collect", 0}, {1, "collect", 0}, {2, "collect", 0}, // (b)
		{0, "push", 0}, // (c)
		{1, "push", 0}, // (d)
		{2, "push", 0}, // (e)
		{0, "leave", 0}, {1, "leave", 0},
		{0, "request", 0}, {1, "request", 0}, // (f) = (a)
	}
	ex := sys.NewExpander()
	cur := figure2a.state(t, sys, v)
	next := sys.NewState()
	sched := make([]bool, 3)
	leaveOK := make([]bool, 3)
	leave := spectest.ActionIndex(t, sys, 0, "leave")
	for i, m := range cycle {
		if nd := cur.Get(2, v.Need); !(nd > 0 && cur.Get(2, v.Cnt) < nd) {
			t.Fatalf("before step %d process 2 is not requesting", i+1)
		}
		for p := 0; p < 3; p++ {
			enabled := false
			if _, err := ex.Expand(cur, func(step *model.Step, _ *model.State) bool {
				enabled = enabled || (step.Moves[0].Proc == int32(p) && step.Moves[0].Action == leave)
				return true
			}); err != nil {
				t.Fatal(err)
			}
			if !enabled {
				leaveOK[p] = true
			}
		}
		step := model.Step{Moves: []model.Move{{Proc: int32(m.p), Action: spectest.ActionIndex(t, sys, m.p, m.action), Choice: int32(m.choice)}}}
		if err := ex.Apply(cur, &step, next); err != nil {
			t.Fatalf("step %d (p%d %s): %v", i+1, m.p, m.action, err)
		}
		if sys.Processes[m.p].Actions[step.Moves[0].Action].Liveness == model.Scheduled {
			sched[m.p] = true
		}
		if m.action == "leave" {
			leaveOK[m.p] = true
		}
		cur, next = next, cur
	}
	if !figure2a.matches(sys, v, cur) {
		t.Fatal("the cycle does not return to (a)")
	}
	for p := 0; p < 3; p++ {
		if !sched[p] || !leaveOK[p] {
			t.Errorf("process %d: protocol action taken %v, leave taken or disabled %v: the cycle is not weakly fair", p, sched[p], leaveOK[p])
		}
	}
}

// TestFigure2Starvation: ringcheck's starvation check finds Figure 2's
// starvation under weak fairness. Every process can starve, not only Figure 2's process 2: the same
// verdicts as SPIN's (TestSPINStarvation).
func TestFigure2Starvation(t *testing.T) {
	sys, _ := build(t, 3, 3, 2)
	rep, err := invariants.Check(context.Background(), sys, invariants.Options{
		Properties: []invariants.Property{invariants.Starvation},
		From:       invariants.FromInit,
		Fairness:   invariants.WeakFairness,
		Search:     explore.Options{Workers: 2},
	})
	if err != nil {
		t.Fatal(err)
	}
	o := rep.Outcomes[0]
	if o.Verdict != invariants.Violated {
		t.Fatalf("starvation %s, want violated (Figure 2)", o.Verdict)
	}
	t.Logf("%s", o.Reason)
	if !slices.Equal(o.Starving, []int{0, 1, 2}) {
		t.Errorf("starving processes %v, want [0 1 2] (Figure 2 is process 2; SPIN finds a fair cycle for each)", o.Starving)
	}
	ce := o.Counterexample
	if ce == nil || ce.Kind != invariants.Lasso {
		t.Fatalf("counterexample %+v, want a lasso", ce)
	}
	if err := ce.Replay(sys); err != nil {
		t.Fatal(err)
	}
}

// The brute-force model: kl-pusher written again over a plain Go struct,
// independently of the model package, for counting reachable states.
const bruteMaxN, bruteMaxCap = 6, 16

// bstate is a configuration: need and cnt per process and the channel INTO
// each process, head first ('T' a token, 'P' the pusher).
type bstate struct {
	need, cnt [bruteMaxN]int8
	lens      [bruteMaxN]int8
	ch        [bruteMaxN][bruteMaxCap]byte
}

func (s *bstate) pop(c int) byte {
	m := s.ch[c][0]
	copy(s.ch[c][:], s.ch[c][1:s.lens[c]])
	s.lens[c]--
	s.ch[c][s.lens[c]] = 0
	return m
}

func (s *bstate) push(c int, m byte) {
	s.ch[c][s.lens[c]] = m
	s.lens[c]++
}

// bruteSuccessors returns one successor per enabled move of process p,
// action and choice, as ringcheck counts transitions.
func bruteSuccessors(s bstate, n, k, capacity int) []bstate {
	var out []bstate
	for p := 0; p < n; p++ {
		in, to := p, (p+1)%n
		need, cnt := int(s.need[p]), int(s.cnt[p])
		room := capacity - int(s.lens[to])
		if need == 0 && cnt == 0 { // request(k)
			for r := 1; r <= k; r++ {
				t := s
				t.need[p] = int8(r)
				out = append(out, t)
			}
		}
		if s.lens[in] > 0 {
			switch s.ch[in][0] {
			case 'T':
				if cnt < need { // collect
					t := s
					t.pop(in)
					t.cnt[p]++
					out = append(out, t)
				} else if room >= 1 { // forward
					t := s
					t.pop(in)
					t.push(to, 'T')
					out = append(out, t)
				}
			case 'P': // push
				release := 0
				if 0 < cnt && cnt < need {
					release = cnt
				}
				if room >= release+1 {
					t := s
					t.pop(in)
					for range release {
						t.push(to, 'T')
					}
					t.cnt[p] -= int8(release)
					t.push(to, 'P')
					out = append(out, t)
				}
			}
		}
		if need > 0 && cnt == need && room >= cnt { // leave
			t := s
			for range cnt {
				t.push(to, 'T')
			}
			t.need[p], t.cnt[p] = 0, 0
			out = append(out, t)
		}
	}
	return out
}

// bruteReachable counts the states reachable from the initial
// configuration (tokens round-robin, the pusher behind them into 0) and
// the transitions out of them.
func bruteReachable(n, l, k, capacity int) (states, transitions int64) {
	if capacity == 0 {
		capacity = l + 1
	}
	var init bstate
	for j := 0; j < l; j++ {
		init.push(j%n, 'T')
	}
	init.push(0, 'P')
	return spectest.CountReachable(init, func(s bstate) []bstate { return bruteSuccessors(s, n, k, capacity) })
}

// reachable explores every state ringcheck reaches from init.
func reachable(t testing.TB, n, l, k, cmax int) *explore.Result {
	t.Helper()
	sys, _ := buildC(t, n, l, k, cmax)
	return spectest.Reachable(t, sys)
}

// TestReachableCountMatchesBruteForce: ringcheck's reachable states and
// transitions equal those of the brute-force encoding, for Figure 2's ring
// and a few others, including capacities small enough for sends to block.
func TestReachableCountMatchesBruteForce(t *testing.T) {
	for _, tc := range []struct{ n, l, k, cmax int }{
		{3, 3, 2, 0}, // Figure 2
		{2, 1, 1, 0},
		{2, 2, 2, 0},
		{4, 3, 2, 0},
		{3, 4, 3, 0},
		{3, 3, 2, 2},
		{4, 4, 2, 2},
	} {
		t.Run(fmt.Sprintf("n=%d,L=%d,K=%d,Cmax=%d", tc.n, tc.l, tc.k, tc.cmax), func(t *testing.T) {
			ours := reachable(t, tc.n, tc.l, tc.k, tc.cmax)
			states, trans := bruteReachable(tc.n, tc.l, tc.k, tc.cmax)
			t.Logf("ringcheck %d states %d transitions; brute force %d states %d transitions",
				ours.States, ours.Transitions, states, trans)
			if ours.States != states || ours.Transitions != trans {
				t.Errorf("ringcheck reaches %d states, %d transitions; brute force %d, %d",
					ours.States, ours.Transitions, states, trans)
			}
		})
	}
}
