package thiare_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/lang"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/catalog"
	"github.com/ringcheck/ringcheck/specs/internal/modclock"
	"github.com/ringcheck/ringcheck/specs/spectest"
)

// The per-resource states of a node: the values of the file's enumeration
// St = {idle, waiting, cs}.
const (
	idle    = 0
	waiting = 1
	cs      = 2
)

// The fields of the file's message Token(seq, pid, res, resend), in
// declaration order.
const (
	fieldSeq = iota
	fieldPID
	fieldRes
	fieldResend
)

// params returns the spec's defaults overridden by kv ("n", 3, "resend", 1...).
func params(t testing.TB, kv ...any) specs.Values {
	t.Helper()
	return spectest.Resolve(t, spectest.Builtin(t, "thiare"), kv...)
}

// vars are the handles of a built thiare system, by the names
// specs/ring/thiare.ring declares, and the sizes of its token codes.
// Slices are indexed by resource.
type vars struct {
	// State[r] is idle, waiting or cs for resource r (state[r]).
	State []model.VarID
	// Seq[r] is the SeqNum of the node's copy of its own token (seq[r]).
	Seq []model.VarID
	// Resent[r] is whether the current request's token was resent
	// (resent[r], false for ever with resend=0).
	Resent []model.VarID
	// Queue[r][k] is slot k of Q^r (q[r][k]): 0 empty, else a token code
	// (see Code), sorted by decreasing priority, empty slots last.
	Queue [][]model.VarID
	// H is HSeqNumSeen; Used counts the requests made.
	H, Used model.VarID
	// Token is the only message type: fields seq, pid, res, resend.
	Token model.MsgType
	// N, S (largest SeqNum: n·R, or W-1 with recurring requests), F
	// (1+resend) size the token codes; Lo is the smallest SeqNum a token
	// carries (1, or 0 with recurring requests).
	N, S, F, Lo int
	// Recurring is requests=0: SeqNum and H are kept modulo W =
	// 2·Window+3, Window being the spread seq_window allows.
	Recurring bool
	W, Window int
	seqs      modclock.Ring
	// Slots is the number of queue slots per resource, Cap the channel
	// capacity, as the built system declares them.
	Slots, Cap int

	sys *model.System
}

// build returns the catalogue's thiare (specs/ring/thiare.ring) for vals,
// with its handles.
func build(t testing.TB, vals specs.Values) (*model.System, vars) {
	t.Helper()
	sys := spectest.Build(t, "thiare", vals)
	return sys, handles(t, sys, vals)
}

// buildWide is build for any number of requests R ≥ 0, also above the
// parameter's range: the catalogue's file with the range of requests
// widened to 0..R, for the tests that compare the recurring model with the
// bounded one on more requests than the catalogue allows.
func buildWide(t testing.TB, vals specs.Values) (*model.System, vars) {
	t.Helper()
	src, ok := catalog.Source("thiare")
	if !ok {
		t.Fatal("the catalogue's thiare is not read from a file")
	}
	const decl = "param requests = 2 in 0..3 "
	if !strings.Contains(string(src), decl) {
		t.Fatalf("thiare.ring declares no %q", decl)
	}
	wide := strings.Replace(string(src), decl, fmt.Sprintf("param requests = 2 in 0..%d ", max(3, vals["requests"])), 1)
	f, err := lang.Parse("thiare.ring", []byte(wide))
	if err != nil {
		t.Fatal(err)
	}
	sys, err := f.Build(vals)
	if err != nil {
		t.Fatalf("thiare %v: %v", vals, err)
	}
	return sys, handles(t, sys, vals)
}

// handles finds the variables and message of sys by the file's names and
// computes the sizes of the token codes for vals.
func handles(t testing.TB, sys *model.System, vals specs.Values) vars {
	t.Helper()
	n, rq, nres, resend, window := vals["n"], vals["requests"], vals["resources"], vals["resend"], vals["window"]
	v := vars{
		H: spectest.Var(t, sys, "H"), Used: spectest.Var(t, sys, "used"),
		Token: spectest.MsgType(t, sys, "Token"),
		N:     n, F: 1 + resend, Lo: 1, S: n * rq,
		Cap: sys.Channels[0].Capacity,
		sys: sys,
	}
	if rq == 0 {
		if window == 0 {
			window = 2 * n
		}
		seqs, err := modclock.New(window)
		if err != nil {
			t.Fatal(err)
		}
		v.Recurring, v.seqs, v.Window, v.W = true, seqs, seqs.Window, seqs.W
		v.S, v.Lo = v.W-1, 0
	}
	for r := range nres {
		v.State = append(v.State, spectest.Var(t, sys, fmt.Sprintf("state[%d]", r)))
		v.Seq = append(v.Seq, spectest.Var(t, sys, fmt.Sprintf("seq[%d]", r)))
		v.Resent = append(v.Resent, spectest.Var(t, sys, fmt.Sprintf("resent[%d]", r)))
		var slots []model.VarID
		for k := 0; ; k++ {
			id, ok := sys.VarByName(fmt.Sprintf("q[%d][%d]", r, k))
			if !ok {
				break
			}
			slots = append(slots, id)
		}
		v.Queue = append(v.Queue, slots)
	}
	v.Slots = len(v.Queue[0])
	return v
}

// Code is the queue code of token (seq, pid, resend), as the file's code:
// 1 + ((seq-Lo)·n + pid)·F + resend. Without recurring requests codes
// increase as priority decreases; with them, the queue order is Before's.
func (v vars) Code(seq, pid, resend int) int { return 1 + ((seq-v.Lo)*v.N+pid)*v.F + resend }

// Decode is the inverse of Code.
func (v vars) Decode(code int) (seq, pid, resend int) {
	c := code - 1
	resend = c % v.F
	c /= v.F
	return c/v.N + v.Lo, c % v.N, resend
}

// higher reports whether token (s1, p1) has a higher priority than (s2,
// p2): SN_1 < SN_2 or (SN_1 = SN_2 and PID_1 < PID_2), on unbounded
// SeqNums.
func higher(s1, p1, s2, p2 int) bool { return s1 < s2 || (s1 == s2 && p1 < p2) }

// Diff is the SeqNum difference x - y: the plain difference without
// recurring requests; with them, the difference modulo W taken in
// -(W-1)/2..(W-1)/2.
func (v vars) Diff(x, y int) int {
	if !v.Recurring {
		return x - y
	}
	return v.seqs.Diff(x, y)
}

// Higher is higher on the SeqNums of the model, compared by Diff.
func (v vars) Higher(s1, p1, s2, p2 int) bool {
	d := v.Diff(s1, s2)
	return d < 0 || d == 0 && p1 < p2
}

// Max is max(x, y) on SeqNums, compared by Diff.
func (v vars) Max(x, y int) int {
	if !v.Recurring {
		return max(x, y)
	}
	return v.seqs.Max(x, y)
}

// Next is x+1, modulo W with recurring requests.
func (v vars) Next(x int) int {
	if v.Recurring {
		return v.seqs.Next(x)
	}
	return x + 1
}

// Before is the queue order of token codes c1 and c2: higher priority
// first (Higher), then Resend = 0 before Resend = 1.
func (v vars) Before(c1, c2 int) bool {
	s1, p1, r1 := v.Decode(c1)
	s2, p2, r2 := v.Decode(c2)
	if d := v.Diff(s1, s2); d != 0 {
		return d < 0
	}
	if p1 != p2 {
		return p1 < p2
	}
	return r1 < r2
}

// PriorityOrder reports whether, in st, every node in CS(r) has priority
// over every node waiting for r, their copies of their own tokens
// compared (Property 4.1).
func (v vars) PriorityOrder(st *model.State) bool {
	for r := range v.State {
		for j := range v.N {
			if st.Get(j, v.State[r]) != cs {
				continue
			}
			for i := range v.N {
				if st.Get(i, v.State[r]) == waiting && v.Higher(st.Get(i, v.Seq[r]), i, st.Get(j, v.Seq[r]), j) {
					return false
				}
			}
		}
	}
	return true
}

// LiveSeqs calls f with every live sequence value of s: H of every node,
// seq[r] of every node waiting for or in CS(r), and the SN of every token
// in a queue or in a channel.
func (v vars) LiveSeqs(s *model.State, f func(sn int)) {
	for p := range v.N {
		f(s.Get(p, v.H))
		for r := range v.State {
			if s.Get(p, v.State[r]) != idle {
				f(s.Get(p, v.Seq[r]))
			}
			for _, slot := range v.Queue[r] {
				code := s.Get(p, slot)
				if code <= 0 {
					break
				}
				sn, _, _ := v.Decode(code)
				f(sn)
			}
		}
	}
	for c := range v.sys.Channels {
		ch := model.ChanID(c)
		for x := 0; x < s.Len(ch); x++ {
			f(v.sys.Field(s.At(ch, x), fieldSeq))
		}
	}
}

// SeqSpread is the spread of the live sequence values of s (LiveSeqs):
// without recurring requests, the largest minus the smallest; with them,
// the length of the shortest arc of the circle of W residues that holds
// them all.
func (v vars) SeqSpread(s *model.State) int {
	if !v.Recurring {
		lo, hi := v.S, 0
		v.LiveSeqs(s, func(sn int) { lo, hi = min(lo, sn), max(hi, sn) })
		return max(hi-lo, 0)
	}
	return v.seqs.Spread(func(add func(int)) { v.LiveSeqs(s, add) })
}
