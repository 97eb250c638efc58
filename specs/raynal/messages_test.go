package raynal_test

import (
	"testing"

	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs/internal/raynaltest"
)

// perUse returns the least and largest number of messages of one use of
// the resources over every reachable state (count=1): msgs_i in the states
// where ok_i holds, which, since the first free of each answer arrives
// before the entry (invariant count_sound, checked on every reachable
// state), is the exact count of that use.
func perUse(t testing.TB, p params) (lo, hi int, states int64) {
	t.Helper()
	p.count = 1
	sys, v := build(t, p)
	var sound *model.Predicate
	for i := range sys.Invariants {
		if sys.Invariants[i].Name == "count_sound" {
			sound = &sys.Invariants[i]
		}
	}
	if sound == nil {
		t.Fatal("no count_sound invariant with count=1")
	}
	lo, hi = 1<<30, -1
	unsound := false
	res := raynaltest.Visit(t, sys, func(s *model.State) {
		unsound = unsound || !sound.Holds(s)
		for i := 0; i < v.N; i++ {
			if s.Get(i, v.Ok) == 1 {
				c := s.Get(i, v.Msgs)
				lo, hi = min(lo, c), max(hi, c)
			}
		}
	})
	if unsound {
		t.Fatalf("%s: count_sound fails in a reachable state", p)
	}
	return lo, hi, res.States
}

// TestMessagesPerUse measures, exhaustively over every execution, the
// number of messages per use of a set of resources, and compares it with
// the paper's "between 2(n-1) and 3(n-1)" (§3). Both bounds are reached
// when M ≥ 2; with M = 1 (mutual exclusion, k = M always) an answer with
// priority is one delayed free(M), so every use costs 2(n-1), as in
// Ricart and Agrawala's algorithm.
func TestMessagesPerUse(t *testing.T) {
	for _, p := range []params{
		{n: 2, m: 1, r: 2},
		{n: 2, m: 2, r: 3},
		{n: 3, m: 2, r: 1},
		{n: 3, m: 1, r: 2},
		{n: 3, m: 3, k: 2, r: 1},
	} {
		lo, hi, states := perUse(t, p)
		t.Logf("%s: %d..%d messages per use (%d states with the ghost)", p, lo, hi, states)
		wantHi := 3 * (p.n - 1)
		if p.m == 1 {
			wantHi = 2 * (p.n - 1)
		}
		if lo != 2*(p.n-1) || hi != wantHi {
			t.Errorf("%s: %d..%d messages per use, want %d..%d", p, lo, hi, 2*(p.n-1), wantHi)
		}
	}
}

// TestMessagesPerUseVariant: §5.1 claims "between 0 and 3(n-1)". With
// M = 1 a leftover used_i[j] is M, so the peer is asked later anyway and
// the variant saves nothing (2(n-1) per use); with R = 1 there is no
// leftover and it sends what §3 sends. The lower bound 0 is reached only
// on instances where the variant is unsafe (M ≥ 2, R ≥ 2: TestVariantUnsafe);
// the count is still exact there (count_sound holds).
func TestMessagesPerUseVariant(t *testing.T) {
	for _, tc := range []struct {
		p      params
		lo, hi int
	}{
		{params{n: 2, m: 1, r: 3, asked: 1}, 2, 2},
		{params{n: 3, m: 1, r: 2, asked: 1}, 4, 4},
		{params{n: 3, m: 2, r: 1, asked: 1}, 4, 6},
		{params{n: 2, m: 2, r: 3, asked: 1}, 0, 3},
	} {
		lo, hi, states := perUse(t, tc.p)
		t.Logf("%s: %d..%d messages per use (%d states with the ghost)", tc.p, lo, hi, states)
		if lo != tc.lo || hi != tc.hi {
			t.Errorf("%s: %d..%d messages per use, want %d..%d", tc.p, lo, hi, tc.lo, tc.hi)
		}
	}
}

// TestGhostIsInert: the ghost counter changes no behaviour: with the ghost
// erased, the states reachable with count=1 are exactly those reachable
// with count=0.
func TestGhostIsInert(t *testing.T) {
	for _, p := range []params{{n: 2, m: 2, r: 2}, {n: 2, m: 2, r: 2, asked: 1}, {n: 3, m: 1, r: 1}} {
		sys0, v0 := build(t, p)
		plain := map[string]bool{}
		raynaltest.Visit(t, sys0, func(s *model.State) { plain[render(sys0, v0, s)] = true })
		g := p
		g.count = 1
		sys1, v1 := build(t, g)
		erased := v1
		erased.Count = false
		ghost := map[string]bool{}
		raynaltest.Visit(t, sys1, func(s *model.State) { ghost[render(sys1, erased, s)] = true })
		if len(plain) != len(ghost) {
			t.Errorf("%s: %d states without the ghost, %d with it erased", p, len(plain), len(ghost))
		}
		for k := range ghost {
			if !plain[k] {
				t.Errorf("%s: with the ghost, %s is reachable, without it not", p, k)
				break
			}
		}
	}
}
