package klddhl_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/runs"
	"github.com/ringcheck/ringcheck/specs/spectest"
)

// build builds the catalogue's ring for n, L, K (Cmax 0: L+3); overflow,
// if given, replaces every channel's policy, as --overflow does.
func build(t testing.TB, n, l, k int, overflow ...model.Overflow) (*model.System, vars) {
	t.Helper()
	return buildP(t, params(t, "n", n, "L", l, "K", k, "Cmax", 0, "staycs", 0), overflow...)
}

// ring is a configuration of a 3-process ring written by hand. out[i] is
// the channel from i to i+1, head first, one word per message: "T" a Token,
// "U" the Pusher, "R" the Priority, "c.tok.pri.mark" a privilege.
type ring struct {
	need, cnt, prio, c   [3]int
	tok, pri, push, rset int
	out                  [3]string
}

func (r ring) state(t testing.TB, sys *model.System, v vars) *model.State {
	t.Helper()
	s := sys.NewState()
	for p := 0; p < 3; p++ {
		s.Set(p, v.Need, r.need[p])
		s.Set(p, v.Cnt, r.cnt[p])
		s.Set(p, v.Prio, r.prio[p])
		s.Set(p, v.C, r.c[p])
	}
	s.Set(0, v.Tok, r.tok)
	s.Set(0, v.Pri, r.pri)
	s.Set(0, v.Push, r.push)
	s.Set(0, v.Reset, r.rset)
	for p, word := range r.out {
		for _, m := range strings.Fields(word) {
			if !s.Push(v.Out[p], msg(t, sys, v, m)) {
				t.Fatalf("channel %d is full", p)
			}
		}
	}
	if err := sys.Validate(s); err != nil {
		t.Fatal(err)
	}
	return s
}

func msg(t testing.TB, sys *model.System, v vars, word string) model.Msg {
	switch word {
	case "T":
		return sys.Msg(v.Token)
	case "U":
		return sys.Msg(v.Pusher)
	case "R":
		return sys.Msg(v.Priority)
	}
	var f [4]int
	parts := strings.Split(word, ".")
	if len(parts) != 4 {
		t.Fatalf("bad message %q", word)
	}
	for i, part := range parts {
		for _, d := range part {
			f[i] = f[i]*10 + int(d-'0')
		}
	}
	return sys.Msg(v.Priv, f[0], f[1], f[2], f[3])
}

// words renders channel ch as ring.out does.
func words(sys *model.System, v vars, s *model.State, ch model.ChanID) string {
	var out []string
	for i := 0; i < s.Len(ch); i++ {
		m := s.At(ch, i)
		switch sys.TypeOf(m) {
		case v.Token:
			out = append(out, "T")
		case v.Pusher:
			out = append(out, "U")
		case v.Priority:
			out = append(out, "R")
		default:
			f := []string{}
			for j := 0; j < 4; j++ {
				f = append(f, itoa(sys.Field(m, j)))
			}
			out = append(out, strings.Join(f, "."))
		}
	}
	return strings.Join(out, " ")
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	s := ""
	for ; i > 0; i /= 10 {
		s = string(rune('0'+i%10)) + s
	}
	return s
}

// fire returns the successors of s by process p's action named act.
func fire(t testing.TB, sys *model.System, s *model.State, p int, act string) []*model.State {
	t.Helper()
	var got []*model.State
	_, err := sys.NewExpander().Expand(s, func(step *model.Step, next *model.State) bool {
		m := step.Moves[0]
		if int(m.Proc) == p && sys.Processes[p].Actions[m.Action].Name == act {
			got = append(got, next.Clone())
		}
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestActions drives single actions on hand-written configurations of a
// 3-process ring with L=2, K=2 (Cmax 5, counters 0..17).
func TestActions(t *testing.T) {
	for _, tc := range []struct {
		name   string
		before ring
		p      int
		act    string
		after  *ring // nil: the action is disabled
	}{
		{
			name:   "push makes a waiting process release its tokens",
			before: ring{need: [3]int{0, 2, 0}, cnt: [3]int{0, 1, 0}, out: [3]string{"U", "", ""}},
			p:      1, act: "push",
			after: &ring{need: [3]int{0, 2, 0}, out: [3]string{"", "T U", ""}},
		},
		{
			name:   "the priority holder keeps its tokens when the pusher passes",
			before: ring{need: [3]int{0, 2, 0}, cnt: [3]int{0, 1, 0}, prio: [3]int{0, 1, 0}, out: [3]string{"U", "", ""}},
			p:      1, act: "push",
			after: &ring{need: [3]int{0, 2, 0}, cnt: [3]int{0, 1, 0}, prio: [3]int{0, 1, 0}, out: [3]string{"", "U", ""}},
		},
		{
			name:   "a waiting process keeps the priority token",
			before: ring{need: [3]int{0, 2, 0}, out: [3]string{"R", "", ""}},
			p:      1, act: "priority",
			after: &ring{need: [3]int{0, 2, 0}, prio: [3]int{0, 1, 0}},
		},
		{
			name:   "an idle process passes the priority token on",
			before: ring{out: [3]string{"R", "", ""}},
			p:      1, act: "priority",
			after: &ring{out: [3]string{"", "R", ""}},
		},
		{
			name:   "entering the critical section releases the priority token",
			before: ring{need: [3]int{0, 2, 0}, cnt: [3]int{0, 1, 0}, prio: [3]int{0, 1, 0}, out: [3]string{"T", "", ""}},
			p:      1, act: "collect",
			after: &ring{need: [3]int{0, 2, 0}, cnt: [3]int{0, 2, 0}, out: [3]string{"", "R", ""}},
		},
		{
			name:   "the privilege records the tokens and priority it overtakes",
			before: ring{need: [3]int{0, 2, 0}, cnt: [3]int{0, 1, 0}, prio: [3]int{0, 1, 0}, c: [3]int{3, 2, 2}, out: [3]string{"3.1.0.0", "", ""}},
			p:      1, act: "accept",
			after: &ring{need: [3]int{0, 2, 0}, cnt: [3]int{0, 1, 0}, prio: [3]int{0, 1, 0}, c: [3]int{3, 3, 2}, out: [3]string{"", "3.2.1.0", ""}},
		},
		{
			name:   "a marked privilege destroys the reserved tokens and the priority",
			before: ring{need: [3]int{0, 2, 0}, cnt: [3]int{0, 1, 0}, prio: [3]int{0, 1, 0}, c: [3]int{3, 2, 2}, out: [3]string{"3.0.0.1", "", ""}},
			p:      1, act: "accept",
			after: &ring{need: [3]int{0, 2, 0}, c: [3]int{3, 3, 2}, out: [3]string{"", "3.0.0.1", ""}},
		},
		{
			name:   "a stale privilege is ignored",
			before: ring{c: [3]int{3, 3, 2}, out: [3]string{"3.0.0.0", "", ""}},
			p:      1, act: "ignore",
			after: &ring{c: [3]int{3, 3, 2}},
		},
		{
			name:   "the root counts the tokens it receives",
			before: ring{out: [3]string{"", "", "T"}},
			p:      0, act: "forward",
			after: &ring{tok: 1, out: [3]string{"T", "", ""}},
		},
		{
			name:   "tour end, counts exact: nothing created, a new tour counts what the root holds",
			before: ring{need: [3]int{2, 0, 0}, cnt: [3]int{1, 0, 0}, c: [3]int{3, 3, 3}, tok: 2, pri: 0, push: 1, out: [3]string{"R T", "", "3.0.1.0"}},
			p:      0, act: "accept",
			after: &ring{need: [3]int{2, 0, 0}, cnt: [3]int{1, 0, 0}, c: [3]int{4, 3, 3}, tok: 1, out: [3]string{"R T 4.0.0.0", "", ""}},
		},
		{
			name:   "tour end, one token and the pusher missing: created ahead of the new privilege",
			before: ring{c: [3]int{3, 3, 3}, tok: 1, pri: 1, push: 0, out: [3]string{"", "", "3.0.0.0"}},
			p:      0, act: "accept",
			after: &ring{c: [3]int{4, 3, 3}, out: [3]string{"T U 4.0.0.0", "", ""}},
		},
		{
			name:   "tour end, too many tokens: the root destroys its own and marks the privilege",
			before: ring{need: [3]int{1, 0, 0}, cnt: [3]int{1, 0, 0}, c: [3]int{3, 3, 3}, tok: 2, pri: 1, push: 1, out: [3]string{"", "", "3.1.0.0"}},
			p:      0, act: "accept",
			after: &ring{need: [3]int{1, 0, 0}, c: [3]int{4, 3, 3}, rset: 1, out: [3]string{"4.0.0.1", "", ""}},
		},
		{
			name:   "while resetting the root deletes what it receives",
			before: ring{c: [3]int{4, 3, 3}, rset: 1, out: [3]string{"", "", "T"}},
			p:      0, act: "flush",
			after: &ring{c: [3]int{4, 3, 3}, rset: 1},
		},
		{
			name:   "the marked privilege back: exactly L tokens, the pusher and the priority",
			before: ring{c: [3]int{4, 4, 4}, rset: 1, out: [3]string{"", "", "4.0.0.1"}},
			p:      0, act: "accept",
			after: &ring{c: [3]int{5, 4, 4}, pri: 0, out: [3]string{"T T U R 5.0.0.0", "", ""}},
		},
		{
			name:   "a request above K is cancelled and its tokens go on",
			before: ring{need: [3]int{0, 3, 0}, cnt: [3]int{0, 2, 0}},
			p:      1, act: "cancel",
			after: &ring{out: [3]string{"", "T T", ""}},
		},
		{
			name:   "the priority held without a request is passed on",
			before: ring{prio: [3]int{0, 1, 0}},
			p:      1, act: "cancel",
			after: &ring{out: [3]string{"", "R", ""}},
		},
		{
			name:   "the timeout restarts a lost privilege",
			before: ring{c: [3]int{3, 3, 3}, rset: 1, out: [3]string{"T", "", ""}},
			p:      0, act: "timeout",
			after: &ring{c: [3]int{4, 3, 3}, out: [3]string{"T 4.0.0.0", "", ""}},
		},
		{
			name:   "no timeout while a privilege exists, even a stale one",
			before: ring{c: [3]int{3, 3, 3}, out: [3]string{"", "9.0.0.0", ""}},
			p:      0, act: "timeout",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys, v := build(t, 3, 2, 2)
			got := fire(t, sys, tc.before.state(t, sys, v), tc.p, tc.act)
			if tc.after == nil {
				if len(got) != 0 {
					t.Fatalf("%s is enabled, want disabled", tc.act)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("%s has %d steps, want 1", tc.act, len(got))
			}
			want := tc.after.state(t, sys, v)
			if !got[0].Equal(want) {
				t.Errorf("after %s:\n got %s\nwant %s", tc.act, render(sys, v, got[0]), render(sys, v, want))
			}
		})
	}
}

// render writes a configuration on one line: each process's need, cnt,
// prio and C, the root's counts and reset, then each channel i→i+1 as
// ring.out writes it.
func render(sys *model.System, v vars, s *model.State) string {
	var b strings.Builder
	for p := 0; p < v.N; p++ {
		b.WriteString("p" + itoa(p) + "(need=" + itoa(s.Get(p, v.Need)) + " cnt=" + itoa(s.Get(p, v.Cnt)) +
			" prio=" + itoa(s.Get(p, v.Prio)) + " C=" + itoa(s.Get(p, v.C)) + ") ")
	}
	b.WriteString("root(tok=" + itoa(s.Get(0, v.Tok)) + " pri=" + itoa(s.Get(0, v.Pri)) +
		" push=" + itoa(s.Get(0, v.Push)) + " reset=" + itoa(s.Get(0, v.Reset)) + ")")
	for p := 0; p < v.N; p++ {
		b.WriteString(" [" + words(sys, v, s, v.Out[p]) + "]")
	}
	return b.String()
}

// TestInitialIsLegitimate pins the initial configuration: the state the
// root leaves at the end of a reset, which is legitimate.
func TestInitialIsLegitimate(t *testing.T) {
	sys, v := build(t, 3, 2, 2)
	init := sys.Initial()[0]
	want := ring{c: [3]int{0, 17, 17}, out: [3]string{"T T U R 0.0.0.0", "", ""}}.state(t, sys, v)
	if !init.Equal(want) {
		t.Fatalf("initial %s, want %s", render(sys, v, init), render(sys, v, want))
	}
	if !sys.Legitimate.Holds(init) {
		t.Fatal("the initial configuration is not legitimate")
	}
	// One token more, one less, a stale count: not legitimate.
	for _, r := range []ring{
		{c: [3]int{0, 17, 17}, out: [3]string{"T T U R 0.0.0.0", "T", ""}},
		{c: [3]int{0, 17, 17}, out: [3]string{"T U R 0.0.0.0", "", ""}},
		{c: [3]int{0, 17, 17}, tok: 1, out: [3]string{"T T U R 0.0.0.0", "", ""}},
		{c: [3]int{0, 17, 17}, out: [3]string{"0.0.0.0 T T U R", "", ""}},
	} {
		if s := r.state(t, sys, v); sys.Legitimate.Holds(s) {
			t.Errorf("%s is legitimate", render(sys, v, s))
		}
	}
}

// TestPaperClaimsFromInit decides safety (which includes "every reachable
// configuration is legitimate", closure along every execution from init),
// deadlock and starvation on the smallest ring with a choice of requests
// (n=2, L=2, K=2); the regression manifest runs n=3. Starvation holds with
// no fairness assumption beyond finite critical sections (--fairness
// none), hence under weak fairness too: on a unidirectional ring every
// message crosses every process, so no process can be left out of an
// infinite execution, and the priority token makes a waiting process keep
// what it collects.
func TestPaperClaimsFromInit(t *testing.T) {
	sys, _ := build(t, 2, 2, 2)
	outcomes := spectest.CheckComplete(t, sys, invariants.Options{
		Properties: []invariants.Property{invariants.Safety, invariants.Deadlock, invariants.Starvation},
		Search:     explore.Options{Workers: spectest.Workers},
		From:       invariants.FromInit, Fairness: invariants.NoFairness,
	}).Outcomes
	for _, o := range outcomes {
		if o.Verdict != invariants.Holds {
			t.Errorf("%s: %s (%s)", o.Property, o.Verdict, o.Reason)
		}
	}
}

// TestKLLivenessFails pins a finding: with processes allowed to stay in
// their critical section forever (staycs=1), Datta, Hadid and Villain's (k,ℓ)-liveness
// fails for the AlgoTel 2008 protocol. One process stays in its critical section
// with one unit; another, needing two, holds the priority token and the
// only free token, which the pusher cannot take from it; a third, needing
// one unit, which is free, waits forever.
func TestKLLivenessFails(t *testing.T) {
	sys, v := buildKV(t, "n", 3, "L", 2, "K", 2, "Cmax", 0, "staycs", 1)
	o := spectest.CheckComplete(t, sys, invariants.Options{
		Properties: []invariants.Property{invariants.LeadsToProperty},
		LeadsTo:    invariants.LeadsTo{From: "requesting", To: "servedOrFull"},
		Search:     explore.Options{Workers: spectest.Workers},
		From:       invariants.FromInit, Fairness: invariants.WeakFairness,
	}).Outcomes[0]
	if o.Verdict != invariants.Violated {
		t.Fatalf("(k,L)-liveness %s, want violated", o.Verdict)
	}
	ce := o.Counterexample
	if ce == nil || ce.Kind != invariants.Lasso || ce.Process == nil {
		t.Fatalf("counterexample %+v, want a lasso about one process", ce)
	}
	if err := ce.Replay(sys); err != nil {
		t.Fatal(err)
	}
	waiter := *ce.Process
	for i := ce.LoopStart; i < len(ce.States); i++ {
		s := ce.States[i]
		var inCS, holder int
		for p := 0; p < 3; p++ {
			if nd := s.Get(p, v.Need); nd > 0 && s.Get(p, v.Cnt) == nd {
				inCS += nd
			}
			if s.Get(p, v.Prio) == 1 && p != waiter && s.Get(p, v.Need) > v.L-1 && s.Get(p, v.Cnt) == 1 {
				holder++
			}
		}
		if need := s.Get(waiter, v.Need); need == 0 || s.Get(waiter, v.Cnt) >= need || need > v.L-inCS {
			t.Fatalf("state %d: process %d does not wait for units that are free", i, waiter)
		}
		if inCS != 1 || holder != 1 {
			t.Fatalf("state %d: %d units in use and %d priority holders with one token, want 1 and 1: %s", i, inCS, holder, render(sys, v, s))
		}
	}
}

// TestBlockingDeadlocksAfterAFault pins why full channels drop: under
// block, a configuration in which every process requests and every channel
// is full of privileges valid for their receivers has no step at all.
func TestBlockingDeadlocksAfterAFault(t *testing.T) {
	full := strings.TrimSpace(strings.Repeat("9.0.0.0 ", 5))
	r := ring{need: [3]int{1, 1, 1}, c: [3]int{9, 1, 1}, out: [3]string{full, full, strings.TrimSpace(strings.Repeat("9.0.0.0 ", 5))}}
	block := model.Block
	for _, tc := range []struct {
		overflow []model.Overflow
		steps    bool
	}{{[]model.Overflow{block}, false}, {nil, true}} {
		sys, v := build(t, 3, 2, 2, tc.overflow...)
		s := r.state(t, sys, v)
		n, _, err := sys.NewExpander().Count(s)
		if err != nil {
			t.Fatal(err)
		}
		if (n > 0) != tc.steps {
			t.Errorf("overflow %v: %d steps", tc.overflow != nil, n)
		}
	}
}

// TestRecoversFromFaults is randomized evidence, not a verdict: the full
// configuration space is far beyond exhaustive search (about 10^49
// configurations for n=3, L=2, K=2), so runs from init get a transient
// fault (a uniformly random configuration) and must reach L and stay
// there. The seed makes the runs reproducible.
func TestRecoversFromFaults(t *testing.T) {
	sys, _ := build(t, 3, 2, 2)
	check := func(s *model.State) string {
		for _, inv := range sys.Invariants {
			if !inv.Holds(s) {
				return inv.Name
			}
		}
		return ""
	}
	res, err := runs.Simulate(context.Background(), sys, runs.SimOptions{Steps: 1500, Runs: 100, Seed: 3, FaultAt: 50}, check, sys.Legitimate.Holds)
	if err != nil {
		t.Fatal(err)
	}
	if res.Violations != 0 {
		t.Fatalf("a run found %s", res.First.Name)
	}
	faulted, reached, lo, hi, mean := res.Recovery()
	if faulted != 100 || reached != 100 {
		t.Fatalf("%d of %d faulted runs reached L", reached, faulted)
	}
	t.Logf("steps back to L: min %d, mean %.1f, max %d", lo, mean, hi)
}

// TestCancelComesFirst pins the precedence of cancel: a process with a
// corrupt local state (a request above K, more tokens than needed, the
// priority held without a request) has no other protocol step, whatever
// is at the head of its channel, so weak fairness per process makes it
// cancel; without one, the same heads are received. The root's timeout
// waits for the root's repair too.
func TestCancelComesFirst(t *testing.T) {
	sys, v := build(t, 3, 2, 2)
	ex := sys.NewExpander()
	protocolSteps := func(s *model.State, p int) []string {
		var names []string
		if _, err := ex.Expand(s, func(st *model.Step, _ *model.State) bool {
			mv := st.Moves[0]
			if int(mv.Proc) == p && sys.Processes[p].Actions[mv.Action].Kind != model.Environment {
				names = append(names, sys.Processes[p].Actions[mv.Action].Name)
			}
			return true
		}); err != nil {
			t.Fatal(err)
		}
		return names
	}
	for _, head := range []string{"T", "U", "R", "3.0.0.0", "4.0.0.0"} {
		for _, corrupt := range []ring{
			{need: [3]int{0, 3, 0}, c: [3]int{3, 4, 4}},
			{need: [3]int{0, 1, 0}, cnt: [3]int{0, 2, 0}, c: [3]int{3, 4, 4}},
			{prio: [3]int{0, 1, 0}, c: [3]int{3, 4, 4}},
		} {
			corrupt.out[0] = head
			if got := protocolSteps(corrupt.state(t, sys, v), 1); len(got) != 1 || got[0] != "cancel" {
				t.Errorf("head %s, process 1 corrupt: protocol steps %v, want only cancel", head, got)
			}
			sound := ring{c: [3]int{3, 4, 4}}
			sound.out[0] = head
			if got := protocolSteps(sound.state(t, sys, v), 1); len(got) != 1 || got[0] == "cancel" {
				t.Errorf("head %s, process 1 sound: protocol steps %v, want the receipt of the head", head, got)
			}
		}
	}
	root := ring{need: [3]int{3, 0, 0}, c: [3]int{3, 3, 3}}
	if got := protocolSteps(root.state(t, sys, v), 0); len(got) != 1 || got[0] != "cancel" {
		t.Errorf("the root corrupt with no privilege anywhere: protocol steps %v, want only cancel (not the timeout)", got)
	}
}

// TestCounterDomain: the counters range over n(Cmax+1) values, or over
// the parameter counters when it is set (as on reliable links, whose
// enlarged channels would otherwise enlarge the domain too); the counter
// variable and the privilege's field share that domain, the initial
// configuration's counters other than the root's are its top value M-1,
// and a domain of one value is refused.
func TestCounterDomain(t *testing.T) {
	tests := []struct {
		cmax, counters, want int
	}{
		{0, 0, 2 * (1 + 3 + 1)},
		{32, 0, 2 * 33},
		{32, 10, 10},
		{0, 7, 7},
	}
	for _, tt := range tests {
		sys, v := buildKV(t, "n", 2, "L", 1, "K", 1, "Cmax", tt.cmax, "counters", tt.counters)
		if got := sys.Initial()[0].Get(1, v.C); got != tt.want-1 {
			t.Errorf("Cmax=%d counters=%d: initial C_1=%d, want M-1=%d", tt.cmax, tt.counters, got, tt.want-1)
		}
		if got := sys.Vars[v.C].Domain.Size(); got != tt.want {
			t.Errorf("Cmax=%d counters=%d: C has %d values, want %d", tt.cmax, tt.counters, got, tt.want)
		}
		if got := sys.Messages[v.Priv].Fields[0].Domain.Size(); got != tt.want {
			t.Errorf("Cmax=%d counters=%d: Priv.c has %d values, want %d", tt.cmax, tt.counters, got, tt.want)
		}
	}
	spec := spectest.Builtin(t, "kl-ddhl")
	vals := params(t, "n", 2, "L", 1, "K", 1)
	vals["counters"] = 1
	if _, err := spec.Build(vals); err == nil || !strings.Contains(err.Error(), "counters ≥ 2") {
		t.Errorf("counters=1: error %v", err)
	}
}
