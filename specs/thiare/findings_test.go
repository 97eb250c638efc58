package thiare_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/reports"
	"github.com/ringcheck/ringcheck/specs"
)

// logTrace writes a counterexample as text into the test log.
func logTrace(t *testing.T, sys *model.System, vals specs.Values, prop invariants.Property, ce *invariants.Counterexample) {
	t.Helper()
	var buf bytes.Buffer
	if err := reports.WriteTraceText(&buf, reports.NewTrace(sys, vals, string(prop), ce)); err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", buf.String())
}

// outcome checks one property and returns its outcome, with the search's
// state count.
func outcome(t *testing.T, sys *model.System, p invariants.Property) (invariants.Outcome, *invariants.Report) {
	t.Helper()
	rep := check(t, sys, p)
	return rep.Outcomes[0], rep
}

// TestRule2Deadlock is a finding: with Rule 2 as written (a node with no
// intention replaces a token's SeqNum by its HSeqNumSeen) the algorithm
// deadlocks, contradicting Theorem 4.2, on n=5 nodes with one request each.
// An idle node raises the SN of a passing token above the SN of a later
// request of the next waiting node, which therefore queues it, while the
// token's originator queues that node's token (of lower priority than its
// own copy): each of the two holds the other's token and waits for its own.
// With replace=0 (SN left unchanged) the same instance is deadlock-free,
// so the cause is the replacement.
func TestRule2Deadlock(t *testing.T) {
	vals := params(t, "n", 5, "requests", 1)
	sys, v := build(t, vals)
	o, _ := outcome(t, sys, invariants.Deadlock)
	if o.Verdict != invariants.Violated {
		t.Fatalf("deadlock %s, want violated", o.Verdict)
	}
	ce := o.Counterexample
	if ce == nil || ce.Kind != invariants.Path {
		t.Fatalf("counterexample %+v, want a path", ce)
	}
	if err := ce.Replay(sys); err != nil {
		t.Fatal(err)
	}
	if len(ce.Steps) != 17 {
		t.Errorf("shortest deadlock has %d steps, want 17", len(ce.Steps))
	}
	logTrace(t, sys, vals, invariants.Deadlock, ce)
	last := ce.States[len(ce.States)-1]
	if len(enabledAll(t, sys, last)) != 0 || sys.ValidEnd.Holds(last) {
		t.Fatal("the last state is not a deadlock")
	}
	cf := read(sys, v, last)
	// holds[p] lists the originators of the tokens p holds in its queue.
	// A deadlock needs two waiting nodes each holding the other's token,
	// one of them raised by Rule 2 above its originator's copy.
	pair, raised := false, false
	for p, nd := range cf.nodes {
		for _, k := range nd.queue {
			q := k.pid
			if nd.state != waiting || cf.nodes[q].state != waiting {
				continue
			}
			if slices.ContainsFunc(cf.nodes[q].queue, func(k tok) bool { return k.pid == p }) {
				pair = true
				if k.seq > cf.nodes[q].seq {
					raised = true
					t.Logf("node %d holds token %v of node %d, whose copy has SN %d; node %d holds node %d's token", p, k, q, cf.nodes[q].seq, q, p)
				}
			}
		}
	}
	if !pair || !raised {
		t.Errorf("last state %v: two waiting nodes holding each other's token %v, one of them raised by Rule 2 %v", cf, pair, raised)
	}

	// The same instance without the replacement.
	vals0 := params(t, "n", 5, "requests", 1, "replace", 0)
	sys0, _ := build(t, vals0)
	rep := check(t, sys0, all...)
	if !rep.Search.Complete() {
		t.Fatalf("replace=0: search stopped: %v", rep.Search.Stop)
	}
	for _, o := range rep.Outcomes {
		if o.Verdict != invariants.Holds {
			t.Errorf("replace=0: %s %s, want holds", o.Property, o.Verdict)
		}
	}
	if rep.Search.States != 43905 {
		t.Errorf("replace=0: %d states, want 43905", rep.Search.States)
	}
}

// TestRule2Starvation: on the same instance every node can starve (the
// deadlock above, and the executions that lead into it).
func TestRule2Starvation(t *testing.T) {
	vals := params(t, "n", 5, "requests", 1)
	sys, v := build(t, vals)
	o, rep := outcome(t, sys, invariants.Starvation)
	if o.Verdict != invariants.Violated {
		t.Fatalf("starvation %s, want violated", o.Verdict)
	}
	if rep.Search.States != 44231 {
		t.Errorf("%d states, want 44231", rep.Search.States)
	}
	if !slices.Equal(o.Starving, []int{0, 1, 2, 3, 4}) {
		t.Errorf("starving %v, want every node", o.Starving)
	}
	ce := o.Counterexample
	if err := ce.Replay(sys); err != nil {
		t.Fatal(err)
	}
	p := *ce.Process
	for i := range ce.States {
		if i < len(ce.States)-1 && ce.Kind == invariants.Path {
			continue
		}
		if ce.Kind == invariants.Lasso && i < ce.LoopStart {
			continue
		}
		if st := ce.States[i].Get(p, v.State[0]); st != waiting {
			t.Errorf("state %d: node %d is %s in the part repeated for ever, want waiting", i, p, stateNames[st])
		}
	}
	t.Logf("%s: a %s of %d steps", o.Reason, ce.Kind, len(ce.Steps))
}

// TestRule4StaleTokenBreaksSafety is a finding: with Rule 4 (resend=1) and
// two requests per node, two nodes are in their CS at once, contradicting
// Theorem 4.1. A node's token is held in a queue; it times out and resends
// it; the original comes back first and serves the request; the resent
// duplicate survives (nothing deletes it on the way) and reaches its
// originator during its NEXT request, which Rule 3 ("if the node N_i
// receives T_i^r ... it enters the CS") takes as its own token: the node
// enters while its real token is still travelling, and a node whose token
// it released earlier enters too.
func TestRule4StaleTokenBreaksSafety(t *testing.T) {
	// Mutual exclusion alone: with Property 4.1's order checked too, the
	// same duplicate breaks the order first (TestPriorityOrder).
	vals := params(t, "n", 3, "requests", 2, "resend", 1, "order", 0)
	sys, v := build(t, vals)
	o, _ := outcome(t, sys, invariants.Safety)
	if o.Verdict != invariants.Violated {
		t.Fatalf("safety %s, want violated", o.Verdict)
	}
	ce := o.Counterexample
	if err := ce.Replay(sys); err != nil {
		t.Fatal(err)
	}
	if len(ce.Steps) != 19 {
		t.Errorf("shortest violation has %d steps, want 19", len(ce.Steps))
	}
	logTrace(t, sys, vals, invariants.Safety, ce)
	last := read(sys, v, ce.States[len(ce.States)-1])
	inCS := 0
	for _, nd := range last.nodes {
		if nd.state == cs {
			inCS++
		}
	}
	if inCS != 2 {
		t.Errorf("last state %v has %d nodes in CS, want 2", last, inCS)
	}
	// Some node enters on a Resend = 1 token during a request whose token
	// it has not resent: the duplicate of an earlier request's token.
	stale := false
	for i, step := range ce.Steps {
		m := step.Moves[0]
		if sys.Processes[m.Proc].Actions[m.Action].Name != "enter" {
			continue
		}
		before := read(sys, v, ce.States[i])
		head := before.in[m.Proc][0]
		nd := before.nodes[m.Proc]
		if head.resend == 1 && nd.resent == 0 {
			stale = true
			t.Logf("step %d: node %d (request %d, own copy SN %d, not resent) enters on the resent token %v", i+1, m.Proc, nd.used, nd.seq, head)
			if nd.used != 2 {
				t.Errorf("the stale token is used by request %d, want the second", nd.used)
			}
		}
	}
	if !stale {
		t.Error("no node enters on a stale resent token")
	}
}

// TestRule4LivenessHolds: with Rule 4 and two requests per node on n=3,
// deadlock and starvation still hold (only safety fails).
func TestRule4LivenessHolds(t *testing.T) {
	if testing.Short() {
		t.Skip("short: 359499 states")
	}
	sys, _ := build(t, params(t, "n", 3, "requests", 2, "resend", 1))
	rep := check(t, sys, invariants.Deadlock, invariants.Starvation)
	if !rep.Search.Complete() {
		t.Fatalf("search stopped: %v", rep.Search.Stop)
	}
	for _, o := range rep.Outcomes {
		if o.Verdict != invariants.Holds {
			t.Errorf("%s %s, want holds", o.Property, o.Verdict)
		}
	}
	if rep.Search.States != 359499 {
		t.Errorf("%d states, want 359499", rep.Search.States)
	}
}

// enabledAll lists every enabled step of s.
func enabledAll(t testing.TB, sys *model.System, s *model.State) []string {
	t.Helper()
	var out []string
	if _, err := sys.NewExpander().Expand(s, func(step *model.Step, _ *model.State) bool {
		out = append(out, label(sys, step))
		return true
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestPriorityOrder: Property 4.1, a request is served after every request
// of higher priority, as the invariant priority_order (a node in CS(r) has
// priority over every node waiting for r). It holds in the failure-free
// setting on every instance below, with bounded and with recurring
// requests, Rule 2 as written or not. With Rule 4's resend (n=3, R=2) the
// stale duplicate of TestRule4StaleTokenBreaksSafety breaks it first: its
// originator enters on it during its next request, whose own token (a
// copy with a later SeqNum) has lower priority than a waiting node's, 16
// steps in, three before a second node enters.
func TestPriorityOrder(t *testing.T) {
	for _, tc := range []struct {
		kv     []any
		states int64
	}{
		{[]any{"n", 3, "requests", 2}, 3100},
		{[]any{"n", 4, "requests", 2}, 0},
		{[]any{"n", 5, "requests", 1}, 44231},
		{[]any{"n", 3, "requests", 2, "replace", 0}, 0},
		{[]any{"n", 3, "requests", 1, "resources", 2}, 2089},
		{[]any{"n", 4, "requests", 0}, 38988},
	} {
		sys, _ := build(t, params(t, tc.kv...))
		rep := check(t, sys, invariants.Safety)
		if o := rep.Outcomes[0]; o.Verdict != invariants.Holds {
			t.Errorf("%v: safety %s (%s), want priority_order to hold", tc.kv, o.Verdict, o.Reason)
		}
		if tc.states != 0 && rep.Search.States != tc.states {
			t.Errorf("%v: %d states, want %d", tc.kv, rep.Search.States, tc.states)
		}
	}
	sys, _ := build(t, params(t, "n", 3, "requests", 2, "resend", 1))
	o, _ := outcome(t, sys, invariants.Safety)
	if o.Verdict != invariants.Violated || o.Reason != "invariant priority_order is false" || len(o.Counterexample.Steps) != 16 {
		t.Fatalf("resend=1: safety %s (%s), want priority_order violated in 16 steps", o.Verdict, o.Reason)
	}
	if err := o.Counterexample.Replay(sys); err != nil {
		t.Fatal(err)
	}
}
