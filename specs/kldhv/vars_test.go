package kldhv_test

import (
	"fmt"
	"testing"

	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/spectest"
)

// The values of STATE: the file's enumeration Status = {Out, Request, In}.
const (
	Out     = 0
	Request = 1
	In      = 2
)

// vars are the handles of a built kl-dhv system, by the names
// specs/ring/kl-dhv.ring declares, and its resolved bounds.
type vars struct {
	// Every process: STATE (Out, Request, In), NEED (1..K), Th, Td
	// (0..K), MySeq (0..MaxSeq), MyOrder (0/1).
	State, Need, Th, Td, MySeq, MyOrder model.VarID
	// Root only: Ce, Cf (0..CTop), MyTc (0..MaxVc), MyTa (0..MaxTa).
	Ce, Cf, MyTc, MyTa model.VarID
	// Message types. CToken's field 0 is seq; Collect's field 0 is tc;
	// Allocate's fields are ta and order.
	CToken, EnabledToken, Token, Collect, Allocate, Disable model.MsgType
	// Out[i] is the channel from process i to its successor.
	Out []model.ChanID
	// The resolved bounds, as the built system declares them: Cmax is the
	// channels' capacity, MaxSeq, MaxVc, MaxTa and CTop (ℓ or ℓ+1) the tops
	// of MySeq, MyTc, MyTa and Ce.
	N, L, K, Cmax, MaxSeq, MaxVc, MaxTa, CTop int
	// Fix is the fix parameter: 0 the paper's protocol, 1 LOCK on enabled
	// tokens, 2 A_l8 re-enabling a disabled token first.
	Fix int
}

// params returns the spec's defaults overridden by kv ("n", 3, "L", 2, ...).
func params(t testing.TB, kv ...any) specs.Values {
	t.Helper()
	return spectest.Resolve(t, spectest.Builtin(t, "kl-dhv"), kv...)
}

// buildP returns the catalogue's kl-dhv (specs/ring/kl-dhv.ring) for the
// resolved values p, with its handles; overflow, if given, replaces every
// channel's policy, as --overflow does.
func buildP(t testing.TB, p specs.Values, overflow ...model.Overflow) (*model.System, vars) {
	t.Helper()
	sys := spectest.Build(t, "kl-dhv", p)
	v := handles(t, sys, p)
	if len(overflow) > 0 {
		var err error
		if sys, err = sys.WithOverflow(overflow[0]); err != nil {
			t.Fatal(err)
		}
	}
	return sys, v
}

// build is buildP for the defaults overridden by kv.
func build(t testing.TB, kv ...any) (*model.System, vars) {
	t.Helper()
	return buildP(t, params(t, kv...))
}

// handles finds the variables, messages and channels of sys, built from the
// resolved values p, by the file's names.
func handles(t testing.TB, sys *model.System, p specs.Values) vars {
	t.Helper()
	v := vars{
		State: spectest.Var(t, sys, "STATE"), Need: spectest.Var(t, sys, "NEED"),
		Th: spectest.Var(t, sys, "Th"), Td: spectest.Var(t, sys, "Td"),
		MySeq: spectest.Var(t, sys, "MySeq"), MyOrder: spectest.Var(t, sys, "MyOrder"),
		Ce: spectest.Var(t, sys, "Ce"), Cf: spectest.Var(t, sys, "Cf"),
		MyTc: spectest.Var(t, sys, "MyTc"), MyTa: spectest.Var(t, sys, "MyTa"),
		CToken: spectest.MsgType(t, sys, "CToken"), EnabledToken: spectest.MsgType(t, sys, "Enabled_Token"),
		Token: spectest.MsgType(t, sys, "Token"), Collect: spectest.MsgType(t, sys, "Collect"),
		Allocate: spectest.MsgType(t, sys, "Allocate"), Disable: spectest.MsgType(t, sys, "Disable"),
		N: sys.N(), L: p["L"], K: p["K"], Fix: p["fix"],
	}
	v.Out = make([]model.ChanID, v.N)
	found := 0
	for c, ch := range sys.Channels {
		if ch.To != (ch.From+1)%v.N {
			t.Fatalf("channel %d→%d is not a link of the unidirectional ring", ch.From, ch.To)
		}
		v.Out[ch.From] = model.ChanID(c)
		found++
	}
	if found != v.N {
		t.Fatalf("%d channels, want %d", found, v.N)
	}
	v.Cmax = sys.Channels[v.Out[0]].Capacity
	v.MaxSeq = sys.Vars[v.MySeq].Domain.Max
	v.MaxVc = sys.Vars[v.MyTc].Domain.Max
	v.MaxTa = sys.Vars[v.MyTa].Domain.Max
	v.CTop = sys.Vars[v.Ce].Domain.Max
	return v
}

// render writes a configuration on one line: per process STATE/NEED,
// T_h/T_d, MySeq, MyOrder (and Root's C_e C_f MyT_c MyT_a), then the
// contents of each channel i→i+1, head first.
func render(sys *model.System, v vars, s *model.State) string {
	out := ""
	for i := 0; i < v.N; i++ {
		st := [...]string{"O", "R", "I"}[s.Get(i, v.State)]
		out += fmt.Sprintf("p%d[%s%d h%d d%d s%d o%d", i, st, s.Get(i, v.Need), s.Get(i, v.Th), s.Get(i, v.Td), s.Get(i, v.MySeq), s.Get(i, v.MyOrder))
		if i == 0 {
			out += fmt.Sprintf(" Ce%d Cf%d Tc%d Ta%d", s.Get(0, v.Ce), s.Get(0, v.Cf), s.Get(0, v.MyTc), s.Get(0, v.MyTa))
		}
		out += "] "
	}
	for i, ch := range v.Out {
		out += fmt.Sprintf("%d→%d:", i, (i+1)%v.N)
		for k := 0; k < s.Len(ch); k++ {
			m := s.At(ch, k)
			switch sys.TypeOf(m) {
			case v.CToken:
				out += fmt.Sprintf("C%d", sys.Field(m, 0))
			case v.EnabledToken:
				out += "E"
			case v.Token:
				out += "T"
			case v.Collect:
				out += fmt.Sprintf("c%d", sys.Field(m, 0))
			case v.Allocate:
				out += fmt.Sprintf("a%d/%d", sys.Field(m, 0), sys.Field(m, 1))
			case v.Disable:
				out += "D"
			}
			out += "."
		}
		out += " "
	}
	return out
}

// noConvergenceState returns, for a system built with n=3, ℓ=K=2, MaxSeq=20
// and the default channel capacity, a configuration from which the
// paper's protocol (fix=0, and fix=2) never reaches L: every process
// requests two units and the tokens they hold add up to four (T_h = 2, 1,
// 1) while Root's controller counts two (C_e = 1, and the one disabled
// token the Collect on its link brings back), so Root neither disables nor
// replenishes. 'ringcheck rounds kl-dhv -p MaxSeq=20' found it (run 7400
// of seed 1 ends in its cycle); specs/ring/no-convergence.json, the start
// of the file's convergence claim, and testdata/no-convergence.json hold
// the same configuration.
func noConvergenceState(sys *model.System) (*model.State, error) {
	proc := func(id int, state string, th, td, seq, order int) model.ProcessView {
		return model.ProcessView{ID: id, Vars: []model.Value{
			{Name: "STATE", Text: state, Enum: true},
			{Name: "NEED", Int: 2}, {Name: "Th", Int: th}, {Name: "Td", Int: td},
			{Name: "MySeq", Int: seq}, {Name: "MyOrder", Int: order},
		}}
	}
	root := proc(0, "Request", 2, 1, 3, 0)
	root.Vars = append(root.Vars,
		model.Value{Name: "Ce", Int: 1}, model.Value{Name: "Cf", Int: 0},
		model.Value{Name: "MyTc", Int: 0}, model.Value{Name: "MyTa", Int: 0})
	field := func(name string, x int) model.Value { return model.Value{Name: name, Int: x} }
	snap := model.Snapshot{
		Processes: []model.ProcessView{root, proc(1, "Request", 1, 1, 2, 1), proc(2, "Request", 1, 2, 2, 0)},
		Channels: []model.ChannelView{
			{From: 0, To: 1, Messages: []model.MessageView{
				{Type: "Allocate", Fields: []model.Value{field("ta", 1), field("order", 0)}},
				{Type: "Collect", Fields: []model.Value{field("tc", 0)}},
				{Type: "CToken", Fields: []model.Value{field("seq", 3)}},
			}},
			{From: 1, To: 2},
			{From: 2, To: 0},
		},
	}
	st, err := sys.Encode(snap)
	if err != nil {
		return nil, fmt.Errorf("kl-dhv: the configuration that does not converge needs n=3, ℓ=K=2, MaxSeq ≥ 3: %w", err)
	}
	return st, nil
}
