package raynal_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/internal/raynaltest"
	"github.com/ringcheck/ringcheck/specs/spectest"
)

// params is an instance: n, M, K (0: M), R, asked, count.
type params struct{ n, m, k, r, asked, count int }

func (p params) values() specs.Values {
	return specs.Values{"n": p.n, "M": p.m, "K": p.k, "requests": p.r, "asked": p.asked, "count": p.count, "Cmax": 0}
}

func (p params) String() string {
	return fmt.Sprintf("n=%d,M=%d,K=%d,R=%d,asked=%d,count=%d", p.n, p.m, p.k, p.r, p.asked, p.count)
}

func build(t testing.TB, p params) (*model.System, Vars) {
	t.Helper()
	sys, v, err := buildVars(t, p.values())
	if err != nil {
		t.Fatal(err)
	}
	return sys, v
}

// pc is one process of a hand-written configuration.
type pc struct {
	st             string // idle, wait (scdem) or CS (ok)
	k, h, maxh     int
	reqs           int
	used           []int // indexed by peer; the entry for the process itself is ignored
	delayed, asked []int // peers
	msgs           int
}

// conf is a configuration written by hand: its processes and the contents
// of the non-empty channels, keyed "i>j", as "req(3) free(2)" (with
// count=1, "free(y|answer)").
type conf struct {
	p  []pc
	ch map[string]string
}

func (cf conf) state(t testing.TB, sys *model.System, v Vars) *model.State {
	t.Helper()
	s := sys.Initial()[0]
	for i, p := range cf.p {
		s.Set(i, v.Scdem, b2i(p.st == "wait"))
		s.Set(i, v.Ok, b2i(p.st == "CS"))
		s.Set(i, v.K, p.k)
		s.Set(i, v.H, p.h)
		s.Set(i, v.MaxH, p.maxh)
		s.Set(i, v.Reqs, p.reqs)
		for j := range v.N {
			if j == i {
				continue
			}
			if p.used != nil {
				s.Set(i, v.Used[j], p.used[j])
			}
		}
		for _, j := range p.delayed {
			s.Set(i, v.Delayed[j], 1)
		}
		for _, j := range p.asked {
			s.Set(i, v.Asked[j], 1)
		}
		if v.Count {
			s.Set(i, v.Msgs, p.msgs)
		}
	}
	for key, contents := range cf.ch {
		var from, to int
		if _, err := fmt.Sscanf(key, "%d>%d", &from, &to); err != nil {
			t.Fatalf("channel %q: %v", key, err)
		}
		ch := sys.ChanBetween(from, to)
		for _, m := range strings.Fields(contents) {
			var a, b int
			var msg model.Msg
			switch {
			case strings.HasPrefix(m, "req("):
				fmt.Sscanf(m, "req(%d)", &a)
				msg = sys.Msg(v.Req, a)
			case v.Count:
				fmt.Sscanf(m, "free(%d|%d)", &a, &b)
				msg = sys.Msg(v.Free, a, b)
			default:
				// Without the ghost, its field answer is 0.
				fmt.Sscanf(m, "free(%d)", &a)
				msg = sys.Msg(v.Free, a, 0)
			}
			if !s.Push(ch, msg) {
				t.Fatalf("channel %s is full", key)
			}
		}
	}
	if err := sys.Validate(s); err != nil {
		t.Fatal(err)
	}
	return s
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// used lists used_i[0..n-1] (the entry for i itself is ignored).
func used(xs ...int) []int { return xs }

// TestActionSemantics drives each action on hand-written configurations
// and compares the successor with the expected one, statement by statement
// against the paper's text.
func TestActionSemantics(t *testing.T) {
	basic3 := params{n: 3, m: 2, r: 3}
	variant3 := params{n: 3, m: 2, r: 3, asked: 1}
	ghost3 := params{n: 3, m: 2, r: 3, count: 1}
	for _, tc := range []struct {
		name          string
		p             params
		proc          int
		action        string
		choice        int
		before, after conf
		disabled      bool
	}{
		{
			name: "§3 request: h := maxh+1, used += M, req(h) to every other process",
			p:    basic3, proc: 1, action: "request", choice: 0,
			before: conf{p: []pc{{st: "idle"}, {st: "idle", maxh: 2, reqs: 1, used: used(1, 0, 0)}, {st: "idle"}}},
			after: conf{p: []pc{{st: "idle"}, {st: "wait", k: 1, h: 3, maxh: 2, reqs: 2, used: used(3, 0, 2)}, {st: "idle"}},
				ch: map[string]string{"1>0": "req(3)", "1>2": "req(3)"}},
		},
		{
			name: "§3 request: maxh is not raised by the process's own request, so the next request reuses h",
			p:    basic3, proc: 0, action: "request", choice: 1,
			before: conf{p: []pc{{st: "idle", maxh: 0, reqs: 1}, {st: "idle"}, {st: "idle"}}},
			after: conf{p: []pc{{st: "wait", k: 2, h: 1, maxh: 0, reqs: 2, used: used(0, 2, 2)}, {st: "idle"}, {st: "idle"}},
				ch: map[string]string{"0>1": "req(1)", "0>2": "req(1)"}},
		},
		{
			name: "request is disabled after R requests",
			p:    basic3, proc: 0, action: "request", choice: 0,
			before:   conf{p: []pc{{st: "idle", reqs: 3}, {st: "idle"}, {st: "idle"}}},
			disabled: true,
		},
		{
			name: "request is disabled while waiting",
			p:    basic3, proc: 0, action: "request", choice: 0,
			before:   conf{p: []pc{{st: "wait", k: 1, h: 1, reqs: 1, used: used(0, 2, 2)}, {st: "idle"}, {st: "idle"}}},
			disabled: true,
		},
		{
			name: "§5.1 request: a peer with used ≠ 0 is not asked; the request is granted at once if Σused + k ≤ M",
			p:    variant3, proc: 0, action: "request", choice: 0,
			before: conf{p: []pc{{st: "idle", maxh: 1, reqs: 1, used: used(0, 1, 0), asked: []int{1, 2}}, {st: "idle"}, {st: "idle"}}},
			after:  conf{p: []pc{{st: "wait", k: 1, h: 2, maxh: 1, reqs: 2, used: used(0, 1, 2), asked: []int{2}}, {st: "idle"}, {st: "idle"}}, ch: map[string]string{"0>2": "req(2)"}},
		},
		{
			name: "§5.1 request: only the peers with used = 0 are asked; not enough units yet: wait",
			p:    variant3, proc: 0, action: "request", choice: 0,
			before: conf{p: []pc{{st: "idle", maxh: 1, reqs: 1, used: used(0, 0, 1)}, {st: "idle"}, {st: "idle"}}},
			after:  conf{p: []pc{{st: "wait", k: 1, h: 2, maxh: 1, reqs: 2, used: used(0, 2, 1), asked: []int{1}}, {st: "idle"}, {st: "idle"}}, ch: map[string]string{"0>1": "req(2)"}},
		},
		{
			name: "§5.1 request granted at once, with no message (n=2)",
			p:    params{n: 2, m: 2, r: 2, asked: 1}, proc: 1, action: "request", choice: 0,
			before: conf{p: []pc{{st: "wait", k: 2, h: 2, maxh: 1, reqs: 2, used: used(0, 2), asked: []int{1}}, {st: "idle", maxh: 1, reqs: 1, used: used(1, 0), asked: []int{0}}},
				ch: map[string]string{"0>1": "free(1) req(2)"}},
			after: conf{p: []pc{{st: "wait", k: 2, h: 2, maxh: 1, reqs: 2, used: used(0, 2), asked: []int{1}}, {st: "CS", k: 1, h: 2, maxh: 1, reqs: 2, used: used(1, 0)}},
				ch: map[string]string{"0>1": "free(1) req(2)"}},
		},
		{
			name: "receive req, not requesting: maxh raised, free(M)",
			p:    basic3, proc: 2, action: "recvReq(0)",
			before: conf{p: []pc{{st: "wait", k: 1, h: 4, reqs: 1, used: used(0, 2, 2)}, {st: "idle"}, {st: "idle", maxh: 1}}, ch: map[string]string{"0>2": "req(4)"}},
			after:  conf{p: []pc{{st: "wait", k: 1, h: 4, reqs: 1, used: used(0, 2, 2)}, {st: "idle"}, {st: "idle", maxh: 4}}, ch: map[string]string{"2>0": "free(2)"}},
		},
		{
			name: "receive req, requesting with a higher timestamp: free(M)",
			p:    basic3, proc: 2, action: "recvReq(0)",
			before: conf{p: []pc{{st: "wait", k: 1, h: 1, reqs: 1, used: used(0, 2, 2)}, {st: "idle"}, {st: "wait", k: 1, h: 2, maxh: 1, reqs: 1, used: used(2, 2, 0)}}, ch: map[string]string{"0>2": "req(1)"}},
			after:  conf{p: []pc{{st: "wait", k: 1, h: 1, reqs: 1, used: used(0, 2, 2)}, {st: "idle"}, {st: "wait", k: 1, h: 2, maxh: 1, reqs: 1, used: used(2, 2, 0)}}, ch: map[string]string{"2>0": "free(2)"}},
		},
		{
			name: "receive req, equal timestamps: the smaller id has priority (2 > 0: free(M))",
			p:    basic3, proc: 2, action: "recvReq(0)",
			before: conf{p: []pc{{st: "wait", k: 1, h: 1, reqs: 1, used: used(0, 2, 2)}, {st: "idle"}, {st: "wait", k: 1, h: 1, reqs: 1, used: used(2, 2, 0)}}, ch: map[string]string{"0>2": "req(1)"}},
			after:  conf{p: []pc{{st: "wait", k: 1, h: 1, reqs: 1, used: used(0, 2, 2)}, {st: "idle"}, {st: "wait", k: 1, h: 1, maxh: 1, reqs: 1, used: used(2, 2, 0)}}, ch: map[string]string{"2>0": "free(2)"}},
		},
		{
			name: "receive req with priority: free(M-k) now, the sender joins delayed",
			p:    basic3, proc: 0, action: "recvReq(2)",
			before: conf{p: []pc{{st: "wait", k: 1, h: 1, reqs: 1, used: used(0, 2, 2)}, {st: "idle"}, {st: "wait", k: 1, h: 1, reqs: 1, used: used(2, 2, 0)}}, ch: map[string]string{"2>0": "req(1)"}},
			after:  conf{p: []pc{{st: "wait", k: 1, h: 1, maxh: 1, reqs: 1, used: used(0, 2, 2), delayed: []int{2}}, {st: "idle"}, {st: "wait", k: 1, h: 1, reqs: 1, used: used(2, 2, 0)}}, ch: map[string]string{"0>2": "free(1)"}},
		},
		{
			name: "receive req with priority in the critical section, k = M: no message now, delayed",
			p:    basic3, proc: 0, action: "recvReq(1)",
			before: conf{p: []pc{{st: "CS", k: 2, h: 1, reqs: 1}, {st: "wait", k: 1, h: 2, maxh: 1, reqs: 1, used: used(2, 0, 2)}, {st: "idle"}}, ch: map[string]string{"1>0": "req(2)"}},
			after:  conf{p: []pc{{st: "CS", k: 2, h: 1, maxh: 2, reqs: 1, delayed: []int{1}}, {st: "wait", k: 1, h: 2, maxh: 1, reqs: 1, used: used(2, 0, 2)}, {st: "idle"}}},
		},
		{
			name: "(XX) receive req with priority from a process already delayed: free(M)",
			p:    basic3, proc: 0, action: "recvReq(1)",
			before: conf{p: []pc{{st: "CS", k: 1, h: 1, maxh: 2, reqs: 1, delayed: []int{1}}, {st: "wait", k: 1, h: 3, maxh: 2, reqs: 2, used: used(3, 0, 2)}, {st: "idle"}}, ch: map[string]string{"1>0": "req(3)"}},
			after:  conf{p: []pc{{st: "CS", k: 1, h: 1, maxh: 3, reqs: 1, delayed: []int{1}}, {st: "wait", k: 1, h: 3, maxh: 2, reqs: 2, used: used(3, 0, 2)}, {st: "idle"}}, ch: map[string]string{"0>1": "free(2)"}},
		},
		{
			name: "§5.1 has no (XX): a delayed process's req gets free(M-k) again",
			p:    variant3, proc: 0, action: "recvReq(1)",
			before: conf{p: []pc{{st: "CS", k: 1, h: 1, maxh: 2, reqs: 1, delayed: []int{1}}, {st: "wait", k: 1, h: 3, maxh: 2, reqs: 2, used: used(2, 0, 2)}, {st: "idle"}}, ch: map[string]string{"1>0": "req(3)"}},
			after:  conf{p: []pc{{st: "CS", k: 1, h: 1, maxh: 3, reqs: 1, delayed: []int{1}}, {st: "wait", k: 1, h: 3, maxh: 2, reqs: 2, used: used(2, 0, 2)}, {st: "idle"}}, ch: map[string]string{"0>1": "free(1)"}},
		},
		{
			name: "receive free: used decreases; not yet enough",
			p:    basic3, proc: 0, action: "recvFree(1)",
			before: conf{p: []pc{{st: "wait", k: 1, h: 1, reqs: 1, used: used(0, 2, 2)}, {st: "idle"}, {st: "idle"}}, ch: map[string]string{"1>0": "free(2)"}},
			after:  conf{p: []pc{{st: "wait", k: 1, h: 1, reqs: 1, used: used(0, 0, 2)}, {st: "idle"}, {st: "idle"}}},
		},
		{
			name: "receive free: Σused + k ≤ M grants the request",
			p:    basic3, proc: 0, action: "recvFree(2)",
			before: conf{p: []pc{{st: "wait", k: 1, h: 1, reqs: 1, used: used(0, 0, 2)}, {st: "idle"}, {st: "idle"}}, ch: map[string]string{"2>0": "free(1)"}},
			after:  conf{p: []pc{{st: "CS", k: 1, h: 1, reqs: 1, used: used(0, 0, 1)}, {st: "idle"}, {st: "idle"}}},
		},
		{
			name: "receive free while idle: only used changes",
			p:    basic3, proc: 0, action: "recvFree(2)",
			before: conf{p: []pc{{st: "idle", reqs: 1, used: used(0, 0, 1)}, {st: "idle"}, {st: "idle"}}, ch: map[string]string{"2>0": "free(1)"}},
			after:  conf{p: []pc{{st: "idle", reqs: 1, used: used(0, 0, 0)}, {st: "idle"}, {st: "idle"}}},
		},
		{
			name: "§5.1 receive free: used drops to 0 for a peer not asked: ask it now (used := M)",
			p:    variant3, proc: 0, action: "recvFree(1)",
			before: conf{p: []pc{{st: "wait", k: 2, h: 2, maxh: 1, reqs: 2, used: used(0, 1, 2), asked: []int{2}}, {st: "idle"}, {st: "idle"}}, ch: map[string]string{"1>0": "free(1)"}},
			after:  conf{p: []pc{{st: "wait", k: 2, h: 2, maxh: 1, reqs: 2, used: used(0, 2, 2), asked: []int{1, 2}}, {st: "idle"}, {st: "idle"}}, ch: map[string]string{"0>1": "req(2)"}},
		},
		{
			name: "§5.1 receive free: used drops to 0 for a peer already asked: no new req",
			p:    variant3, proc: 0, action: "recvFree(1)",
			before: conf{p: []pc{{st: "wait", k: 2, h: 2, maxh: 1, reqs: 2, used: used(0, 2, 2), asked: []int{1, 2}}, {st: "idle"}, {st: "idle"}}, ch: map[string]string{"1>0": "free(2)"}},
			after:  conf{p: []pc{{st: "wait", k: 2, h: 2, maxh: 1, reqs: 2, used: used(0, 0, 2), asked: []int{1, 2}}, {st: "idle"}, {st: "idle"}}},
		},
		{
			name: "leave: free(k) to every delayed process, delayed := ∅; k and h reset",
			p:    basic3, proc: 1, action: "leave",
			before: conf{p: []pc{{st: "wait", k: 2, h: 2, maxh: 1, reqs: 1, used: used(0, 1, 0)}, {st: "CS", k: 1, h: 1, maxh: 2, reqs: 1, used: used(0, 0, 1), delayed: []int{0, 2}}, {st: "idle"}}},
			after: conf{p: []pc{{st: "wait", k: 2, h: 2, maxh: 1, reqs: 1, used: used(0, 1, 0)}, {st: "idle", maxh: 2, reqs: 1, used: used(0, 0, 1)}, {st: "idle"}},
				ch: map[string]string{"1>0": "free(1)", "1>2": "free(1)"}},
		},
		{
			name: "ghost: a request sets msgs to the reqs sent",
			p:    ghost3, proc: 0, action: "request", choice: 0,
			before: conf{p: []pc{{st: "idle", msgs: 5}, {st: "idle"}, {st: "idle"}}},
			after:  conf{p: []pc{{st: "wait", k: 1, h: 1, reqs: 1, used: used(0, 2, 2), msgs: 2}, {st: "idle"}, {st: "idle"}}, ch: map[string]string{"0>1": "req(1)", "0>2": "req(1)"}},
		},
		{
			name: "ghost: an answer's first free carries its size (2: free(M-k) now, free(k) later)",
			p:    ghost3, proc: 0, action: "recvReq(2)",
			before: conf{p: []pc{{st: "wait", k: 1, h: 1, reqs: 1, used: used(0, 2, 2), msgs: 2}, {st: "idle"}, {st: "wait", k: 1, h: 1, reqs: 1, used: used(2, 2, 0), msgs: 2}}, ch: map[string]string{"2>0": "req(1)"}},
			after:  conf{p: []pc{{st: "wait", k: 1, h: 1, maxh: 1, reqs: 1, used: used(0, 2, 2), delayed: []int{2}, msgs: 2}, {st: "idle"}, {st: "wait", k: 1, h: 1, reqs: 1, used: used(2, 2, 0), msgs: 2}}, ch: map[string]string{"0>2": "free(1|2)"}},
		},
		{
			name: "ghost: a delayed free(k < M) continues its answer (0); the receiver adds the field",
			p:    ghost3, proc: 2, action: "recvFree(0)",
			before: conf{p: []pc{{st: "idle", reqs: 1}, {st: "idle"}, {st: "wait", k: 1, h: 1, reqs: 1, used: used(1, 0, 0), msgs: 4}}, ch: map[string]string{"0>2": "free(1|0)"}},
			after:  conf{p: []pc{{st: "idle", reqs: 1}, {st: "idle"}, {st: "CS", k: 1, h: 1, reqs: 1, used: used(0, 0, 0), msgs: 4}}},
		},
		{
			name: "ghost: a delayed free(M) (k = M) is a whole answer (1)",
			p:    ghost3, proc: 0, action: "leave",
			before: conf{p: []pc{{st: "CS", k: 2, h: 1, reqs: 1, delayed: []int{1}, msgs: 4}, {st: "wait", k: 1, h: 2, maxh: 1, reqs: 1, used: used(2, 0, 0), msgs: 4}, {st: "idle"}}},
			after:  conf{p: []pc{{st: "idle", reqs: 1, msgs: 4}, {st: "wait", k: 1, h: 2, maxh: 1, reqs: 1, used: used(2, 0, 0), msgs: 4}, {st: "idle"}}, ch: map[string]string{"0>1": "free(2|1)"}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys, v := build(t, tc.p)
			for i := range tc.before.p {
				if tc.before.p[i].used == nil {
					tc.before.p[i].used = make([]int, v.N)
				}
				if i < len(tc.after.p) && tc.after.p[i].used == nil {
					tc.after.p[i].used = make([]int, v.N)
				}
			}
			got := raynaltest.Step(t, sys, tc.before.state(t, sys, v), tc.proc, tc.action, tc.choice)
			if tc.disabled {
				if got != nil {
					t.Fatalf("enabled, want disabled: leads to %s", render(sys, v, got))
				}
				return
			}
			if got == nil {
				t.Fatal("disabled, want enabled")
			}
			want := tc.after.state(t, sys, v)
			if !got.Equal(want) {
				t.Errorf("after p%d %s:\n got %s\nwant %s", tc.proc, tc.action, render(sys, v, got), render(sys, v, want))
			}
		})
	}
}

// TestDomainsAndChannels pins the bounds: clock 0..nR, used in [-RM, RM],
// channel capacity 3R with policy error, K = M by default.
func TestDomainsAndChannels(t *testing.T) {
	sys, v := build(t, params{n: 3, m: 2, r: 2})
	if v.Clock != 6 || v.KMax != 2 {
		t.Errorf("clock %d, K %d; want 6 (nR) and 2 (M)", v.Clock, v.KMax)
	}
	for _, tc := range []struct {
		id       model.VarID
		min, max int
	}{{v.H, 0, 6}, {v.MaxH, 0, 6}, {v.Used[0], -4, 4}, {v.K, 0, 2}, {v.Reqs, 0, 2}} {
		if d := sys.Vars[tc.id].Domain; d.Min != tc.min || d.Max != tc.max {
			t.Errorf("%s: domain %s, want %d..%d", sys.Vars[tc.id].Name, d, tc.min, tc.max)
		}
	}
	if len(sys.Channels) != 6 {
		t.Errorf("%d channels, want one per ordered pair, 6", len(sys.Channels))
	}
	for _, ch := range sys.Channels {
		if ch.Capacity != 6 || ch.Overflow != model.Error {
			t.Errorf("channel %d→%d: capacity %d policy %s, want 6 and error", ch.From, ch.To, ch.Capacity, ch.Overflow)
		}
	}
	if sys.HasVar(1, v.Used[1]) || !sys.HasVar(1, v.Used[0]) {
		t.Error("used_i[j] must be declared exactly for j ≠ i")
	}
	if _, _, err := buildVars(t, specs.Values{"n": 3, "M": 2, "K": 3, "requests": 1}); err == nil {
		t.Error("K=3 > M=2 builds")
	}
}

// TestBasicAlgorithmHolds: the algorithm of §3 is safe (at most M units
// allocated, used ≥ 0), deadlock-free and starvation-free under weak
// fairness, for at most R requests per process, on small instances. The
// instance n=3, M=2, R=2 (1,096,552 states, the same check) is a case of
// the regression manifest.
func TestBasicAlgorithmHolds(t *testing.T) {
	cases := []struct {
		p      params
		states int64
	}{
		{params{n: 2, m: 1, r: 2}, 0},
		{params{n: 2, m: 2, r: 3}, 0},
		{params{n: 3, m: 1, r: 2}, 0},
		{params{n: 3, m: 2, r: 1}, 24941},
		{params{n: 3, m: 3, k: 2, r: 1}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.p.String(), func(t *testing.T) {
			sys, _ := build(t, tc.p)
			raynaltest.Holds(t, sys, tc.states)
		})
	}
}

// TestVariantUnsafe is a finding: the reduced-message variant of §5.1
// allocates more than M units. Its premise, "At the time P_i sends a
// request it knows already the number of resources used by some P_j if
// used_i[j] ≠ 0 ; so it is no use to send P_j a request in that case", is
// false: used_i[j] ≠ 0 may be the remainder of an answer to an old request
// of P_i (a free(k_j) still in transit) while P_j has released and made a
// new request that P_i has not yet received. The shortest violation, for
// n=2, M=2, R=2 (13 steps):
//
//	P0 requests 1 (h=1), P1 requests 1 (h=1); P0 has priority: P0 answers
//	free(1) and delays P1, P1 answers free(2); P0 enters, leaves (free(1)
//	to P1) and requests 2 units (h=2: used_0[1] = 0, so it sends req(2)).
//	P1 receives P0's first free(1), used_1[0] = 1, and enters (1+1 ≤ 2);
//	it leaves and requests 1 unit again: used_1[0] = 1 ≠ 0, so it asks
//	nobody and is granted at once (1+1 ≤ 2), with h=2. It then receives
//	free(1) (used_1[0] = 0) and P0's req(2): in its critical section, but
//	(2,1) > (2,0), so it answers free(M) = free(2). P0 enters with 2 units
//	while P1 uses 1: 3 > M.
//
// Safety fails for every instance with M ≥ 2 and R ≥ 2 tried (n=2, 3);
// with M = 1 or R = 1 it holds. Deadlock and starvation freedom hold.
func TestVariantUnsafe(t *testing.T) {
	sys, v := build(t, params{n: 2, m: 2, r: 2, asked: 1})
	rep := spectest.Check(t, sys, spectest.WeakFairnessFromInit(raynaltest.All...))
	safety, deadlock, starvation := rep.Outcomes[0], rep.Outcomes[1], rep.Outcomes[2]
	if deadlock.Verdict != invariants.Holds || starvation.Verdict != invariants.Holds {
		t.Errorf("deadlock %s, starvation %s; want both holds", deadlock.Verdict, starvation.Verdict)
	}
	if safety.Verdict != invariants.Violated || safety.Reason != "invariant units_allocated is false" {
		t.Fatalf("safety %s (%s), want units_allocated violated", safety.Verdict, safety.Reason)
	}
	ce := safety.Counterexample
	if err := ce.Replay(sys); err != nil {
		t.Fatal(err)
	}
	t.Logf("states %d\n%s", rep.Search.States, renderTrace(sys, v, ce))
	if len(ce.Steps) != 13 {
		t.Errorf("%d steps, want 13", len(ce.Steps))
	}
	last := ce.States[len(ce.States)-1]
	if last.Get(0, v.Ok) != 1 || last.Get(0, v.K) != 2 || last.Get(1, v.Ok) != 1 || last.Get(1, v.K) != 1 {
		t.Errorf("last state %s, want P0 using 2 and P1 using 1", render(sys, v, last))
	}
	// P1's second request is granted at once without a message, P0's
	// req(2) then gets free(M) from P1 in its critical section, with the
	// lower priority.
	granted := false
	for i := range ce.Steps {
		m := ce.Steps[i].Moves[0]
		if m.Proc == 1 && sys.Label(&ce.Steps[i]) == "request(kk=1)" && ce.States[i].Get(1, v.Reqs) == 1 {
			next := ce.States[i+1]
			granted = next.Get(1, v.Ok) == 1 && next.Len(sys.ChanBetween(1, 0)) == ce.States[i].Len(sys.ChanBetween(1, 0))
		}
	}
	if !granted {
		t.Error("the trace does not have P1's second request granted at once without a message")
	}
	// The same with three processes (the claim's instance): still violated.
	sys3, _ := build(t, params{n: 3, m: 2, r: 2, asked: 1})
	if o := spectest.Check(t, sys3, spectest.WeakFairnessFromInit(invariants.Safety)).Outcomes[0]; o.Verdict != invariants.Violated {
		t.Errorf("n=3, M=2, R=2: safety %s, want violated", o.Verdict)
	}
}

// TestVariantHoldsWithOneUnitOrOneRequest: the variant's flaw needs a
// leftover used_i[j] that leaves room, so M ≥ 2, and a second request, so
// R ≥ 2; without either the variant is correct on these instances.
func TestVariantHoldsWithOneUnitOrOneRequest(t *testing.T) {
	for _, p := range []params{{n: 2, m: 1, r: 3, asked: 1}, {n: 3, m: 1, r: 2, asked: 1}, {n: 3, m: 2, r: 1, asked: 1}} {
		t.Run(p.String(), func(t *testing.T) {
			sys, _ := build(t, p)
			raynaltest.Holds(t, sys, 0)
		})
	}
}

// TestClockBoundIsReached: nR is the smallest sound clock bound, as
// timestamps reach it; and channels stay within their capacity 3R (their
// largest occupancy is logged).
func TestClockBoundIsReached(t *testing.T) {
	for _, p := range []params{{n: 2, m: 1, r: 2}, {n: 3, m: 1, r: 1}, {n: 2, m: 2, r: 3, asked: 1}} {
		sys, v := build(t, p)
		maxH, maxLen := 0, 0
		raynaltest.Visit(t, sys, func(s *model.State) {
			for i := 0; i < v.N; i++ {
				maxH = max(maxH, s.Get(i, v.H), s.Get(i, v.MaxH))
			}
			for c := range s.Lens {
				maxLen = max(maxLen, int(s.Lens[c]))
			}
		})
		t.Logf("%s: largest timestamp %d, longest channel %d (capacity %d)", p, maxH, maxLen, 3*p.r)
		if maxH != p.n*p.r {
			t.Errorf("%s: largest timestamp %d, want nR = %d", p, maxH, p.n*p.r)
		}
	}
}

// TestXXCase: in §3 the (XX) branch is taken (a req arrives from a
// process already in delayed); §5.1 says it can be removed, as a req never
// arrives from a process in delayed_i. The reachable states say whether a
// req from j ever heads the channel j→i while j ∈ delayed_i.
func TestXXCase(t *testing.T) {
	for _, tc := range []struct {
		p    params
		want bool
	}{
		{params{n: 2, m: 2, r: 2}, true},
		{params{n: 2, m: 2, r: 3, asked: 1}, false},
		{params{n: 3, m: 1, r: 2, asked: 1}, false},
	} {
		sys, v := build(t, tc.p)
		found := false
		raynaltest.Visit(t, sys, func(s *model.State) {
			for i := 0; i < v.N; i++ {
				for j := 0; j < v.N; j++ {
					if i != j && s.Get(i, v.Delayed[j]) == 1 {
						ch := sys.ChanBetween(j, i)
						if s.Len(ch) > 0 && sys.TypeOf(s.At(ch, 0)) == v.Req {
							found = true
						}
					}
				}
			}
		})
		if found != tc.want {
			t.Errorf("%s: a req from a delayed process is received: %v, want %v", tc.p, found, tc.want)
		}
	}
}

// TestExpandDoesNotAllocate: the guards and effects allocate nothing (the
// hot path), with and without the variant and the ghost.
func TestExpandDoesNotAllocate(t *testing.T) {
	for _, p := range []params{{n: 3, m: 2, r: 2}, {n: 3, m: 2, r: 2, asked: 1, count: 1}} {
		t.Run(p.String(), func(t *testing.T) {
			sys, v := build(t, p)
			// Every action enabled somewhere: two requesting processes with
			// messages both ways and a process in its critical section.
			st := conf{p: []pc{
				{st: "wait", k: 1, h: 1, reqs: 1, used: used(0, 2, 2), delayed: []int{2}},
				{st: "CS", k: 1, h: 2, maxh: 1, reqs: 1, used: used(0, 0, 0), delayed: []int{0}},
				{st: "idle", maxh: 1, reqs: 1, used: used(1, 0, 0)},
			}, ch: map[string]string{"0>1": "req(1)", "1>0": "req(2)", "0>2": "free(1)", "2>0": "free(2)"}}
			if p.count == 1 {
				st.ch["0>2"], st.ch["2>0"] = "free(1|0)", "free(2|1)"
			}
			raynaltest.ExpandDoesNotAllocate(t, sys, st.state(t, sys, v))
		})
	}
}

// TestValidEnd: a stop is valid only when every process has made its R
// requests and is idle and every channel is empty.
func TestValidEnd(t *testing.T) {
	sys, v := build(t, params{n: 2, m: 2, r: 1})
	for _, tc := range []struct {
		name string
		cf   conf
		want bool
	}{
		{"initial: requests left", conf{p: []pc{{st: "idle"}, {st: "idle"}}}, false},
		{"all served", conf{p: []pc{{st: "idle", reqs: 1, maxh: 1}, {st: "idle", reqs: 1, maxh: 1}}}, true},
		{"a free in transit", conf{p: []pc{{st: "idle", reqs: 1, used: used(0, 1)}, {st: "idle", reqs: 1}}, ch: map[string]string{"1>0": "free(1)"}}, false},
		{"a process waits for ever", conf{p: []pc{{st: "wait", k: 1, h: 1, reqs: 1, used: used(0, 2)}, {st: "idle", reqs: 1}}}, false},
		{"a process in its critical section", conf{p: []pc{{st: "CS", k: 1, h: 1, reqs: 1}, {st: "idle", reqs: 1}}}, false},
	} {
		for i := range tc.cf.p {
			if tc.cf.p[i].used == nil {
				tc.cf.p[i].used = make([]int, 2)
			}
		}
		if got := sys.ValidEnd.Holds(tc.cf.state(t, sys, v)); got != tc.want {
			t.Errorf("%s: valid end %v, want %v", tc.name, got, tc.want)
		}
	}
}
