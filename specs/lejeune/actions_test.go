package lejeune_test

import (
	"testing"

	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
)

// own gives token r to process p (tokDir nil) and points every other
// process's tokDir[r] at p.
func own(v *vars, s *model.State, p, r int) {
	for q := 0; q < v.N; q++ {
		if q == p {
			s.Set(q, v.TokDir[r], v.N)
		} else {
			s.Set(q, v.TokDir[r], p)
		}
	}
}

// waiting puts p in state st requesting d with vector vec and curId 1.
func waiting(v *vars, s *model.State, p, st, d int, vec ...int) {
	s.Set(p, v.St, st)
	s.Set(p, v.Req, d)
	s.Set(p, v.CurID, 1)
	for r, x := range vec {
		s.Set(p, v.Vec[r], x)
	}
}

// TestActions pins the semantics of single steps on hand-written
// configurations of N=3, M=2 (marks are 2·A: L = 2).
func TestActions(t *testing.T) {
	sys, v := build(t, 3, 2, 1, 1, 1)
	reqRes := func(r, s, mark, visited int) model.Msg { return sys.Msg(v.ReqRes, 0, r, s, 1, mark, visited) }
	for _, tc := range []struct {
		name   string
		setup  func(s *model.State)
		p      int
		label  string
		verify func(t *testing.T, s *model.State)
	}{
		{
			name:  "request: owned resources take the counter, others send ReqCnt aggregated per father (lines 73–82)",
			setup: func(s *model.State) { own(v, s, 1, 1); s.Set(1, v.Cnt[1], 3) },
			p:     2, label: "request(D=3)",
			verify: func(t *testing.T, s *model.State) {
				if got := msgs(sys, v, s, 2, 0); got != "ReqCnt(r0,2/1,V=100)" {
					t.Errorf("2→0 %q", got)
				}
				if got := msgs(sys, v, s, 2, 1); got != "ReqCnt(r1,2/1,V=100)" {
					t.Errorf("2→1 %q", got)
				}
				if s.Get(2, v.St) != waitS || s.Get(2, v.CntNeeded) != 3 {
					t.Errorf("p2: %s", render(sys, v, s))
				}
			},
		},
		{
			name:  "request of owned resources only enters the critical section at once (lines 83–85)",
			setup: func(s *model.State) {},
			p:     0, label: "request(D=3)",
			verify: func(t *testing.T, s *model.State) {
				if s.Get(0, v.St) != inCS || s.Get(0, v.Vec[0]) != 1 || s.Get(0, v.Cnt[0]) != 2 || s.Get(0, v.Cnt[1]) != 2 {
					t.Errorf("p0: %s", render(sys, v, s))
				}
			},
		},
		{
			name:  "an idle holder sends the token itself on a ReqCnt, leaving lastReqC alone (lines 170–171)",
			setup: func(s *model.State) { s.Push(sys.ChanBetween(1, 0), sys.Msg(v.ReqCnt, 0, 0, 1, 1, 2)) },
			p:     0, label: "recvReq(1)",
			verify: func(t *testing.T, s *model.State) {
				if got := msgs(sys, v, s, 0, 1); got != "Token(r0,c=1)" {
					t.Errorf("0→1 %q", got)
				}
				if s.Get(0, v.TokDir[0]) != 1 || s.Get(0, v.LastReqC[0][1]) != 0 {
					t.Errorf("p0: tokDir[0]=%d lastReqC[0][1]=%d", s.Get(0, v.TokDir[0]), s.Get(0, v.LastReqC[0][1]))
				}
			},
		},
		{
			name: "a holder in its critical section answers a ReqCnt with a Counter (lines 172–175)",
			setup: func(s *model.State) {
				waiting(v, s, 0, inCS, 1, 1)
				s.Set(0, v.Cnt[0], 2)
				s.Push(sys.ChanBetween(2, 0), sys.Msg(v.ReqCnt, 0, 0, 2, 1, 4))
			},
			p: 0, label: "recvReq(2)",
			verify: func(t *testing.T, s *model.State) {
				if got := msgs(sys, v, s, 0, 2); got != "Counter(r0=2)" {
					t.Errorf("0→2 %q", got)
				}
				if s.Get(0, v.Cnt[0]) != 3 || s.Get(0, v.LastReqC[0][2]) != 1 {
					t.Errorf("p0: %s", render(sys, v, s))
				}
			},
		},
		{
			name: "a non-holder forwards to its father with itself visited and keeps it in pendingReq (lines 185–187)",
			setup: func(s *model.State) {
				own(v, s, 1, 0)
				s.Push(sys.ChanBetween(2, 0), reqRes(0, 2, 4, 4))
			},
			p: 0, label: "recvReq(2)",
			verify: func(t *testing.T, s *model.State) {
				if got := msgs(sys, v, s, 0, 1); got != "ReqRes(r0,2/1@4,V=101)" {
					t.Errorf("0→1 %q", got)
				}
				if s.Get(0, v.PrID[0][2]) != 1 || s.Get(0, v.PrMark[0][2]) != 4 {
					t.Errorf("p0: %s", render(sys, v, s))
				}
			},
		},
		{
			name: "a request whose next hop was visited is dropped (line 185)",
			setup: func(s *model.State) {
				own(v, s, 2, 0)
				s.Push(sys.ChanBetween(1, 0), reqRes(0, 1, 4, 6))
			},
			p: 0, label: "recvReq(1)",
			verify: func(t *testing.T, s *model.State) {
				if got := msgs(sys, v, s, 0, 2); got != "" || s.Get(0, v.PrID[0][1]) != 0 {
					t.Errorf("0→2 %q, p0: %s", got, render(sys, v, s))
				}
			},
		},
		{
			name: "a waiting holder yields to a request before its own, queueing its own (lines 179–181)",
			setup: func(s *model.State) {
				waiting(v, s, 0, waitCS, 3, 1, 2) // mark 2·(1+2)/2 = 3
				own(v, s, 1, 1)
				s.Push(sys.ChanBetween(1, 0), reqRes(0, 1, 2, 2))
			},
			p: 0, label: "recvReq(1)",
			verify: func(t *testing.T, s *model.State) {
				if got := msgs(sys, v, s, 0, 1); got != "Token(r0,c=1)+ q:0/1@3" {
					t.Errorf("0→1 %q", got)
				}
			},
		},
		{
			name: "a waiting holder keeps the token against a later request, which it queues (line 184)",
			setup: func(s *model.State) {
				waiting(v, s, 0, waitCS, 3, 1, 2)
				own(v, s, 1, 1)
				s.Push(sys.ChanBetween(1, 0), reqRes(0, 1, 3, 2)) // same mark, site 1 after site 0
			},
			p: 0, label: "recvReq(1)",
			verify: func(t *testing.T, s *model.State) {
				if got := msgs(sys, v, s, 0, 1); got != "" || s.Get(0, v.WqID[0][1]) != 1 || s.Get(0, v.WqMark[0][1]) != 3 {
					t.Errorf("0→1 %q, p0: %s", got, render(sys, v, s))
				}
			},
		},
		{
			name: "release sends each token to the head of its queue (lines 95–98)",
			setup: func(s *model.State) {
				waiting(v, s, 0, inCS, 1, 1)
				s.Set(0, v.WqID[0][1], 1)
				s.Set(0, v.WqMark[0][1], 4)
				s.Set(0, v.WqID[0][2], 1)
				s.Set(0, v.WqMark[0][2], 2)
			},
			p: 0, label: "leave",
			verify: func(t *testing.T, s *model.State) {
				if got := msgs(sys, v, s, 0, 2); got != "Token(r0,c=1)+ q:1/1@4" {
					t.Errorf("0→2 %q", got)
				}
				if s.Get(0, v.St) != idle || s.Get(0, v.LastCS[0][0]) != 1 || s.Get(0, v.TokDir[1]) != v.N {
					t.Errorf("p0: %s", render(sys, v, s))
				}
			},
		},
		{
			name: "release returns a borrowed token to its lender, lender ← nil (lines 99–103)",
			setup: func(s *model.State) {
				waiting(v, s, 1, inCS, 1, 1)
				own(v, s, 1, 0)
				s.Set(1, v.Lender[0], 0)
				s.Set(0, v.TLent, 1)
				s.Set(1, v.WqID[0][2], 1)
				s.Set(1, v.WqMark[0][2], 2)
			},
			p: 1, label: "leave",
			verify: func(t *testing.T, s *model.State) {
				if got := msgs(sys, v, s, 1, 0); got != "Token(r0,c=1)+ q:2/1@2" {
					t.Errorf("1→0 %q", got)
				}
			},
		},
		{
			name: "an idle holder of every missing resource lends them (lines 197–202)",
			setup: func(s *model.State) {
				s.Push(sys.ChanBetween(1, 0), sys.Msg(v.ReqLoan, 0, 1, 1, 1, 2, 2, 2))
			},
			p: 0, label: "recvReq(1)",
			verify: func(t *testing.T, s *model.State) {
				if got := msgs(sys, v, s, 0, 1); got != "Token(r1,c=1,lender=0)" {
					t.Errorf("0→1 %q", got)
				}
				if s.Get(0, v.TLent) != 2 || s.Get(0, v.TokDir[1]) != 1 {
					t.Errorf("p0: %s", render(sys, v, s))
				}
			},
		},
		{
			name: "a borrower that cannot enter returns the loan at once, with lender cleared (lines 217–224, choice)",
			setup: func(s *model.State) {
				waiting(v, s, 1, waitCS, 3, 0, 3)
				own(v, s, 2, 1)
				s.Set(1, v.LoanAsked, 1)
				// Token r0, lent by p0, is in transit to p1.
				for q := 0; q < 3; q++ {
					s.Set(q, v.TokDir[0], 1)
				}
				s.Set(1, v.TokDir[0], 0)
				s.Set(0, v.TLent, 1)
				f := []int{0, 0, 1, 0, 0, 0, 0, 0, 0, 0}
				s.Push(sys.ChanBetween(0, 1), sys.Msg(v.Token, f...))
			},
			p: 1, label: "recvToken(0)",
			verify: func(t *testing.T, s *model.State) {
				// Back to p0 with no lender: the literal line 223 would send it
				// with lender = p0, which p0 would then send to itself.
				if got := msgs(sys, v, s, 1, 0); got != "Token(r0,c=1)" {
					t.Errorf("1→0 %q", got)
				}
				if s.Get(1, v.LoanAsked) != 0 || s.Get(1, v.St) != waitCS {
					t.Errorf("p1: %s", render(sys, v, s))
				}
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := sys.Initial()[0]
			tc.setup(s)
			next, _ := succ(t, sys, s, tc.p, tc.label)
			if next == nil {
				t.Fatalf("p%d %s not enabled in %s", tc.p, tc.label, render(sys, v, s))
			}
			tc.verify(t, next)
			if t.Failed() {
				t.Logf("before: %s", render(sys, v, s))
				t.Logf("after:  %s", render(sys, v, next))
			}
		})
	}
}

// TestOverflowIsASafetyViolation: with channels too small for an
// aggregate, the send that overflows is reported by the safety check (the
// policy is error), and the receiver of the truncated run does not fault.
func TestOverflowIsASafetyViolation(t *testing.T) {
	vals := values(3, 2, 1, 0, 0)
	vals["Cmax"] = 1
	sys, _ := buildValues(t, vals)
	rep := check(t, sys, invariants.Safety, invariants.Deadlock)
	o := rep.Outcomes[0]
	if o.Verdict != invariants.Violated {
		t.Fatalf("safety %s with Cmax=1, want violated by an overflow", o.Verdict)
	}
	ce := o.Counterexample
	if err := ce.Replay(sys); err != nil {
		t.Fatal(err)
	}
	if !ce.Steps[len(ce.Steps)-1].Overflow {
		t.Errorf("the last step does not overflow: %s", o.Reason)
	}
	t.Logf("%s after %d steps", o.Reason, len(ce.Steps))
}

// TestOutbox: a step buffers at most 48 requests (and 48 responses); one
// more raises the flag outbox and is not sent. With channels of 64
// messages, process 0, which does not hold token r0, receives an
// aggregate of 49 copies of process 2's ReqRes: it forwards 48 to the
// holder, process 1, and flags the 49th.
func TestOutbox(t *testing.T) {
	vals := values(3, 2, 1, 0, 1)
	vals["Cmax"] = 64
	sys, v := buildValues(t, vals)
	s := sys.Initial()[0]
	own(v, s, 1, 0)
	for i := range 49 {
		more := 1
		if i == 48 {
			more = 0
		}
		s.Push(sys.ChanBetween(2, 0), sys.Msg(v.ReqRes, more, 0, 2, 1, 4, 4))
	}
	next, _ := succ(t, sys, s, 0, "recvReq(2)")
	if next == nil {
		t.Fatalf("p0 recvReq(2) is not enabled in %s", render(sys, v, s))
	}
	if e, fwd, left := next.Get(0, v.Err), next.Len(sys.ChanBetween(0, 1)), next.Len(sys.ChanBetween(2, 0)); e != errOutbox || fwd != 48 || left != 0 {
		t.Errorf("p0 flags %s, forwards %d requests to p1 and leaves %d in 2→0; want outbox, 48 and 0", errLabels[e], fwd, left)
	}
}
