package lejeune_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
)

// loanMonitor counts reachable configurations in which a process holds a
// lent token (lender ≠ nil) in its critical section, or waiting.
type loanMonitor struct {
	v               *vars
	inCS, waiting   atomic.Int64
	lentOut, loanRq atomic.Int64
}

func (m *loanMonitor) Observe(vis *explore.Visit) {
	s, v := vis.State, m.v
	for p := 0; p < v.N; p++ {
		if s.Get(p, v.TLent) != 0 {
			m.lentOut.Add(1)
		}
		if s.Get(p, v.LoanAsked) == 1 {
			m.loanRq.Add(1)
		}
		for r := 0; r < v.M; r++ {
			if s.Get(p, v.TokDir[r]) == v.N && s.Get(p, v.Lender[r]) != v.N {
				if s.Get(p, v.St) == inCS {
					m.inCS.Add(1)
				} else {
					m.waiting.Add(1)
				}
			}
		}
	}
}

func (m *loanMonitor) Decided() bool { return false }

// TestLoansHappen: with loan=1 on N=3, M=2, R=1, loans are asked, tokens
// are lent, and a borrower enters its critical section with a lent token;
// with loan=0 none of this happens.
func TestLoansHappen(t *testing.T) {
	for _, loan := range []int{0, 1} {
		sys, v := build(t, 3, 2, 1, loan, 0)
		mon := &loanMonitor{v: v}
		if _, err := explore.BFS(context.Background(), sys, mon, explore.Options{Workers: 2}); err != nil {
			t.Fatal(err)
		}
		t.Logf("loan=%d: states with loanAsked %d, with TLent≠∅ %d, lent token in CS %d, lent token held outside CS %d",
			loan, mon.loanRq.Load(), mon.lentOut.Load(), mon.inCS.Load(), mon.waiting.Load())
		if got := mon.loanRq.Load() > 0 && mon.lentOut.Load() > 0 && mon.inCS.Load() > 0; got != (loan == 1) {
			t.Errorf("loan=%d: loans asked, lent and used: %v", loan, got)
		}
	}
}
