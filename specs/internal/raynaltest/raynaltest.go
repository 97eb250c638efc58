// Package raynaltest holds the test helpers shared by the tests of
// specs/raynal and specs/raynaland, on top of specs/spectest's: driving one
// action, checking that the claimed properties hold, visiting every
// reachable state, comparing the counts with those of the brute-force
// oracle (specs/internal/raynalbrute), measuring the allocations of an
// expansion, and pieces of the one-line renderings of a configuration.
package raynaltest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs/internal/raynalbrute"
	"github.com/ringcheck/ringcheck/specs/spectest"
)

// All is the properties the specs claim: safety, deadlock and starvation.
var All = []invariants.Property{invariants.Safety, invariants.Deadlock, invariants.Starvation}

// Step returns the successor of s by process p's action (alternative
// choice), or nil if it is not enabled.
func Step(t testing.TB, sys *model.System, s *model.State, p int, action string, choice int) *model.State {
	t.Helper()
	a := spectest.ActionIndex(t, sys, p, action)
	var got *model.State
	if _, err := sys.NewExpander().Expand(s, func(st *model.Step, next *model.State) bool {
		if m := st.Moves[0]; m.Proc == int32(p) && m.Action == a && m.Choice == int32(choice) {
			got = next.Clone()
		}
		return true
	}); err != nil {
		t.Fatal(err)
	}
	return got
}

// Holds checks All on sys and fails t unless every one holds and, when
// states is not 0, the search visited that many states. In -short mode an
// instance of more than 100,000 states is skipped.
func Holds(t testing.TB, sys *model.System, states int64) {
	t.Helper()
	if testing.Short() && states > 100000 {
		t.Skip("large instance")
	}
	rep := spectest.Check(t, sys, spectest.WeakFairnessFromInit(All...))
	t.Logf("%d states, %d transitions, %v", rep.Search.States, rep.Search.Transitions, rep.Search.Elapsed)
	for _, o := range rep.Outcomes {
		if o.Verdict != invariants.Holds {
			t.Errorf("%s %s (%s), want holds", o.Property, o.Verdict, o.Reason)
		}
	}
	if states != 0 && rep.Search.States != states {
		t.Errorf("%d states, want %d", rep.Search.States, states)
	}
}

// stateMonitor calls f on every visited state, serialized.
type stateMonitor struct {
	mu sync.Mutex
	f  func(s *model.State)
}

func (m *stateMonitor) Observe(v *explore.Visit) {
	m.mu.Lock()
	m.f(v.State)
	m.mu.Unlock()
}

func (m *stateMonitor) Decided() bool { return false }

// Visit explores every state reachable from init, calling f on each,
// serialized; the search must be complete.
func Visit(t testing.TB, sys *model.System, f func(s *model.State)) *explore.Result {
	t.Helper()
	res, err := explore.BFS(context.Background(), sys, &stateMonitor{f: f}, explore.Options{Workers: spectest.Workers})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Complete() {
		t.Fatalf("search stopped: %v", res.Stop)
	}
	return res
}

// MatchesBrute fails t unless the states and transitions reachable in sys
// are those the brute-force encoding of inst counts.
func MatchesBrute(t testing.TB, sys *model.System, inst raynalbrute.Instance) {
	t.Helper()
	res := spectest.Reachable(t, sys)
	states, transitions := spectest.CountReachable(raynalbrute.State{}, inst.Successors)
	t.Logf("ringcheck %d states %d transitions; brute force %d, %d", res.States, res.Transitions, states, transitions)
	if res.States != states || res.Transitions != transitions {
		t.Errorf("ringcheck %d states %d transitions; brute force %d, %d", res.States, res.Transitions, states, transitions)
	}
}

// ExpandDoesNotAllocate fails t unless expanding s (which must have
// successors) allocates nothing: the guards and effects are the hot path.
func ExpandDoesNotAllocate(t testing.TB, sys *model.System, s *model.State) {
	t.Helper()
	ex := sys.NewExpander()
	count := 0
	yield := func(*model.Step, *model.State) bool { count++; return true }
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := ex.Expand(s, yield); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 || count == 0 {
		t.Errorf("%v allocations per expansion (%d steps)", allocs, count)
	}
}

// PeerValues renders process i's per-peer variables vars as "1,-,2": the
// value for each peer j, "-" for i itself.
func PeerValues(s *model.State, i, n int, vars []model.VarID) string {
	var b strings.Builder
	for j := 0; j < n; j++ {
		if j > 0 {
			b.WriteString(",")
		}
		if j == i {
			b.WriteString("-")
		} else {
			fmt.Fprintf(&b, "%d", s.Get(i, vars[j]))
		}
	}
	return b.String()
}

// PeerSet renders process i's per-peer booleans vars as the set of peers
// where they hold, "{0,2}".
func PeerSet(s *model.State, i, n int, vars []model.VarID) string {
	var b strings.Builder
	b.WriteString("{")
	sep := ""
	for j := 0; j < n; j++ {
		if j != i && s.Get(i, vars[j]) == 1 {
			fmt.Fprintf(&b, "%s%d", sep, j)
			sep = ","
		}
	}
	b.WriteString("}")
	return b.String()
}

// Channel renders the contents of channel from→to, head first, each
// message as text renders it, separated by spaces.
func Channel(sys *model.System, s *model.State, from, to int, text func(model.Msg) string) string {
	ch := sys.ChanBetween(from, to)
	parts := make([]string, 0, s.Len(ch))
	for x := 0; x < s.Len(ch); x++ {
		parts = append(parts, text(s.At(ch, x)))
	}
	return strings.Join(parts, " ")
}

// Channels renders every non-empty channel as " i→j: m1 m2".
func Channels(sys *model.System, s *model.State, text func(model.Msg) string) string {
	var b strings.Builder
	n := sys.N()
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if i == j || s.Len(sys.ChanBetween(i, j)) == 0 {
				continue
			}
			fmt.Fprintf(&b, " %d→%d: %s", i, j, Channel(sys, s, i, j, text))
		}
	}
	return b.String()
}

// Clocks describes the clocks of a pair of raynal models for
// ModularMatchesUnbounded: the handles of h_i, maxh_i and reqs_i, the req
// message and the index of its field h, the unbounded model's R, the
// modular model's W and Window, and each model's ClockSpread.
type Clocks struct {
	H, MaxH, Reqs model.VarID
	Req           model.MsgType
	HField        int
	R, W, Window  int
	// Spread is the unbounded model's ClockSpread, ModSpread the modular
	// one's.
	Spread, ModSpread func(s *model.State) int
}

// ModularMatchesUnbounded checks the recurring model mod (clocks modulo
// k.W) against the unbounded model unb (at most k.R requests per process,
// plain clocks) on every configuration c that unb reaches. alpha(c) is c
// with h_i, maxh_i and the h of every req taken modulo W and reqs_i := 0;
// the test requires that
//   - every c has a spread of its live clocks of at most Window, and
//     mod's ClockSpread of alpha(c) is that spread (clock-window holds in
//     alpha(c) exactly when it holds in c);
//   - the steps of mod from alpha(c) are those of unb from c, with their
//     successors mapped by alpha: the same enabled process, action and
//     alternative, and the same successor up to alpha; the only steps of
//     mod left out are the requests of the processes that have made their
//     R requests in c, which unb no longer allows;
//   - some c has a clock of at least W, so the modulo is exercised.
//
// It returns the number of configurations compared.
func ModularMatchesUnbounded(t testing.TB, unb, mod *model.System, k Clocks) int {
	t.Helper()
	alpha := func(c *model.State) (*model.State, error) {
		a := mod.NewState()
		for p := range unb.Processes {
			for _, v := range unb.Processes[p].Vars {
				x := c.Get(p, v)
				switch v {
				case k.H, k.MaxH:
					x %= k.W
				case k.Reqs:
					x = 0
				}
				a.Set(p, v, x)
			}
		}
		err := spectest.CopyChannels(unb, mod, c, a, func(typ model.MsgType, fields []int) {
			if typ == k.Req {
				fields[k.HField] %= k.W
			}
		})
		return a, err
	}
	return spectest.MatchesAbstraction(t, unb, mod, spectest.Abstraction{
		Alpha: alpha,
		Extra: func(c *model.State, st *model.Step) bool {
			m := st.Moves[0]
			return mod.ActionOf(m).Name == "request" && c.Get(int(m.Proc), k.Reqs) >= k.R
		},
		Spread: k.Spread, ModSpread: k.ModSpread, Window: k.Window,
		Wraps: func(c *model.State) bool {
			for p := range unb.Processes {
				if c.Get(p, k.MaxH) >= k.W || c.Get(p, k.H) >= k.W {
					return true
				}
			}
			return false
		},
	})
}
