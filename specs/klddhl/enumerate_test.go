package klddhl_test

import (
	"context"
	"sync"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs/spectest"
)

// key packs a configuration into a map key.
func key(sys *model.System, s *model.State) string {
	words := make([]uint64, sys.Words())
	sys.Pack(s, words)
	b := make([]byte, 0, 8*len(words))
	for _, w := range words {
		for i := 0; i < 8; i++ {
			b = append(b, byte(w>>(8*i)))
		}
	}
	return string(b)
}

// inSet is a monitor that records the visited states missing from a set.
type inSet struct {
	sys     *model.System
	set     map[string]bool
	mu      sync.Mutex
	missing int
}

func (m *inSet) Observe(v *explore.Visit) {
	if !m.set[key(m.sys, v.State)] {
		m.mu.Lock()
		m.missing++
		m.mu.Unlock()
	}
}

func (m *inSet) Decided() bool { return false }

// derivedL returns the enumeration of L that ringcheck derives from the
// file's legitimacy predicate and its closure from predicate
// (model.System.DeriveLegitimateConfigurations), what closure is decided
// from.
func derivedL(t *testing.T, sys *model.System) model.Enumerator {
	t.Helper()
	if sys.LegitimateConfigurations != nil || sys.DeriveLegitimateConfigurations == nil {
		t.Fatal("the catalogue's kl-ddhl does not derive its enumeration of L from its file")
	}
	enum, err := sys.DeriveLegitimateConfigurations(context.Background(), sys, nil)
	if err != nil {
		t.Fatal(err)
	}
	return enum
}

// TestEnumeratedLegitimateConfigurations checks the hand-written
// enumeration of L (enumerateLegitimate) against the file: every
// configuration it yields is legitimate, none twice; they are exactly those
// of the enumeration ringcheck derives from the file's L, which closure is
// decided from; every configuration reachable from init (all legitimate,
// as the safety check shows) is among them; and closure holds over them.
func TestEnumeratedLegitimateConfigurations(t *testing.T) {
	for _, tc := range []struct{ n, l, k, want int }{
		{2, 1, 1, 16680},
		{2, 2, 2, 0},
		{3, 1, 1, 0},
	} {
		sys, v := build(t, tc.n, tc.l, tc.k)
		set := make(map[string]bool)
		v.enumerateLegitimate(sys, func(s *model.State) bool {
			if !sys.Legitimate.Holds(s) {
				t.Fatalf("n=%d L=%d: an enumerated configuration is not legitimate: %s", tc.n, tc.l, render(sys, v, s))
			}
			k := key(sys, s)
			if set[k] {
				t.Fatalf("n=%d L=%d: a configuration enumerated twice", tc.n, tc.l)
			}
			set[k] = true
			return true
		})
		if tc.want > 0 && len(set) != tc.want {
			t.Errorf("n=%d L=%d K=%d: %d legitimate configurations, want %d", tc.n, tc.l, tc.k, len(set), tc.want)
		}
		fromFile := make(map[string]bool)
		derivedL(t, sys)(sys, func(s *model.State) bool {
			k := key(sys, s)
			if fromFile[k] {
				t.Fatalf("n=%d L=%d K=%d: a configuration derived twice: %s", tc.n, tc.l, tc.k, render(sys, v, s))
			}
			if !set[k] {
				t.Fatalf("n=%d L=%d K=%d: the file's enumeration yields %s, which the hand-written one misses", tc.n, tc.l, tc.k, render(sys, v, s))
			}
			fromFile[k] = true
			return true
		})
		if len(fromFile) != len(set) {
			t.Fatalf("n=%d L=%d K=%d: the file's enumeration yields %d configurations, the hand-written one %d", tc.n, tc.l, tc.k, len(fromFile), len(set))
		}
		mon := &inSet{sys: sys, set: set}
		res, err := explore.BFS(context.Background(), sys, mon, explore.Options{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		if mon.missing != 0 {
			t.Fatalf("n=%d L=%d K=%d: %d of the %d reachable configurations are not enumerated", tc.n, tc.l, tc.k, mon.missing, res.States)
		}
		rep, err := invariants.Check(context.Background(), sys, invariants.Options{
			Properties: []invariants.Property{invariants.Closure}, From: invariants.FromAll, Search: explore.Options{Workers: 2},
		})
		if err != nil {
			t.Fatal(err)
		}
		if o := rep.Outcomes[0]; o.Verdict != invariants.Holds || rep.Search.States != int64(len(set)) {
			t.Fatalf("n=%d L=%d K=%d: closure %s over %d configurations, want holds over %d", tc.n, tc.l, tc.k, o.Verdict, rep.Search.States, len(set))
		}
		t.Logf("n=%d L=%d K=%d: %d legitimate configurations, %d reachable from init", tc.n, tc.l, tc.k, len(set), res.States)
	}
}

// TestEnumerationHasNoLegitimateNeighbourMissing is a completeness check
// independent of the initial configuration: every configuration one edit
// away from an enumerated one (spectest.SingleEdits: any variable set to any
// value of its domain; any message of a channel replaced by any message or
// removed; any message inserted into a channel; and every counter value
// rotated by one) that is
// legitimate must be enumerated too.
func TestEnumerationHasNoLegitimateNeighbourMissing(t *testing.T) {
	sys, v := build(t, 2, 1, 1)
	var all []*model.State
	set := make(map[string]bool)
	v.enumerateLegitimate(sys, func(s *model.State) bool {
		all = append(all, s.Clone())
		set[key(sys, s)] = true
		return true
	})
	letters := []model.Msg{sys.Msg(v.Token), sys.Msg(v.Pusher), sys.Msg(v.Priority)}
	for c := 0; c < v.M; c++ {
		for tok := 0; tok <= v.L+1; tok++ {
			for pri := 0; pri <= 2; pri++ {
				for mark := 0; mark <= 1; mark++ {
					letters = append(letters, sys.Msg(v.Priv, c, tok, pri, mark))
				}
			}
		}
	}
	check := func(s *model.State, what string) {
		if sys.Legitimate.Holds(s) && !set[key(sys, s)] {
			t.Fatalf("a legitimate configuration (%s of an enumerated one) is not enumerated", what)
		}
	}
	edit := sys.NewState()
	for _, s := range all {
		// The counter rotated: every C_i and the privilege's value + 1.
		edit.CopyFrom(s)
		for p := range sys.Processes {
			edit.Set(p, v.C, (s.Get(p, v.C)+1)%v.M)
		}
		for c := range sys.Channels {
			ch := model.ChanID(c)
			msgs := spectest.Contents(s, ch)
			for i, m := range msgs {
				if sys.TypeOf(m) == v.Priv {
					msgs[i] = sys.Msg(v.Priv, (sys.Field(m, 0)+1)%v.M, sys.Field(m, 1), sys.Field(m, 2), sys.Field(m, 3))
				}
			}
			spectest.Refill(edit, ch, msgs)
		}
		check(edit, "the counter rotated")
		spectest.SingleEdits(sys, s, letters, check)
	}
	t.Logf("%d legitimate configurations, and no legitimate neighbour missing", len(all))
}
