package thiare_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs/spectest"
)

// TestRecurringRequests: what node 1 of a 3-node ring may do once it
// leaves its CS (every other node idle, the channels empty): with R
// bounded, request again only while it has made fewer than R requests;
// with requests=0, always, with used staying 0 and seq = H+1 modulo W
// (W = 2·4+3 = 11 with window=4).
func TestRecurringRequests(t *testing.T) {
	for _, tc := range []struct {
		name      string
		r, used   int
		h         int
		request   bool
		seq, next int // seq of the new request, used after it
	}{
		{name: "R=1, its request made: nothing", r: 1, used: 1, h: 1},
		{name: "R=2, one request left: request, SeqNum = H+1", r: 2, used: 1, h: 1, request: true, seq: 2, next: 2},
		{name: "recurring: request again, used stays 0", r: 0, h: 3, request: true, seq: 4},
		{name: "recurring: H+1 wraps to 0 at W", r: 0, h: 10, request: true, seq: 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys, v := build(t, params(t, "n", 3, "requests", tc.r, "window", 4))
			if tc.r == 0 && (v.W != 11 || !v.Recurring || v.S != 10 || v.Lo != 0) {
				t.Fatalf("W=%d recurring=%v S=%d Lo=%d; want 11, true, 10, 0", v.W, v.Recurring, v.S, v.Lo)
			}
			before := config{nodes: []node{{h: tc.h}, {h: tc.h, used: tc.used, state: cs, seq: tc.h}, {h: tc.h}}, in: [][]tok{nil, nil, nil}}
			left, ok := enabled(t, sys, before.state(t, sys, v), 1)["leave"]
			if !ok {
				t.Fatal("leave is not enabled")
			}
			want := config{nodes: []node{{h: tc.h}, {h: tc.h, used: tc.used}, {h: tc.h}}, in: [][]tok{nil, nil, nil}}
			if got := read(sys, v, left); got.String() != want.String() {
				t.Fatalf("after leave:\n got  %v\n want %v", got, want)
			}
			// Leave, request, and again: the node may always request again.
			for round := range 3 {
				en := enabled(t, sys, left, 1)
				next, ok := en["request"]
				if ok != tc.request || len(en) > 1 || len(en) == 1 && !ok {
					t.Fatalf("round %d: enabled %v, want request %v only", round, keys(en), tc.request)
				}
				if !tc.request {
					return
				}
				seq := (tc.seq + round) % (v.S + 1)
				want := config{nodes: []node{{h: tc.h}, {h: seq, used: tc.next, state: waiting, seq: seq}, {h: tc.h}}, in: [][]tok{nil, nil, {{seq, 1, 0}}}}
				if got := read(sys, v, next); got.String() != want.String() {
					t.Fatalf("round %d, after request:\n got  %v\n want %v", round, got, want)
				}
				if tc.r != 0 {
					return
				}
				// The token has gone round (nodes 2 and 0, idle, set H and
				// SN to seq), comes back; the node enters and leaves.
				back := config{nodes: []node{{h: seq}, {h: seq, state: waiting, seq: seq}, {h: seq}}, in: [][]tok{nil, {{seq, 1, 0}}, nil}}
				in := enabled(t, sys, back.state(t, sys, v), 1)["enter"]
				if in == nil {
					t.Fatalf("round %d: enter is not enabled", round)
				}
				if left = enabled(t, sys, in, 1)["leave"]; left == nil {
					t.Fatalf("round %d: leave is not enabled", round)
				}
				tc.h = seq
			}
		})
	}
}

func keys(m map[string]*model.State) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// TestModularComparison: with recurring requests (window=4, W = 11) the
// SeqNums compare by their difference modulo W, so SN 0 arriving where
// the others are near 10 stands for 11: newer, of lower priority.
func TestModularComparison(t *testing.T) {
	_, v := build(t, params(t, "n", 3, "requests", 0, "window", 4))
	for _, tc := range []struct {
		x, y, diff int
	}{
		{0, 10, 1}, {10, 0, -1}, {3, 1, 2}, {1, 3, -2}, {0, 5, -5}, {5, 0, 5}, {4, 4, 0},
	} {
		if got := v.Diff(tc.x, tc.y); got != tc.diff {
			t.Errorf("Diff(%d, %d) = %d, want %d", tc.x, tc.y, got, tc.diff)
		}
	}
	if !v.Higher(10, 2, 0, 0) || v.Higher(0, 0, 10, 2) {
		t.Error("Higher: (10,2) is older than (0,0) modulo 11")
	}
	if v.Max(10, 0) != 0 || v.Max(0, 10) != 0 || v.Max(9, 10) != 10 {
		t.Error("Max: 0 after 10 is the larger modulo 11")
	}
	if v.Next(10) != 0 || v.Next(3) != 4 {
		t.Error("Next wraps at W")
	}
	if !v.Before(v.Code(10, 2, 0), v.Code(0, 0, 0)) || v.Before(v.Code(0, 0, 0), v.Code(10, 2, 0)) {
		t.Error("Before: the queue puts (10,2) before (0,0) modulo 11")
	}
	for code := 1; code <= v.Code(v.S, v.N-1, v.F-1); code++ {
		if s, p, r := v.Decode(code); v.Code(s, p, r) != code || s < 0 || s > v.S {
			t.Fatalf("Decode(%d) = %d,%d,%d", code, s, p, r)
		}
	}

	sys, v := build(t, params(t, "n", 3, "requests", 0, "window", 4))
	for _, tc := range []struct {
		name          string
		action        string
		before, after config
	}{
		{
			name:   "a waiting node (seq 10) queues the token SN 0 (11), newer; H := 0",
			action: "queue",
			before: config{nodes: []node{{}, {h: 10, state: waiting, seq: 10}, {}}, in: [][]tok{nil, {{0, 0, 0}}, nil}},
			after:  config{nodes: []node{{}, {h: 0, state: waiting, seq: 10, queue: []tok{{0, 0, 0}}}, {}}, in: [][]tok{nil, nil, nil}},
		},
		{
			name:   "a waiting node (seq 0, i.e. 11) forwards the token SN 10, older; H stays 0",
			action: "forward",
			before: config{nodes: []node{{}, {h: 0, state: waiting, seq: 0}, {}}, in: [][]tok{nil, {{10, 2, 0}}, nil}},
			after:  config{nodes: []node{{}, {h: 0, state: waiting, seq: 0}, {}}, in: [][]tok{nil, nil, {{10, 2, 0}}}},
		},
		{
			name:   "Rule 2 at an idle node with H = 10: SN 0 (11) is newer, H := SN := 0",
			action: "pass",
			before: config{nodes: []node{{}, {h: 10}, {}}, in: [][]tok{nil, {{0, 0, 0}}, nil}},
			after:  config{nodes: []node{{}, {h: 0}, {}}, in: [][]tok{nil, nil, {{0, 0, 0}}}},
		},
		{
			name:   "Rule 2 at an idle node with H = 0 (11): SN 10 is raised to 0",
			action: "pass",
			before: config{nodes: []node{{}, {h: 0}, {}}, in: [][]tok{nil, {{10, 0, 0}}, nil}},
			after:  config{nodes: []node{{}, {h: 0}, {}}, in: [][]tok{nil, nil, {{0, 0, 0}}}},
		},
		{
			name:   "the queue keeps priority order across the wrap: (10,0) before (0,2)",
			action: "queue",
			before: config{nodes: []node{{}, {h: 0, state: waiting, seq: 9, queue: []tok{{0, 2, 0}}}, {}}, in: [][]tok{nil, {{10, 0, 0}}, nil}},
			after:  config{nodes: []node{{}, {h: 0, state: waiting, seq: 9, queue: []tok{{10, 0, 0}, {0, 2, 0}}}, {}}, in: [][]tok{nil, nil, nil}},
		},
		{
			name:   "Rule 3: leaving releases the queue in that order",
			action: "leave",
			before: config{nodes: []node{{}, {h: 0, state: cs, seq: 9, queue: []tok{{10, 0, 0}, {0, 2, 0}}}, {}}, in: [][]tok{nil, nil, nil}},
			after:  config{nodes: []node{{}, {h: 0}, {}}, in: [][]tok{nil, nil, {{10, 0, 0}, {0, 2, 0}}}},
		},
		{
			name:   "the own token comes back raised across the wrap: enter, H := 1",
			action: "enter",
			before: config{nodes: []node{{}, {h: 10, state: waiting, seq: 10}, {}}, in: [][]tok{nil, {{1, 1, 0}}, nil}},
			after:  config{nodes: []node{{}, {h: 1, state: cs, seq: 10}, {}}, in: [][]tok{nil, nil, nil}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			en := enabled(t, sys, tc.before.state(t, sys, v), 1)
			next, ok := en[tc.action]
			if !ok {
				t.Fatalf("%s is not enabled (enabled: %v)", tc.action, keys(en))
			}
			if got := read(sys, v, next); got.String() != tc.after.String() {
				t.Errorf("after %s:\n got  %v\n want %v", tc.action, got, tc.after)
			}
		})
	}
}

// TestSeqSpread: the spread of the live sequence values is the shortest
// arc of the circle of W residues holding them (W = 11), and seq[r] of an
// idle node is not live.
func TestSeqSpread(t *testing.T) {
	sys, v := build(t, params(t, "n", 3, "requests", 0, "window", 4))
	for _, tc := range []struct {
		cf   config
		want int
	}{
		{config{nodes: []node{{h: 10}, {h: 0}, {h: 1}}, in: [][]tok{nil, nil, nil}}, 2},
		{config{nodes: []node{{h: 10}, {h: 0}, {h: 10}}, in: [][]tok{nil, {{9, 0, 0}}, nil}}, 2},
		{config{nodes: []node{{h: 1}, {h: 1, state: waiting, seq: 8}, {h: 1}}, in: [][]tok{nil, nil, nil}}, 4},
		{config{nodes: []node{{h: 1}, {h: 1, queue: []tok{{7, 0, 0}}, state: waiting, seq: 1}, {h: 1}}, in: [][]tok{nil, nil, nil}}, 5},
		{config{nodes: []node{{h: 2}, {h: 2}, {h: 2}}, in: [][]tok{{{4, 1, 0}}, nil, nil}}, 2},
		{config{nodes: []node{{h: 0}, {h: 0}, {h: 5}}, in: [][]tok{nil, nil, nil}}, 5},
	} {
		s := tc.cf.state(t, sys, v)
		// seq of an idle node is not live: 9 does not count.
		s.Set(0, v.Seq[0], 9)
		if got := v.SeqSpread(s); got != tc.want {
			t.Errorf("%v: spread %d, want %d", tc.cf, got, tc.want)
		}
		holds := sys.Invariants[len(sys.Invariants)-1]
		if holds.Name != "seq_window" || holds.Holds(s) != (tc.want <= 4) {
			t.Errorf("%v: %s %v, want %v", tc.cf, holds.Name, holds.Holds(s), tc.want <= 4)
		}
	}
	// Bounded: the plain spread, and seq_window constrains nothing, even
	// past its window (2n = 6).
	sysb, vb := build(t, params(t, "n", 3, "requests", 3))
	s := config{nodes: []node{{h: 2, used: 1}, {h: 7, used: 3, state: waiting, seq: 7}, {h: 2, used: 1}}, in: [][]tok{nil, nil, {{7, 1, 0}}}}.state(t, sysb, vb)
	if got := vb.SeqSpread(s); got != 5 {
		t.Errorf("bounded spread %d, want 5", got)
	}
	wide := config{nodes: []node{{h: 1, used: 1}, {h: 9, used: 3}, {h: 1, used: 1}}, in: [][]tok{nil, nil, nil}}.state(t, sysb, vb)
	if got := vb.SeqSpread(wide); got != 8 {
		t.Errorf("bounded spread %d, want 8", got)
	}
	for _, p := range sysb.Invariants {
		if p.Name == "seq_window" && (!p.Holds(s) || !p.Holds(wide)) {
			t.Error("seq_window constrains the bounded model")
		}
	}
	// Valid end states: the bounded model's is every request made, every
	// node idle, nothing in transit; the recurring one has none, not even
	// that configuration (with used = 0).
	if sysb.ValidEnd == nil || !sysb.ValidEnd.Holds(config{nodes: []node{{h: 9, used: 3}, {h: 9, used: 3}, {h: 9, used: 3}}, in: [][]tok{nil, nil, nil}}.state(t, sysb, vb)) {
		t.Error("the bounded model has no valid end state where every node is served")
	}
	if sys.ValidEnd != nil && sys.ValidEnd.Holds(config{nodes: []node{{h: 3}, {h: 3}, {h: 3}}, in: [][]tok{nil, nil, nil}}.state(t, sys, v)) {
		t.Error("the recurring model has a valid end state")
	}
}

// TestModularMatchesUnbounded checks the recurring model's modular
// SeqNums against the unbounded model (R requests each, plain SeqNums) on
// every configuration the latter reaches, with a window small enough that
// SeqNums wrap: the same steps, the same successors up to SeqNum and H
// taken modulo W, and the same spread of the live sequence values, which
// no step widens by more than 1 (modularMatchesUnbounded).
func TestModularMatchesUnbounded(t *testing.T) {
	for _, tc := range []struct {
		kv     []any
		r      int
		window int
	}{
		{[]any{"n", 2}, 4, 1},
		{[]any{"n", 2}, 5, 1},
		{[]any{"n", 3}, 3, 2},
		{[]any{"n", 3, "replace", 0}, 3, 2},
		{[]any{"n", 4}, 3, 3},
	} {
		// R may exceed the parameter's range (buildWide takes any R ≥ 1).
		unbVals := params(t, append(slices.Clone(tc.kv), "requests", 1)...)
		unbVals["requests"] = tc.r
		modVals := params(t, append(slices.Clone(tc.kv), "requests", 0, "window", tc.window)...)
		t.Run(unbVals.String(), func(t *testing.T) {
			if testing.Short() && tc.r*unbVals["n"] > 9 {
				t.Skip("short")
			}
			unb, uv := buildWide(t, unbVals)
			mod, mv := build(t, modVals)
			got := modularMatchesUnbounded(t, unb, uv, mod, mv, tc.r)
			t.Logf("window=%d (W=%d): %d configurations compared", tc.window, mv.W, got)
		})
	}
}

// modularMatchesUnbounded checks the recurring model mod (SeqNum and H
// modulo W) against the unbounded model unb (at most r requests per node,
// plain SeqNums) on every configuration c that unb reaches. alpha(c) is c
// with H, seq[r] and the SN of every token (in a queue or a channel) taken
// modulo W and used := 0; the test requires that
//   - every c has a spread of its live sequence values of at most Window,
//     and mod's SeqSpread of alpha(c) is that spread;
//   - no step of unb widens the spread by more than 1;
//   - the steps of mod from alpha(c) are those of unb from c, with their
//     successors mapped by alpha: the same process, action and faultiness,
//     and the same successor up to alpha; the only steps of mod left out
//     are the requests of the nodes that have made their r requests in c,
//     which unb no longer allows;
//   - some c has a SeqNum or H of at least W, so the modulo is exercised.
//
// It returns the number of configurations compared.
func modularMatchesUnbounded(t *testing.T, unb *model.System, uv vars, mod *model.System, mv vars, r int) int {
	t.Helper()
	seqVar := map[model.VarID]bool{uv.H: true}
	queueVar := map[model.VarID]bool{}
	for x := range uv.Seq {
		seqVar[uv.Seq[x]] = true
		for _, slot := range uv.Queue[x] {
			queueVar[slot] = true
		}
	}
	// The variables are matched by name: the bounded queues have
	// (n-1)·R·(1+resend) slots, the recurring ones (n-1)·(1+resend), so
	// the variables declared after them have other handles.
	modVar := map[string]model.VarID{}
	for x := range mod.Vars {
		modVar[mod.Vars[x].Name] = model.VarID(x)
	}
	alpha := func(c *model.State) (*model.State, error) {
		a := mod.NewState()
		for p := range unb.Processes {
			for _, x := range unb.Processes[p].Vars {
				val := c.Get(p, x)
				switch {
				case x == uv.Used:
					val = 0
				case seqVar[x]:
					val %= mv.W
				case queueVar[x] && val != 0:
					sn, pid, rs := uv.Decode(val)
					val = mv.Code(sn%mv.W, pid, rs)
				}
				y, ok := modVar[unb.Vars[x].Name]
				if !ok {
					if !queueVar[x] || val != 0 {
						return nil, fmt.Errorf("%s=%d of node %d has no counterpart in the recurring model", unb.Vars[x].Name, val, p)
					}
					continue
				}
				a.Set(p, y, val)
			}
		}
		err := spectest.CopyChannels(unb, mod, c, a, func(_ model.MsgType, fields []int) {
			fields[fieldSeq] %= mv.W
		})
		return a, err
	}
	return spectest.MatchesAbstraction(t, unb, mod, spectest.Abstraction{
		Alpha: alpha,
		Extra: func(c *model.State, st *model.Step) bool {
			m := st.Moves[0]
			return strings.HasPrefix(mod.ActionOf(m).Name, "request") && c.Get(int(m.Proc), uv.Used) >= r
		},
		Spread: uv.SeqSpread, ModSpread: mv.SeqSpread, Window: mv.Window,
		Widening: true,
		Wraps: func(c *model.State) bool {
			for p := range unb.Processes {
				if c.Get(p, uv.H) >= mv.W {
					return true
				}
			}
			return false
		},
	})
}

// checkFair runs the check of props on sys from init under fairness.
func checkFair(t testing.TB, sys *model.System, fairness invariants.Fairness, props ...invariants.Property) *invariants.Report {
	t.Helper()
	opts := spectest.WeakFairnessFromInit(props...)
	opts.Fairness = fairness
	return spectest.Check(t, sys, opts)
}

// TestRecurringVerdicts pins the verdicts with recurring requests on the
// instances where seq_window holds in every reachable configuration (its
// default window 2n, and the smallest window that holds, n-1), so that
// the deadlock and starvation verdicts are the unbounded algorithm's, and
// the instances out of reach, where seq_window fails.
func TestRecurringVerdicts(t *testing.T) {
	fairnesses := []invariants.Fairness{invariants.NoFairness, invariants.WeakFairness, invariants.WeakActionFairness, invariants.StrongActionFairness}
	for _, tc := range []struct {
		kv        []any
		states    int64
		deadlock  invariants.Verdict
		starving  invariants.Verdict
		fairnesss []invariants.Fairness
	}{
		{[]any{"n", 2}, 198, invariants.Holds, invariants.Holds, fairnesses},
		{[]any{"n", 2, "window", 1}, 90, invariants.Holds, invariants.Holds, fairnesses},
		{[]any{"n", 3}, 2655, invariants.Holds, invariants.Holds, fairnesses},
		{[]any{"n", 3, "window", 2}, 1239, invariants.Holds, invariants.Holds, fairnesses},
		{[]any{"n", 3, "replace", 0}, 2655, invariants.Holds, invariants.Holds, fairnesses},
		{[]any{"n", 4}, 38988, invariants.Holds, invariants.Holds, fairnesses},
		{[]any{"n", 4, "window", 3}, 18468, invariants.Holds, invariants.Holds, []invariants.Fairness{invariants.WeakActionFairness}},
		// Rule 2's deadlock (TestRule2Deadlock) with recurring requests,
		// at the smallest window that holds, n=5 window=4 (314,138 states;
		// 656,834 at the default window 10), and without the replacement,
		// where all three hold, are cases of the regression manifest.
	} {
		vals := params(t, append(slices.Clone(tc.kv), "requests", 0)...)
		for _, fair := range tc.fairnesss {
			t.Run(vals.String()+" "+string(fair), func(t *testing.T) {
				if testing.Short() && tc.states > 100000 {
					t.Skip("short")
				}
				sys, _ := build(t, vals)
				rep := spectest.CheckComplete(t, sys, invariants.Options{
					Properties: all, From: invariants.FromInit, Fairness: fair,
					Search: explore.Options{Workers: spectest.Workers},
				})
				if rep.Search.States != tc.states {
					t.Errorf("%d states, want %d", rep.Search.States, tc.states)
				}
				want := []invariants.Verdict{invariants.Holds, tc.deadlock, tc.starving}
				for i, o := range rep.Outcomes {
					if o.Verdict != want[i] {
						t.Errorf("%s %s (%s), want %s", o.Property, o.Verdict, o.Reason, want[i])
					}
				}
			})
		}
	}
	// Out of reach: seq_window fails, at the default window 2n and at 3n
	// and 4n, with two resources (a node waiting for one resource keeps
	// its SeqNum while requests for the other raise H for ever).
	for _, window := range []int{4, 6, 8} {
		t.Run(fmt.Sprintf("n=2 resources=2 window=%d", window), func(t *testing.T) {
			sys, _ := build(t, params(t, "n", 2, "requests", 0, "resources", 2, "window", window))
			rep := check(t, sys, invariants.Safety)
			if o := rep.Outcomes[0]; o.Verdict != invariants.Violated || o.Reason != "invariant seq_window is false" {
				t.Errorf("safety %s (%s), want seq_window violated", o.Verdict, o.Reason)
			}
		})
	}
	// Rule 4 (resend=1) breaks mutual exclusion with recurring requests as
	// with R=2 (TestRule4StaleTokenBreaksSafety), here already for n=2.
	sys, _ := build(t, params(t, "n", 2, "requests", 0, "resend", 1, "order", 0))
	rep := check(t, sys, invariants.Safety)
	if o := rep.Outcomes[0]; o.Verdict != invariants.Violated || o.Reason != "invariant mutex is false" || len(o.Counterexample.Steps) != 15 {
		t.Errorf("resend=1: safety %s (%s), want mutex violated in 15 steps", o.Verdict, o.Reason)
	}
}

// TestRecurringCapacities: with requests=0 and resend=0 the channels hold
// n·resources tokens and each queue n-1, every token that can exist; a
// send to a full channel or a token queued into a full queue is a faulty
// step (a safety violation), never silent. The configurations are
// hand-made: none of them is reachable.
func TestRecurringCapacities(t *testing.T) {
	for _, tc := range []struct {
		kv          []any
		cap, slots  int
		faultyCases bool
	}{
		{[]any{"n", 3, "requests", 0}, 3, 2, true},
		{[]any{"n", 4, "requests", 0, "resources", 2}, 8, 3, false},
		{[]any{"n", 3, "requests", 0, "resend", 1}, 6, 4, false},
		{[]any{"n", 3, "requests", 2}, 6, 4, false}, // bounded: n·R·(1+resend), (n-1)·R·(1+resend)
	} {
		sys, v := build(t, params(t, tc.kv...))
		if v.Cap != tc.cap || v.Slots != tc.slots || sys.Channels[0].Capacity != tc.cap || len(v.Queue[0]) != tc.slots {
			t.Errorf("%v: capacity %d, %d slots; want %d, %d", tc.kv, v.Cap, v.Slots, tc.cap, tc.slots)
		}
		if !tc.faultyCases {
			continue
		}
		faulty := func(cf config, p int, action string) {
			t.Helper()
			found := false
			if _, err := sys.NewExpander().Expand(cf.state(t, sys, v), func(st *model.Step, _ *model.State) bool {
				if m := st.Moves[0]; int(m.Proc) == p && sys.ActionOf(m).Name == action {
					found = true
					if !st.Faulty() {
						t.Errorf("%s by node %d in %v is not faulty", action, p, cf)
					}
				}
				return true
			}); err != nil {
				t.Fatal(err)
			}
			if !found {
				t.Errorf("%s by node %d is not enabled in %v", action, p, cf)
			}
		}
		full := [][]tok{nil, {{1, 2, 0}, {1, 0, 0}, {2, 0, 0}}, nil}
		faulty(config{nodes: []node{{h: 1}, {h: 1}, {h: 1}}, in: full}, 0, "request")
		faulty(config{nodes: []node{{h: 2}, {h: 2, state: cs, seq: 1, queue: []tok{{1, 0, 0}, {1, 2, 0}}}, {h: 2}}, in: [][]tok{nil, {{2, 0, 0}}, nil}}, 1, "queue")
	}
}
