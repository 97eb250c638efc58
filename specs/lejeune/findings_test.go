package lejeune_test

import (
	"fmt"
	"testing"

	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
)

// dupCounter is the shortest execution (found by invariants.Check, safety
// with strict=1, N=3, M=2, R=1, loan=0) in which a request obtains a second
// counter value for one resource. p2's ReqCnt for r0 is forwarded by p0
// (which keeps it in pendingReq) to p1, which, idle, sends p2 the token
// itself (line 171) without recording lastReqC[2]; p2 takes its counter
// from the token (line 146), again without lastReqC. When p0 later gets
// the token, its pendingReq still holds p2's ReqCnt, not obsolete, and it
// answers with a second Counter (line 156).
var dupCounter = []move{
	{1, "request(D=1)"}, {0, "recvReq(1)"}, {0, "request(D=1)"},
	{1, "recvToken(0)"}, {1, "recvReq(0)"}, {1, "leave"},
	{2, "request(D=3)"}, {0, "recvReq(2)"}, {0, "recvCounter(1)"},
	{1, "recvReq(0)"}, {1, "recvReq(0)"}, {2, "recvToken(1)"},
	{2, "recvReq(1)"}, {0, "recvToken(2)"}, {2, "recvToken(0)"},
	{2, "recvCounter(0)"},
}

// tokenLoss continues the same start on four processes (found by
// invariants.Check, safety with strict=0, N=4, M=2, R=1, for loan=0 and
// loan=1 alike): p3's request moves token r0 through p2's hands so that
// p2 enters its critical section before p0's duplicate Counter(r0) reaches
// it. Receive Counter then sets MyVector[r0] and tokDir[r0] ← p0 (line 260)
// although p2 holds token r0, and calls processCntNeededEmpty, which puts
// p2, in its critical section, back to waitCS: the token of r0 is lost.
var tokenLoss = append(append([]move(nil), dupCounter[:14]...),
	move{0, "leave"}, move{2, "recvToken(0)"}, move{3, "request(D=3)"},
	move{0, "recvReq(3)"}, move{0, "recvReq(2)"}, move{3, "recvToken(0)"},
	move{3, "recvReq(0)"}, move{2, "recvToken(3)"}, move{2, "recvCounter(0)"},
)

// TestDuplicateCounterFound: with strict=1 the safety check is violated by
// the pseudo-code invariant, in 16 steps, and the counterexample is the
// duplicate counter above; the Counter arrives when p2, in waitCS with
// both counters, no longer needs it, overwrites MyVector[r0] and re-sends
// a ReqRes for r0 with a new mark.
func TestDuplicateCounterFound(t *testing.T) {
	for _, loan := range []int{0, 1} {
		t.Run(fmt.Sprintf("loan=%d", loan), func(t *testing.T) {
			sys, v := build(t, 3, 2, 1, loan, 1)
			rep := check(t, sys, invariants.Safety)
			o := rep.Outcomes[0]
			if o.Verdict != invariants.Violated || o.Reason != "invariant pseudo_code is false" {
				t.Fatalf("safety %s (%s), want violated by the pseudo-code invariant", o.Verdict, o.Reason)
			}
			ce := o.Counterexample
			if err := ce.Replay(sys); err != nil {
				t.Fatal(err)
			}
			if len(ce.Steps) != len(dupCounter) {
				t.Errorf("counterexample has %d steps, want %d", len(ce.Steps), len(dupCounter))
			}
			last := ce.States[len(ce.States)-1]
			flagged := -1
			for p := 0; p < 3; p++ {
				if e := last.Get(p, v.Err); e != errNone {
					flagged = p
					if e != errDupCounter {
						t.Errorf("p%d flags %d, want dup-counter", p, e)
					}
				}
			}
			if flagged < 0 {
				t.Fatal("no process is flagged")
			}
			t.Logf("p%d receives a second counter: %s", flagged, render(sys, v, last))
		})
	}
	sys, v := build(t, 3, 2, 1, 0, 1)
	ce := replay(t, sys, dupCounter)
	before, last := ce.States[len(ce.States)-2], ce.States[len(ce.States)-1]
	if got := msgs(sys, v, before, 0, 2); got != "Counter(r0=4)" {
		t.Errorf("before the last step 0→2 holds %q, want the duplicate Counter(r0=4)", got)
	}
	if before.Get(2, v.Vec[0]) != 3 || before.Get(2, v.CntNeeded) != 0 || before.Get(2, v.St) != waitCS {
		t.Errorf("p2 before: %s", render(sys, v, before))
	}
	if last.Get(2, v.Vec[0]) != 4 || last.Get(2, v.Err) != errDupCounter {
		t.Errorf("p2 after: %s", render(sys, v, last))
	}
	if got := msgs(sys, v, last, 2, 0); got != "ReqRes(r0,2/1@4,V=100) ReqRes(r0,2/1@5,V=100)" {
		t.Errorf("2→0 holds %q, want p2's ReqRes twice, with marks 4 and 5", got)
	}
	if !invariant(t, sys, "exclusion").Holds(last) || !invariant(t, sys, "one_token").Holds(last) {
		t.Error("exclusion or one-token fails: the duplicate alone should not break them")
	}
}

// TestTokenLoss replays the four-process scenario for both loan settings:
// p2, in its critical section with both tokens, receives the duplicate
// Counter(r0) and ends in waitCS with tokDir[r0] = p0 while no token of r0
// exists anywhere; from there no process ever uses r0 again and the system
// deadlocks outside the valid end states.
func TestTokenLoss(t *testing.T) {
	for _, loan := range []int{0, 1} {
		t.Run(fmt.Sprintf("loan=%d", loan), func(t *testing.T) {
			sys, v := build(t, 4, 2, 1, loan, 0)
			ce := replay(t, sys, tokenLoss)
			n := len(ce.States)
			before, last := ce.States[n-2], ce.States[n-1]
			if before.Get(2, v.St) != inCS || before.Get(2, v.TokDir[0]) != v.N || msgs(sys, v, before, 0, 2) != "Counter(r0=4) ReqCnt(r1,3/1,V=1001)" {
				t.Fatalf("before the last step: %s", render(sys, v, before))
			}
			if last.Get(2, v.St) != waitCS || last.Get(2, v.TokDir[0]) != 0 {
				t.Errorf("p2 after: %s", render(sys, v, last))
			}
			for i := 0; i < n-1; i++ {
				if !invariant(t, sys, "one_token").Holds(ce.States[i]) {
					t.Fatalf("one-token fails already in state %d", i)
				}
			}
			if invariant(t, sys, "one_token").Holds(last) {
				t.Fatal("one-token holds after the duplicate Counter")
			}
			t.Logf("token r0 lost: %s", render(sys, v, last))
			// Every execution from there: nobody enters with r0, and some
			// reachable state is a deadlock.
			ex := sys.NewExpander()
			seen := map[string]bool{}
			queue := []*model.State{last}
			deadlocks, states := 0, 0
			for len(queue) > 0 {
				s := queue[0]
				queue = queue[1:]
				states++
				for p := 0; p < 4; p++ {
					if s.Get(p, v.St) == inCS && s.Get(p, v.Req)&1 != 0 {
						t.Fatalf("p%d enters with r0 after the loss: %s", p, render(sys, v, s))
					}
				}
				k, err := ex.Expand(s, func(_ *model.Step, next *model.State) bool {
					key := fmt.Sprint(next.Vars, next.Lens, next.Msgs)
					if !seen[key] {
						seen[key] = true
						queue = append(queue, next.Clone())
					}
					return true
				})
				if err != nil {
					t.Fatal(err)
				}
				if k == 0 && !sys.ValidEnd.Holds(s) {
					deadlocks++
				}
			}
			if deadlocks == 0 {
				t.Errorf("no deadlock among the %d states reachable after the loss", states)
			}
			t.Logf("%d states reachable after the loss, %d of them deadlocks", states, deadlocks)
		})
	}
}

// deadlock4 is the shortest deadlock on N=4, M=2, R=1 (found by
// invariants.Check, deadlock with loan=0, 25 steps, 2.8 million states
// explored): the same duplicate Counter(r0) reaches p3 after it has left its
// critical section and is idle. Receive Counter sets tokDir[r0] ← p0 (the
// token of r0 is lost) and processCntNeededEmpty puts the idle p3 in waitCS
// with TRequired = ∅, where it stays for ever: no step is enabled and p3
// is not idle, a deadlock (and p3 requests for ever: starvation).
var deadlock4 = []move{
	{1, "request(D=1)"}, {0, "recvReq(1)"}, {0, "request(D=1)"},
	{1, "recvToken(0)"}, {1, "recvReq(0)"}, {1, "leave"},
	{2, "request(D=1)"}, {3, "request(D=3)"}, {0, "recvReq(3)"},
	{0, "recvCounter(1)"}, {1, "recvReq(0)"}, {1, "recvReq(0)"},
	{3, "recvToken(1)"}, {3, "recvReq(1)"}, {0, "recvToken(3)"},
	{0, "leave"}, {0, "recvReq(2)"}, {2, "recvToken(0)"},
	{2, "leave"}, {3, "recvToken(0)"}, {0, "recvReq(3)"},
	{2, "recvReq(0)"}, {3, "recvToken(2)"}, {3, "leave"},
	{3, "recvCounter(0)"},
}

// TestDeadlockFourProcesses replays it for both loan settings: p3 ends in
// waitCS with nothing required and no token of r0 exists. With loan=0
// nothing is in transit and no step is enabled; with loan=1 p3's ReqLoan is
// still in transit, and every execution from there keeps p3 stuck and ends
// in a deadlock.
func TestDeadlockFourProcesses(t *testing.T) {
	for _, loan := range []int{0, 1} {
		t.Run(fmt.Sprintf("loan=%d", loan), func(t *testing.T) {
			sys, v := build(t, 4, 2, 1, loan, 0)
			ce := replay(t, sys, deadlock4)
			last := ce.States[len(ce.States)-1]
			if last.Get(3, v.St) != waitCS || last.Get(3, v.Req) != 0 || last.Get(3, v.TokDir[0]) != 0 {
				t.Errorf("p3: %s", render(sys, v, last))
			}
			if invariant(t, sys, "one_token").Holds(last) {
				t.Error("one-token holds")
			}
			ex := sys.NewExpander()
			seen := map[string]bool{}
			queue := []*model.State{last}
			deadlocks, states := 0, 0
			for len(queue) > 0 {
				s := queue[0]
				queue = queue[1:]
				states++
				if s.Get(3, v.St) != waitCS || s.Get(3, v.Req) != 0 {
					t.Fatalf("p3 gets out: %s", render(sys, v, s))
				}
				k, err := ex.Expand(s, func(_ *model.Step, next *model.State) bool {
					key := fmt.Sprint(next.Vars, next.Lens, next.Msgs)
					if !seen[key] {
						seen[key] = true
						queue = append(queue, next.Clone())
					}
					return true
				})
				if err != nil {
					t.Fatal(err)
				}
				if k == 0 {
					if sys.ValidEnd.Holds(s) {
						t.Fatalf("valid end reached: %s", render(sys, v, s))
					}
					deadlocks++
					t.Logf("deadlock: %s", render(sys, v, s))
				}
			}
			if deadlocks == 0 || loan == 0 && states != 1 {
				t.Errorf("%d states reachable, %d deadlocks", states, deadlocks)
			}
		})
	}
}
