package spectest

import (
	"context"
	"encoding/binary"
	"fmt"
	"sync"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/model"
)

// Abstraction describes, for MatchesAbstraction, a model whose counters
// are kept modulo a bound (the modular model) against a model that keeps
// them as integers and bounds the requests instead (the unbounded one).
type Abstraction struct {
	// Alpha maps a configuration of the unbounded model to the modular
	// model's: its counters taken modulo the bound, its request counts
	// dropped.
	Alpha func(c *model.State) (*model.State, error)
	// Extra reports whether a step of the modular model from Alpha(c) is
	// one the unbounded model does not have: a request its bound forbids.
	Extra func(c *model.State, st *model.Step) bool
	// Spread and ModSpread are the spreads of the live counter values in
	// a configuration of each model; Window is the largest the modular
	// model represents.
	Spread, ModSpread func(s *model.State) int
	Window            int
	// Widening also requires that no step of the unbounded model widens
	// the spread by more than one.
	Widening bool
	// Wraps reports whether a configuration of the unbounded model holds
	// a counter of at least the bound.
	Wraps func(c *model.State) bool
}

// MatchesAbstraction checks the modular model mod against the unbounded
// model unb on every configuration c that unb reaches: the spread of c is
// at most a.Window and ModSpread(Alpha(c)) equals it; the steps of mod
// from Alpha(c), less those a.Extra reports, are those of unb from c, with
// the same process, action and alternative, the same fault, and the same
// successor up to Alpha; with a.Widening, no step widens the spread by
// more than one; and some c wraps, so that the modulo is exercised. It
// returns the number of configurations compared.
func MatchesAbstraction(t testing.TB, unb, mod *model.System, a Abstraction) int {
	t.Helper()
	// The configurations are visited by the search's goroutines: the
	// first mismatch is recorded and stops the search.
	var mu sync.Mutex
	var failure string
	fail := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		if failure == "" {
			failure = fmt.Sprintf(format, args...)
		}
	}
	// key is a step's label, whether it is faulty, and its successor
	// packed in mod's layout.
	key := func(words []uint64, st *model.Step, next *model.State) string {
		mod.Pack(next, words)
		b := fmt.Appendf(nil, "p%d %s faulty=%v ", st.Moves[0].Proc, unb.Label(st), st.Faulty())
		for _, w := range words {
			b = binary.LittleEndian.AppendUint64(b, w)
		}
		return string(b)
	}
	compared, wrapped := 0, false
	visit := func(c *model.State) {
		wraps := a.Wraps(c)
		mu.Lock()
		compared++
		wrapped = wrapped || wraps
		mu.Unlock()
		words := make([]uint64, mod.Words())
		image, err := a.Alpha(c)
		if err != nil {
			fail("%v", err)
			return
		}
		sp := a.Spread(c)
		if sp > a.Window || a.ModSpread(image) != sp {
			fail("spread %d unbounded, %d modular; want equal and at most %d", sp, a.ModSpread(image), a.Window)
			return
		}
		want := map[string]int{}
		if _, err := unb.NewExpander().Expand(c, func(st *model.Step, next *model.State) bool {
			if a.Widening {
				if sn := a.Spread(next); sn > sp+1 {
					fail("step %s widens the spread from %d to %d", unb.Label(st), sp, sn)
				}
			}
			succ, err := a.Alpha(next)
			if err != nil {
				fail("%v", err)
				return false
			}
			want[key(words, st, succ)]++
			return true
		}); err != nil {
			fail("%v", err)
			return
		}
		got := map[string]int{}
		if _, err := mod.NewExpander().Expand(image, func(st *model.Step, next *model.State) bool {
			if !a.Extra(c, st) {
				got[key(words, st, next)]++
			}
			return true
		}); err != nil {
			fail("%v", err)
			return
		}
		if len(got) != len(want) {
			fail("%d steps unbounded, %d modular", len(want), len(got))
			return
		}
		for s, n := range want {
			if got[s] != n {
				fail("step %q: %d unbounded, %d modular", s, n, got[s])
				return
			}
		}
	}
	res, err := explore.BFS(context.Background(), unb, &visitor{visit: visit, stop: func() bool {
		mu.Lock()
		defer mu.Unlock()
		return failure != ""
	}}, explore.Options{Workers: Workers})
	if err != nil {
		t.Fatal(err)
	}
	if failure != "" {
		t.Fatal(failure)
	}
	if !res.Complete() {
		t.Fatalf("search stopped: %v", res.Stop)
	}
	if !wrapped {
		t.Error("no counter reaches the bound: the modulo is not exercised")
	}
	return compared
}

// visitor is an explore.Monitor calling visit on every visited state,
// until stop says so.
type visitor struct {
	visit func(s *model.State)
	stop  func() bool
}

func (m *visitor) Observe(v *explore.Visit) { m.visit(v.State) }

func (m *visitor) Decided() bool { return m.stop() }

// CopyChannels pushes every message of every channel of c, a
// configuration of unb, into a, a configuration of mod, in order: the same
// type, and its fields as mapFields leaves them (it may change them in
// place to their modular values). It fails when a channel of a overflows.
func CopyChannels(unb, mod *model.System, c, a *model.State, mapFields func(typ model.MsgType, fields []int)) error {
	for ch := range unb.Channels {
		id := model.ChanID(ch)
		for i := 0; i < c.Len(id); i++ {
			msg := c.At(id, i)
			typ := unb.TypeOf(msg)
			fields := make([]int, len(unb.Messages[typ].Fields))
			for f := range fields {
				fields[f] = unb.Field(msg, f)
			}
			mapFields(typ, fields)
			if !a.Push(id, mod.Msg(typ, fields...)) {
				return fmt.Errorf("channel %d overflows in the modular model", ch)
			}
		}
	}
	return nil
}
