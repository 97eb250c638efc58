package lejeune_test

import (
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/spectest"
)

// build builds the catalogue's lejeune for N=n, M=m, requests=r, the
// loan threshold and strict, the other parameters at their defaults.
func build(t testing.TB, n, m, r, loan, strict int) (*model.System, *vars) {
	t.Helper()
	return buildValues(t, values(n, m, r, loan, strict))
}

// succ returns the successor of s by process p's step labelled label (as
// in traces: "request(D=1)", "recvToken(2)", "leave"), or nil if
// that step is not enabled.
func succ(t testing.TB, sys *model.System, s *model.State, p int, label string) (*model.State, *model.Step) {
	t.Helper()
	var out *model.State
	var st model.Step
	_, err := sys.NewExpander().Expand(s, func(step *model.Step, next *model.State) bool {
		if int(step.Moves[0].Proc) == p && sys.Label(step) == label {
			out, st = next.Clone(), step.Clone()
			return false
		}
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	if out == nil {
		return nil, nil
	}
	return out, &st
}

type move struct {
	p     int
	label string
}

// replay runs moves from the initial configuration, failing if one is not
// enabled; it returns the configurations and the steps, a Path
// counterexample that Counterexample.Replay validates again.
func replay(t testing.TB, sys *model.System, moves []move) *invariants.Counterexample {
	t.Helper()
	cur := sys.Initial()[0]
	ce := &invariants.Counterexample{Kind: invariants.Path, States: []*model.State{cur}}
	for i, mv := range moves {
		next, st := succ(t, sys, cur, mv.p, mv.label)
		if next == nil {
			t.Fatalf("step %d: p%d %s is not enabled", i+1, mv.p, mv.label)
		}
		ce.States = append(ce.States, next)
		ce.Steps = append(ce.Steps, *st)
		cur = next
	}
	if err := ce.Replay(sys); err != nil {
		t.Fatal(err)
	}
	return ce
}

func invariant(t testing.TB, sys *model.System, name string) *model.Predicate {
	t.Helper()
	for i := range sys.Invariants {
		if sys.Invariants[i].Name == name {
			return &sys.Invariants[i]
		}
	}
	t.Fatalf("no invariant %s", name)
	return nil
}

// msgs renders channel p→q.
func msgs(sys *model.System, v *vars, s *model.State, p, q int) string {
	ch := sys.ChanBetween(p, q)
	var parts []string
	for i := 0; i < s.Len(ch); i++ {
		parts = append(parts, msgString(sys, v, s.At(ch, i)))
	}
	return strings.Join(parts, " ")
}

// check checks props from init under weak fairness, and fails unless the
// search was complete or found a violation.
func check(t testing.TB, sys *model.System, props ...invariants.Property) *invariants.Report {
	t.Helper()
	return spectest.Check(t, sys, spectest.WeakFairnessFromInit(props...))
}

// TestInitialConfiguration pins Figure 9: process 0 (the elected node)
// holds every token, every other tokDir points to it, every counter is 1,
// every process is idle and every channel empty.
func TestInitialConfiguration(t *testing.T) {
	sys, v := build(t, 3, 2, 1, 0, 1)
	init := sys.Initial()
	if len(init) != 1 {
		t.Fatalf("%d initial configurations", len(init))
	}
	s := init[0]
	for p := 0; p < 3; p++ {
		for r := 0; r < 2; r++ {
			want := 0
			if p == 0 {
				want = v.N
			}
			if got := s.Get(p, v.TokDir[r]); got != want {
				t.Errorf("p%d tokDir[%d] = %d, want %d", p, r, got, want)
			}
			if s.Get(p, v.Cnt[r]) != 1 || s.Get(p, v.Lender[r]) != v.N {
				t.Errorf("p%d lastTok[%d]: counter %d lender %d", p, r, s.Get(p, v.Cnt[r]), s.Get(p, v.Lender[r]))
			}
		}
		if s.Get(p, v.St) != idle || s.Get(p, v.CurID) != 0 {
			t.Errorf("p%d is not idle with curId 0", p)
		}
	}
	for _, inv := range sys.Invariants {
		if !inv.Holds(s) {
			t.Errorf("invariant %s fails initially", inv.Name)
		}
	}
	if v.C != 1+2*3*1 || v.L != 2 {
		t.Errorf("C=%d L=%d, want 7 and 2", v.C, v.L)
	}
	for _, ch := range sys.Channels {
		if ch.Capacity != 4+2*3*2 || ch.Overflow != model.Error {
			t.Errorf("channel %d→%d: capacity %d policy %s", ch.From, ch.To, ch.Capacity, ch.Overflow)
		}
	}
	if len(sys.Channels) != 6 {
		t.Errorf("%d channels, want 6 (complete graph)", len(sys.Channels))
	}
	spec := spectest.Builtin(t, "lejeune")
	for _, bad := range []specs.Values{
		{"N": 5, "M": 2, "requests": 1, "loan": 0, "strict": 1, "Cmax": 0},
		{"N": 3, "M": 4, "requests": 1, "loan": 0, "strict": 1, "Cmax": 0},
		{"N": 3, "M": 2, "requests": 1, "loan": 2, "strict": 1, "Cmax": 0},
		{"N": 3, "M": 1, "requests": 1, "loan": 1, "strict": 1, "Cmax": 0},
		{"N": 4, "M": 2, "requests": 2, "loan": 0, "strict": 1, "Cmax": 0},
	} {
		if vals, err := spec.Resolve(bad); err == nil {
			if _, err := spec.Build(vals); err == nil {
				t.Errorf("%v builds", bad)
			}
		}
	}
}

// TestSpecParams: the catalogue entry's defaults build, and name the
// paper's claims for both loan settings.
func TestSpecParams(t *testing.T) {
	sp := spectest.Builtin(t, "lejeune")
	vals, err := sp.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	if vals["N"] != 3 || vals["M"] != 2 || vals["requests"] != 1 || vals["loan"] != 0 || vals["strict"] != 1 {
		t.Errorf("defaults %v", vals)
	}
	if _, err := sp.Build(vals); err != nil {
		t.Fatal(err)
	}
	loans := map[int]int{}
	for _, c := range sp.Claims {
		loans[c.Params["loan"]]++
	}
	if loans[0] != 3 || loans[1] != 3 {
		t.Errorf("claims per loan setting %v, want 3 and 3", loans)
	}
}

// TestMark: A is the average of the non-zero counters, stored times
// L = lcm(1..M); requests are ordered by (mark, site).
func TestMark(t *testing.T) {
	sys, v := build(t, 3, 3, 1, 0, 1)
	if v.L != 6 {
		t.Fatalf("L=%d, want 6", v.L)
	}
	// p1 holds r0 and r2 with counters 3 and 4 and requests {r0,r1,r2};
	// r1 is at p0, in its critical section on {r1}. p1's vector becomes
	// (3,0,4); the counter of r1 comes from p0 (value 2), making (3,2,4):
	// A = 3, mark 18.
	s := sys.Initial()[0]
	for r := 0; r < 3; r++ {
		s.Set(0, v.TokDir[r], 1)
		s.Set(1, v.TokDir[r], v.N)
		s.Set(2, v.TokDir[r], 1)
	}
	s.Set(1, v.TokDir[1], 0)
	s.Set(0, v.TokDir[1], v.N)
	s.Set(1, v.Cnt[0], 3)
	s.Set(1, v.Cnt[2], 4)
	s.Set(0, v.Cnt[1], 2)
	s.Set(0, v.St, inCS)
	s.Set(0, v.Req, 2)
	s.Set(0, v.Vec[1], 1)
	s.Set(0, v.CurID, 1)
	s1, _ := succ(t, sys, s, 1, "request(D=7)")
	if got := [3]int{s1.Get(1, v.Vec[0]), s1.Get(1, v.Vec[1]), s1.Get(1, v.Vec[2])}; got != [3]int{3, 0, 4} {
		t.Fatalf("vector %v", got)
	}
	s2, _ := succ(t, sys, s1, 0, "recvReq(1)")
	s3, _ := succ(t, sys, s2, 1, "recvCounter(0)")
	if s3 == nil {
		t.Fatalf("no counter: %s", render(sys, v, s2))
	}
	if got := msgs(sys, v, s3, 1, 0); got != "ReqRes(r1,1/1@18,V=10)" {
		t.Errorf("p1 sends %q, want ReqRes(r1,1/1@18,V=10) (A=(3+2+4)/3=3, ×6)", got)
	}
}
