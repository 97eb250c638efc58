package raynal_test

import (
	"fmt"
	"strings"

	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs/raynal"
)

// render writes a configuration on one line: per process
// "P<i>[state k h maxh reqs used=.. delayed=.. asked=..]" with state idle,
// wait (scdem) or CS (ok), then the non-empty channels "i→j: msgs".
func render(sys *model.System, v raynal.Vars, s *model.State) string {
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
		fmt.Fprintf(&b, "P%d[%s k=%d h=%d maxh=%d reqs=%d used=", i, st, s.Get(i, v.K), s.Get(i, v.H), s.Get(i, v.MaxH), s.Get(i, v.Reqs))
		sep := ""
		for j := 0; j < v.N; j++ {
			if j == i {
				b.WriteString(sep + "-")
			} else {
				fmt.Fprintf(&b, "%s%d", sep, s.Get(i, v.Used[j]))
			}
			sep = ","
		}
		b.WriteString(" delayed={")
		sep = ""
		for j := 0; j < v.N; j++ {
			if j != i && s.Get(i, v.Delayed[j]) == 1 {
				fmt.Fprintf(&b, "%s%d", sep, j)
				sep = ","
			}
		}
		b.WriteString("}")
		if v.Variant {
			b.WriteString(" asked={")
			sep = ""
			for j := 0; j < v.N; j++ {
				if j != i && s.Get(i, v.Asked[j]) == 1 {
					fmt.Fprintf(&b, "%s%d", sep, j)
					sep = ","
				}
			}
			b.WriteString("}")
		}
		if v.Count {
			fmt.Fprintf(&b, " msgs=%d", s.Get(i, v.Msgs))
		}
		b.WriteString("] ")
	}
	for i := 0; i < v.N; i++ {
		for j := 0; j < v.N; j++ {
			if i == j {
				continue
			}
			ch := sys.ChanBetween(i, j)
			if s.Len(ch) == 0 {
				continue
			}
			fmt.Fprintf(&b, " %d→%d:", i, j)
			for x := 0; x < s.Len(ch); x++ {
				m := s.At(ch, x)
				if sys.TypeOf(m) == v.Req {
					fmt.Fprintf(&b, " req(%d)", sys.Field(m, 0))
				} else if v.Count {
					fmt.Fprintf(&b, " free(%d|%d)", sys.Field(m, 0), sys.Field(m, 1))
				} else {
					fmt.Fprintf(&b, " free(%d)", sys.Field(m, 0))
				}
			}
		}
	}
	return b.String()
}

// renderTrace writes a counterexample one state per line, each step as
// "-- p<i> action -->".
func renderTrace(sys *model.System, v raynal.Vars, ce *invariants.Counterexample) string {
	var b strings.Builder
	for i, s := range ce.States {
		fmt.Fprintf(&b, "%2d %s\n", i, render(sys, v, s))
		if i < len(ce.Steps) {
			fmt.Fprintf(&b, "   -- p%d %s -->\n", ce.Steps[i].Moves[0].Proc, sys.Label(&ce.Steps[i]))
		}
	}
	return b.String()
}
