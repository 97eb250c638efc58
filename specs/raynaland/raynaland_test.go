package raynaland_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/internal/raynaltest"
	"github.com/ringcheck/ringcheck/specs/spectest"
)

// params is an instance: n, types, M, K (0: M), R.
type params struct{ n, t, m, k, r int }

func (p params) String() string {
	return fmt.Sprintf("n=%d,types=%d,M=%d,K=%d,R=%d", p.n, p.t, p.m, p.k, p.r)
}

// vars are the handles of the variables and messages of raynal-and, by
// the names specs/ring/raynal-and.ring declares: per-type arrays are
// indexed by type, per-peer ones by type, then peer j (the file declares
// an entry for j = i too, never read nor assigned).
type vars struct {
	H, MaxH, Reqs model.VarID
	Scdem, Ok, K  []model.VarID
	Used, Delayed [][]model.VarID
	Req, Free     model.MsgType
	N, T          int
}

// build returns the catalogue's raynal-and (specs/ring/raynal-and.ring)
// for p, with channels of the default capacity.
func build(t testing.TB, p params) (*model.System, vars) {
	t.Helper()
	sys := spectest.Build(t, "raynal-and", specs.Values{"n": p.n, "types": p.t, "M": p.m, "K": p.k, "requests": p.r, "Cmax": 0})
	v := vars{
		H: spectest.Var(t, sys, "h"), MaxH: spectest.Var(t, sys, "maxh"), Reqs: spectest.Var(t, sys, "reqs"),
		Req: spectest.MsgType(t, sys, "req"), Free: spectest.MsgType(t, sys, "free"),
		N: p.n, T: p.t,
	}
	for x := range p.t {
		v.Scdem = append(v.Scdem, spectest.Var(t, sys, fmt.Sprintf("scdem[%d]", x)))
		v.Ok = append(v.Ok, spectest.Var(t, sys, fmt.Sprintf("ok[%d]", x)))
		v.K = append(v.K, spectest.Var(t, sys, fmt.Sprintf("k[%d]", x)))
		var used, delayed []model.VarID
		for j := range p.n {
			used = append(used, spectest.Var(t, sys, fmt.Sprintf("used[%d][%d]", x, j)))
			delayed = append(delayed, spectest.Var(t, sys, fmt.Sprintf("delayed[%d][%d]", x, j)))
		}
		v.Used, v.Delayed = append(v.Used, used), append(v.Delayed, delayed)
	}
	return sys, v
}

// allocated is the number of units of type x allocated in s: Σ k_i(x)
// over the processes with ok_i(x).
func allocated(v vars, s *model.State, x int) int {
	sum := 0
	for i := range v.N {
		if s.Get(i, v.Ok[x]) == 1 {
			sum += s.Get(i, v.K[x])
		}
	}
	return sum
}

// requesting reports whether process p waits for some type (some
// scdem_p(α)).
func requesting(v vars, s *model.State, p int) bool {
	for x := range v.T {
		if s.Get(p, v.Scdem[x]) == 1 {
			return true
		}
	}
	return false
}

// inCS reports whether process p has a demand and every type it names
// granted.
func inCS(v vars, s *model.State, p int) bool {
	named := false
	for x := range v.T {
		if s.Get(p, v.K[x]) > 0 {
			named = true
			if s.Get(p, v.Ok[x]) == 0 {
				return false
			}
		}
	}
	return named
}

// demands returns the demand each choice of process 0's request asks for
// in the initial configuration of sys: k_0(α) for every type α after the
// step, by choice.
func demands(t testing.TB, sys *model.System, v vars) [][]int {
	t.Helper()
	init := sys.Initial()[0]
	var out [][]int
	for c := 0; ; c++ {
		s := raynaltest.Step(t, sys, init, 0, "request", c)
		if s == nil {
			return out
		}
		d := make([]int, v.T)
		for x := range v.T {
			d[x] = s.Get(0, v.K[x])
		}
		out = append(out, d)
	}
}

// render writes a configuration on one line: per process its timestamps
// and, per type α, "α:state k used delayed", then the non-empty channels.
func render(sys *model.System, v vars, s *model.State) string {
	var b strings.Builder
	for i := 0; i < v.N; i++ {
		fmt.Fprintf(&b, "P%d[h=%d maxh=%d reqs=%d", i, s.Get(i, v.H), s.Get(i, v.MaxH), s.Get(i, v.Reqs))
		for x := 0; x < v.T; x++ {
			st := "-"
			switch {
			case s.Get(i, v.Scdem[x]) == 1:
				st = "wait"
			case s.Get(i, v.Ok[x]) == 1:
				st = "ok"
			}
			fmt.Fprintf(&b, " %d:%s k=%d used=%s delayed=%s", x, st, s.Get(i, v.K[x]),
				raynaltest.PeerValues(s, i, v.N, v.Used[x]), raynaltest.PeerSet(s, i, v.N, v.Delayed[x]))
		}
		b.WriteString("] ")
	}
	b.WriteString(raynaltest.Channels(sys, s, msgText(sys, v)))
	return b.String()
}

// msgText renders a message as req(α,h) or free(α,y).
func msgText(sys *model.System, v vars) func(model.Msg) string {
	return func(m model.Msg) string {
		name := "free"
		if sys.TypeOf(m) == v.Req {
			name = "req"
		}
		return fmt.Sprintf("%s(%d,%d)", name, sys.Field(m, 0), sys.Field(m, 1))
	}
}

// chanText returns channel from→to's contents as rendered.
func chanText(sys *model.System, v vars, s *model.State, from, to int) string {
	return raynaltest.Channel(sys, s, from, to, msgText(sys, v))
}

// choiceOf returns the choice of the request asking for demand.
func choiceOf(t testing.TB, sys *model.System, v vars, demand ...int) int {
	t.Helper()
	for c, d := range demands(t, sys, v) {
		if fmt.Sprint(d) == fmt.Sprint(demand) {
			return c
		}
	}
	t.Fatalf("no alternative %v", demand)
	return -1
}

// TestDemands: every vector of 0..K per type but the zero one.
func TestDemands(t *testing.T) {
	sys, v := build(t, params{n: 2, t: 2, m: 2, r: 1})
	if got := fmt.Sprint(demands(t, sys, v)); got != "[[0 1] [0 2] [1 0] [1 1] [1 2] [2 0] [2 1] [2 2]]" {
		t.Errorf("demands %s", got)
	}
	sys, v = build(t, params{n: 3, t: 3, m: 1, r: 2})
	if d, label := demands(t, sys, v), sys.Processes[0].Actions[0].Label(choiceOf(t, sys, v, 1, 0, 1)); len(d) != 7 || label != "request(c=5)" {
		t.Errorf("%d demands, label %s", len(d), label)
	}
	for _, ch := range sys.Channels {
		if ch.Capacity != 3*2*3 || ch.Overflow != model.Error {
			t.Errorf("channel %d→%d capacity %d policy %s, want 3RT = 18, error", ch.From, ch.To, ch.Capacity, ch.Overflow)
		}
	}
}

// TestActionSemantics follows one scenario of n=2, two types, M=2 step by
// step through every action, checking each statement of §6 and §3.
func TestActionSemantics(t *testing.T) {
	sys, v := build(t, params{n: 2, t: 2, m: 2, r: 2})
	s := sys.Initial()[0]

	// P0 demands (1 of type 0, none of type 1): one timestamp, reqs for
	// type 0 only.
	s = raynaltest.Step(t, sys, s, 0, "request", choiceOf(t, sys, v, 1, 0))
	if s.Get(0, v.H) != 1 || s.Get(0, v.Scdem[0]) != 1 || s.Get(0, v.Scdem[1]) != 0 || s.Get(0, v.Used[0][1]) != 2 || s.Get(0, v.Used[1][1]) != 0 {
		t.Fatalf("after P0's request: %s", render(sys, v, s))
	}
	if got := chanText(sys, v, s, 0, 1); got != "req(0,1)" {
		t.Errorf("0→1 holds %q, want req(0,1)", got)
	}
	// P1 demands (1, 2): reqs for both types, in type order, one timestamp.
	s = raynaltest.Step(t, sys, s, 1, "request", choiceOf(t, sys, v, 1, 2))
	if got := chanText(sys, v, s, 1, 0); got != "req(0,1) req(1,1)" {
		t.Errorf("1→0 holds %q, want req(0,1) req(1,1)", got)
	}
	// P0 receives req(0, (1,1)): it has priority on type 0 ((1,0) < (1,1)):
	// free(0, M-k) and P1 delayed for type 0.
	s = raynaltest.Step(t, sys, s, 0, "recvReq(1)", 0)
	if s.Get(0, v.Delayed[0][1]) != 1 || s.Get(0, v.MaxH) != 1 || chanText(sys, v, s, 0, 1) != "req(0,1) free(0,1)" {
		t.Fatalf("after P0 receives req(0,1): %s", render(sys, v, s))
	}
	// P0 receives req(1, (1,1)): type 1 is not in its demand: free(1, M).
	s = raynaltest.Step(t, sys, s, 0, "recvReq(1)", 0)
	if s.Get(0, v.Delayed[1][1]) != 0 || chanText(sys, v, s, 0, 1) != "req(0,1) free(0,1) free(1,2)" {
		t.Fatalf("after P0 receives req(1,1): %s", render(sys, v, s))
	}
	// P1 receives req(0, (1,0)) without priority: free(0, M).
	s = raynaltest.Step(t, sys, s, 1, "recvReq(0)", 0)
	if chanText(sys, v, s, 1, 0) != "free(0,2)" || s.Get(1, v.Delayed[0][0]) != 0 {
		t.Fatalf("after P1 receives req(0,1): %s", render(sys, v, s))
	}
	// P1 receives free(0, 1): used(0)[0] = 1, 1 + k(0) = 2 ≤ M: type 0
	// granted; type 1 still waits, so P1 is not in its critical section.
	s = raynaltest.Step(t, sys, s, 1, "recvFree(0)", 0)
	if s.Get(1, v.Ok[0]) != 1 || s.Get(1, v.Scdem[0]) != 0 || s.Get(1, v.Scdem[1]) != 1 || inCS(v, s, 1) || !requesting(v, s, 1) {
		t.Fatalf("after P1 receives free(0,1): %s", render(sys, v, s))
	}
	if raynaltest.Step(t, sys, s, 1, "leave", 0) != nil {
		t.Fatal("P1 may leave with type 1 not granted")
	}
	// P1 receives free(1, 2): type 1 granted; P1 is in its critical
	// section, while P0 (which asked first) still waits for P1's answer
	// in transit: allocated type 0 is 1 ≤ M.
	s = raynaltest.Step(t, sys, s, 1, "recvFree(0)", 0)
	if !inCS(v, s, 1) || requesting(v, s, 1) || allocated(v, s, 0) != 1 || allocated(v, s, 1) != 2 {
		t.Fatalf("after P1 receives free(1,2): %s", render(sys, v, s))
	}
	// P0 receives free(0, 2) and enters: type 0 allocated 1 + 1 = 2.
	s = raynaltest.Step(t, sys, s, 0, "recvFree(1)", 0)
	if !inCS(v, s, 0) || allocated(v, s, 0) != 2 {
		t.Fatalf("after P0 receives free(0,2): %s", render(sys, v, s))
	}
	// P0 leaves: free(0, k(0)) to the delayed P1; k and h reset.
	s = raynaltest.Step(t, sys, s, 0, "leave", 0)
	if chanText(sys, v, s, 0, 1) != "free(0,1)" || s.Get(0, v.Delayed[0][1]) != 0 || s.Get(0, v.K[0]) != 0 || s.Get(0, v.H) != 0 || s.Get(0, v.Ok[0]) != 0 {
		t.Fatalf("after P0 leaves: %s", render(sys, v, s))
	}
	// P1 leaves: nothing delayed, nothing sent.
	s = raynaltest.Step(t, sys, s, 1, "leave", 0)
	if chanText(sys, v, s, 1, 0) != "" || inCS(v, s, 1) {
		t.Fatalf("after P1 leaves: %s", render(sys, v, s))
	}
	// P1 receives the delayed free(0, 1): used(0)[0] back to 0.
	s = raynaltest.Step(t, sys, s, 1, "recvFree(0)", 0)
	for i := 0; i < 2; i++ {
		for x := 0; x < 2; x++ {
			if s.Get(i, v.Used[x][1-i]) != 0 {
				t.Errorf("used_%d(%d)[%d] = %d, want 0", i, x, 1-i, s.Get(i, v.Used[x][1-i]))
			}
		}
	}
	for _, inv := range sys.Invariants {
		if !inv.Holds(s) {
			t.Errorf("invariant %s fails", inv.Name)
		}
	}
}

// TestAndAllocationHolds: per-type safety, deadlock freedom and starvation
// freedom under weak fairness hold, for at most R requests per process, on
// small instances; n=3, two types, one unit each, R=1 is the spec's claim
// instance.
func TestAndAllocationHolds(t *testing.T) {
	for _, tc := range []struct {
		p      params
		states int64
	}{
		{params{n: 2, t: 2, m: 1, r: 2}, 1442},
		{params{n: 2, t: 2, m: 1, r: 3}, 4580},
		{params{n: 2, t: 3, m: 1, r: 2}, 11961},
		{params{n: 2, t: 2, m: 2, r: 2}, 23147},
		{params{n: 3, t: 2, m: 1, r: 1}, 289529},
	} {
		t.Run(tc.p.String(), func(t *testing.T) {
			sys, _ := build(t, tc.p)
			raynaltest.Holds(t, sys, tc.states)
		})
	}
}

// TestOneTypeIsRaynal: with a single type, §6 is §3: the same reachable
// states and transitions as the catalogue's raynal with asked=0.
func TestOneTypeIsRaynal(t *testing.T) {
	for _, p := range []params{{n: 2, t: 1, m: 2, r: 2}, {n: 3, t: 1, m: 2, r: 1}, {n: 2, t: 1, m: 3, k: 2, r: 3}} {
		sys, _ := build(t, p)
		and := spectest.Reachable(t, sys)
		r := spectest.Reachable(t, spectest.Build(t, "raynal", specs.Values{"n": p.n, "M": p.m, "K": p.k, "requests": p.r, "asked": 0, "count": 0, "Cmax": 0}))
		if and.States != r.States || and.Transitions != r.Transitions {
			t.Errorf("%s: raynal-and %d states %d transitions, raynal %d, %d", p, and.States, and.Transitions, r.States, r.Transitions)
		}
	}
}

// TestExpandDoesNotAllocate: the guards and effects allocate nothing.
func TestExpandDoesNotAllocate(t *testing.T) {
	sys, v := build(t, params{n: 3, t: 2, m: 2, r: 2})
	s := sys.Initial()[0]
	for _, mv := range []struct {
		p      int
		action string
		choice int
	}{{0, "request", choiceOf(t, sys, v, 1, 1)}, {1, "request", choiceOf(t, sys, v, 2, 1)}, {1, "recvReq(0)", 0}, {0, "recvReq(1)", 0}} {
		if s = raynaltest.Step(t, sys, s, mv.p, mv.action, mv.choice); s == nil {
			t.Fatalf("%s not enabled", mv.action)
		}
	}
	raynaltest.ExpandDoesNotAllocate(t, sys, s)
}
