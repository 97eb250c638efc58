package klddhl_test

import (
	"testing"

	"github.com/ringcheck/ringcheck/internal/klddhlenum"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/spectest"
)

// vars are the handles of a built kl-ddhl system, by the names
// specs/ring/kl-ddhl.ring declares, and its resolved sizes.
type vars struct {
	// Need, Cnt, Prio and C are every process's variables.
	Need, Cnt, Prio, C model.VarID
	// Tok, Pri, Push and Reset are the root's.
	Tok, Pri, Push, Reset model.VarID
	// SentTok, SentPri and SentMark are the tok, pri and mark fields of the
	// privilege a process other than the root last sent; the file declares
	// them on processes 1..n-1 only with resend=1 (on no process otherwise).
	SentTok, SentPri, SentMark model.VarID
	// Resend is the resend parameter: 0 the root's timeout alone; 1 every
	// process also resends a copy of the privilege it last sent; 2 every
	// process also resends its counter alone.
	Resend int
	// The message types. Priv's fields are c, tok, pri, mark.
	Token, Pusher, Priority, Priv model.MsgType
	// Out[i] is the channel from process i to its successor.
	Out []model.ChanID
	// N, L, K of the instance, and M, the counter domain's size, as the
	// built system declares it (the values of C).
	N, L, K, M int
}

// params returns the spec's defaults overridden by kv ("n", 3, "L", 2, ...).
func params(t testing.TB, kv ...any) specs.Values {
	t.Helper()
	return spectest.Resolve(t, spectest.Builtin(t, "kl-ddhl"), kv...)
}

// buildP returns the catalogue's kl-ddhl (specs/ring/kl-ddhl.ring) for the
// resolved values p, with its handles; overflow, if given, replaces every
// channel's policy, as --overflow does.
func buildP(t testing.TB, p specs.Values, overflow ...model.Overflow) (*model.System, vars) {
	t.Helper()
	sys := spectest.Build(t, "kl-ddhl", p)
	v := handles(t, sys, p)
	if len(overflow) > 0 {
		var err error
		if sys, err = sys.WithOverflow(overflow[0]); err != nil {
			t.Fatal(err)
		}
	}
	return sys, v
}

// buildKV is buildP for the defaults overridden by kv.
func buildKV(t testing.TB, kv ...any) (*model.System, vars) {
	t.Helper()
	return buildP(t, params(t, kv...))
}

// handles finds the variables, messages and channels of sys, built from the
// resolved values p, by the file's names.
func handles(t testing.TB, sys *model.System, p specs.Values) vars {
	t.Helper()
	v := vars{
		Need: spectest.Var(t, sys, "need"), Cnt: spectest.Var(t, sys, "cnt"),
		Prio: spectest.Var(t, sys, "prio"), C: spectest.Var(t, sys, "C"),
		Tok: spectest.Var(t, sys, "tok"), Pri: spectest.Var(t, sys, "pri"),
		Push: spectest.Var(t, sys, "push"), Reset: spectest.Var(t, sys, "reset"),
		SentTok: spectest.Var(t, sys, "sentTok"), SentPri: spectest.Var(t, sys, "sentPri"),
		SentMark: spectest.Var(t, sys, "sentMark"),
		Token:    spectest.MsgType(t, sys, "Token"), Pusher: spectest.MsgType(t, sys, "Pusher"),
		Priority: spectest.MsgType(t, sys, "Priority"), Priv: spectest.MsgType(t, sys, "Priv"),
		Resend: p["resend"], N: sys.N(), L: p["L"], K: p["K"],
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
	v.M = sys.Vars[v.C].Domain.Size()
	return v
}

// enumerateLegitimate yields every legitimate configuration of sys with
// the hand-written enumerator of internal/klddhlenum, independent of the
// one ringcheck derives from the file's legitimacy predicate.
func (v vars) enumerateLegitimate(sys *model.System, yield func(*model.State) bool) {
	klddhlenum.Handles{
		Need: v.Need, Cnt: v.Cnt, Prio: v.Prio, C: v.C,
		Tok: v.Tok, Pri: v.Pri, Push: v.Push, Reset: v.Reset,
		Token: v.Token, Pusher: v.Pusher, Priority: v.Priority, Priv: v.Priv,
		Out: v.Out, N: v.N, L: v.L, K: v.K, M: v.M,
	}.Enumerate(sys, yield)
}
