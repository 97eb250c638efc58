package lang_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/lang"
	"github.com/ringcheck/ringcheck/model"
)

// slotNames names slots as x@p (variable x of process p) or c0→1 (the
// channel from 0 to 1).
func slotNames(sys *model.System, slots []model.Slot) string {
	var out []string
	nvars := model.Slot(sys.Slots() - len(sys.Channels))
	for _, s := range slots {
		if s >= nvars {
			ch := sys.Channels[s-nvars]
			out = append(out, fmt.Sprintf("c%d→%d", ch.From, ch.To))
			continue
		}
		for p := range sys.Processes {
			for v := range sys.Vars {
				if sys.VarIndex(p, model.VarID(v)) == int(s) {
					out = append(out, fmt.Sprintf("%s@%d", sys.Vars[v].Name, p))
				}
			}
		}
	}
	return strings.Join(out, " ")
}

func chanNames(sys *model.System, cs []model.ChanID) string {
	var out []string
	for _, c := range cs {
		out = append(out, fmt.Sprintf("c%d→%d", sys.Channels[c].From, sys.Channels[c].To))
	}
	return strings.Join(out, " ")
}

// TestAccessSets pins the access sets the compiler derives from the IR:
// what each action instance reads and writes, its sends and receives,
// its guard's conjuncts (and which of them a configuration can decide),
// and the slots the invariants read.
func TestAccessSets(t *testing.T) {
	const head = "spec a \"access\"\ntopology ring(3)\nvar x: 0..2 = 0\nvar y: 0..1 = 0\nmessage M(v: 0..2)\nchannels capacity 1 overflow block\n"
	for _, tc := range []struct {
		name, body string
		proc       int
		// want: reads | writes | sends | receives | conjuncts, each R
		// (decidable) or ? (not), with H for the receive's head.
		want string
	}{
		{"local", "process all {\n  action a: x == 0 && y == 1 -> x := 1\n}\n", 1,
			"x@1 y@1 | x@1 |  |  | R R"},
		{"send", "process all {\n  action a: y == 0 -> y := 1, send M(x) to succ\n}\n", 2,
			"x@2 y@2 | y@2 | c2→0 |  | R"},
		{"receive", "process all {\n  action a: recv M(v) from pred, v == x -> x := v\n}\n", 0,
			"x@0 | x@0 |  | c2→0 | H R"},
		{"choice", "process all {\n  action a(k in 0..2): x != k -> x := k\n}\n", 0,
			"x@0 | x@0 |  |  | R"},
		{"global guard", "process all {\n  timeout action a: (forall p: len(p, succ(p)) == 0) -> y := 1\n}\n", 1,
			"c0→1 c1→2 c2→0 | y@1 |  |  | R"},
		{"quantified read", "process all {\n  action a: (exists q: x[q] == 2) -> y := 1\n}\n", 1,
			"x@0 x@1 x@2 | y@1 |  |  | R"},
		{"first enabled", "process all first_enabled {\n  action a: x == 0 -> x := 1\n  action b: y == 0 -> y := 1\n}\n", 1,
			"x@1 y@1 | y@1 |  |  | R ?"},
		{"atomic", "process all {\n  atomic action a: y == 1 -> y := 0, y[succ] := 1\n}\n", 2,
			"y@2 | y@0 y@2 |  |  | R"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := head + tc.body + "invariant i \"x of 0\": x[0] <= 2 && len(1, 2) <= 1\n"
			f, err := lang.Parse("a.ring", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			sys, err := f.Build(nil)
			if err != nil {
				t.Fatal(err)
			}
			acts := sys.Access.Actions[tc.proc]
			x := acts[len(acts)-1]
			var conj []string
			for _, c := range x.Conjuncts {
				switch {
				case c.Head:
					conj = append(conj, "H")
				case c.Holds != nil:
					conj = append(conj, "R")
				default:
					conj = append(conj, "?")
				}
			}
			got := fmt.Sprintf("%s | %s | %s | %s | %s", slotNames(sys, x.Reads), slotNames(sys, x.Writes),
				chanNames(sys, x.Sends), chanNames(sys, x.Receives), strings.Join(conj, " "))
			if x.Any {
				got = "any"
			}
			if got != tc.want {
				t.Errorf("access of process %d's last action\n got %s\nwant %s", tc.proc, got, tc.want)
			}
			if v := slotNames(sys, sys.Access.Visible); v != "x@0 c1→2" {
				t.Errorf("visible slots %s, want x@0 c1→2", v)
			}
		})
	}
}
