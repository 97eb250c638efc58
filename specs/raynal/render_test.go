package raynal_test

import (
	"fmt"
	"strings"

	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs/internal/raynaltest"
)

// render writes a configuration on one line: per process
// "P<i>[state k h maxh reqs used=.. delayed=.. asked=..]" with state idle,
// wait (scdem) or CS (ok), then the non-empty channels "i→j: msgs".
func render(sys *model.System, v Vars, s *model.State) string {
	var b strings.Builder
	for i := 0; i < v.N; i++ {
		st := "idle"
		switch {
		case s.Get(i, v.Scdem) == 1 && s.Get(i, v.Ok) == 1:
			st = "wait+CS?"
		case s.Get(i, v.Scdem) == 1:
			st = "wait"
		case s.Get(i, v.Ok) == 1:
			st = "CS"
		}
		fmt.Fprintf(&b, "P%d[%s k=%d h=%d maxh=%d reqs=%d used=%s delayed=%s", i, st, s.Get(i, v.K), s.Get(i, v.H), s.Get(i, v.MaxH), s.Get(i, v.Reqs),
			raynaltest.PeerValues(s, i, v.N, v.Used), raynaltest.PeerSet(s, i, v.N, v.Delayed))
		if v.Variant {
			b.WriteString(" asked=" + raynaltest.PeerSet(s, i, v.N, v.Asked))
		}
		if v.Count {
			fmt.Fprintf(&b, " msgs=%d", s.Get(i, v.Msgs))
		}
		b.WriteString("] ")
	}
	b.WriteString(raynaltest.Channels(sys, s, func(m model.Msg) string {
		switch {
		case sys.TypeOf(m) == v.Req:
			return fmt.Sprintf("req(%d)", sys.Field(m, 0))
		case v.Count:
			return fmt.Sprintf("free(%d|%d)", sys.Field(m, 0), sys.Field(m, 1))
		}
		return fmt.Sprintf("free(%d)", sys.Field(m, 0))
	}))
	return b.String()
}

// renderTrace writes a counterexample one state per line, each step as
// "-- p<i> action -->".
func renderTrace(sys *model.System, v Vars, ce *invariants.Counterexample) string {
	var b strings.Builder
	for i, s := range ce.States {
		fmt.Fprintf(&b, "%2d %s\n", i, render(sys, v, s))
		if i < len(ce.Steps) {
			fmt.Fprintf(&b, "   -- p%d %s -->\n", ce.Steps[i].Moves[0].Proc, sys.Label(&ce.Steps[i]))
		}
	}
	return b.String()
}
