package raynal_test

import (
	"slices"
	"strconv"
	"testing"

	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/internal/raynaltest"
)

// buildWindow builds n processes, M units, requests=r (0: recurring) and
// the given clock window (0: the default).
func buildWindow(t testing.TB, n, m, r, window int) (*model.System, Vars) {
	t.Helper()
	sys, v, err := buildVars(t, specs.Values{"n": n, "M": m, "K": 0, "requests": r, "window": window, "asked": 0, "count": 0, "Cmax": 0})
	if err != nil {
		t.Fatal(err)
	}
	return sys, v
}

// enabledOf lists the labels of process p's enabled steps in s.
func enabledOf(t *testing.T, sys *model.System, s *model.State, p int) []string {
	t.Helper()
	var out []string
	if _, err := sys.NewExpander().Expand(s, func(st *model.Step, _ *model.State) bool {
		if int(st.Moves[0].Proc) == p {
			out = append(out, sys.Label(st))
		}
		return true
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRecurringRequests: what process 0 may do once it leaves its critical
// section (n=2, M=1, process 1 idle, the channels empty): with R bounded,
// request again only while it has made fewer than R requests; with
// requests=0, always, with reqs staying 0 and h = maxh+1 modulo W
// (W = 2·4+3 = 11 for n=2).
func TestRecurringRequests(t *testing.T) {
	for _, tc := range []struct {
		name        string
		r, reqs     int
		maxh        int
		enabled     []string
		h, reqsNext int
	}{
		{name: "R=1, its request made: nothing", r: 1, reqs: 1, maxh: 1},
		{name: "R=2, one request left: request, h = maxh+1", r: 2, reqs: 1, maxh: 1, enabled: []string{"request"}, h: 2, reqsNext: 2},
		{name: "recurring: request again, reqs stays 0", r: 0, maxh: 3, enabled: []string{"request"}, h: 4},
		{name: "recurring: h = maxh+1 wraps to 0 at W", r: 0, maxh: 10, enabled: []string{"request"}, h: 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys, v := buildWindow(t, 2, 1, tc.r, 0)
			if tc.r == 0 && (v.W != 11 || !v.Recurring || v.Clock != 10) {
				t.Fatalf("W=%d recurring=%v clock=%d; want 11, true, 10", v.W, v.Recurring, v.Clock)
			}
			cs := conf{p: []pc{{st: "CS", k: 1, h: tc.maxh, maxh: tc.maxh, reqs: tc.reqs, used: used(0, 0)}, {st: "idle", maxh: tc.maxh, used: used(0, 0)}}}
			left := raynaltest.Step(t, sys, cs.state(t, sys, v), 0, "leave", 0)
			if left == nil {
				t.Fatal("leave disabled")
			}
			if got := enabledOf(t, sys, left, 0); !slices.Equal(got, tc.enabled) {
				t.Fatalf("enabled after leave: %q, want %q", got, tc.enabled)
			}
			if tc.enabled == nil {
				return
			}
			next := raynaltest.Step(t, sys, left, 0, "request", 0)
			want := conf{p: []pc{{st: "wait", k: 1, h: tc.h, maxh: tc.maxh, reqs: tc.reqsNext, used: used(0, 1)}, {st: "idle", maxh: tc.maxh, used: used(0, 0)}},
				ch: map[string]string{"0>1": "req(" + strconv.Itoa(tc.h) + ")"}}
			if w := want.state(t, sys, v); !next.Equal(w) {
				t.Errorf("after request:\n got %s\nwant %s", render(sys, v, next), render(sys, v, w))
			}
		})
	}
}

// TestModularComparison: with recurring requests (W = 11 for n=2) the
// timestamps compare by their difference modulo W, so 0 stands for 11
// when the other clocks are near 10.
func TestModularComparison(t *testing.T) {
	for _, tc := range []struct {
		name          string
		before, after conf
	}{
		{
			name:   "req(0) after h=10: the receiver's request is older, it delays the sender; maxh := 0 (11)",
			before: conf{p: []pc{{st: "wait", k: 1, h: 10, maxh: 9, used: used(0, 1)}, {st: "wait", k: 1, h: 0, maxh: 10, used: used(1, 0)}}, ch: map[string]string{"1>0": "req(0)"}},
			after:  conf{p: []pc{{st: "wait", k: 1, h: 10, maxh: 0, used: used(0, 1), delayed: []int{1}}, {st: "wait", k: 1, h: 0, maxh: 10, used: used(1, 0)}}},
		},
		{
			name:   "req(10) before h=0: the sender's request is older, free(M); maxh stays 0",
			before: conf{p: []pc{{st: "wait", k: 1, h: 0, maxh: 10, used: used(0, 1)}, {st: "wait", k: 1, h: 10, maxh: 9, used: used(1, 0)}}, ch: map[string]string{"1>0": "req(10)"}},
			after:  conf{p: []pc{{st: "wait", k: 1, h: 0, maxh: 10, used: used(0, 1)}, {st: "wait", k: 1, h: 10, maxh: 9, used: used(1, 0)}}, ch: map[string]string{"0>1": "free(1)"}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys, v := buildWindow(t, 2, 1, 0, 0)
			got := raynaltest.Step(t, sys, tc.before.state(t, sys, v), 0, "recvReq(1)", 0)
			if want := tc.after.state(t, sys, v); got == nil || !got.Equal(want) {
				t.Errorf("after recvReq(1):\n got %v\nwant %s", got, render(sys, v, want))
			}
		})
	}
}

// TestModularClocksMatchUnbounded checks the recurring model's modular
// clocks against the unbounded model (R requests each, plain clocks) on
// every configuration the latter reaches, with the smallest window that
// holds on the instance, so that the clocks wrap: the same steps, the same
// successors up to the clocks taken modulo W, and the same spread of the
// live clocks (raynaltest.ModularMatchesUnbounded).
func TestModularClocksMatchUnbounded(t *testing.T) {
	// R is at most 4, the parameter's range (n=2, M=1, R=4 reaches
	// timestamp 8, past W-1 = 6).
	for _, tc := range []struct{ n, m, r, window int }{
		{2, 1, 4, 2},
		{2, 2, 4, 2},
		{3, 1, 3, 3},
	} {
		unb, uv := buildWindow(t, tc.n, tc.m, tc.r, 0)
		mod, mv := buildWindow(t, tc.n, tc.m, 0, tc.window)
		got := raynaltest.ModularMatchesUnbounded(t, unb, mod, raynaltest.Clocks{
			H: uv.H, MaxH: uv.MaxH, Reqs: uv.Reqs, Req: uv.Req, HField: 0,
			R: tc.r, W: mv.W, Window: mv.Window,
			Spread:    func(s *model.State) int { return clockSpread(uv, s) },
			ModSpread: func(s *model.State) int { return clockSpread(mv, s) },
		})
		t.Logf("n=%d M=%d R=%d window=%d (W=%d): %d configurations compared", tc.n, tc.m, tc.r, tc.window, mv.W, got)
	}
}
