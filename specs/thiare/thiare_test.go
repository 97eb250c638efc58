package thiare_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/spectest"
)

// tok is a token (resource 0): SeqNum, PID, Resend.
type tok struct{ seq, pid, resend int }

func (k tok) String() string {
	if k.resend == 1 {
		return fmt.Sprintf("(%d,%d)*", k.seq, k.pid)
	}
	return fmt.Sprintf("(%d,%d)", k.seq, k.pid)
}

// node is one node's variables for resource 0.
type node struct {
	h, used, state, seq, resent int
	queue                       []tok
}

// config is a hand-written configuration of a single-resource ring: the
// nodes and the channel INTO each node, head first.
type config struct {
	nodes []node
	in    [][]tok
}

func (cf config) state(t testing.TB, sys *model.System, v vars) *model.State {
	t.Helper()
	n := sys.N()
	s := sys.NewState()
	for p, nd := range cf.nodes {
		s.Set(p, v.H, nd.h)
		s.Set(p, v.Used, nd.used)
		s.Set(p, v.State[0], nd.state)
		s.Set(p, v.Seq[0], nd.seq)
		s.Set(p, v.Resent[0], nd.resent)
		for k, q := range nd.queue {
			s.Set(p, v.Queue[0][k], v.Code(q.seq, q.pid, q.resend))
		}
		for _, m := range cf.in[p] {
			if !s.Push(sys.ChanBetween((p+n-1)%n, p), sys.Msg(v.Token, m.seq, m.pid, 0, m.resend)) {
				t.Fatalf("channel into %d is full", p)
			}
		}
	}
	if err := sys.Validate(s); err != nil {
		t.Fatal(err)
	}
	return s
}

// read decodes a configuration of a single-resource ring.
func read(sys *model.System, v vars, s *model.State) config {
	n := sys.N()
	cf := config{nodes: make([]node, n), in: make([][]tok, n)}
	for p := range n {
		nd := node{h: s.Get(p, v.H), used: s.Get(p, v.Used), state: s.Get(p, v.State[0]), seq: s.Get(p, v.Seq[0])}
		nd.resent = s.Get(p, v.Resent[0])
		for _, slot := range v.Queue[0] {
			if code := s.Get(p, slot); code != 0 {
				sq, pid, rs := v.Decode(code)
				nd.queue = append(nd.queue, tok{sq, pid, rs})
			}
		}
		cf.nodes[p] = nd
		c := sys.ChanBetween((p+n-1)%n, p)
		for i := 0; i < s.Len(c); i++ {
			m := s.At(c, i)
			cf.in[p] = append(cf.in[p], tok{sys.Field(m, fieldSeq), sys.Field(m, fieldPID), sys.Field(m, fieldResend)})
		}
	}
	return cf
}

var stateNames = []string{"idle", "waiting", "cs"}

func (cf config) String() string {
	var b strings.Builder
	for p, nd := range cf.nodes {
		fmt.Fprintf(&b, "p%d{H=%d used=%d %s seq=%d resent=%d Q=%v in=%v} ", p, nd.h, nd.used, stateNames[nd.state], nd.seq, nd.resent, nd.queue, cf.in[p])
	}
	return strings.TrimSpace(b.String())
}

// enabled lists the labels of p's enabled actions in s, with the successor
// of each; with one resource, request(r=0), leave(r=0) and timeout(r=0)
// are listed as request, leave and timeout.
func enabled(t testing.TB, sys *model.System, s *model.State, p int) map[string]*model.State {
	t.Helper()
	out := map[string]*model.State{}
	_, err := sys.NewExpander().Expand(s, func(step *model.Step, next *model.State) bool {
		if m := step.Moves[0]; int(m.Proc) == p {
			out[label(sys, step)] = next.Clone()
		}
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// label is step's label, with the resource of request, leave and timeout
// left out when sys has one resource.
func label(sys *model.System, step *model.Step) string {
	l := sys.Label(step)
	if _, two := sys.VarByName("state[1]"); !two {
		l = strings.TrimSuffix(l, "(r=0)")
	}
	return l
}

var receipts = []string{"enter", "stale", "discard", "pass", "queue", "forward"}

// TestReceipt drives the receipt of a token by node 1 of a 3-node ring
// (it receives from 0 and sends to 2): exactly one receipt action applies,
// with the effect of Rules 2–4 as the package documents them.
func TestReceipt(t *testing.T) {
	for _, tc := range []struct {
		name   string
		keepSN bool // replace=0
		before config
		action string
		after  config
	}{
		{
			name:   "Rule 2: an idle node replaces SN by HSeqNumSeen and passes the token",
			action: "pass",
			before: config{nodes: []node{{}, {h: 3, used: 1}, {}}, in: [][]tok{nil, {{1, 0, 0}}, nil}},
			after:  config{nodes: []node{{}, {h: 3, used: 1}, {}}, in: [][]tok{nil, nil, {{3, 0, 0}}}},
		},
		{
			name:   "Rule 2: H is updated with the token's SN first, so the SN never decreases",
			action: "pass",
			before: config{nodes: []node{{}, {h: 1}, {}}, in: [][]tok{nil, {{3, 2, 0}}, nil}},
			after:  config{nodes: []node{{}, {h: 3}, {}}, in: [][]tok{nil, nil, {{3, 2, 0}}}},
		},
		{
			name:   "replace=0: an idle node passes SN unchanged",
			keepSN: true,
			action: "pass",
			before: config{nodes: []node{{}, {h: 3}, {}}, in: [][]tok{nil, {{1, 0, 0}}, nil}},
			after:  config{nodes: []node{{}, {h: 3}, {}}, in: [][]tok{nil, nil, {{1, 0, 0}}}},
		},
		{
			name:   "Rule 2: a waiting node forwards a higher-priority token unchanged",
			action: "forward",
			before: config{nodes: []node{{}, {h: 4, used: 1, state: waiting, seq: 2}, {}}, in: [][]tok{nil, {{1, 2, 0}}, nil}},
			after:  config{nodes: []node{{}, {h: 4, used: 1, state: waiting, seq: 2}, {}}, in: [][]tok{nil, nil, {{1, 2, 0}}}},
		},
		{
			name:   "priority tie on SN: the smaller PID wins (forward)",
			action: "forward",
			before: config{nodes: []node{{}, {h: 1, used: 1, state: waiting, seq: 1}, {}}, in: [][]tok{nil, {{1, 0, 0}}, nil}},
			after:  config{nodes: []node{{}, {h: 1, used: 1, state: waiting, seq: 1}, {}}, in: [][]tok{nil, nil, {{1, 0, 0}}}},
		},
		{
			name:   "priority tie on SN: the larger PID is queued",
			action: "queue",
			before: config{nodes: []node{{}, {h: 1, used: 1, state: waiting, seq: 1}, {}}, in: [][]tok{nil, {{1, 2, 0}}, nil}},
			after:  config{nodes: []node{{}, {h: 1, used: 1, state: waiting, seq: 1, queue: []tok{{1, 2, 0}}}, {}}, in: [][]tok{nil, nil, nil}},
		},
		{
			name:   "Rule 2: a waiting node queues a lower-priority token, in priority order",
			action: "queue",
			before: config{nodes: []node{{}, {h: 3, used: 1, state: waiting, seq: 1, queue: []tok{{3, 2, 0}}}, {}}, in: [][]tok{nil, {{2, 0, 0}}, nil}},
			after:  config{nodes: []node{{}, {h: 3, used: 1, state: waiting, seq: 1, queue: []tok{{2, 0, 0}, {3, 2, 0}}}, {}}, in: [][]tok{nil, nil, nil}},
		},
		{
			name:   "Rule 2: a node in its CS queues every token, even one of higher priority",
			action: "queue",
			before: config{nodes: []node{{}, {h: 2, used: 1, state: cs, seq: 2}, {}}, in: [][]tok{nil, {{1, 0, 0}}, nil}},
			after:  config{nodes: []node{{}, {h: 2, used: 1, state: cs, seq: 2, queue: []tok{{1, 0, 0}}}, {}}, in: [][]tok{nil, nil, nil}},
		},
		{
			name:   "Rule 3: the own token comes back, whatever its SN became: enter",
			action: "enter",
			before: config{nodes: []node{{}, {h: 1, used: 1, state: waiting, seq: 1}, {}}, in: [][]tok{nil, {{4, 1, 0}}, nil}},
			after:  config{nodes: []node{{}, {h: 4, used: 1, state: cs, seq: 1}, {}}, in: [][]tok{nil, nil, nil}},
		},
		{
			name:   "an own token arriving when not waiting is deleted",
			action: "stale",
			before: config{nodes: []node{{}, {h: 1, used: 1}, {}}, in: [][]tok{nil, {{2, 1, 1}}, nil}},
			after:  config{nodes: []node{{}, {h: 2, used: 1}, {}}, in: [][]tok{nil, nil, nil}},
		},
		{
			name:   "Rule 4: a resent token whose originator already has a token queued here is discarded",
			action: "discard",
			before: config{nodes: []node{{}, {h: 3, used: 1, state: waiting, seq: 1, queue: []tok{{3, 2, 0}}}, {}}, in: [][]tok{nil, {{2, 2, 1}}, nil}},
			after:  config{nodes: []node{{}, {h: 3, used: 1, state: waiting, seq: 1, queue: []tok{{3, 2, 0}}}, {}}, in: [][]tok{nil, nil, nil}},
		},
		{
			name:   "Rule 4: a resent token not found is handled by Rule 2 and keeps Resend = 1",
			action: "pass",
			before: config{nodes: []node{{}, {h: 3}, {}}, in: [][]tok{nil, {{2, 2, 1}}, nil}},
			after:  config{nodes: []node{{}, {h: 3}, {}}, in: [][]tok{nil, nil, {{3, 2, 1}}}},
		},
		{
			name:   "a Resend = 0 token is never tested for duplicates",
			action: "queue",
			before: config{nodes: []node{{}, {h: 3, used: 1, state: waiting, seq: 1, queue: []tok{{3, 2, 1}}}, {}}, in: [][]tok{nil, {{2, 2, 0}}, nil}},
			after:  config{nodes: []node{{}, {h: 3, used: 1, state: waiting, seq: 1, queue: []tok{{2, 2, 0}, {3, 2, 1}}}, {}}, in: [][]tok{nil, nil, nil}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			replace := 1
			if tc.keepSN {
				replace = 0
			}
			sys, v := build(t, params(t, "n", 3, "requests", 2, "resend", 1, "replace", replace))
			en := enabled(t, sys, tc.before.state(t, sys, v), 1)
			for _, r := range receipts {
				if _, ok := en[r]; ok != (r == tc.action) {
					t.Errorf("%s enabled %v, want %v", r, ok, r == tc.action)
				}
			}
			next, ok := en[tc.action]
			if !ok {
				t.Fatalf("%s is not enabled", tc.action)
			}
			if got := read(sys, v, next); got.String() != tc.after.String() {
				t.Errorf("after %s:\n got  %v\n want %v", tc.action, got, tc.after)
			}
		})
	}
}

// TestRequestLeaveTimeout pins Rule 1 (a request uses HSeqNumSeen+1 and
// sends the token to the successor), Rule 3's exit (the queue is released
// to the successor, highest priority first, behind what is already in the
// channel) and Rule 4's timeout guard.
func TestRequestLeaveTimeout(t *testing.T) {
	for _, tc := range []struct {
		name     string
		requests int
		before   config
		action   string // "" : none of request, leave, timeout is enabled
		after    config
	}{
		{
			name:     "Rule 1: request with SeqNum = HSeqNumSeen+1",
			requests: 2,
			action:   "request",
			before:   config{nodes: []node{{}, {h: 2, used: 1, resent: 1}, {}}, in: [][]tok{nil, nil, nil}},
			after:    config{nodes: []node{{}, {h: 3, used: 2, state: waiting, seq: 3}, {}}, in: [][]tok{nil, nil, {{3, 1, 0}}}},
		},
		{
			name:     "after R requests a node stays idle",
			requests: 2,
			before:   config{nodes: []node{{}, {h: 2, used: 2}, {}}, in: [][]tok{nil, nil, nil}},
		},
		{
			name:     "Rule 3: leaving releases the queue in priority order",
			requests: 2,
			action:   "leave",
			before:   config{nodes: []node{{}, {h: 3, used: 1, state: cs, seq: 1, resent: 1, queue: []tok{{1, 2, 1}, {3, 0, 0}}}, {}}, in: [][]tok{nil, nil, {{4, 0, 0}}}},
			after:    config{nodes: []node{{}, {h: 3, used: 1}, {}}, in: [][]tok{nil, nil, {{4, 0, 0}, {1, 2, 1}, {3, 0, 0}}}},
		},
		{
			name:     "Rule 4: the timeout resends the original token when it is held in a queue",
			requests: 1,
			action:   "timeout",
			before:   config{nodes: []node{{}, {h: 2, used: 1, state: waiting, seq: 1}, {h: 2, used: 1, state: waiting, seq: 2, queue: []tok{{2, 1, 0}}}}, in: [][]tok{nil, nil, nil}},
			after:    config{nodes: []node{{}, {h: 2, used: 1, state: waiting, seq: 1, resent: 1}, {h: 2, used: 1, state: waiting, seq: 2, queue: []tok{{2, 1, 0}}}}, in: [][]tok{nil, nil, {{1, 1, 1}}}},
		},
		{
			name:     "no timeout while the token is in transit",
			requests: 1,
			before:   config{nodes: []node{{h: 2, used: 1, state: waiting, seq: 2}, {h: 2, used: 1, state: waiting, seq: 1}, {}}, in: [][]tok{{{1, 1, 0}}, nil, nil}},
		},
		{
			name:     "no second timeout for the same request",
			requests: 1,
			before:   config{nodes: []node{{}, {h: 2, used: 1, state: waiting, seq: 1, resent: 1}, {h: 2, used: 1, state: waiting, seq: 2, queue: []tok{{2, 1, 0}}}}, in: [][]tok{nil, nil, nil}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys, v := build(t, params(t, "n", 3, "requests", tc.requests, "resend", 1))
			en := enabled(t, sys, tc.before.state(t, sys, v), 1)
			for _, a := range []string{"request", "leave", "timeout"} {
				if _, ok := en[a]; ok != (a == tc.action) {
					t.Errorf("%s enabled %v, want %v", a, ok, a == tc.action)
				}
			}
			if tc.action == "" {
				return
			}
			if got := read(sys, v, en[tc.action]); got.String() != tc.after.String() {
				t.Errorf("after %s:\n got  %v\n want %v", tc.action, got, tc.after)
			}
		})
	}
	// Without Rule 4 there is no timeout action, and tokens carry Resend = 0.
	sys, _ := build(t, params(t, "resend", 0))
	for _, act := range sys.Processes[0].Actions {
		if act.Kind == model.Timeout {
			t.Errorf("resend=0 declares timeout action %s", act.Name)
		}
	}
}

// TestPriority pins the paper's order: Pri(SN_1, PID_1) > Pri(SN_2, PID_2)
// iff SN_1 < SN_2 or (SN_1 = SN_2 and PID_1 < PID_2); queue codes follow
// it, and the file's queue slots hold every code.
func TestPriority(t *testing.T) {
	for _, tc := range []struct {
		s1, p1, s2, p2 int
		want           bool
	}{
		{1, 2, 2, 0, true}, {2, 0, 1, 2, false}, {1, 0, 1, 1, true}, {1, 1, 1, 0, false}, {3, 1, 3, 1, false},
	} {
		if got := higher(tc.s1, tc.p1, tc.s2, tc.p2); got != tc.want {
			t.Errorf("Higher(%d,%d, %d,%d) = %v", tc.s1, tc.p1, tc.s2, tc.p2, got)
		}
	}
	sys, v := build(t, params(t, "n", 3, "requests", 2, "resend", 1))
	// The file's slots hold every code, up to the last token's.
	if d := sys.Vars[v.Queue[0][0]].Domain; d.Min != 0 || d.Max != v.Code(v.S, v.N-1, v.F-1) {
		t.Errorf("queue slots range over %d..%d, want 0..%d", d.Min, d.Max, v.Code(v.S, v.N-1, v.F-1))
	}
	prev := 0
	for s := 1; s <= v.S; s++ {
		for p := range v.N {
			for r := range v.F {
				c := v.Code(s, p, r)
				if c <= prev {
					t.Fatalf("code(%d,%d,%d) = %d is not above %d", s, p, r, c, prev)
				}
				if gs, gp, gr := v.Decode(c); gs != s || gp != p || gr != r {
					t.Fatalf("Decode(Code(%d,%d,%d)) = %d,%d,%d", s, p, r, gs, gp, gr)
				}
				prev = c
			}
		}
	}
}

// TestInitialAndValidEnd: every node idle with H = 0 and nothing in
// transit; a valid end state needs every request made, every node idle and
// nothing in transit.
func TestInitialAndValidEnd(t *testing.T) {
	sys, v := build(t, params(t, "n", 3, "requests", 1))
	init := sys.Initial()
	if len(init) != 1 {
		t.Fatalf("%d initial configurations", len(init))
	}
	zero := config{nodes: make([]node, 3), in: make([][]tok, 3)}
	if got := read(sys, v, init[0]); got.String() != zero.String() {
		t.Errorf("initial configuration %v", got)
	}
	for _, tc := range []struct {
		cf   config
		want bool
	}{
		{config{nodes: []node{{h: 3, used: 1}, {h: 3, used: 1}, {h: 3, used: 1}}, in: [][]tok{nil, nil, nil}}, true},
		{config{nodes: []node{{h: 3, used: 1}, {h: 3, used: 0}, {h: 3, used: 1}}, in: [][]tok{nil, nil, nil}}, false},
		{config{nodes: []node{{h: 3, used: 1}, {h: 3, used: 1}, {h: 3, used: 1}}, in: [][]tok{nil, {{3, 0, 0}}, nil}}, false},
		{config{nodes: []node{{h: 3, used: 1, state: waiting, seq: 3}, {h: 3, used: 1}, {h: 3, used: 1}}, in: [][]tok{nil, nil, nil}}, false},
	} {
		if got := sys.ValidEnd.Holds(tc.cf.state(t, sys, v)); got != tc.want {
			t.Errorf("%v: valid end %v, want %v", tc.cf, got, tc.want)
		}
	}
	if _, err := spectest.Builtin(t, "thiare").Build(specs.Values{"n": 1, "requests": 1, "resources": 1}); err == nil {
		t.Error("n=1 builds")
	}
}

// check runs invariants.Check on sys for the given properties, from init
// under weak fairness, and fails unless the search was complete or found a
// violation.
func check(t testing.TB, sys *model.System, props ...invariants.Property) *invariants.Report {
	t.Helper()
	return spectest.Check(t, sys, spectest.WeakFairnessFromInit(props...))
}

var all = []invariants.Property{invariants.Safety, invariants.Deadlock, invariants.Starvation}

// TestDefaultInstance is the done criterion: `check thiare -p n=3 --check
// safety,deadlock,starvation --fairness weak` with every other parameter
// at its default decides every property exhaustively, and all hold.
func TestDefaultInstance(t *testing.T) {
	s := spectest.Builtin(t, "thiare")
	vals, err := s.Resolve(map[string]int{"n": 3})
	if err != nil {
		t.Fatal(err)
	}
	sys, err := s.Build(vals)
	if err != nil {
		t.Fatal(err)
	}
	rep := check(t, sys, all...)
	if !rep.Search.Complete() {
		t.Fatalf("search stopped: %v", rep.Search.Stop)
	}
	for _, o := range rep.Outcomes {
		if o.Verdict != invariants.Holds {
			t.Errorf("%s %s (%s), want holds", o.Property, o.Verdict, o.Reason)
		}
	}
	if rep.Search.States != 3100 {
		t.Errorf("%d states, want 3100", rep.Search.States)
	}
}

// TestVerdicts pins the verdicts on the instances where every claim of the
// paper holds.
func TestVerdicts(t *testing.T) {
	for _, tc := range []struct {
		kv     []any
		states int64
	}{
		{[]any{"n", 2, "requests", 1}, 30},
		{[]any{"n", 2, "requests", 2}, 126},
		{[]any{"n", 2, "requests", 3}, 325},
		{[]any{"n", 3, "requests", 1}, 293},
		{[]any{"n", 3, "requests", 3}, 13761},
		{[]any{"n", 4, "requests", 1}, 3382},
		{[]any{"n", 4, "requests", 2}, 89308},
		{[]any{"n", 3, "requests", 1, "resources", 2}, 2089},
		{[]any{"n", 3, "requests", 1, "resend", 1}, 2338},
		{[]any{"n", 3, "requests", 2, "replace", 0}, 3100},
	} {
		vals := params(t, tc.kv...)
		t.Run(vals.String(), func(t *testing.T) {
			if testing.Short() && tc.states > 20000 {
				t.Skip("short")
			}
			sys, _ := build(t, vals)
			rep := check(t, sys, all...)
			if !rep.Search.Complete() {
				t.Fatalf("search stopped: %v", rep.Search.Stop)
			}
			for _, o := range rep.Outcomes {
				if o.Verdict != invariants.Holds {
					t.Errorf("%s %s (%s), want holds", o.Property, o.Verdict, o.Reason)
				}
			}
			if rep.Search.States != tc.states {
				t.Errorf("%d states, want %d", rep.Search.States, tc.states)
			}
		})
	}
}
