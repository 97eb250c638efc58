package kldhv_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/spectest"
)

// proc is one process of a hand-written configuration: "R2 h1 d0 s0 o1"
// (STATE O/R/I with NEED, T_h, T_d, MySeq, MyOrder), and for Root also
// "Ce0 Cf1 Tc0 Ta0", the format of render.
type config struct {
	procs []string
	// chans[i] is the channel from i to i+1, head first, messages
	// separated by '.': T Token, E Enabled_Token, C<seq>, c<tc>,
	// a<ta>/<order>, D Disable.
	chans []string
}

func (cf config) state(t testing.TB, sys *model.System, v vars) *model.State {
	t.Helper()
	s := sys.NewState()
	for i, p := range cf.procs {
		for _, f := range strings.Fields(p) {
			num := func(prefix string) int {
				x, err := strconv.Atoi(strings.TrimPrefix(f, prefix))
				if err != nil {
					t.Fatalf("bad field %q", f)
				}
				return x
			}
			switch {
			case strings.HasPrefix(f, "Ce"):
				s.Set(0, v.Ce, num("Ce"))
			case strings.HasPrefix(f, "Cf"):
				s.Set(0, v.Cf, num("Cf"))
			case strings.HasPrefix(f, "Tc"):
				s.Set(0, v.MyTc, num("Tc"))
			case strings.HasPrefix(f, "Ta"):
				s.Set(0, v.MyTa, num("Ta"))
			case f[0] == 'O' || f[0] == 'R' || f[0] == 'I':
				s.Set(i, v.State, strings.IndexByte("ORI", f[0]))
				s.Set(i, v.Need, num(f[:1]))
			case f[0] == 'h':
				s.Set(i, v.Th, num("h"))
			case f[0] == 'd':
				s.Set(i, v.Td, num("d"))
			case f[0] == 's':
				s.Set(i, v.MySeq, num("s"))
			case f[0] == 'o':
				s.Set(i, v.MyOrder, num("o"))
			default:
				t.Fatalf("bad field %q", f)
			}
		}
	}
	for i, ch := range cf.chans {
		for _, m := range strings.Split(ch, ".") {
			if m == "" {
				continue
			}
			var msg model.Msg
			switch m[0] {
			case 'T':
				msg = sys.Msg(v.Token)
			case 'E':
				msg = sys.Msg(v.EnabledToken)
			case 'D':
				msg = sys.Msg(v.Disable)
			case 'C':
				x, _ := strconv.Atoi(m[1:])
				msg = sys.Msg(v.CToken, x)
			case 'c':
				x, _ := strconv.Atoi(m[1:])
				msg = sys.Msg(v.Collect, x)
			case 'a':
				a, o, _ := strings.Cut(m[1:], "/")
				x, _ := strconv.Atoi(a)
				y, _ := strconv.Atoi(o)
				msg = sys.Msg(v.Allocate, x, y)
			default:
				t.Fatalf("bad message %q", m)
			}
			if !s.Push(v.Out[i], msg) {
				t.Fatalf("channel %d is full", i)
			}
		}
	}
	if err := sys.Validate(s); err != nil {
		t.Fatal(err)
	}
	return s
}

func (cf config) render(t testing.TB, sys *model.System, v vars) string {
	t.Helper()
	return render(sys, v, cf.state(t, sys, v))
}

// successors returns, for each action name of process p that is enabled
// in s, the configuration it leads to.
func successors(t testing.TB, sys *model.System, s *model.State, p int) map[string]*model.State {
	t.Helper()
	out := map[string]*model.State{}
	if _, err := sys.NewExpander().Expand(s, func(step *model.Step, next *model.State) bool {
		if m := step.Moves[0]; int(m.Proc) == p {
			out[sys.Label(step)] = next.Clone()
		}
		return true
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestActions drives single actions on hand-written configurations of a
// 3-process ring with ℓ = K = 2 (Cmax 6, MaxSeq 1 unless said otherwise):
// each case names the process and the action, and the only configuration
// it may lead to. "enabled" lists every label the process may take there,
// which pins the first-enabled rule.
func TestActions(t *testing.T) {
	for _, tc := range []struct {
		name    string
		kv      []any
		before  config
		p       int
		action  string
		after   config
		enabled []string // every enabled label of p (environment included)
	}{
		{
			name:    "A_c1 START on a legitimate count: Collect and CToken, counters reset",
			before:  config{[]string{"O1 h1 d0 s0 o0 Ce1 Cf1 Tc0 Ta0", "O1 h0 d0 s0 o0", "O1 h0 d0 s0 o0"}, []string{"", "", "C0"}},
			p:       0,
			action:  "A_c1",
			after:   config{[]string{"O1 h1 d0 s1 o0 Ce1 Cf0 Tc0 Ta0", "O1 h0 d0 s0 o0", "O1 h0 d0 s0 o0"}, []string{"c0.C1", "", ""}},
			enabled: []string{"A_c1"},
		},
		{
			name:   "A_c1 START with tokens missing: Root sends ℓ − count Tokens first",
			before: config{[]string{"O1 h0 d0 s1 o0 Ce0 Cf1 Tc0 Ta0", "O1 h0 d0 s1 o0", "O1 h0 d0 s1 o0"}, []string{"", "", "C1"}},
			p:      0,
			action: "A_c1",
			after:  config{[]string{"O1 h0 d0 s0 o0 Ce0 Cf0 Tc0 Ta0", "O1 h0 d0 s1 o0", "O1 h0 d0 s1 o0"}, []string{"T.c0.C0", "", ""}},
		},
		{
			name:   "A_c1 START with too many: Disable, then the pool's Allocate (lines 04-05 run anyway)",
			before: config{[]string{"R2 h1 d0 s0 o1 Ce1 Cf1 Tc1 Ta0", "O1 h0 d0 s0 o0", "O1 h0 d0 s0 o0"}, []string{"", "", "C0"}},
			p:      0,
			action: "A_c1",
			after:  config{[]string{"R2 h1 d0 s1 o1 Ce1 Cf0 Tc0 Ta0", "O1 h0 d0 s0 o0", "O1 h0 d0 s0 o0"}, []string{"D.a1/1.c0.C1", "", ""}},
		},
		{
			name:   "A_c1 START allocates the pool MyT_c + MyT_a with Root's MyOrder",
			before: config{[]string{"R2 h0 d0 s0 o0 Ce0 Cf0 Tc1 Ta1", "O1 h0 d0 s0 o0", "O1 h0 d0 s0 o0"}, []string{"", "", "C0"}},
			p:      0,
			action: "A_c1",
			after:  config{[]string{"R2 h0 d0 s1 o0 Ce0 Cf0 Tc0 Ta0", "O1 h0 d0 s0 o0", "O1 h0 d0 s0 o0"}, []string{"a2/0.c0.C1", "", ""}},
		},
		{
			name:    "a stale CToken at Root is discarded",
			before:  config{[]string{"O1 h0 d0 s1 o0 Ce0 Cf0 Tc0 Ta0", "O1 h0 d0 s0 o0", "O1 h0 d0 s0 o0"}, []string{"", "", "C0.T"}},
			p:       0,
			action:  "A_c1_stale",
			after:   config{[]string{"O1 h0 d0 s1 o0 Ce0 Cf0 Tc0 Ta0", "O1 h0 d0 s0 o0", "O1 h0 d0 s0 o0"}, []string{"", "", "T"}},
			enabled: []string{"A_c1_stale", "request(k=1)", "request(k=2)"},
		},
		{
			name:   "A_c2 COUNT-ET counts in C_e (the prose), saturating at ℓ",
			before: config{[]string{"O1 h0 d0 s1 o0 Ce2 Cf0 Tc0 Ta0", "O1 h0 d0 s1 o0", "O1 h0 d0 s1 o0"}, []string{"", "", "E.C1"}},
			p:      0,
			action: "A_c2",
			after:  config{[]string{"O1 h0 d0 s1 o0 Ce2 Cf0 Tc0 Ta0", "O1 h0 d0 s1 o0", "O1 h0 d0 s1 o0"}, []string{"", "", "C1"}},
		},
		{
			name:   "A_c2 increments C_e",
			before: config{[]string{"O1 h0 d0 s1 o0 Ce0 Cf1 Tc0 Ta0", "O1 h0 d0 s1 o0", "O1 h0 d0 s1 o0"}, []string{"", "", "E.C1"}},
			p:      0,
			action: "A_c2",
			after:  config{[]string{"O1 h0 d0 s1 o0 Ce1 Cf1 Tc0 Ta0", "O1 h0 d0 s1 o0", "O1 h0 d0 s1 o0"}, []string{"", "", "C1"}},
		},
		{
			name:    "A_c3 timeout: no CToken anywhere, Root sends a new sequence number (no START)",
			before:  config{[]string{"O1 h0 d0 s1 o0 Ce0 Cf0 Tc0 Ta0", "O1 h0 d0 s1 o0", "O1 h0 d0 s1 o0"}, []string{"T", "", ""}},
			p:       0,
			action:  "A_c3",
			after:   config{[]string{"O1 h0 d0 s0 o0 Ce0 Cf0 Tc0 Ta0", "O1 h0 d0 s1 o0", "O1 h0 d0 s1 o0"}, []string{"T.C0", "", ""}},
			enabled: []string{"A_c3", "request(k=1)", "request(k=2)"},
		},
		{
			name:    "A_c4 forwards a new CToken behind T-ENABLED Enabled_Tokens; it comes before A_l7",
			before:  config{[]string{"O1 h0 d0 s1 o0 Ce0 Cf0 Tc0 Ta0", "O1 h2 d1 s0 o0", "O1 h0 d0 s0 o0"}, []string{"C1", "", ""}},
			p:       1,
			action:  "A_c4",
			after:   config{[]string{"O1 h0 d0 s1 o0 Ce0 Cf0 Tc0 Ta0", "O1 h2 d1 s1 o0", "O1 h0 d0 s0 o0"}, []string{"", "E.C1", ""}},
			enabled: []string{"A_c4"},
		},
		{
			name:    "a duplicate CToken is discarded, not forwarded",
			before:  config{[]string{"O1 h0 d0 s1 o0 Ce0 Cf0 Tc0 Ta0", "O1 h0 d0 s1 o0", "O1 h0 d0 s0 o0"}, []string{"C1", "", ""}},
			p:       1,
			action:  "A_c4_dup",
			after:   config{[]string{"O1 h0 d0 s1 o0 Ce0 Cf0 Tc0 Ta0", "O1 h0 d0 s1 o0", "O1 h0 d0 s0 o0"}, []string{"", "", ""}},
			enabled: []string{"A_c4_dup", "request(k=1)", "request(k=2)"},
		},
		{
			name:    "A_l7 Out: releases the enabled tokens (disabled ones are gone), before any receipt",
			before:  config{[]string{"O1 h0 d0 s0 o0 Ce0 Cf0 Tc0 Ta0", "O1 h2 d1 s0 o0", "O1 h0 d0 s0 o0"}, []string{"T", "", "C0"}},
			p:       1,
			action:  "A_l7",
			after:   config{[]string{"O1 h0 d0 s0 o0 Ce0 Cf0 Tc0 Ta0", "O1 h0 d0 s0 o0", "O1 h0 d0 s0 o0"}, []string{"T", "T", "C0"}},
			enabled: []string{"A_l7"},
		},
		{
			name:    "A_l7 ECS: enough enabled tokens, enter",
			before:  config{[]string{"O1 h0 d0 s0 o0 Ce0 Cf0 Tc0 Ta0", "R2 h2 d0 s0 o0", "O1 h0 d0 s0 o0"}, []string{"c0", "", "C0"}},
			p:       1,
			action:  "A_l7",
			after:   config{[]string{"O1 h0 d0 s0 o0 Ce0 Cf0 Tc0 Ta0", "I2 h2 d0 s0 o0", "O1 h0 d0 s0 o0"}, []string{"c0", "", "C0"}},
			enabled: []string{"A_l7"},
		},
		{
			name:    "A_l7 is not enabled for a requester without enough tokens: its no-op would block A_l8",
			before:  config{[]string{"O1 h0 d0 s0 o0 Ce0 Cf0 Tc0 Ta0", "R2 h2 d1 s0 o0", "O1 h0 d0 s0 o0"}, []string{"T", "", "C0"}},
			p:       1,
			action:  "A_l8",
			after:   config{[]string{"O1 h0 d0 s0 o0 Ce0 Cf0 Tc0 Ta0", "R2 h2 d0 s0 o0", "O1 h0 d0 s0 o0"}, []string{"", "", "C0"}},
			enabled: []string{"A_l8"},
		},
		{
			name:   "A_l8 a requester below NEED increments T_h (before re-enabling a disabled token)",
			before: config{[]string{"O1 h0 d0 s0 o0 Ce0 Cf0 Tc0 Ta0", "R2 h1 d1 s0 o0", "O1 h0 d0 s0 o0"}, []string{"T", "", "C0"}},
			p:      1,
			action: "A_l8",
			after:  config{[]string{"O1 h0 d0 s0 o0 Ce0 Cf0 Tc0 Ta0", "R2 h2 d1 s0 o0", "O1 h0 d0 s0 o0"}, []string{"", "", "C0"}},
		},
		{
			name:   "A_l8 a process in its CS forwards the Token",
			before: config{[]string{"O1 h0 d0 s0 o0 Ce0 Cf0 Tc0 Ta0", "I1 h1 d0 s0 o0", "O1 h0 d0 s0 o0"}, []string{"T", "", "C0"}},
			p:      1,
			action: "A_l8",
			after:  config{[]string{"O1 h0 d0 s0 o0 Ce0 Cf0 Tc0 Ta0", "I1 h1 d0 s0 o0", "O1 h0 d0 s0 o0"}, []string{"", "T", "C0"}},
		},
		{
			name:   "A_l2 Root counts a Token in C_f, and forwards it when Out",
			before: config{[]string{"O1 h0 d0 s1 o0 Ce0 Cf0 Tc0 Ta0", "O1 h0 d0 s1 o0", "O1 h0 d0 s0 o0"}, []string{"", "C1", "T"}},
			p:      0,
			action: "A_l2",
			after:  config{[]string{"O1 h0 d0 s1 o0 Ce0 Cf1 Tc0 Ta0", "O1 h0 d0 s1 o0", "O1 h0 d0 s0 o0"}, []string{"T", "C1", ""}},
		},
		{
			name:   "A_l9 privileged, not requesting: takes Order and passes everything on",
			before: config{[]string{"O1 h0 d0 s0 o1 Ce0 Cf0 Tc0 Ta0", "O1 h0 d0 s0 o0", "O1 h0 d0 s0 o0"}, []string{"a2/1.c0.C1", "", ""}},
			p:      1,
			action: "A_l9",
			after:  config{[]string{"O1 h0 d0 s0 o1 Ce0 Cf0 Tc0 Ta0", "O1 h0 d0 s0 o1", "O1 h0 d0 s0 o0"}, []string{"c0.C1", "a2/1", ""}},
		},
		{
			name:   "A_l9 privileged and granted: T_h := NEED, T_d := 0, the rest travels on",
			kv:     []any{"L", 3, "K", 2},
			before: config{[]string{"O1 h0 d0 s0 o1 Ce0 Cf0 Tc0 Ta0", "R2 h1 d1 s0 o0", "O1 h0 d0 s0 o0"}, []string{"a3/1.c0.C1", "", ""}},
			p:      1,
			action: "A_l9",
			after:  config{[]string{"O1 h0 d0 s0 o1 Ce0 Cf0 Tc0 Ta0", "R2 h2 d0 s0 o1", "O1 h0 d0 s0 o0"}, []string{"c0.C1", "a1/1", ""}},
		},
		{
			name:   "A_l9 privileged and granted exactly: no empty Allocate is sent",
			before: config{[]string{"O1 h0 d0 s0 o1 Ce0 Cf0 Tc0 Ta0", "R2 h1 d0 s0 o0", "O1 h0 d0 s0 o0"}, []string{"a1/1.c0.C1", "", ""}},
			p:      1,
			action: "A_l9",
			after:  config{[]string{"O1 h0 d0 s0 o1 Ce0 Cf0 Tc0 Ta0", "R2 h2 d0 s0 o1", "O1 h0 d0 s0 o0"}, []string{"c0.C1", "", ""}},
		},
		{
			name:   "A_l9 privileged, pool too small, T_d ≥ T_a: disabled tokens re-enabled, MyOrder kept",
			before: config{[]string{"O1 h0 d0 s0 o1 Ce0 Cf0 Tc0 Ta0", "R2 h1 d1 s0 o0", "O1 h0 d0 s0 o0"}, []string{"a1/1.c0.C1", "", ""}},
			p:      1,
			action: "A_l9",
			after:  config{[]string{"O1 h0 d0 s0 o1 Ce0 Cf0 Tc0 Ta0", "R2 h1 d0 s0 o0", "O1 h0 d0 s0 o0"}, []string{"c0.C1", "", ""}},
		},
		{
			name:   "A_l9 privileged, pool too small, T_d < T_a: T_h := T_h + (T_a − T_d) (printed T_h := T_a − T_d)",
			kv:     []any{"L", 4, "K", 4},
			before: config{[]string{"O1 h0 d0 s0 o1 Ce0 Cf0 Tc0 Ta0", "R4 h1 d0 s0 o0", "O1 h0 d0 s0 o0"}, []string{"a2/1.c0.C1", "", ""}},
			p:      1,
			action: "A_l9",
			after:  config{[]string{"O1 h0 d0 s0 o1 Ce0 Cf0 Tc0 Ta0", "R4 h3 d0 s0 o0", "O1 h0 d0 s0 o0"}, []string{"c0.C1", "", ""}},
		},
		{
			name:   "A_l10 waiting (a disabled token) and T_a enough: granted, rest passed on",
			kv:     []any{"L", 3, "K", 2},
			before: config{[]string{"O1 h0 d0 s0 o1 Ce0 Cf0 Tc0 Ta0", "R2 h1 d1 s0 o1", "O1 h0 d0 s0 o0"}, []string{"a3/1.c0.C1", "", ""}},
			p:      1,
			action: "A_l10",
			after:  config{[]string{"O1 h0 d0 s0 o1 Ce0 Cf0 Tc0 Ta0", "R2 h2 d0 s0 o1", "O1 h0 d0 s0 o0"}, []string{"c0.C1", "a1/1", ""}},
		},
		{
			name:   "A_l10 waiting but T_a not enough: nothing taken",
			kv:     []any{"L", 3, "K", 3},
			before: config{[]string{"O1 h0 d0 s0 o1 Ce0 Cf0 Tc0 Ta0", "R3 h1 d1 s0 o1", "O1 h0 d0 s0 o0"}, []string{"a2/1.c0.C1", "", ""}},
			p:      1,
			action: "A_l10",
			after:  config{[]string{"O1 h0 d0 s0 o1 Ce0 Cf0 Tc0 Ta0", "R3 h1 d1 s0 o1", "O1 h0 d0 s0 o0"}, []string{"c0.C1", "a2/1", ""}},
		},
		{
			name:   "A_l10 a requester with no disabled token is not waiting: nothing taken",
			before: config{[]string{"O1 h0 d0 s0 o1 Ce0 Cf0 Tc0 Ta0", "R2 h1 d0 s0 o1", "O1 h0 d0 s0 o0"}, []string{"a1/1.c0.C1", "", ""}},
			p:      1,
			action: "A_l10",
			after:  config{[]string{"O1 h0 d0 s0 o1 Ce0 Cf0 Tc0 Ta0", "R2 h1 d0 s0 o1", "O1 h0 d0 s0 o0"}, []string{"c0.C1", "a1/1", ""}},
		},
		{
			name:   "A_l11 LOCK: enabled tokens disabled and added to T_c",
			kv:     []any{"L", 3, "K", 3},
			before: config{[]string{"O1 h0 d0 s0 o1 Ce0 Cf0 Tc0 Ta0", "R3 h2 d0 s0 o1", "O1 h0 d0 s0 o0"}, []string{"c1.C1", "", ""}},
			p:      1,
			action: "A_l11",
			after:  config{[]string{"O1 h0 d0 s0 o1 Ce0 Cf0 Tc0 Ta0", "R3 h2 d2 s0 o1", "O1 h0 d0 s0 o0"}, []string{"C1", "c3", ""}},
		},
		{
			name:   "A_l11 LOCK but T_c near MaxV_c: only what fits is disabled",
			kv:     []any{"L", 3, "K", 3},
			before: config{[]string{"O1 h0 d0 s0 o1 Ce0 Cf0 Tc0 Ta0", "R3 h2 d0 s0 o1", "O1 h0 d0 s0 o0"}, []string{"c2.C1", "", ""}},
			p:      1,
			action: "A_l11",
			after:  config{[]string{"O1 h0 d0 s0 o1 Ce0 Cf0 Tc0 Ta0", "R3 h2 d1 s0 o1", "O1 h0 d0 s0 o0"}, []string{"C1", "c3", ""}},
		},
		{
			name:   "A_l11 T_h = NEED with a disabled token is not LOCK: nothing collected",
			before: config{[]string{"O1 h0 d0 s0 o1 Ce0 Cf0 Tc0 Ta0", "R2 h2 d1 s0 o1", "O1 h0 d0 s0 o0"}, []string{"c0.C1", "", ""}},
			p:      1,
			action: "A_l11",
			after:  config{[]string{"O1 h0 d0 s0 o1 Ce0 Cf0 Tc0 Ta0", "R2 h2 d1 s0 o1", "O1 h0 d0 s0 o0"}, []string{"C1", "c0", ""}},
		},
		{
			name:   "A_l12 Disable: every held token disabled, even in the CS",
			before: config{[]string{"O1 h0 d0 s0 o1 Ce0 Cf0 Tc0 Ta0", "I2 h2 d0 s0 o1", "O1 h0 d0 s0 o0"}, []string{"D.C1", "", ""}},
			p:      1,
			action: "A_l12",
			after:  config{[]string{"O1 h0 d0 s0 o1 Ce0 Cf0 Tc0 Ta0", "I2 h2 d2 s0 o1", "O1 h0 d0 s0 o0"}, []string{"C1", "D", ""}},
		},
		{
			name:   "A_l3 Root privileged and granted: leftover kept in MyT_a, taken ones counted in C_e, MyOrder flips",
			kv:     []any{"L", 3, "K", 2},
			before: config{[]string{"R2 h1 d0 s1 o1 Ce0 Cf0 Tc0 Ta0", "O1 h0 d0 s1 o1", "O1 h0 d0 s1 o1"}, []string{"", "", "a2/1.c0.C1"}},
			p:      0,
			action: "A_l3",
			after:  config{[]string{"R2 h2 d0 s1 o0 Ce1 Cf0 Tc0 Ta1", "O1 h0 d0 s1 o1", "O1 h0 d0 s1 o1"}, []string{"", "", "c0.C1"}},
		},
		{
			name:   "A_l3 Root not requesting: keeps T_a, MyOrder flips",
			before: config{[]string{"O1 h0 d0 s1 o1 Ce0 Cf0 Tc0 Ta0", "O1 h0 d0 s1 o1", "O1 h0 d0 s1 o1"}, []string{"", "", "a1/1.c0.C1"}},
			p:      0,
			action: "A_l3",
			after:  config{[]string{"O1 h0 d0 s1 o0 Ce0 Cf0 Tc0 Ta1", "O1 h0 d0 s1 o1", "O1 h0 d0 s1 o1"}, []string{"", "", "c0.C1"}},
		},
		{
			name:   "A_l3 Root privileged, pool too small: absorbs it all, MyOrder kept",
			kv:     []any{"L", 3, "K", 3},
			before: config{[]string{"R3 h1 d0 s1 o1 Ce0 Cf0 Tc0 Ta0", "O1 h0 d0 s1 o1", "O1 h0 d0 s1 o1"}, []string{"", "", "a1/1.c0.C1"}},
			p:      0,
			action: "A_l3",
			after:  config{[]string{"R3 h2 d0 s1 o1 Ce1 Cf0 Tc0 Ta0", "O1 h0 d0 s1 o1", "O1 h0 d0 s1 o1"}, []string{"", "", "c0.C1"}},
		},
		{
			name:   "A_l4 stale Allocate at a waiting Root with enough: granted",
			before: config{[]string{"R2 h1 d1 s1 o0 Ce0 Cf0 Tc0 Ta0", "O1 h0 d0 s1 o1", "O1 h0 d0 s1 o1"}, []string{"", "", "a2/1.C1"}},
			p:      0,
			action: "A_l4",
			after:  config{[]string{"R2 h2 d0 s1 o0 Ce2 Cf0 Tc0 Ta0", "O1 h0 d0 s1 o1", "O1 h0 d0 s1 o1"}, []string{"", "", "C1"}},
		},
		{
			name:   "A_l5 Root LOCK: disables its enabled token into MyT_c and takes it out of its count",
			before: config{[]string{"R2 h1 d0 s1 o0 Ce0 Cf1 Tc0 Ta0", "O1 h0 d0 s1 o1", "O1 h0 d0 s1 o1"}, []string{"", "", "c1.C1"}},
			p:      0,
			action: "A_l5",
			after:  config{[]string{"R2 h1 d1 s1 o0 Ce0 Cf0 Tc2 Ta0", "O1 h0 d0 s1 o1", "O1 h0 d0 s1 o1"}, []string{"", "", "C1"}},
		},
		{
			name:   "A_l6 Root: its own enabled tokens are disabled and taken out of its count",
			before: config{[]string{"I2 h2 d0 s1 o0 Ce2 Cf0 Tc0 Ta0", "O1 h0 d0 s1 o1", "O1 h0 d0 s1 o1"}, []string{"", "", "D.C1"}},
			p:      0,
			action: "A_l6",
			after:  config{[]string{"I2 h2 d2 s1 o0 Ce0 Cf0 Tc0 Ta0", "O1 h0 d0 s1 o1", "O1 h0 d0 s1 o1"}, []string{"", "", "C1"}},
		},
		{
			name:    "request needs STATE = Out and no token held",
			before:  config{[]string{"O2 h0 d0 s1 o0 Ce0 Cf0 Tc0 Ta0", "O1 h0 d0 s1 o1", "O1 h0 d0 s1 o1"}, []string{"", "", "C1"}},
			p:       0,
			action:  "request(k=2)",
			after:   config{[]string{"R2 h0 d0 s1 o0 Ce0 Cf0 Tc0 Ta0", "O1 h0 d0 s1 o1", "O1 h0 d0 s1 o1"}, []string{"", "", "C1"}},
			enabled: []string{"A_c1", "request(k=1)", "request(k=2)"},
		},
		{
			name:    "leave resets NEED to 1; the tokens are released by A_l7 afterwards",
			before:  config{[]string{"O1 h0 d0 s1 o0 Ce0 Cf0 Tc0 Ta0", "I2 h2 d0 s1 o1", "O1 h0 d0 s1 o1"}, []string{"", "", "C1"}},
			p:       1,
			action:  "leave",
			after:   config{[]string{"O1 h0 d0 s1 o0 Ce0 Cf0 Tc0 Ta0", "O1 h2 d0 s1 o1", "O1 h0 d0 s1 o1"}, []string{"", "", "C1"}},
			enabled: []string{"leave"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys, v := build(t, tc.kv...)
			st := tc.before.state(t, sys, v)
			got := successors(t, sys, st, tc.p)
			if tc.enabled != nil {
				var labels []string
				for l := range got {
					labels = append(labels, l)
				}
				if fmt.Sprint(sorted(labels)) != fmt.Sprint(sorted(tc.enabled)) {
					t.Errorf("process %d may take %v, want %v", tc.p, sorted(labels), sorted(tc.enabled))
				}
			}
			next, ok := got[tc.action]
			if !ok {
				t.Fatalf("%s of process %d is not enabled in %s", tc.action, tc.p, render(sys, v, st))
			}
			if g, w := render(sys, v, next), tc.after.render(t, sys, v); g != w {
				t.Errorf("after %s:\n got  %s\n want %s", tc.action, g, w)
			}
		})
	}
}

func sorted(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}

// TestInitialConfiguration pins the initial configuration, the default
// bounds, and that it is legitimate.
func TestInitialConfiguration(t *testing.T) {
	sys, v := build(t)
	init := sys.Initial()
	if len(init) != 1 {
		t.Fatalf("%d initial configurations", len(init))
	}
	want := config{[]string{"O1 h0 d0 s0 o0 Ce0 Cf0 Tc0 Ta0", "O1 h0 d0 s0 o0", "O1 h0 d0 s0 o0"}, []string{"", "", "T.T.C0"}}
	if g, w := render(sys, v, init[0]), want.render(t, sys, v); g != w {
		t.Errorf("initial configuration\n got  %s\n want %s", g, w)
	}
	if v.Cmax != 6 || v.MaxSeq != 1 || v.MaxVc != 2 || v.MaxTa != 2 {
		t.Errorf("defaults Cmax=%d MaxSeq=%d MaxVc=%d MaxTa=%d, want 6 1 2 2", v.Cmax, v.MaxSeq, v.MaxVc, v.MaxTa)
	}
	for _, ch := range sys.Channels {
		// No Types: the channel carries every message type of the system.
		types := len(ch.Types)
		if types == 0 {
			types = len(sys.Messages)
		}
		if ch.Capacity != 6 || ch.Overflow != model.Drop || types != 6 {
			t.Errorf("channel %d→%d: capacity %d policy %s types %d, want 6 drop 6", ch.From, ch.To, ch.Capacity, ch.Overflow, types)
		}
	}
	if !sys.Legitimate.Holds(init[0]) {
		t.Error("the initial configuration is not legitimate")
	}
	for _, inv := range sys.Invariants {
		if !inv.Holds(init[0]) {
			t.Errorf("invariant %s fails initially", inv.Name)
		}
	}
	// The file's requires refuse these.
	spec := spectest.Builtin(t, "kl-dhv")
	for _, over := range []specs.Values{
		{"K": 3, "L": 2},
		{"MaxVc": 1, "K": 2},
		{"Cmax": 2, "L": 2},
	} {
		bad := params(t)
		maps.Copy(bad, over)
		if _, err := spec.Build(bad); err == nil {
			t.Errorf("%v builds", bad)
		}
	}
}

// TestLegitimacy: L on hand-written configurations of n=3, ℓ=K=2.
func TestLegitimacy(t *testing.T) {
	sys, v := build(t)
	for _, tc := range []struct {
		name string
		cf   config
		want bool
	}{
		{"initial", config{[]string{"O1 h0 d0 s0 o0 Ce0 Cf0 Tc0 Ta0", "O1 h0 d0 s0 o0", "O1 h0 d0 s0 o0"}, []string{"", "", "T.T.C0"}}, true},
		{"mid-traversal: CToken from 1 to 2, one enabled token at 2 still to count, one counted at Root",
			config{[]string{"R2 h1 d0 s1 o0 Ce1 Cf0 Tc0 Ta0", "O1 h0 d0 s1 o0", "R2 h1 d0 s0 o0"}, []string{"", "c0.C1", ""}}, true},
		{"the same with 2 not yet counted but Root's count already full",
			config{[]string{"R2 h1 d0 s1 o0 Ce2 Cf0 Tc0 Ta0", "O1 h0 d0 s1 o0", "R2 h1 d0 s0 o0"}, []string{"", "c0.C1", ""}}, false},
		{"a disabled token whose twin is in the Collect",
			config{[]string{"R2 h1 d0 s1 o0 Ce1 Cf0 Tc0 Ta0", "R2 h1 d1 s1 o0", "O1 h0 d0 s0 o0"}, []string{"", "c1.C1", ""}}, true},
		{"an extra token", config{[]string{"O1 h0 d0 s0 o0 Ce0 Cf0 Tc0 Ta0", "O1 h0 d0 s0 o0", "O1 h0 d0 s0 o0"}, []string{"T", "", "T.T.C0"}}, false},
		{"two CTokens", config{[]string{"O1 h0 d0 s0 o0 Ce0 Cf0 Tc0 Ta0", "O1 h0 d0 s0 o0", "O1 h0 d0 s0 o0"}, []string{"C1", "", "T.T.C0"}}, false},
		{"an Enabled_Token behind the CToken", config{[]string{"O1 h0 d0 s1 o0 Ce0 Cf0 Tc0 Ta0", "O1 h0 d0 s0 o0", "O1 h0 d0 s0 o0"}, []string{"T.C1.E", "", "T"}}, false},
		{"MySeq out of pattern", config{[]string{"O1 h0 d0 s0 o0 Ce0 Cf0 Tc0 Ta0", "O1 h0 d0 s1 o0", "O1 h0 d0 s0 o0"}, []string{"", "", "T.T.C0"}}, false},
		{"a process in its CS without its tokens", config{[]string{"O1 h0 d0 s0 o0 Ce0 Cf0 Tc0 Ta0", "I1 h0 d0 s0 o0", "O1 h0 d0 s0 o0"}, []string{"", "", "T.T.C0"}}, false},
	} {
		if got := sys.Legitimate.Holds(tc.cf.state(t, sys, v)); got != tc.want {
			t.Errorf("%s: L = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// legitMonitor counts the reachable configurations outside L and the
// largest channel occupancy.
type legitMonitor struct {
	sys      *model.System
	mu       sync.Mutex
	outside  int
	maxLen   int
	firstBad explore.StateID
}

func (m *legitMonitor) Observe(vis *explore.Visit) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, l := range vis.State.Lens {
		m.maxLen = max(m.maxLen, int(l))
	}
	if !m.sys.Legitimate.Holds(vis.State) {
		if m.outside == 0 || vis.ID < m.firstBad {
			m.firstBad = vis.ID
		}
		m.outside++
	}
}
func (m *legitMonitor) Decided() bool { return false }

// TestReachableStatesAreLegitimate: from the initial configuration every
// reachable configuration satisfies L (closure along every run from it),
// and the largest channel occupancy is 2ℓ+2, the default Cmax.
func TestReachableStatesAreLegitimate(t *testing.T) {
	for _, tc := range []struct {
		n, l, k int
		states  int64
	}{
		{2, 1, 1, 356},
		{3, 1, 1, 2024},
		{2, 2, 2, 13192},
		{3, 2, 1, 11072},
		{3, 2, 2, 324148},
	} {
		t.Run(fmt.Sprintf("n=%d,L=%d,K=%d", tc.n, tc.l, tc.k), func(t *testing.T) {
			// A capacity that never binds, to measure the occupancy.
			sys, v := build(t, "n", tc.n, "L", tc.l, "K", tc.k, "Cmax", 2*tc.l+4)
			m := &legitMonitor{sys: sys}
			res, err := explore.BFS(context.Background(), sys, m, explore.Options{Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Complete() || res.States != tc.states {
				t.Errorf("%d states (complete %v), want %d", res.States, res.Complete(), tc.states)
			}
			if m.outside > 0 {
				states, _, _ := res.Path(m.firstBad)
				t.Errorf("%d reachable configurations outside L, first %s", m.outside, render(sys, v, states[len(states)-1]))
			}
			if m.maxLen != 2*tc.l+2 {
				t.Errorf("largest channel occupancy %d, want 2ℓ+2 = %d", m.maxLen, 2*tc.l+2)
			}
		})
	}
}

// TestDefaultCmaxIsSmallest: with the error policy, no send from the
// initial configuration overflows at Cmax = 2ℓ+2, and one does at 2ℓ+1.
func TestDefaultCmaxIsSmallest(t *testing.T) {
	errPolicy := model.Error
	for _, tc := range []struct {
		cmax int
		want invariants.Verdict
	}{{6, invariants.Holds}, {5, invariants.Violated}} {
		sys, v := buildP(t, params(t, "n", 2, "L", 2, "K", 2, "Cmax", tc.cmax), errPolicy)
		rep, err := invariants.Check(context.Background(), sys, invariants.Options{
			Properties: []invariants.Property{invariants.Safety}, From: invariants.FromInit, Search: explore.Options{Workers: 2},
		})
		if err != nil {
			t.Fatal(err)
		}
		o := rep.Outcomes[0]
		if o.Verdict != tc.want {
			t.Errorf("Cmax=%d: safety %s (%s), want %s", tc.cmax, o.Verdict, o.Reason, tc.want)
		}
		if o.Verdict == invariants.Violated {
			if !strings.Contains(o.Reason, "overflows") {
				t.Errorf("Cmax=%d: violation %q is not an overflow", tc.cmax, o.Reason)
			}
			ce := o.Counterexample
			t.Logf("Cmax=%d overflows after %d steps, in %s", tc.cmax, len(ce.Steps), render(sys, v, ce.States[len(ce.States)-2]))
		}
	}
}

// check checks props, with lt for leads-to, from init under weak fairness,
// and fails unless the search was complete.
func check(t testing.TB, sys *model.System, props []invariants.Property, lt invariants.LeadsTo) *invariants.Report {
	t.Helper()
	opts := spectest.WeakFairnessFromInit(props...)
	opts.LeadsTo = lt
	return spectest.CheckComplete(t, sys, opts)
}

// TestSafetyAndDeadlockHold: the paper's safety and deadlock freedom, from
// the initial configuration, complete searches.
func TestSafetyAndDeadlockHold(t *testing.T) {
	for _, tc := range []struct{ n, l, k int }{{3, 2, 2}, {2, 2, 2}, {3, 2, 1}, {3, 1, 1}} {
		sys, _ := build(t, "n", tc.n, "L", tc.l, "K", tc.k)
		rep := check(t, sys, []invariants.Property{invariants.Safety, invariants.Deadlock}, invariants.LeadsTo{})
		for _, o := range rep.Outcomes {
			if o.Verdict != invariants.Holds {
				t.Errorf("n=%d L=%d K=%d: %s %s (%s), want holds", tc.n, tc.l, tc.k, o.Property, o.Verdict, o.Reason)
			}
		}
	}
}

// TestStarvationFreeWithSingleUnitRequests: with K = 1 no request is ever
// partly served and starvation freedom holds under weak fairness.
func TestStarvationFreeWithSingleUnitRequests(t *testing.T) {
	for _, tc := range []struct{ n, l int }{{2, 1}, {3, 1}, {2, 2}, {3, 2}} {
		sys, _ := build(t, "n", tc.n, "L", tc.l, "K", 1)
		rep := check(t, sys, []invariants.Property{invariants.Starvation}, invariants.LeadsTo{})
		if o := rep.Outcomes[0]; o.Verdict != invariants.Holds {
			t.Errorf("n=%d L=%d K=1: starvation %s (%s), want holds", tc.n, tc.l, o.Verdict, o.Reason)
		}
	}
}

// lock is Function LOCK on a configuration.
func lock(s *model.State, v vars, p int) bool {
	th := s.Get(p, v.Th)
	return s.Get(p, v.State) == Request && 0 < th && th < s.Get(p, v.Need)
}

// TestStarvation: the finding. For n = 2, ℓ = K = 2, under weak fairness,
// both processes can request forever. The lasso's cycle is the livelock
// of the package doc: one process holds T_h = NEED with a disabled token,
// so it is not LOCKed and its enabled token is never collected; the other
// token goes round pool → privileged process (partial, A_l9) → Collect →
// pool. Nobody is in its critical section anywhere on the cycle.
func TestStarvation(t *testing.T) {
	sys, v := build(t, "n", 2, "L", 2, "K", 2)
	rep := check(t, sys, []invariants.Property{invariants.Starvation}, invariants.LeadsTo{})
	o := rep.Outcomes[0]
	if o.Verdict != invariants.Violated {
		t.Fatalf("starvation %s, want violated", o.Verdict)
	}
	if fmt.Sprint(o.Starving) != "[0 1]" {
		t.Errorf("starving %v, want [0 1]", o.Starving)
	}
	ce := o.Counterexample
	if ce == nil || ce.Kind != invariants.Lasso {
		t.Fatalf("counterexample %+v, want a lasso", ce)
	}
	if err := ce.Replay(sys); err != nil {
		t.Fatal(err)
	}
	holder := -1
	for i := ce.LoopStart; i < len(ce.States); i++ {
		s := ce.States[i]
		t.Logf("cycle %d: %s  --%s-->", i-ce.LoopStart, render(sys, v, s), sys.Label(&ce.Steps[i]))
		for p := 0; p < 2; p++ {
			if s.Get(p, v.State) != Request {
				t.Errorf("cycle state %d: process %d is not requesting", i, p)
			}
			// The holder: requesting NEED with T_h = NEED, a disabled
			// token, not LOCKed.
			if s.Get(p, v.Th) == s.Get(p, v.Need) && s.Get(p, v.Td) > 0 && !lock(s, v, p) {
				if holder < 0 {
					holder = p
				}
			}
		}
		if holder < 0 || !(s.Get(holder, v.Th) == s.Get(holder, v.Need) && s.Get(holder, v.Td) > 0) {
			t.Errorf("cycle state %d: no process holds T_h = NEED with a disabled token throughout", i)
		}
		if !sys.Legitimate.Holds(s) {
			t.Errorf("cycle state %d is not legitimate", i)
		}
	}
	other := 1 - holder
	partial := false
	for i := ce.LoopStart; i < len(ce.Steps); i++ {
		m := ce.Steps[i].Moves[0]
		if int(m.Proc) == other && sys.Label(&ce.Steps[i]) == "A_l9" {
			partial = true
		}
	}
	if !partial {
		t.Error("on the cycle the privileged process never absorbs the pool (A_l9)")
	}
}

// TestStarvationDefaultInstance: the brief's instance n=3, ℓ=K=2 starves
// every process (weak fairness), from a complete search.
func TestStarvationDefaultInstance(t *testing.T) {
	sys, _ := build(t)
	rep := check(t, sys, []invariants.Property{invariants.Starvation}, invariants.LeadsTo{})
	o := rep.Outcomes[0]
	if o.Verdict != invariants.Violated || fmt.Sprint(o.Starving) != "[0 1 2]" {
		t.Fatalf("starvation %s %v, want violated [0 1 2]", o.Verdict, o.Starving)
	}
	if err := o.Counterexample.Replay(sys); err != nil {
		t.Fatal(err)
	}
	if rep.Search.States != 324148 {
		t.Errorf("%d states, want 324148", rep.Search.States)
	}
}

// TestKLLiveness: (k,ℓ)-liveness with staycs=1 (critical sections may last
// forever). The strong per-process reading grantable ~> inCS fails even
// for K=1 (another member of J may enter and stay, shrinking α); the
// reading closest to Definition 2.2(b), klWaiting ~> grantedOrOutgrown,
// holds for K=1 and fails for K=2 with the starvation livelock.
func TestKLLiveness(t *testing.T) {
	for _, tc := range []struct {
		n, l, k  int
		from, to string
		want     invariants.Verdict
	}{
		{3, 2, 1, "klWaiting", "grantedOrOutgrown", invariants.Holds},
		{2, 2, 1, "grantable", "inCS", invariants.Holds},
		{3, 2, 1, "grantable", "inCS", invariants.Violated},
		{3, 2, 2, "klWaiting", "grantedOrOutgrown", invariants.Violated},
		{2, 2, 2, "klWaiting", "grantedOrOutgrown", invariants.Violated},
	} {
		sys, v := build(t, "n", tc.n, "L", tc.l, "K", tc.k, "staycs", 1)
		rep := check(t, sys, []invariants.Property{invariants.LeadsToProperty}, invariants.LeadsTo{From: tc.from, To: tc.to})
		o := rep.Outcomes[0]
		if o.Verdict != tc.want {
			t.Errorf("n=%d L=%d K=%d %s ~> %s: %s (%s), want %s", tc.n, tc.l, tc.k, tc.from, tc.to, o.Verdict, o.Reason, tc.want)
			continue
		}
		if o.Verdict == invariants.Violated {
			if err := o.Counterexample.Replay(sys); err != nil {
				t.Fatal(err)
			}
			ce := o.Counterexample
			p := *ce.Process
			// On the cycle p stays requesting and never enters.
			for i := ce.LoopStart; i < len(ce.States); i++ {
				if ce.States[i].Get(p, v.State) != Request {
					t.Errorf("%s ~> %s: process %d not requesting on the cycle", tc.from, tc.to, p)
				}
			}
		}
	}
}

// TestLeaveIsOptionalWithStayCS pins the staycs parameter.
func TestLeaveIsOptionalWithStayCS(t *testing.T) {
	for stay, want := range map[int]model.Liveness{0: model.Finite, 1: model.Optional} {
		sys, _ := build(t, "staycs", stay)
		for _, a := range sys.Processes[1].Actions {
			if a.Name == "leave" && a.Liveness != want {
				t.Errorf("staycs=%d: leave is %s, want %s", stay, a.Liveness, want)
			}
			if a.Name == "request" && a.Liveness != model.Optional {
				t.Errorf("request is %s", a.Liveness)
			}
		}
	}
}

// TestFixesRemoveStarvation pins the diagnosis of the finding: either
// repair alone — LOCK on the enabled tokens (fix=1), or A_l8 re-enabling a
// disabled token before it increments T_h (fix=2) — makes starvation
// freedom hold where the paper's protocol starves, with safety and deadlock
// freedom intact.
func TestFixesRemoveStarvation(t *testing.T) {
	for _, tc := range []struct{ n, fix int }{{2, 1}, {2, 2}, {3, 1}} {
		if testing.Short() && tc.n > 2 {
			t.Logf("n=%d fix=%d left to the run without -short", tc.n, tc.fix)
			continue
		}
		sys, _ := build(t, "n", tc.n, "L", 2, "K", 2, "fix", tc.fix)
		rep := check(t, sys, []invariants.Property{invariants.Safety, invariants.Deadlock, invariants.Starvation}, invariants.LeadsTo{})
		for _, o := range rep.Outcomes {
			if o.Verdict != invariants.Holds {
				t.Errorf("n=%d fix=%d: %s %s (%s), want holds", tc.n, tc.fix, o.Property, o.Verdict, o.Reason)
			}
		}
	}
}
