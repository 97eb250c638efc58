package lejeune

import (
	"fmt"
	"strings"

	"github.com/ringcheck/ringcheck/model"
)

var stateNames = []string{"Idle", "waitS", "waitCS", "inCS"}

// Render writes a configuration compactly, for test logs and reports: per
// process its state, request, vector, tokens held (counter, queue, loans,
// lender), tokDir of the others, and every non-empty channel. It is not on
// the hot path.
func Render(sys *model.System, v *Vars, s *model.State) string {
	var b strings.Builder
	for p := 0; p < v.N; p++ {
		fmt.Fprintf(&b, "p%d:%s", p, stateNames[s.Get(p, v.St)])
		if d := s.Get(p, v.Req); d != 0 {
			fmt.Fprintf(&b, "%s", setLabel(d, v.M))
			fmt.Fprintf(&b, " V=(")
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
		if e := s.Get(p, v.Err); e != ErrNone {
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
			b.WriteString(MsgString(sys, v, s.At(model.ChanID(ch), i)))
		}
		b.WriteString("] ")
	}
	return strings.TrimSpace(b.String())
}

// MsgString renders one message; "+" marks one that continues an aggregate.
func MsgString(sys *model.System, v *Vars, m model.Msg) string {
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
