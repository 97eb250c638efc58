package raynal_test

import (
	"strconv"
	"testing"

	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/internal/modclock"
	"github.com/ringcheck/ringcheck/specs/spectest"
)

// Vars are the handles of a built raynal system, found by the names
// specs/ring/raynal.ring declares, and the instance's constants. Per-peer
// arrays are indexed by the peer j; entry j is declared in every process
// but j.
type Vars struct {
	Scdem, Ok, K, H, MaxH, Reqs model.VarID
	Used, Delayed               []model.VarID
	// Asked are the file's sent[j] (asked_i[j]), nil unless asked=1.
	Asked []model.VarID
	// Msgs is the ghost counter nmsgs (count=1), or -1.
	Msgs model.VarID
	// Req carries field 0, h. Free carries field 0, y, and field 1, the
	// ghost count of its answer (always 0 without count=1).
	Req, Free model.MsgType
	// N, M, KMax, R, Clock are n, M, K (resolved), R (0 with recurring
	// requests) and the largest timestamp (nR, or W-1 with recurring
	// requests).
	N, M, KMax, R, Clock int
	// W is the modulus of the clocks with recurring requests (0 without),
	// Window the spread clock_window allows.
	W, Window      int
	Variant, Count bool
	Recurring      bool

	sys *model.System
}

// buildVars builds the catalogue's raynal for values (its defaults for
// the rest) and returns its handles, or the error of an instance the spec
// refuses.
func buildVars(tb testing.TB, values specs.Values) (*model.System, Vars, error) {
	tb.Helper()
	spec := spectest.Builtin(tb, "raynal")
	vals, err := spec.Resolve(values)
	if err != nil {
		return nil, Vars{}, err
	}
	sys, err := spec.Build(vals)
	if err != nil {
		return nil, Vars{}, err
	}
	n, m, kmax, r, window := vals["n"], vals["M"], vals["K"], vals["requests"], vals["window"]
	if kmax == 0 {
		kmax = m
	}
	if window == 0 {
		window = 2 * n
	}
	v := Vars{
		Scdem: spectest.Var(tb, sys, "scdem"), Ok: spectest.Var(tb, sys, "ok"), K: spectest.Var(tb, sys, "k"),
		H: spectest.Var(tb, sys, "h"), MaxH: spectest.Var(tb, sys, "maxh"), Reqs: spectest.Var(tb, sys, "reqs"),
		Msgs: -1,
		Req:  spectest.MsgType(tb, sys, "req"), Free: spectest.MsgType(tb, sys, "free"),
		N: n, M: m, KMax: kmax, R: r, Clock: n * r,
		Variant: vals["asked"] == 1, Count: vals["count"] == 1, Recurring: r == 0,
		sys: sys,
	}
	if v.Recurring {
		v.Window, v.W = window, 2*window+3
		v.Clock = v.W - 1
	}
	for j := range n {
		at := "[" + strconv.Itoa(j) + "]"
		v.Used = append(v.Used, spectest.Var(tb, sys, "used"+at))
		v.Delayed = append(v.Delayed, spectest.Var(tb, sys, "delayed"+at))
		if v.Variant {
			v.Asked = append(v.Asked, spectest.Var(tb, sys, "sent"+at))
		}
	}
	if v.Count {
		v.Msgs = spectest.Var(tb, sys, "nmsgs")
	}
	return sys, v, nil
}

// clockSpread is the spread of the live timestamps of s (every maxh_i,
// h_i while requesting or in the critical section, h of every req in
// transit): the largest minus the smallest, or with recurring requests
// the shortest arc of the circle of W residues that holds them all, which
// the invariant clock_window bounds by Window.
func clockSpread(v Vars, s *model.State) int {
	live := func(add func(int)) {
		for i := range v.N {
			add(s.Get(i, v.MaxH))
			if s.Get(i, v.Scdem) == 1 || s.Get(i, v.Ok) == 1 {
				add(s.Get(i, v.H))
			}
		}
		for c := range v.sys.Channels {
			ch := model.ChanID(c)
			for x := range s.Len(ch) {
				if m := s.At(ch, x); s.TypeOf(m) == v.Req {
					add(v.sys.Field(m, 0))
				}
			}
		}
	}
	if !v.Recurring {
		lo, hi := v.Clock, 0
		live(func(h int) { lo, hi = min(lo, h), max(hi, h) })
		return max(hi-lo, 0)
	}
	return modclock.Ring{W: v.W, Window: v.Window}.Spread(live)
}
