package lejeune_test

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ringcheck/ringcheck/lang"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/catalog"
	"github.com/ringcheck/ringcheck/specs/internal/modclock"
	"github.com/ringcheck/ringcheck/specs/spectest"
)

// The tests of this package pin the catalogue's lejeune, read from
// specs/ring/lejeune.ring: they find its variables and message types by
// the names the file declares (vars), and build it as `ringcheck check
// lejeune` does.

const maxN, maxM = 4, 3

// The file's enumeration Status and its error flags.
const (
	idle = iota
	waitS
	waitCS
	inCS
)

const (
	errNone       = 0
	errOutbox     = 4
	errDupCounter = 5
)

var (
	stateNames = []string{"Idle", "waitS", "waitCS", "InCS"}
	errLabels  = []string{"none", "self-send", "slot-clash", "precondition", "outbox", "dup-counter"}
)

// vars are lejeune.ring's variables and message types in a system built
// from it, and the instance's parameters: lastTok[r] is tokCnt[r],
// tokLender[r], tokLastReqC[r][s], tokLastCS[r][s], wqId/wqMark[r][s]
// and wlId/wlMark/wlMiss[r][s]; pendingReq[r] is pcId, prId/prMark and
// plId/plMark/plMiss; a site of nil is N.
type vars struct {
	sys *model.System

	N, M, R int
	// C = 1+2N·R bounds every counter; L = lcm(1..M) scales a mark.
	C, L int
	// Recurring (requests=0): ids and counters are residues modulo Ring.W.
	Recurring bool
	Ring      modclock.Ring

	St, Req, CntNeeded, CurID, TLent, LoanAsked, Err model.VarID
	TokDir, Vec, Cnt, Lender                         [maxM]model.VarID
	LastReqC, LastCS                                 [maxM][maxN]model.VarID
	WqID, WqMark                                     [maxM][maxN]model.VarID
	WlID, WlMark, WlMiss                             [maxM][maxN]model.VarID
	PcID                                             [maxM][maxN]model.VarID
	PrID, PrMark                                     [maxM][maxN]model.VarID
	PlID, PlMark, PlMiss                             [maxM][maxN]model.VarID

	ReqCnt, ReqRes, ReqLoan, Counter, Token, TokQ, TokL model.MsgType
}

// fileVars finds lejeune.ring's variables and message types in sys, built
// for values (every parameter given).
func fileVars(tb testing.TB, sys *model.System, values specs.Values) *vars {
	tb.Helper()
	n, m, r := values["N"], values["M"], values["requests"]
	v := &vars{sys: sys, N: n, M: m, R: r, C: 1 + 2*n*r, L: map[int]int{1: 1, 2: 2, 3: 6}[m], Recurring: r == 0}
	if v.Recurring {
		window := values["window"]
		if window == 0 {
			window = n
		}
		ring, err := modclock.New(window)
		if err != nil {
			tb.Fatal(err)
		}
		v.Ring, v.C = ring, 0
	}
	get := func(name string) model.VarID { return spectest.Var(tb, sys, name) }
	v.St, v.Req, v.CntNeeded, v.CurID = get("state"), get("TRequired"), get("CntNeeded"), get("curId")
	v.TLent, v.LoanAsked, v.Err = get("TLent"), get("loanAsked"), get("err")
	for x := 0; x < m; x++ {
		at := fmt.Sprintf("[%d]", x)
		v.TokDir[x], v.Vec[x], v.Cnt[x], v.Lender[x] = get("tokDir"+at), get("MyVector"+at), get("tokCnt"+at), get("tokLender"+at)
		for s := 0; s < n; s++ {
			at := fmt.Sprintf("[%d][%d]", x, s)
			v.LastReqC[x][s], v.LastCS[x][s] = get("tokLastReqC"+at), get("tokLastCS"+at)
			v.WqID[x][s], v.WqMark[x][s] = get("wqId"+at), get("wqMark"+at)
			v.WlID[x][s], v.WlMark[x][s], v.WlMiss[x][s] = get("wlId"+at), get("wlMark"+at), get("wlMiss"+at)
			v.PcID[x][s], v.PrID[x][s], v.PrMark[x][s] = get("pcId"+at), get("prId"+at), get("prMark"+at)
			v.PlID[x][s], v.PlMark[x][s], v.PlMiss[x][s] = get("plId"+at), get("plMark"+at), get("plMiss"+at)
		}
	}
	msg := func(name string) model.MsgType { return spectest.MsgType(tb, sys, name) }
	v.ReqCnt, v.ReqRes, v.ReqLoan, v.Counter = msg("ReqCnt"), msg("ReqRes"), msg("ReqLoan"), msg("Counter")
	v.Token, v.TokQ, v.TokL = msg("Token"), msg("TokQ"), msg("TokL")
	return v
}

// values are lejeune's parameters N, M, requests, loan and strict, the
// others at their defaults.
func values(n, m, r, loan, strict int) specs.Values {
	return specs.Values{"N": n, "M": m, "requests": r, "window": 0, "loan": loan, "strict": strict, "Cmax": 0, "line260": 0}
}

// buildValues builds the catalogue's lejeune for values (every parameter
// given; requests may exceed its range, for an unbounded model or a
// brute-force comparison with more requests than `check` allows) and
// finds its variables.
func buildValues(tb testing.TB, values specs.Values) (*model.System, *vars) {
	tb.Helper()
	spec := spectest.Builtin(tb, "lejeune")
	if values["requests"] > 2 {
		spec = moreRequests(tb)
	}
	sys, err := spec.Build(values)
	if err != nil {
		tb.Fatalf("lejeune %v: %v", values, err)
	}
	return sys, fileVars(tb, sys, values)
}

// moreRequests returns the catalogue's lejeune.ring with the range of
// its parameter requests widened from 0..2 to 0..7, and nothing else
// changed: the unbounded model that the recurring one is compared with,
// and a brute-force model with three requests.
func moreRequests(tb testing.TB) *specs.Spec {
	tb.Helper()
	src, ok := catalog.Source("lejeune")
	if !ok {
		tb.Fatal("the catalogue has no lejeune.ring")
	}
	const from, to = "param requests = 1 in 0..2 ", "param requests = 1 in 0..7 "
	if !bytes.Contains(src, []byte(from)) {
		tb.Fatalf("lejeune.ring declares no %q", from)
	}
	wide := bytes.Replace(src, []byte(from), []byte(to), 1)
	spec, _, err := lang.LoadFS(fstest.MapFS{"lejeune.ring": {Data: wide}}, "lejeune.ring", "lejeune.ring")
	if err != nil {
		tb.Fatal(err)
	}
	return spec
}

// setLabel renders the mask of resources mask.
func setLabel(mask, m int) string {
	var parts []string
	for r := 0; r < m; r++ {
		if mask&(1<<r) != 0 {
			parts = append(parts, "r"+strconv.Itoa(r))
		}
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// render writes a configuration compactly, for test logs: per process its
// state, request, vector, tokens held (counter, queue, loans, lender),
// tokDir of the others, pending requests and error flag, and every
// non-empty channel.
func render(sys *model.System, v *vars, s *model.State) string {
	var b strings.Builder
	for p := 0; p < v.N; p++ {
		fmt.Fprintf(&b, "p%d:%s", p, stateNames[s.Get(p, v.St)])
		if d := s.Get(p, v.Req); d != 0 {
			fmt.Fprintf(&b, "%s V=(", setLabel(d, v.M))
			for r := 0; r < v.M; r++ {
				if r > 0 {
					b.WriteString(",")
				}
				fmt.Fprintf(&b, "%d", s.Get(p, v.Vec[r]))
			}
			b.WriteString(")")
		}
		if cn := s.Get(p, v.CntNeeded); cn != 0 {
			fmt.Fprintf(&b, " cntNeeded=%s", setLabel(cn, v.M))
		}
		if s.Get(p, v.LoanAsked) == 1 {
			b.WriteString(" loanAsked")
		}
		if tl := s.Get(p, v.TLent); tl != 0 {
			fmt.Fprintf(&b, " lent=%s", setLabel(tl, v.M))
		}
		fmt.Fprintf(&b, " id=%d", s.Get(p, v.CurID))
		for r := 0; r < v.M; r++ {
			dir := s.Get(p, v.TokDir[r])
			if dir != v.N {
				fmt.Fprintf(&b, " dir%d=%d", r, dir)
				continue
			}
			fmt.Fprintf(&b, " TOK%d{c=%d", r, s.Get(p, v.Cnt[r]))
			for q := 0; q < v.N; q++ {
				if id := s.Get(p, v.WqID[r][q]); id != 0 {
					fmt.Fprintf(&b, " q:%d/%d@%d", q, id, s.Get(p, v.WqMark[r][q]))
				}
				if id := s.Get(p, v.WlID[r][q]); id != 0 {
					fmt.Fprintf(&b, " l:%d/%d@%d%s", q, id, s.Get(p, v.WlMark[r][q]), setLabel(s.Get(p, v.WlMiss[r][q]), v.M))
				}
			}
			if ln := s.Get(p, v.Lender[r]); ln != v.N {
				fmt.Fprintf(&b, " lender=%d", ln)
			}
			b.WriteString("}")
		}
		for r := 0; r < v.M; r++ {
			for q := 0; q < v.N; q++ {
				if id := s.Get(p, v.PcID[r][q]); id != 0 {
					fmt.Fprintf(&b, " pend%d:Cnt(%d/%d)", r, q, id)
				}
				if id := s.Get(p, v.PrID[r][q]); id != 0 {
					fmt.Fprintf(&b, " pend%d:Res(%d/%d@%d)", r, q, id, s.Get(p, v.PrMark[r][q]))
				}
				if id := s.Get(p, v.PlID[r][q]); id != 0 {
					fmt.Fprintf(&b, " pend%d:Loan(%d/%d)", r, q, id)
				}
			}
		}
		if e := s.Get(p, v.Err); e != errNone {
			fmt.Fprintf(&b, " ERR=%s", errLabels[e])
		}
		b.WriteString(" | ")
	}
	for ch, c := range sys.Channels {
		n := s.Len(model.ChanID(ch))
		if n == 0 {
			continue
		}
		fmt.Fprintf(&b, "%d→%d:[", c.From, c.To)
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteString(" ")
			}
			b.WriteString(msgString(sys, v, s.At(model.ChanID(ch), i)))
		}
		b.WriteString("] ")
	}
	return strings.TrimSpace(b.String())
}

// msgString renders one message; "+" marks one that continues an
// aggregate.
func msgString(sys *model.System, v *vars, m model.Msg) string {
	f := func(i int) int { return sys.Field(m, i) }
	more := ""
	if f(0) == 1 {
		more = "+"
	}
	switch sys.TypeOf(m) {
	case v.ReqCnt:
		return fmt.Sprintf("ReqCnt(r%d,%d/%d,V=%b)%s", f(1), f(2), f(3), f(4), more)
	case v.ReqRes:
		return fmt.Sprintf("ReqRes(r%d,%d/%d@%d,V=%b)%s", f(1), f(2), f(3), f(4), f(5), more)
	case v.ReqLoan:
		return fmt.Sprintf("ReqLoan(r%d,%d/%d@%d,miss=%s,V=%b)%s", f(1), f(2), f(3), f(4), setLabel(f(5), v.M), f(6), more)
	case v.Counter:
		return fmt.Sprintf("Counter(r%d=%d)%s", f(1), f(2), more)
	case v.Token:
		ln := ""
		if l := f(3 + 2*v.N); l != v.N {
			ln = fmt.Sprintf(",lender=%d", l)
		}
		return fmt.Sprintf("Token(r%d,c=%d%s)%s", f(1), f(2), ln, more)
	case v.TokQ:
		return fmt.Sprintf("q:%d/%d@%d%s", f(1), f(2), f(3), more)
	case v.TokL:
		return fmt.Sprintf("l:%d/%d@%d%s%s", f(1), f(2), f(3), setLabel(f(4), v.M), more)
	}
	return "?"
}

// TestFileVariables: the catalogue's lejeune is lejeune.ring, whose
// variables and message types the tests read by the file's names.
func TestFileVariables(t *testing.T) {
	sys, v := buildValues(t, values(3, 2, 1, 0, 1))
	if got := sys.Vars[v.LastReqC[1][2]].Name; got != "tokLastReqC[1][2]" {
		t.Errorf("variable %q, want tokLastReqC[1][2]", got)
	}
	if got := sys.Messages[v.TokQ].Name; got != "TokQ" {
		t.Errorf("message type %q, want TokQ", got)
	}
}
