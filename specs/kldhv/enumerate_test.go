package kldhv_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs/spectest"
)

// packed is a configuration's packed form, as a map key.
type packed [6]uint64

// key packs a configuration into a map key.
func key(sys *model.System, s *model.State) packed {
	var k packed
	if sys.Words() > len(k) {
		panic(fmt.Sprintf("%d words do not fit a key", sys.Words()))
	}
	sys.Pack(s, k[:sys.Words()])
	return k
}

// inSet is a monitor that records the visited states missing from a set.
type inSet struct {
	sys     *model.System
	v       vars
	set     map[packed]bool
	mu      sync.Mutex
	missing int
	first   string
}

func (m *inSet) Observe(vis *explore.Visit) {
	if !m.set[key(m.sys, vis.State)] {
		m.mu.Lock()
		if m.missing == 0 {
			m.first = render(m.sys, m.v, vis.State)
		}
		m.missing++
		m.mu.Unlock()
	}
}

func (m *inSet) Decided() bool { return false }

// enumerated collects the hand-written enumeration of L of sys
// (enumerateLegitimate, and a copy of every every-th configuration; none if
// every is 0), failing on a configuration that is not legitimate or that
// is yielded twice.
func enumerated(t *testing.T, sys *model.System, v vars, every int) (map[packed]bool, []*model.State) {
	t.Helper()
	set := make(map[packed]bool)
	var all []*model.State
	v.enumerateLegitimate(sys, func(s *model.State) bool {
		if !sys.Legitimate.Holds(s) {
			t.Fatalf("an enumerated configuration is not legitimate: %s", render(sys, v, s))
		}
		k := key(sys, s)
		if set[k] {
			t.Fatalf("a configuration enumerated twice: %s", render(sys, v, s))
		}
		if every > 0 && len(set)%every == 0 {
			all = append(all, s.Clone())
		}
		set[k] = true
		return true
	})
	return set, all
}

// derived collects the enumeration of L that ringcheck derives from the
// file's legitimacy predicate (model.System.DeriveLegitimateConfigurations,
// what closure is decided from), failing on a configuration yielded twice.
func derived(t *testing.T, sys *model.System, v vars) map[packed]bool {
	t.Helper()
	if sys.LegitimateConfigurations != nil || sys.DeriveLegitimateConfigurations == nil {
		t.Fatal("the catalogue's kl-dhv does not derive its enumeration of L from its file")
	}
	enum, err := sys.DeriveLegitimateConfigurations(context.Background(), sys, nil)
	if err != nil {
		t.Fatal(err)
	}
	set := make(map[packed]bool)
	enum(sys, func(s *model.State) bool {
		k := key(sys, s)
		if set[k] {
			t.Fatalf("a configuration derived twice: %s", render(sys, v, s))
		}
		set[k] = true
		return true
	})
	return set
}

// TestEnumeratedLegitimateConfigurations checks the hand-written
// enumeration of L against the file: every configuration it yields is
// legitimate, none twice; they are exactly those of the enumeration
// ringcheck derives from the file's legitimacy predicate, which closure is
// decided from (where derive says so); and every configuration reachable
// from init (all legitimate: TestReachableStatesAreLegitimate) is among
// them.
func TestEnumeratedLegitimateConfigurations(t *testing.T) {
	for _, tc := range []struct {
		n, l, k, maxSeq int
		want            int
		// derive: compare with the derived enumeration (minutes of BDD
		// work for ℓ = 2).
		derive bool
	}{
		{2, 1, 1, 1, 10496, true},
		{2, 2, 1, 1, 0, false},
		{3, 1, 1, 1, 210688, true},
	} {
		t.Run(fmt.Sprintf("n=%d,L=%d,K=%d,MaxSeq=%d", tc.n, tc.l, tc.k, tc.maxSeq), func(t *testing.T) {
			sys, v := build(t, "n", tc.n, "L", tc.l, "K", tc.k, "MaxSeq", tc.maxSeq)
			set, _ := enumerated(t, sys, v, 0)
			if tc.want > 0 && len(set) != tc.want {
				t.Errorf("%d legitimate configurations, want %d", len(set), tc.want)
			}
			fromFile := set
			if tc.derive {
				fromFile = derived(t, sys, v)
			}
			for k := range fromFile {
				if !set[k] {
					s := sys.NewState()
					sys.Unpack(k[:sys.Words()], s)
					t.Fatalf("the file's enumeration yields %s, which the hand-written one misses", render(sys, v, s))
				}
			}
			if len(fromFile) != len(set) {
				t.Fatalf("the file's enumeration yields %d configurations, the hand-written one %d", len(fromFile), len(set))
			}
			mon := &inSet{sys: sys, v: v, set: set}
			res, err := explore.BFS(context.Background(), sys, mon, explore.Options{Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			if mon.missing != 0 {
				t.Fatalf("%d of the %d reachable configurations are not enumerated, e.g. %s", mon.missing, res.States, mon.first)
			}
			t.Logf("%d legitimate configurations, %d reachable from init", len(set), res.States)
		})
	}
}

// TestEnumerationHasNoLegitimateNeighbourMissing is a completeness check
// independent of the initial configuration: every configuration one edit
// away from an enumerated one (any variable set to any value of its
// domain; any message of a channel replaced by any message or removed; any
// message inserted anywhere in a channel, alone or with a unit taken out
// of C_e or C_f; the sequence numbers — every MySeq and
// the CToken's — rotated by one; a unit moved between C_e and C_f) that
// is legitimate must be enumerated too.
func TestEnumerationHasNoLegitimateNeighbourMissing(t *testing.T) {
	for _, tc := range []struct{ n, l, k, cmax, maxSeq, every int }{
		{2, 1, 1, 0, 1, 1},
		// A channel capacity below the default (2ℓ+2) keeps the set small;
		// a sample: every 100th enumerated configuration is edited.
		{2, 2, 2, 3, 1, 100},
	} {
		t.Run(fmt.Sprintf("n=%d,L=%d,K=%d,Cmax=%d,MaxSeq=%d", tc.n, tc.l, tc.k, tc.cmax, tc.maxSeq), func(t *testing.T) {
			sys, v := build(t, "n", tc.n, "L", tc.l, "K", tc.k, "Cmax", tc.cmax, "MaxSeq", tc.maxSeq)
			set, all := enumerated(t, sys, v, tc.every)
			letters := []model.Msg{sys.Msg(v.EnabledToken), sys.Msg(v.Token), sys.Msg(v.Disable)}
			for seq := 0; seq <= v.MaxSeq; seq++ {
				letters = append(letters, sys.Msg(v.CToken, seq))
			}
			for tc := 0; tc <= v.MaxVc; tc++ {
				letters = append(letters, sys.Msg(v.Collect, tc))
			}
			for ta := 0; ta <= v.MaxTa; ta++ {
				letters = append(letters, sys.Msg(v.Allocate, ta, 0), sys.Msg(v.Allocate, ta, 1))
			}
			checked := 0
			check := func(s *model.State, what string) {
				checked++
				if sys.Legitimate.Holds(s) && !set[key(sys, s)] {
					t.Fatalf("a legitimate configuration (%s of an enumerated one) is not enumerated: %s", what, render(sys, v, s))
				}
			}
			edit := sys.NewState()
			for _, s := range all {
				edit.CopyFrom(s)
				for p := range sys.Processes {
					edit.Set(p, v.MySeq, (s.Get(p, v.MySeq)+1)%(v.MaxSeq+1))
				}
				for c := range sys.Channels {
					ch := model.ChanID(c)
					msgs := spectest.Contents(s, ch)
					for i, m := range msgs {
						if sys.TypeOf(m) == v.CToken {
							msgs[i] = sys.Msg(v.CToken, (sys.Field(m, 0)+1)%(v.MaxSeq+1))
						}
					}
					spectest.Refill(edit, ch, msgs)
				}
				check(edit, "the sequence numbers rotated")
				// A unit moved between C_e and C_f (only their sum is
				// fixed, so no single edit reaches the other solutions).
				for _, d := range []int{-1, 1} {
					ce, cf := s.Get(0, v.Ce)+d, s.Get(0, v.Cf)-d
					if ce >= 0 && cf >= 0 && ce <= v.L && cf <= v.L {
						edit.CopyFrom(s)
						edit.Set(0, v.Ce, ce)
						edit.Set(0, v.Cf, cf)
						check(edit, "a unit moved between C_e and C_f")
					}
				}
				spectest.SingleEdits(sys, s, letters, check)
				// An inserted message with a unit taken out of C_e or C_f:
				// a message Root will count replaces one it has counted.
				for _, c := range []model.VarID{v.Ce, v.Cf} {
					if s.Get(0, c) == 0 {
						continue
					}
					spectest.SingleEdits(sys, s, letters, func(e *model.State, what string) {
						if what == "an inserted message" {
							e.Set(0, c, s.Get(0, c)-1)
							check(e, "an inserted message and a unit out of C_e or C_f")
						}
					})
				}
			}
			t.Logf("%d legitimate configurations, %d of them edited, %d neighbours checked, none legitimate and missing", len(set), len(all), checked)
		})
	}
}

// TestClosureHolds decides closure over every legitimate configuration
// (the enumeration derived from the file's L) of small instances. It pins
// why L has the conditions of the file's inRun: with the counts alone,
// closure failed from configurations no legitimate run is in (an empty Allocate on a full link whose sender then
// drops a Token; Root's MyT_a or MyT_c set while an Allocate or a Collect
// is in transit; an Enabled_Token on Root's own link; C_e + C_f below
// Root's own enabled tokens).
func TestClosureHolds(t *testing.T) {
	for _, tc := range []struct{ n, l, k int }{{2, 1, 1}, {3, 1, 1}, {2, 2, 2}} {
		t.Run(fmt.Sprintf("n=%d,L=%d,K=%d", tc.n, tc.l, tc.k), func(t *testing.T) {
			if testing.Short() && tc.l > 1 {
				t.Skip("millions of configurations")
			}
			sys, v := build(t, "n", tc.n, "L", tc.l, "K", tc.k, "MaxSeq", 1)
			if tc.l > 1 {
				// Millions of configurations: enumerated by this package's
				// enumerator, which TestEnumeratedLegitimateConfigurations
				// proves the file's L on smaller instances, rather than
				// from the BDD of L, minutes to build here.
				sys.LegitimateConfigurations = v.enumerateLegitimate
			}
			rep, err := invariants.Check(context.Background(), sys, invariants.Options{
				Properties: []invariants.Property{invariants.Closure}, From: invariants.FromAll, Search: explore.Options{Workers: 2},
			})
			if err != nil {
				t.Fatal(err)
			}
			if o := rep.Outcomes[0]; o.Verdict != invariants.Holds {
				t.Fatalf("closure %s: %s", o.Verdict, o.Reason)
			}
			t.Logf("closure holds over %d legitimate configurations", rep.Search.States)
		})
	}
}
