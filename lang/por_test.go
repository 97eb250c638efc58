package lang_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/lang"
	"github.com/ringcheck/ringcheck/model"
)

// porObserver records what partial-order reduction must keep: the values
// of the slots the invariants read in every state visited, every
// deadlock, and whether a faulty step was seen.
type porObserver struct {
	sys       *model.System
	visible   map[string]bool
	deadlocks map[string]bool
	faulty    bool
	mu        sync.Mutex
}

func (o *porObserver) Observe(v *explore.Visit) {
	var b strings.Builder
	nvars := model.Slot(len(v.State.Vars))
	for _, s := range o.sys.Access.Visible {
		if s < nvars {
			fmt.Fprintf(&b, "%d,", v.State.Vars[s])
			continue
		}
		ch := model.ChanID(s - nvars)
		fmt.Fprintf(&b, "[")
		for i := range v.State.Len(ch) {
			fmt.Fprintf(&b, "%d,", v.State.At(ch, i))
		}
		fmt.Fprintf(&b, "]")
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.visible[b.String()] = true
	if v.Successors == 0 {
		o.deadlocks[fmt.Sprint(v.State.Vars, v.State.Lens, v.State.Msgs)] = true
	}
	if v.Overflow != nil {
		o.faulty = true
	}
}

func (*porObserver) Decided() bool { return false }

// explorePOR explores sys from its initial configurations with po (nil:
// no reduction) and returns what it observed and the states stored.
func explorePOR(t *testing.T, sys *model.System, po *explore.PartialOrder, workers int) (*porObserver, int64) {
	t.Helper()
	o := &porObserver{sys: sys, visible: map[string]bool{}, deadlocks: map[string]bool{}}
	res, err := explore.BFS(context.Background(), sys, o, explore.Options{PartialOrder: po, Workers: workers, MaxStates: porMaxStates})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Complete() {
		return nil, res.States
	}
	if res.PartialOrder != (po != nil) {
		t.Fatalf("Result.PartialOrder is %v", res.PartialOrder)
	}
	return o, res.States
}

// porMaxStates bounds the systems compared: a larger one is skipped.
const porMaxStates = 20000

// comparePOR checks that the reduction keeps every deadlock, and with
// invariants every faulty step and every valuation of what the
// invariants read, and that it stores no more states than the full
// search.
func comparePOR(t *testing.T, name string, sys *model.System) (full, reduced int64) {
	t.Helper()
	all, n := explorePOR(t, sys, nil, 1)
	if all == nil {
		return 0, 0
	}
	for _, inv := range []bool{false, true} {
		red, m := explorePOR(t, sys, &explore.PartialOrder{Invariants: inv}, 1+int(m0(inv)))
		if red == nil {
			t.Fatalf("%s: the reduction stored more than %d states, the full search %d", name, porMaxStates, n)
		}
		if m > n {
			t.Errorf("%s: the reduction stored %d states, the full search %d", name, m, n)
		}
		if !porSameKeys(all.deadlocks, red.deadlocks) {
			t.Errorf("%s (invariants %v): %d deadlocks, %d with the reduction", name, inv, len(all.deadlocks), len(red.deadlocks))
		}
		if !inv {
			continue
		}
		reduced = m
		if all.faulty != red.faulty {
			t.Errorf("%s: a faulty step: %v, with the reduction %v", name, all.faulty, red.faulty)
		}
		if !porSameKeys(all.visible, red.visible) {
			t.Errorf("%s: %d valuations of what the invariants read, %d with the reduction", name, len(all.visible), len(red.visible))
		}
	}
	return n, reduced
}

// m0 gives the second run two workers, so that the reduction's choices
// are checked not to depend on them.
func m0(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func porSameKeys(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

// randomRing writes a random small message-passing .ring system: a ring
// of 2 to 4 processes, small variables, two message types, channels of
// one random overflow policy, a few random actions (protocol,
// environment, receives, sends, choices, a timeout) for every process
// and perhaps more for process 0, perhaps first_enabled, or a pipeline
// whose processes 0 and 1 alone act, and an invariant.
func randomRing(r *rand.Rand) string {
	var b strings.Builder
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	n := 2 + r.IntN(3)
	d := 1 + r.IntN(2)
	fmt.Fprintf(&b, "spec rnd \"random\"\nparam n = %d in 2..5 \"processes\"\ntopology ring(n)\n", n)
	fmt.Fprintf(&b, "var x: 0..%d = 0\nvar y: 0..1 = 0\nvar z: 0..3 = 0\n", d)
	fmt.Fprintf(&b, "message A(v: 0..%d)\nmessage B\n", d)
	fmt.Fprintf(&b, "channels capacity %d overflow %s\n", 1+r.IntN(2), pick("block", "drop", "error"))
	guard := func() string {
		var gs []string
		for range r.IntN(3) {
			gs = append(gs, pick(
				fmt.Sprintf("x == %d", r.IntN(d+1)),
				fmt.Sprintf("x != %d", r.IntN(d+1)),
				fmt.Sprintf("y == %d", r.IntN(2)),
				fmt.Sprintf("len(self, succ) < %d", 1+r.IntN(2)),
				fmt.Sprintf("x[pred] == %d", r.IntN(d+1)),
			))
		}
		return strings.Join(gs, " && ")
	}
	// effect assigns x at most once (not at all unless setX), y at most
	// once, and sends.
	effect := func(setX, recvA bool) string {
		var es []string
		xDone := !setX
		for range 1 + r.IntN(3) {
			var e string
			switch r.IntN(5) {
			case 0, 1:
				if xDone {
					continue
				}
				xDone = true
				e = pick(fmt.Sprintf("x := %d", r.IntN(d+1)), "x := x + 1")
				if recvA && r.IntN(2) == 0 {
					e = "x := v"
				}
			case 2:
				e = "y := 1 - y"
			case 3:
				e = pick("send A(x) to succ", "send B to succ")
			default:
				e = "skip"
			}
			if !slices.Contains(es, e) {
				es = append(es, e)
			}
		}
		if len(es) == 0 {
			return "skip"
		}
		if len(es) > 1 && slices.Contains(es, "skip") {
			es = slices.DeleteFunc(es, func(e string) bool { return e == "skip" })
		}
		return strings.Join(es, ", ")
	}
	block := func(header string, count int, first string) {
		fmt.Fprintf(&b, "process %s {\n%s", header, first)
		for i := range count {
			g := guard()
			switch r.IntN(9) {
			case 8:
				// An atomic step that assigns the successor's y.
				fmt.Fprintf(&b, "  atomic action at%d: y == %d -> y := %d, y[succ] := %d\n", i, r.IntN(2), r.IntN(2), r.IntN(2))
				continue
			case 6, 7:
				// A step on y alone: independent of the other processes.
				c := r.IntN(2)
				fmt.Fprintf(&b, "  action l%d: y == %d -> y := %d\n", i, c, 1-c)
				continue
			case 0:
				if g == "" {
					g = "true"
				}
				fmt.Fprintf(&b, "  environment action e%d: %s -> %s\n", i, g, effect(true, false))
			case 1:
				if g != "" {
					g = ", " + g
				}
				fmt.Fprintf(&b, "  action ra%d: recv A(v) from pred%s -> %s, if z < 3 { z := z + 1 }\n", i, g, effect(true, true))
			case 2:
				if g != "" {
					g = ", " + g
				}
				fmt.Fprintf(&b, "  action rb%d: recv B from pred%s -> %s, if z < 3 { z := z + 1 }\n", i, g, effect(true, false))
			case 3:
				fmt.Fprintf(&b, "  action c%d(k in 0..1): x != k -> x := k, %s\n", i, effect(false, false))
			case 4:
				fmt.Fprintf(&b, "  timeout action t%d: (forall p: len(p, succ(p)) == 0) -> %s\n", i, effect(true, false))
			default:
				if g == "" {
					g = "true"
				}
				fmt.Fprintf(&b, "  action a%d: %s -> %s\n", i, g, effect(true, false))
			}
		}
		fmt.Fprintf(&b, "}\n")
	}
	fe := ""
	if r.IntN(3) == 0 {
		fe = " first_enabled"
	}
	if r.IntN(4) == 0 {
		// A pipeline: processes 0 and 1 alone act, and process 1
		// receives what process 0 sends it, so a send may be in a
		// set without the receive.
		g := guard()
		if g == "" {
			g = "true"
		}
		m := pick("A(x)", "B")
		block("0", r.IntN(3), fmt.Sprintf("  action s: %s -> %s, send %s to succ\n", g, effect(true, false), m))
		recv := "B"
		if m != "B" {
			recv = "A(v)"
		}
		block("1", r.IntN(3), fmt.Sprintf("  action r: recv %s from pred -> %s, if z < 3 { z := z + 1 }\n", recv, effect(true, m != "B")))
	} else {
		block("all"+fe, 2+r.IntN(3), "")
		if r.IntN(2) == 0 {
			block("0", 1+r.IntN(2), "")
		}
	}
	fmt.Fprintf(&b, "process 0 {\n  init: send %s to succ\n}\n", pick("A(1)", "B", "A(0)"))
	inv := pick(
		fmt.Sprintf("(count p: x[p] == %d) <= 1", d),
		"forall p: y[p] == 0 || x[p] == 0",
		"(sum p: len(p, succ(p))) <= 2",
		"x[0] <= x[1] || y[1] == 1",
		fmt.Sprintf("x[1] != %d || y[1] == 0", r.IntN(d+1)),
	)
	if r.IntN(3) == 0 {
		// What the receives count: a send that writes nothing the
		// invariant reads may be left out of a set.
		inv = fmt.Sprintf("(sum p: z[p]) <= %d", 1+r.IntN(3))
	}
	fmt.Fprintf(&b, "invariant i \"random\": %s\n", inv)
	return b.String()
}

// TestPartialOrderRandom compares the reduced and the full search on
// random small .ring systems: the same deadlocks, the same faulty steps,
// the same valuations of what the invariants read.
func TestPartialOrderRandom(t *testing.T) {
	count := 300
	if testing.Short() {
		count = 60
	}
	r := rand.New(rand.NewPCG(28, 1))
	built, reducedSome := 0, 0
	for i := range count {
		src := randomRing(r)
		f, err := lang.Parse(fmt.Sprintf("rnd%d.ring", i), []byte(src))
		if err != nil {
			t.Fatalf("system %d does not parse: %v\n%s", i, err, src)
		}
		sys, err := f.Build(nil)
		if err != nil {
			if i < 8 {
				t.Logf("%v", err)
			}
			continue
		}
		full, reduced := comparePOR(t, fmt.Sprintf("system %d", i), sys)
		if full == 0 {
			continue
		}
		built++
		if reduced < full {
			reducedSome++
		}
		if t.Failed() {
			t.Fatalf("system %d:\n%s", i, src)
		}
	}
	if built < count/2 {
		t.Fatalf("only %d of %d random systems build and have at most %d states", built, count, porMaxStates)
	}
	if reducedSome == 0 {
		t.Fatalf("the reduction stored fewer states in none of %d systems", built)
	}
	t.Logf("%d systems built, %d reduced", built, reducedSome)
}

// TestPartialOrderCases are systems built to catch a reduction that is
// too eager: one that ignores a step forever behind a cycle of others
// (the cycle proviso keeps it), and two that take a send and a receive
// on a channel whose overflow policy is drop or error as independent
// where the send finds the channel full (it loses its message, or fails,
// where after the receive it would not).
func TestPartialOrderCases(t *testing.T) {
	for _, tc := range []struct {
		name, src string
	}{
		{"proviso", `spec ignoring "a visible step behind an invisible cycle"
topology ring(2)
var x: 0..1 = 0
var y: 0..1 = 0
process 0 {
  action up: y == 0 -> y := 1
  action down: y == 1 -> y := 0
}
process 1 {
  action set: x == 0 -> x := 1
}
invariant unset "process 1 never sets x": x[1] == 0
`},
		{"drop", `spec dropping "a send to a full channel that drops"
topology ring(2)
var x: 0..1 = 0
var y: 0..2 = 0
message B
channels capacity 1 overflow drop
process 0 {
  init: send B to succ
  action s: x == 0 -> x := 1, send B to succ
}
process 1 {
  action r: recv B from pred, y < 2 -> y := y + 1
}
invariant once "process 1 receives at most once": y[1] <= 1
`},
		{"error", `spec failing "a send to a full channel that fails"
topology ring(2)
var x: 0..1 = 0
var y: 0..2 = 0
message B
channels capacity 1 overflow error
process 0 {
  init: send B to succ
  action s: x == 0 -> x := 1, send B to succ
}
process 1 {
  action r: recv B from pred, y < 2 -> y := y + 1
}
invariant never "process 1 never receives": y[1] == 0
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := lang.Parse(tc.name+".ring", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			sys, err := f.Build(nil)
			if err != nil {
				t.Fatal(err)
			}
			all, _ := explorePOR(t, sys, nil, 1)
			red, _ := explorePOR(t, sys, &explore.PartialOrder{Invariants: true}, 1)
			if !porSameKeys(all.visible, red.visible) {
				t.Errorf("%d valuations of what the invariant reads, %d with the reduction", len(all.visible), len(red.visible))
			}
			if !porSameKeys(all.deadlocks, red.deadlocks) {
				t.Errorf("%d deadlocks, %d with the reduction", len(all.deadlocks), len(red.deadlocks))
			}
			if all.faulty != red.faulty {
				t.Errorf("a faulty step: %v, with the reduction %v", all.faulty, red.faulty)
			}
		})
	}
}

// TestPartialOrderDeadlockNoProviso: a search for deadlocks alone
// applies no cycle proviso. Process 0 cycles through y = 0, 1 for ever
// and process 1's step is independent of it; the set of process 0's
// steps is stubborn in every state, so the reduced search stores the
// two states of the cycle and never takes process 1's step (a deadlock
// would need it to stop), where the proviso would expand the state that
// closes the cycle in full. Keeping invariants, the proviso holds and
// the search stores all four states.
func TestPartialOrderDeadlockNoProviso(t *testing.T) {
	const src = `spec cycle "an invisible cycle beside an independent step"
topology ring(2)
var x: 0..1 = 0
var y: 0..1 = 0
process 0 {
  action up: y == 0 -> y := 1
  action down: y == 1 -> y := 0
}
process 1 {
  action set: x == 0 -> x := 1
}
invariant unset "process 1 never sets x": x[1] == 0
`
	f, err := lang.Parse("cycle.ring", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	sys, err := f.Build(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		invariants bool
		want       int64
	}{{false, 2}, {true, 4}} {
		for _, workers := range []int{1, 2} {
			if _, got := explorePOR(t, sys, &explore.PartialOrder{Invariants: tc.invariants}, workers); got != tc.want {
				t.Errorf("invariants %v, %d workers: %d states stored, want %d", tc.invariants, workers, got, tc.want)
			}
		}
	}
}

// TestPartialOrderSpecs runs the full and the reduced search on every
// spec of specs/ring and examples/ at small parameters, and checks that
// the reduction keeps every deadlock, every faulty step and every
// valuation of what the invariants read.
func TestPartialOrderSpecs(t *testing.T) {
	small := map[string]map[string]int{
		"dijkstra.ring":       {"n": 3, "K": 3},
		"kl-naive.ring":       {"n": 3, "L": 2, "K": 2},
		"kl-pusher.ring":      {"n": 3, "L": 2, "K": 2},
		"counterflush.ring":   {"n": 3},
		"kl-ddhl.ring":        {"n": 2, "L": 1, "K": 1},
		"kl-dhv.ring":         {"n": 2, "L": 2, "K": 1},
		"raynal.ring":         {"n": 2, "M": 2, "requests": 2},
		"raynal-and.ring":     {"n": 2},
		"thiare.ring":         {"n": 3, "requests": 2},
		"lejeune.ring":        {"N": 2, "M": 1, "requests": 1},
		"ewd392.ring":         {"n": 3},
		"ewd396.ring":         {"n": 3},
		"herman.ring":         {"n": 3},
		"israeli-jalfon.ring": {"N": 3},
		"three-state.ring":    {"n": 3},
	}
	paths, _ := filepath.Glob("../specs/ring/*.ring")
	examples, _ := filepath.Glob("../examples/*.ring")
	for _, path := range append(paths, examples...) {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			f, err := lang.Read(path)
			if err != nil {
				t.Fatal(err)
			}
			params, ok := small[name]
			if !ok {
				t.Fatalf("no small parameters for %s", name)
			}
			sys, err := f.Build(params)
			if err != nil {
				t.Fatal(err)
			}
			full, reduced := comparePOR(t, name, sys)
			if full == 0 {
				t.Skipf("more than %d states", porMaxStates)
			}
			t.Logf("%d states, %d with the reduction", full, reduced)
		})
	}
}

// TestStubbornSteps pins the steps partial-order reduction expands an
// initial configuration by.
func TestStubbornSteps(t *testing.T) {
	const head = "spec s \"stubborn\"\ntopology ring(3)\nvar x: 0..1 = 0\nvar y: 0..1 = 0\n"
	for _, tc := range []struct {
		name, body string
		invariants bool
		want       string
	}{
		// Independent local steps: one process's.
		{"local", "process all {\n  action a: x == 0 -> x := 1\n}\n", false, "p0:a"},
		// Visible steps: every one.
		{"visible", "process all {\n  action a: x == 0 -> x := 1\n}\n", true, "p0:a p1:a p2:a"},
		// y is invisible: process 0's step on y.
		{"invisible", "process all {\n  action a: x == 0 -> x := 1\n}\nprocess 0 {\n  action b: y == 0 -> y := 1\n}\n", true, "p0:b"},
		// A process that reads its predecessor depends on it: the
		// smallest set is the first process whose successor does not
		// read what it writes.
		{"reads pred", "process all {\n  action a: x == 0 -> x := 1\n}\nprocess 1 {\n  action b: x[pred] == 0 -> y := 1\n}\n", false, "p1:a"},
		// A disabled action (b) whose false conjunct only another
		// process's action (d) can make true: the set of a brings d too,
		// and the set of d, with b, holds d alone.
		{"enabling", "process 0 {\n  action a: y == 0 -> y := 1\n  action b: x[pred] == 1 -> y := 0\n}\nprocess 2 {\n  action d: x == 0 -> x := 1\n}\n", false, "p2:d"},
		// A disabled action (b) with two false conjuncts: the writers
		// of y == 1 (process 0's own) add nothing to the set of a,
		// those of x[pred] == 1 would add d.
		{"fewest", "process 0 {\n  action a: y == 0 -> y := 1\n  action b: x[pred] == 1 && y == 1 -> y := 0\n}\nprocess 2 {\n  action d: x == 0 -> x := 1\n}\n", false, "p0:a"},
		// Blocking channels: the send and the receive commute.
		{"block", "message M\nchannels capacity 2 overflow block\nprocess 0 {\n  init: send M to succ\n  action s: x == 0 -> x := 1, send M to succ\n}\nprocess 1 {\n  action r: recv M from pred -> y := 1 - y\n}\n", false, "p0:s"},
		// Drop: a send that fills the channel conflicts with its
		// receive.
		{"drop", "message M\nchannels capacity 2 overflow drop\nprocess 0 {\n  init: send M to succ\n  action s: x == 0 -> x := 1, send M to succ\n}\nprocess 1 {\n  action r: recv M from pred -> y := 1 - y\n}\n", false, "p0:s p1:r"},
		// Drop and error: a send that finds room, the only send on the
		// channel, does not bring the receive.
		{"drop room", "message M\nchannels capacity 3 overflow drop\nprocess 0 {\n  init: send M to succ\n  action s: x == 0 -> x := 1, send M to succ\n}\nprocess 1 {\n  action r: recv M from pred -> y := 1 - y\n}\n", false, "p0:s"},
		{"error room", "message M\nchannels capacity 3 overflow error\nprocess 0 {\n  init: send M to succ\n  action s: x == 0 -> x := 1, send M to succ\n}\nprocess 1 {\n  action r: recv M from pred -> y := 1 - y\n}\n", false, "p0:s"},
		// Two sends that fill the channel: the receive stays.
		{"drop two sends", "message M\nchannels capacity 3 overflow drop\nprocess 0 {\n  init: send M to succ\n  action s: x == 0 -> x := 1, send M to succ, send M to succ\n}\nprocess 1 {\n  action r: recv M from pred -> y := 1 - y\n}\n", false, "p0:s p1:r"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := head + tc.body + "invariant i \"x\": forall p: x[p] == 0 || x[p] == 1\n"
			f, err := lang.Parse("s.ring", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			sys, err := f.Build(nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := explore.StubbornSteps(sys, sys.Initial()[0], &explore.PartialOrder{Invariants: tc.invariants})
			if err != nil {
				t.Fatal(err)
			}
			if g := strings.Join(got, " "); g != tc.want {
				t.Errorf("steps %q, want %q", g, tc.want)
			}
		})
	}
}

// TestPartialOrderIdle: a reduction that has reduced no state after
// explore.PartialOrderTrial states stops at the end of that level, at
// the same state for any number of workers; one that reduces goes on.
func TestPartialOrderIdle(t *testing.T) {
	for _, tc := range []struct {
		file   string
		params map[string]int
		idle   bool
	}{
		{"kl-ddhl.ring", map[string]int{"n": 3, "L": 1, "K": 1}, true},
		{"thiare.ring", map[string]int{"n": 4, "requests": 2}, false},
	} {
		f, err := lang.Read("../specs/ring/" + tc.file)
		if err != nil {
			t.Fatal(err)
		}
		sys, err := f.Build(tc.params)
		if err != nil {
			t.Fatal(err)
		}
		var idle []int64
		for _, w := range []int{1, 2} {
			o := &porObserver{sys: sys, visible: map[string]bool{}, deadlocks: map[string]bool{}}
			res, err := explore.BFS(context.Background(), sys, o, explore.Options{PartialOrder: &explore.PartialOrder{}, Workers: w})
			if err != nil {
				t.Fatal(err)
			}
			idle = append(idle, res.PartialOrderIdle)
		}
		if idle[0] != idle[1] {
			t.Errorf("%s: the reduction stopped after %d states with one worker, %d with two", tc.file, idle[0], idle[1])
		}
		if got := idle[0] >= explore.PartialOrderTrial; got != tc.idle {
			t.Errorf("%s: the reduction stopped after %d states", tc.file, idle[0])
		}
	}
}
