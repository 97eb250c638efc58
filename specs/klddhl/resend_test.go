package klddhl_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs/spectest"
)

// buildResend builds a 3-process ring with L=2, K=2 (Cmax 5, counters
// 0..17) and the given resend parameter.
func buildResend(t testing.TB, resend int) (*model.System, vars) {
	t.Helper()
	return buildKV(t, "n", 3, "L", 2, "K", 2, "Cmax", 0, "staycs", 0, "resend", resend)
}

// sent is what a process other than the root last sent in a privilege's
// tok, pri and mark fields (the variables resend=1 declares).
type sent struct{ tok, pri, mark int }

// withSent is r's configuration with process p's sent fields set to f,
// under resend=1 (which declares them); under another reading, r's.
func withSent(t testing.TB, sys *model.System, v vars, r ring, f map[int]sent) *model.State {
	t.Helper()
	s := r.state(t, sys, v)
	if v.Resend != 1 {
		return s
	}
	for p, x := range f {
		s.Set(p, v.SentTok, x.tok)
		s.Set(p, v.SentPri, x.pri)
		s.Set(p, v.SentMark, x.mark)
	}
	if err := sys.Validate(s); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestResend drives the resend action (and the accept that records what
// resend=1 copies) on hand-written configurations, under each reading:
// what a resend sends, and under which guard. after[r] is the
// configuration after the action under resend=r (nil: disabled); resend=0
// has no resend action at all.
func TestResend(t *testing.T) {
	lost := ring{need: [3]int{0, 2, 0}, cnt: [3]int{0, 1, 0}, c: [3]int{4, 4, 3}}
	for _, tc := range []struct {
		name   string
		before ring
		sent   map[int]sent
		p      int
		act    string
		after  [3]*ring
		// sentAfter is what resend=1 leaves in the sent fields.
		sentAfter map[int]sent
	}{
		{
			name:   "a lost privilege: resend=1 copies its counts, resend=2 sends the counter alone",
			before: lost, sent: map[int]sent{1: {1, 1, 0}}, p: 1, act: "resend",
			after: [3]*ring{nil,
				{need: lost.need, cnt: lost.cnt, c: lost.c, out: [3]string{"", "4.1.1.0", ""}},
				{need: lost.need, cnt: lost.cnt, c: lost.c, out: [3]string{"", "4.0.0.0", ""}}},
			sentAfter: map[int]sent{1: {1, 1, 0}},
		},
		{
			name:   "a lost marked privilege: resend=1 keeps the mark, resend=2 drops it",
			before: lost, sent: map[int]sent{1: {0, 0, 1}}, p: 1, act: "resend",
			after: [3]*ring{nil,
				{need: lost.need, cnt: lost.cnt, c: lost.c, out: [3]string{"", "4.0.0.1", ""}},
				{need: lost.need, cnt: lost.cnt, c: lost.c, out: [3]string{"", "4.0.0.0", ""}}},
		},
		{
			name:   "no resend while the privilege is still on the link",
			before: ring{c: [3]int{4, 4, 3}, out: [3]string{"", "4.1.0.0 T", ""}}, p: 1, act: "resend",
		},
		{
			name:   "no resend while any privilege is on the link, even a stale one",
			before: ring{c: [3]int{4, 4, 3}, out: [3]string{"", "T 9.0.0.0", ""}}, p: 1, act: "resend",
		},
		{
			name:   "no resend once the successor took the counter",
			before: ring{c: [3]int{4, 4, 4}}, p: 1, act: "resend",
		},
		{
			name:   "a privilege on another link does not stop the resend (unlike the root's timeout)",
			before: ring{c: [3]int{4, 4, 3}, out: [3]string{"9.0.0.0", "", ""}}, p: 1, act: "resend",
			after: [3]*ring{nil,
				{c: [3]int{4, 4, 3}, out: [3]string{"9.0.0.0", "4.0.0.0", ""}},
				{c: [3]int{4, 4, 3}, out: [3]string{"9.0.0.0", "4.0.0.0", ""}}},
		},
		{
			name:   "the last process resends when the root would accept its counter",
			before: ring{c: [3]int{4, 4, 4}}, sent: map[int]sent{2: {2, 1, 0}}, p: 2, act: "resend",
			after: [3]*ring{nil,
				{c: [3]int{4, 4, 4}, out: [3]string{"", "", "4.2.1.0"}},
				{c: [3]int{4, 4, 4}, out: [3]string{"", "", "4.0.0.0"}}},
		},
		{
			name:   "the last process does not resend once the root moved on",
			before: ring{c: [3]int{5, 4, 4}}, p: 2, act: "resend",
		},
		{
			name:   "the root resends its marked privilege under both readings",
			before: ring{c: [3]int{4, 3, 3}, rset: 1, tok: 1}, p: 0, act: "resend",
			after: [3]*ring{nil,
				{c: [3]int{4, 3, 3}, rset: 1, tok: 1, out: [3]string{"4.0.0.1", "", ""}},
				{c: [3]int{4, 3, 3}, rset: 1, tok: 1, out: [3]string{"4.0.0.1", "", ""}}},
		},
		{
			name:   "the root does not resend once process 1 took its counter",
			before: ring{c: [3]int{4, 4, 3}}, p: 0, act: "resend",
		},
		{
			name:   "a process with a request above K cancels it before resending",
			before: ring{need: [3]int{0, 3, 0}, c: [3]int{4, 4, 3}}, p: 1, act: "resend",
		},
		{
			name:   "accepting, a process records the fields it sends (resend=1)",
			before: ring{need: [3]int{0, 2, 0}, cnt: [3]int{0, 1, 0}, prio: [3]int{0, 1, 0}, c: [3]int{3, 2, 2}, out: [3]string{"3.1.0.0", "", ""}},
			p:      1, act: "accept",
			after: [3]*ring{
				{need: [3]int{0, 2, 0}, cnt: [3]int{0, 1, 0}, prio: [3]int{0, 1, 0}, c: [3]int{3, 3, 2}, out: [3]string{"", "3.2.1.0", ""}},
				{need: [3]int{0, 2, 0}, cnt: [3]int{0, 1, 0}, prio: [3]int{0, 1, 0}, c: [3]int{3, 3, 2}, out: [3]string{"", "3.2.1.0", ""}},
				{need: [3]int{0, 2, 0}, cnt: [3]int{0, 1, 0}, prio: [3]int{0, 1, 0}, c: [3]int{3, 3, 2}, out: [3]string{"", "3.2.1.0", ""}}},
			sentAfter: map[int]sent{1: {2, 1, 0}},
		},
	} {
		for r := 0; r <= 2; r++ {
			t.Run(tc.name+"/resend="+itoa(r), func(t *testing.T) {
				sys, v := buildResend(t, r)
				got := fire(t, sys, withSent(t, sys, v, tc.before, tc.sent), tc.p, tc.act)
				want := tc.after[r]
				if want == nil {
					if len(got) != 0 {
						t.Fatalf("%s is enabled, want disabled", tc.act)
					}
					return
				}
				if len(got) != 1 {
					t.Fatalf("%s has %d steps, want 1", tc.act, len(got))
				}
				after := tc.sent
				if tc.sentAfter != nil {
					after = tc.sentAfter
				}
				w := withSent(t, sys, v, *want, after)
				if !got[0].Equal(w) {
					t.Errorf("after %s:\n got %s\nwant %s", tc.act, render(sys, v, got[0]), render(sys, v, w))
				}
			})
		}
	}
}

// TestResendNeverEnabledInL checks what makes every check of resend=1 and
// 2 from init, and closure, those of resend=0: in no legitimate
// configuration of the enumeration closure is decided from (derived from
// the file's L and its closure from) is any process's resend enabled (the
// one privilege is on the link of the one process whose successor misses
// its counter). Under resend=1 the sent fields are 0 in the enumeration,
// and the guard does not read them.
func TestResendNeverEnabledInL(t *testing.T) {
	for _, tc := range []struct{ n, l, k, resend int }{
		{2, 1, 1, 1}, {2, 1, 1, 2}, {3, 1, 1, 1}, {3, 1, 1, 2},
	} {
		sys, _ := buildKV(t, "n", tc.n, "L", tc.l, "K", tc.k, "Cmax", 0, "staycs", 0, "resend", tc.resend)
		exp := sys.NewExpander()
		configs, resends := 0, 0
		derivedL(t, sys)(sys, func(s *model.State) bool {
			configs++
			_, err := exp.Expand(s, func(step *model.Step, _ *model.State) bool {
				if sys.ActionOf(step.Moves[0]).Name == "resend" {
					resends++
				}
				return true
			})
			if err != nil {
				t.Fatal(err)
			}
			return resends == 0
		})
		if resends != 0 {
			t.Fatalf("n=%d L=%d K=%d resend=%d: a resend is enabled in a legitimate configuration", tc.n, tc.l, tc.k, tc.resend)
		}
		if configs == 0 {
			t.Fatalf("n=%d L=%d K=%d: no legitimate configuration enumerated", tc.n, tc.l, tc.k)
		}
	}
}

// TestNoTimeout checks notimeout=1: it needs a resend, it removes the
// root's timeout, and the resends alone regenerate a lost privilege: in
// every configuration sampled with no Priv message anywhere, some process
// has cancel or a resend enabled.
func TestNoTimeout(t *testing.T) {
	vals := params(t, "n", 3, "L", 2, "K", 2, "notimeout", 1)
	_, err := spectest.Builtin(t, "kl-ddhl").Build(vals)
	if err == nil || !strings.Contains(err.Error(), "notimeout=1 needs resend") {
		t.Fatalf("notimeout=1 with resend=0: got error %v, want one naming notimeout and resend", err)
	}
	for _, tc := range []struct{ n, resend int }{{2, 1}, {3, 1}, {3, 2}, {4, 2}} {
		sys, v := buildKV(t, "n", tc.n, "L", 2, "K", 2, "resend", tc.resend, "notimeout", 1)
		for _, a := range sys.Processes[0].Actions {
			if a.Name == "timeout" {
				t.Fatalf("n=%d resend=%d notimeout=1: the root has a timeout", tc.n, tc.resend)
			}
		}
		rng := rand.New(rand.NewPCG(1, uint64(tc.n)))
		exp := sys.NewExpander()
		s := sys.NewState()
		for sample := 0; sample < 2000; sample++ {
			sys.RandomConfiguration(rng, s)
			for _, ch := range v.Out {
				var keep []model.Msg
				for s.Len(ch) > 0 {
					m, _ := s.Pop(ch)
					if sys.TypeOf(m) != v.Priv {
						keep = append(keep, m)
					}
				}
				for _, m := range keep {
					s.Push(ch, m)
				}
			}
			regenerates := false
			if _, err := exp.Expand(s, func(step *model.Step, _ *model.State) bool {
				name := sys.ActionOf(step.Moves[0]).Name
				regenerates = regenerates || name == "resend" || name == "cancel"
				return !regenerates
			}); err != nil {
				t.Fatal(err)
			}
			if !regenerates {
				t.Fatalf("n=%d resend=%d notimeout=1: no privilege anywhere, and no cancel nor resend enabled in sample %d", tc.n, tc.resend, sample)
			}
		}
	}
}

// TestResendClaimsFromInit checks safety, deadlock and starvation from init
// with every process resending, with and without the root's timeout, on
// the instance TestPaperClaimsFromInit uses: they hold, resend=2 (no
// variable added) reaches exactly the configurations resend=0 does, and
// removing the timeout (never enabled from init) changes nothing.
func TestResendClaimsFromInit(t *testing.T) {
	states := map[string]int64{}
	for _, p := range []struct{ resend, notimeout int }{{0, 0}, {1, 0}, {2, 0}, {1, 1}, {2, 1}} {
		name := "resend=" + itoa(p.resend) + " notimeout=" + itoa(p.notimeout)
		sys, _ := buildKV(t, "n", 2, "L", 2, "K", 2, "Cmax", 0, "staycs", 0, "resend", p.resend, "notimeout", p.notimeout)
		rep := spectest.CheckComplete(t, sys, invariants.Options{
			Properties: []invariants.Property{invariants.Safety, invariants.Deadlock, invariants.Starvation},
			Search:     explore.Options{Workers: spectest.Workers},
			From:       invariants.FromInit, Fairness: invariants.NoFairness,
		})
		for _, o := range rep.Outcomes {
			if o.Verdict != invariants.Holds {
				t.Errorf("%s: %s: %s (%s)", name, o.Property, o.Verdict, o.Reason)
			}
		}
		states[name] = rep.Search.States
	}
	base := states["resend=0 notimeout=0"]
	for _, name := range []string{"resend=2 notimeout=0", "resend=2 notimeout=1"} {
		if states[name] != base {
			t.Errorf("%s reaches %d configurations from init, resend=0 %d", name, states[name], base)
		}
	}
	if states["resend=1 notimeout=1"] != states["resend=1 notimeout=0"] {
		t.Errorf("resend=1: notimeout=1 reaches %d configurations from init, notimeout=0 %d", states["resend=1 notimeout=1"], states["resend=1 notimeout=0"])
	}
}
