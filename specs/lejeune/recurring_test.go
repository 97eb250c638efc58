package lejeune_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/spectest"
)

// buildRec builds N=n, M=m with requests=r (0: recurring; above 2, the
// unbounded model the recurring one is compared with: moreRequests) and
// the given window (0: the default), loans off, strict=1.
func buildRec(t testing.TB, n, m, r, window, line260 int) (*model.System, *vars) {
	t.Helper()
	return buildValues(t, specs.Values{"N": n, "M": m, "requests": r, "window": window, "loan": 0, "strict": 1, "Cmax": 0, "line260": line260})
}

// enc is an id or counter value x ≥ 0 of the unbounded model as the
// recurring model keeps it: its residue modulo W in 1..W.
func enc(x, w int) int { return ((x-1)%w+w)%w + 1 }

// alphaOf maps a configuration of the unbounded model unb (variables uv)
// to the recurring model's (mv): every request id and counter value taken
// modulo W (enc; a slot's or MyVector's 0, none, stays 0), lastReqC in its
// normal form vars.EffReqC, and the dead snapshot values
// (vars.SnapshotDead) of a process that does not hold the token
// set to 0, as the recurring model's sendToken does.
func alphaOf(unb *model.System, uv *vars, mod *model.System, mv *vars) func(c *model.State) (*model.State, error) {
	w := mv.Ring.W
	nz := func(x int) int {
		if x == 0 {
			return 0
		}
		return enc(x, w)
	}
	return func(c *model.State) (*model.State, error) {
		a := mod.NewState()
		n := uv.N
		for p := 0; p < n; p++ {
			// Every variable is declared in the same order in both models.
			for _, x := range unb.Processes[p].Vars {
				a.Set(p, x, c.Get(p, x))
			}
			a.Set(p, uv.CurID, enc(c.Get(p, uv.CurID), w))
			for r := 0; r < uv.M; r++ {
				held := c.Get(p, uv.TokDir[r]) == n
				a.Set(p, uv.Vec[r], nz(c.Get(p, uv.Vec[r])))
				a.Set(p, uv.Cnt[r], enc(c.Get(p, uv.Cnt[r]), w))
				for q := 0; q < n; q++ {
					cs := c.Get(p, uv.LastCS[r][q])
					if !held && uv.SnapshotDead(p, q) {
						a.Set(p, uv.LastReqC[r][q], 0)
						a.Set(p, uv.LastCS[r][q], 0)
					} else {
						a.Set(p, uv.LastReqC[r][q], enc(uv.EffReqC(c.Get(p, uv.LastReqC[r][q]), cs), w))
						a.Set(p, uv.LastCS[r][q], enc(cs, w))
					}
					for _, x := range []model.VarID{uv.WqID[r][q], uv.WqMark[r][q], uv.WlID[r][q], uv.WlMark[r][q], uv.PcID[r][q], uv.PrID[r][q], uv.PrMark[r][q], uv.PlID[r][q], uv.PlMark[r][q]} {
						a.Set(p, x, nz(c.Get(p, x)))
					}
				}
			}
		}
		err := spectest.CopyChannels(unb, mod, c, a, func(t model.MsgType, f []int) {
			switch t {
			case uv.ReqCnt:
				f[3] = enc(f[3], w)
			case uv.ReqRes, uv.ReqLoan:
				f[3], f[4] = enc(f[3], w), enc(f[4], w)
			case uv.Counter:
				f[2] = enc(f[2], w)
			case uv.Token:
				f[2] = enc(f[2], w)
				for q := 0; q < n; q++ {
					cs := f[3+n+q]
					f[3+q], f[3+n+q] = enc(uv.EffReqC(f[3+q], cs), w), enc(cs, w)
				}
			case uv.TokQ, uv.TokL:
				f[2], f[3] = enc(f[2], w), enc(f[3], w)
			}
		})
		return a, err
	}
}

// TestModularMatchesUnbounded checks the recurring model (requests=0,
// ids and counters modulo W) against the unbounded one (R requests per
// process, plain integers) on every configuration c the latter reaches,
// with spectest.MatchesAbstraction: the id spread of c is at most the
// window and equals the recurring model's id spread of alpha(c); the
// steps of the recurring model from alpha(c), less the requests of a
// process that has made its R requests in c, are those of the unbounded
// model from c, with the same labels and faults and successors equal up
// to alpha; no step widens the id spread by more than one; and some id
// reaches W, so that ids and counters wrap (counters reach 1+2N·R > W).
func TestModularMatchesUnbounded(t *testing.T) {
	for _, tc := range []struct{ n, r, window, line260 int }{
		{2, 5, 1, 0},
		{2, 6, 1, 1},
		{2, 7, 2, 0},
	} {
		t.Run(fmt.Sprintf("N=%d R=%d window=%d line260=%d", tc.n, tc.r, tc.window, tc.line260), func(t *testing.T) {
			unb, uv := buildRec(t, tc.n, 1, tc.r, 0, tc.line260)
			mod, mv := buildRec(t, tc.n, 1, 0, tc.window, tc.line260)
			if !mv.Recurring || mv.Ring.W != 2*tc.window+3 || uv.Recurring {
				t.Fatalf("recurring %v W=%d, unbounded recurring %v", mv.Recurring, mv.Ring.W, uv.Recurring)
			}
			got := spectest.MatchesAbstraction(t, unb, mod, spectest.Abstraction{
				Alpha: alphaOf(unb, uv, mod, mv),
				Extra: func(c *model.State, st *model.Step) bool {
					m := st.Moves[0]
					return mod.ActionOf(m).Name == "request" && c.Get(int(m.Proc), uv.CurID) >= tc.r
				},
				Spread: uv.IDSpread, ModSpread: mv.IDSpread, Window: mv.Ring.Window,
				Widening: true,
				Wraps: func(c *model.State) bool {
					for p := 0; p < tc.n; p++ {
						if c.Get(p, uv.CurID) >= mv.Ring.W {
							return true
						}
					}
					return false
				},
			})
			t.Logf("W=%d: %d configurations compared", mv.Ring.W, got)
		})
	}
}

// TestRecurringBuild: requests=0 keeps ids and counters in 1..W (W
// standing for 0), declares id_window and marks_unordered as abstraction
// invariants (counter_bound, which says nothing then, stays), has no
// valid end state among the configurations it reaches, and is
// refused where it cannot stand for the algorithm: M ≥ 2 (marks average
// counters of several resources) and N ≥ 3 (compared marks lie
// arbitrarily far apart).
func TestRecurringBuild(t *testing.T) {
	sys, v := buildRec(t, 2, 1, 0, 0, 0)
	if v.Ring.Window != 2 || v.Ring.W != 7 {
		t.Errorf("default window %d, W %d; want 2 (N), 7", v.Ring.Window, v.Ring.W)
	}
	var names []string
	for _, p := range sys.Invariants {
		names = append(names, fmt.Sprintf("%s:%v", p.Name, p.Abstraction))
	}
	if got := strings.Join(names, " "); got != "exclusion:false one_token:false counter_bound:false id_window:true marks_unordered:true pseudo_code:false" {
		t.Errorf("invariants %s", got)
	}
	if sys.ValidEnd != nil {
		ends := &validEnds{sys: sys}
		res, err := explore.BFS(context.Background(), sys, ends, explore.Options{Workers: spectest.Workers})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Complete() || ends.n.Load() != 0 {
			t.Errorf("%d valid end states among %d reachable configurations (search %v)", ends.n.Load(), res.States, res.Stop)
		}
	}
	init := sys.Initial()[0]
	for p := 0; p < 2; p++ {
		if init.Get(p, v.CurID) != 7 || init.Get(p, v.LastCS[0][1-p]) != 7 || init.Get(p, v.LastReqC[0][p]) != 7 {
			t.Errorf("process %d: curId %d, lastCS %d, lastReqC %d; want the residue 7 of 0", p, init.Get(p, v.CurID), init.Get(p, v.LastCS[0][1-p]), init.Get(p, v.LastReqC[0][p]))
		}
	}
	for _, tc := range []struct {
		n, m int
		want string
	}{
		{2, 2, "need M=1"},
		{3, 1, "need N=2"},
	} {
		spec := spectest.Builtin(t, "lejeune")
		vals, err := spec.Resolve(specs.Values{"N": tc.n, "M": tc.m, "requests": 0})
		if err == nil {
			_, err = spec.Build(vals)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("N=%d M=%d: error %v, want %q", tc.n, tc.m, err, tc.want)
		}
	}
}

// validEnds counts the valid end states a search visits.
type validEnds struct {
	sys *model.System
	n   atomic.Int64
}

func (m *validEnds) Observe(vis *explore.Visit) {
	if m.sys.ValidEnd.Holds(vis.State) {
		m.n.Add(1)
	}
}

func (m *validEnds) Decided() bool { return false }

// counterGap runs moves from the initial configuration of sys and returns
// the final configuration and the difference between the counter of
// token r0 (held by process holder) and the value of the Counter message
// at the head of channel from→to.
func counterGap(t *testing.T, sys *model.System, v *vars, moves []move, holder, from, to int) (*model.State, int) {
	t.Helper()
	ce := replay(t, sys, moves)
	last := ce.States[len(ce.States)-1]
	ch := chanOf(t, sys, from, to)
	if last.Len(ch) == 0 || last.TypeOf(last.At(ch, 0)) != v.Counter {
		t.Fatalf("no Counter at the head of %d→%d", from, to)
	}
	return last, last.Get(holder, v.Cnt[0]) - sys.Field(last.At(ch, 0), 2)
}

// chanOf is the channel from→to.
func chanOf(t *testing.T, sys *model.System, from, to int) model.ChanID {
	t.Helper()
	for ch, c := range sys.Channels {
		if c.From == from && c.To == to {
			return model.ChanID(ch)
		}
	}
	t.Fatalf("no channel %d→%d", from, to)
	return 0
}

// TestCounterLagN2: the live counter values have no bounded spread, which
// is why the recurring model bounds no counter window. With N=2, M=1,
// process 1 asks a counter of process 0, in its critical section; the
// Counter (value 2) waits in channel 0→1 while process 0 leaves, requests
// and enters again k times with the token it holds, each time taking the
// next counter value: the gap between the token's counter and the value
// in transit is k+1. The value stays uncompared: it becomes process 1's
// mark, and with N=2 no step compares two marks (marks-unordered holds on
// the path, as does id-window). In the recurring model (W=5) the counter
// wraps and the same path is taken.
func TestCounterLagN2(t *testing.T) {
	const k = 5
	moves := []move{{0, "request"}, {1, "request"}, {0, "recvReq(1)"}, {0, "leave"}}
	for i := 0; i < k; i++ {
		moves = append(moves, move{0, "request"}, move{0, "leave"})
	}
	unb, uv := buildRec(t, 2, 1, k+1, 0, 0)
	if _, gap := counterGap(t, unb, uv, moves, 0, 0, 1); gap != k+1 {
		t.Errorf("unbounded: counter gap %d, want %d", gap, k+1)
	}
	mod, mv := buildRec(t, 2, 1, 0, 1, 0)
	ce := replay(t, mod, moves)
	for i, s := range ce.States {
		if !mv.MarksUnordered(s) || mv.IDSpread(s) > mv.Ring.Window {
			t.Fatalf("state %d: marks-unordered %v, id spread %d", i, mv.MarksUnordered(s), mv.IDSpread(s))
		}
	}
	last := ce.States[len(ce.States)-1]
	if got, want := last.Get(0, mv.Cnt[0]), enc(k+3, mv.Ring.W); got != want {
		t.Errorf("recurring: counter %d, want %d (%d modulo %d)", got, want, k+3, mv.Ring.W)
	}
}

// TestComparedMarksGrowN3: with N=3 two marks are compared (line 95) whose
// difference grows with the number of requests, which is why the
// recurring model stops at N=2. Process 1 obtains mark 2 from process 0
// and its ReqRes waits in channel 1→0 while processes 0 and 2 pass the
// token between them k times; then process 2 obtains a mark from process
// 0 in its critical section and both ReqRes are queued at process 0:
// marks 2 and 4+2k, 2+2k apart, and process 0's release picks process 1
// by comparing them. marks-unordered would fail there, and no window of
// marks holds for every k: each round adds 2 to the gap, and nothing
// bounds the rounds with recurring requests (here k ≤ 1: process 0 makes
// k+2 requests, and R=3 is the most a Token of N=3 holds).
func TestComparedMarksGrowN3(t *testing.T) {
	for k := 0; k <= 1; k++ {
		t.Run(fmt.Sprintf("k=%d", k), func(t *testing.T) {
			sys, v := buildRec(t, 3, 1, 3, 0, 0)
			moves := []move{{0, "request"}, {1, "request"}, {0, "recvReq(1)"}, {1, "recvCounter(0)"}, {0, "leave"}}
			for i := 0; i < k; i++ {
				moves = append(moves,
					move{2, "request"}, move{0, "recvReq(2)"}, move{2, "recvToken(0)"}, move{2, "leave"},
					move{0, "request"}, move{2, "recvReq(0)"}, move{0, "recvToken(2)"}, move{0, "leave"})
			}
			moves = append(moves, move{0, "request"}, move{2, "request"}, move{0, "recvReq(2)"},
				move{2, "recvCounter(0)"}, move{0, "recvReq(2)"}, move{0, "recvReq(1)"})
			ce := replay(t, sys, moves)
			last := ce.States[len(ce.States)-1]
			m1, m2 := last.Get(0, v.WqMark[0][1]), last.Get(0, v.WqMark[0][2])
			if last.Get(0, v.WqID[0][1]) == 0 || last.Get(0, v.WqID[0][2]) == 0 || m1 != 2 || m2 != 4+2*k {
				t.Fatalf("wQueue of process 0: marks %d (site 1), %d (site 2); want 2 and %d", m1, m2, 4+2*k)
			}
			if v.MarksUnordered(last) {
				t.Error("marks-unordered holds with two requests queued")
			}
			next, _ := succ(t, sys, last, 0, "leave")
			if next == nil || next.Get(0, v.TokDir[0]) != 1 {
				t.Fatal("process 0's release does not send the token to process 1, of the least mark")
			}
		})
	}
}

// TestRecurringVerdicts: with recurring requests on N=2, M=1 the
// abstraction invariants id-window and marks-unordered hold in every
// reachable configuration (safety holds with them), so the verdicts are
// the unbounded algorithm's: deadlock freedom, and starvation freedom
// under weak, strong, weak-action and strong-action fairness; without
// fairness a requesting process can wait for ever (the other keeps
// entering). Each reading of lines 260–261 and strict=0 alike. The state
// counts pin the model (they grow with W: ids and counters are residues).
func TestRecurringVerdicts(t *testing.T) {
	fair := []invariants.Fairness{invariants.WeakFairness, invariants.StrongFairness, invariants.WeakActionFairness, invariants.StrongActionFairness}
	for _, tc := range []struct {
		window, line260, strict int
		states                  int64
	}{
		{1, 0, 1, 3670},
		{2, 0, 1, 9520},
		{3, 0, 1, 19602},
		{2, 1, 1, 9520},
		{2, 0, 0, 9520},
	} {
		for _, f := range append([]invariants.Fairness{invariants.NoFairness}, fair...) {
			t.Run(fmt.Sprintf("window=%d line260=%d strict=%d %s", tc.window, tc.line260, tc.strict, f), func(t *testing.T) {
				sys, _ := buildValues(t, specs.Values{"N": 2, "M": 1, "requests": 0, "window": tc.window, "loan": 0, "strict": tc.strict, "Cmax": 0, "line260": tc.line260})
				rep := spectest.CheckComplete(t, sys, invariants.Options{
					Properties: []invariants.Property{invariants.Safety, invariants.Deadlock, invariants.Starvation},
					From:       invariants.FromInit, Fairness: f,
					Search: explore.Options{Workers: spectest.Workers},
				})
				if rep.Search.States != tc.states {
					t.Errorf("%d states, want %d", rep.Search.States, tc.states)
				}
				starving := invariants.Holds
				if f == invariants.NoFairness {
					starving = invariants.Violated
				}
				want := []invariants.Verdict{invariants.Holds, invariants.Holds, starving}
				for i, o := range rep.Outcomes {
					if o.Verdict != want[i] {
						t.Errorf("%s %s (%s), want %s", o.Property, o.Verdict, o.Reason, want[i])
					}
				}
			})
		}
	}
}
