package model_test

import (
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/model"
)

// TestRangeFaults: an assignment outside its variable's domain is an
// error of the spec, unless the system reports range faults; then the step
// happens without the assignment and carries the fault, under every daemon
// and through Count.
func TestRangeFaults(t *testing.T) {
	for _, tc := range []struct {
		name   string
		report bool
		daemon model.Daemon
	}{
		{"error, central", false, model.Central},
		{"reported, central", true, model.Central},
		{"reported, distributed", true, model.Distributed},
		{"reported, synchronous", true, model.Synchronous},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := model.NewBuilder("grow", model.UniRing, 2)
			x := b.Var("x", model.IntRange(0, 1))
			b.Action(model.Action{
				Name:   "inc",
				Guard:  func(*model.Ctx) bool { return true },
				Effect: func(c *model.Ctx, _ int) { c.Set(x, c.Get(x)+1) },
			})
			if tc.report {
				b.ReportRangeFaults()
			}
			b.Initial(func(_ *model.System, s *model.State) { s.Set(0, x, 1) })
			sys, err := b.Build()
			if err != nil {
				t.Fatal(err)
			}
			if sys, err = sys.WithDaemon(tc.daemon); err != nil {
				t.Fatal(err)
			}
			init := sys.Initial()[0]
			var faults []string
			n, err := sys.NewExpander().Expand(init, func(st *model.Step, next *model.State) bool {
				if st.RangeFault != "" {
					faults = append(faults, st.RangeFault)
					// The assignment is dropped: process 0's x stays 1.
					if next.Get(0, x) != 1 {
						t.Errorf("x became %d", next.Get(0, x))
					}
				}
				return true
			})
			if !tc.report {
				if err == nil || !strings.Contains(err.Error(), "sets x to 2, outside 0..1") {
					t.Fatalf("err = %v, want the spec's fault", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(faults) == 0 || faults[0] != "process 0 sets x to 2, outside 0..1" {
				t.Fatalf("%d steps, faults %q", n, faults)
			}
			count, fault, err := sys.NewExpander().Count(init)
			if err != nil || count != n || fault == nil || fault.RangeFault == "" || !fault.Faulty() {
				t.Fatalf("Count = %d, %+v, %v; want %d steps and the faulty one", count, fault, err, n)
			}
		})
	}
}

// TestSendFieldFaults: a message field sent outside its domain is a range
// fault of the step (the send dropped) in a system that reports range
// faults, and an error of the spec otherwise, never a letter of another
// message.
func TestSendFieldFaults(t *testing.T) {
	for _, report := range []bool{false, true} {
		b := model.NewBuilder("send", model.UniRing, 2)
		tok := b.Message("Tok", model.Var{Name: "v", Domain: model.IntRange(0, 1)})
		b.LinkChannels(1, model.Block)
		b.Action(model.Action{
			Name:   "send",
			Guard:  func(*model.Ctx) bool { return true },
			Effect: func(c *model.Ctx, _ int) { c.SendFields(c.Out(c.Succ()), tok, 2) },
		})
		if report {
			b.ReportRangeFaults()
		}
		b.Initial(func(*model.System, *model.State) {})
		sys, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		init := sys.Initial()[0]
		var faults []string
		_, err = sys.NewExpander().Expand(init, func(st *model.Step, next *model.State) bool {
			faults = append(faults, st.RangeFault)
			if next.Len(0)+next.Len(1) != 0 {
				t.Errorf("report %v: the send was not dropped", report)
			}
			return true
		})
		const want = "process 0 sends Tok with v = 2, outside 0..1"
		switch {
		case !report && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("err = %v, want the spec's fault %q", err, want)
		case report && (err != nil || len(faults) == 0 || faults[0] != want):
			t.Errorf("err = %v, faults %q; want %q", err, faults, want)
		}
	}
}
