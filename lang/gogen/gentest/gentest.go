// Package gentest compares a system built with the Go lang/gogen
// generates against the closures' system of the same instance, for the
// tests of the generator and of the generated packages.
package gentest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/model"
)

// SameSteps compares the initial configurations, expansions and
// predicates of two systems of one instance, csys the closures' and gsys
// the generated code's, on the
// first bfs configurations a breadth-first search of csys from init
// reaches and on random ones (channels holding up to 2 messages): the
// same successors with the same labels, overflows and range faults, the
// same error of the expansion, the same values of the invariants, the
// legitimacy, valid_end, start and closure from predicates and the
// process predicates, and the same predicate fault. It
// returns the errors the expansions met, each once.
func SameSteps(t testing.TB, csys, gsys *model.System, bfs, random int) []string {
	t.Helper()
	var errs []string
	cexp, gexp := csys.NewExpander(), gsys.NewExpander()
	// expand lists st's steps, each successor packed (decoded, to say
	// what differs, with decode).
	expand := func(sys *model.System, exp *model.Expander, st *model.State, decode bool) ([]string, []*model.State, string) {
		var out []string
		var next []*model.State
		words := make([]uint64, sys.Words())
		_, err := exp.Expand(st, func(s *model.Step, nx *model.State) bool {
			step := fmt.Sprintf("%v %s %v %s -> ", s.Procs(), sys.Label(s), s.Overflow, s.RangeFault)
			if decode {
				step += fmt.Sprint(sys.Decode(nx))
			} else {
				sys.Pack(nx, words)
				b := []byte(step)
				for _, w := range words {
					b = strconv.AppendUint(append(b, ' '), w, 16)
				}
				step = string(b)
			}
			out = append(out, step)
			next = append(next, nx.Clone())
			return true
		})
		e := ""
		if err != nil {
			e = err.Error()
		}
		return out, next, e
	}
	preds := func(sys *model.System, st *model.State) string {
		var b strings.Builder
		for _, inv := range sys.Invariants {
			fmt.Fprintf(&b, "%s=%v ", inv.Name, inv.Holds(st))
		}
		if sys.Legitimate != nil {
			fmt.Fprintf(&b, "L=%v ", sys.Legitimate.Holds(st))
		}
		if sys.ValidEnd != nil {
			fmt.Fprintf(&b, "end=%v ", sys.ValidEnd.Holds(st))
		}
		if sys.Start != nil {
			fmt.Fprintf(&b, "start=%v ", sys.Start.Holds(st))
		}
		if sys.ClosureFrom != nil {
			fmt.Fprintf(&b, "from=%v ", sys.ClosureFrom.Holds(st))
		}
		for _, pp := range sys.ProcessPredicates {
			for p := range sys.N() {
				fmt.Fprintf(&b, "%s(%d)=%v ", pp.Name, p, pp.Holds(st, p))
			}
		}
		if sys.PredicateFault != nil {
			if err := sys.PredicateFault(); err != nil {
				fmt.Fprintf(&b, "fault=%v", err)
			}
		}
		return b.String()
	}
	compare := func(what string, st *model.State) []*model.State {
		words := make([]uint64, csys.Words())
		csys.Pack(st, words)
		gst := gsys.NewState()
		gsys.Unpack(words, gst)
		c, next, cerr := expand(csys, cexp, st, false)
		g, _, gerr := expand(gsys, gexp, gst, false)
		slices.Sort(c)
		slices.Sort(g)
		if cerr != "" && !slices.Contains(errs, cerr) {
			errs = append(errs, cerr)
		}
		if cerr != gerr || !slices.Equal(c, g) {
			c, _, _ = expand(csys, cexp, st, true)
			g, _, _ = expand(gsys, gexp, gst, true)
			t.Fatalf("%s %v:\n closures  %q %s\n generated %q %s", what, csys.Decode(st), c, cerr, g, gerr)
		}
		if cp, gp := preds(csys, st), preds(gsys, gst); cp != gp {
			t.Fatalf("%s %v: predicates\n closures  %s\n generated %s", what, csys.Decode(st), cp, gp)
		}
		return next
	}
	seen := map[string]bool{}
	key := func(st *model.State) string {
		words := make([]uint64, csys.Words())
		csys.Pack(st, words)
		return fmt.Sprint(words)
	}
	// The same initial configurations (an init predicate's are those
	// where it holds).
	var ci, gi []string
	for _, st := range csys.Initial() {
		ci = append(ci, fmt.Sprint(csys.Decode(st)))
	}
	for _, st := range gsys.Initial() {
		gi = append(gi, fmt.Sprint(gsys.Decode(st)))
	}
	if !slices.Equal(ci, gi) {
		t.Fatalf("initial configurations:\n closures  %q\n generated %q", ci, gi)
	}
	queue := csys.Initial()
	for _, st := range queue {
		seen[key(st)] = true
	}
	for n := 0; n < len(queue) && n < bfs; n++ {
		for _, nx := range compare("reached", queue[n]) {
			if k := key(nx); !seen[k] {
				seen[k] = true
				queue = append(queue, nx)
			}
		}
	}
	rng := rand.New(rand.NewPCG(27, 3))
	st := csys.NewState()
	for range random {
		csys.RandomConfigurationUpTo(rng, st, 2)
		compare("random", st)
	}
	t.Logf("%d reached and %d random configurations compared", min(len(queue), bfs), random)
	return errs
}
