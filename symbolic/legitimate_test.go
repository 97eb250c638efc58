package symbolic_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/ringcheck/ringcheck/budget"
	"github.com/ringcheck/ringcheck/internal/klddhlenum"
	"github.com/ringcheck/ringcheck/lang"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/symbolic"
)

// keyOf packs st into a map key.
func keyOf(sys *model.System, st *model.State) string {
	words := make([]uint64, sys.Words())
	sys.Pack(st, words)
	return fmt.Sprint(words)
}

// enumerated runs the enumerator derived from the file's legitimacy
// predicate on its system, and returns the configurations it yields by
// key, failing on one yielded twice or one the explicit predicate rejects.
func enumerated(t *testing.T, sys *model.System) map[string]bool {
	t.Helper()
	if sys.DeriveLegitimateConfigurations == nil {
		t.Fatalf("spec %s: the file's system derives no enumerator of L", sys.Name)
	}
	enum, err := sys.DeriveLegitimateConfigurations(context.Background(), sys, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	enum(sys, func(st *model.State) bool {
		k := keyOf(sys, st)
		if got[k] {
			t.Fatalf("spec %s: configuration %v yielded twice", sys.Name, sys.Decode(st))
		}
		if !sys.Legitimate.Holds(st) {
			t.Fatalf("spec %s: configuration %v yielded, outside L", sys.Name, sys.Decode(st))
		}
		got[k] = true
		return true
	})
	return got
}

// TestLegitimateEnumerationIsL compares the enumeration of L derived from a
// file's legitimacy predicate with a sweep of every configuration of small
// instances: the same configurations, each once.
func TestLegitimateEnumerationIsL(t *testing.T) {
	cases := []struct {
		file   string
		values map[string]int
	}{
		{"../specs/ring/dijkstra.ring", map[string]int{"n": 4, "K": 4}},
		{"../specs/ring/dijkstra.ring", map[string]int{"n": 3, "K": 5}},
		{"../specs/ring/counterflush.ring", map[string]int{"n": 2, "Cmax": 1}},
		{"../specs/ring/counterflush.ring", map[string]int{"n": 3, "Cmax": 1}},
		{"../examples/israeli-jalfon.ring", nil},
		{"../examples/three-state.ring", map[string]int{"n": 5}},
		{"../examples/herman.ring", map[string]int{"n": 5}},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s %v", filepath.Base(c.file), c.values), func(t *testing.T) {
			f, err := lang.Read(c.file)
			if err != nil {
				t.Fatal(err)
			}
			sys, err := f.Build(c.values)
			if err != nil {
				t.Fatal(err)
			}
			enumerationIsL(t, sys)
		})
	}
}

// TestLegitimateEnumerationMatchesHandWritten checks that the enumeration
// derived from kl-ddhl.ring's legitimacy predicate yields exactly the
// distinct configurations a hand-written enumerator of L yields (each of
// which the checker finds legitimate): both are then every configuration
// of L, on an instance of 10^24 configurations, too many to sweep. The
// hand-written enumerator is internal/klddhlenum's. (kl-dhv's
// hand-written enumerator is test code of specs/kldhv,
// whose TestEnumeratedLegitimateConfigurations compares it with the
// derived one.)
func TestLegitimateEnumerationMatchesHandWritten(t *testing.T) {
	cases := []struct {
		file    string
		n, l, k int
	}{
		{"../specs/ring/kl-ddhl.ring", 2, 1, 1},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s n=%d L=%d K=%d", filepath.Base(c.file), c.n, c.l, c.k), func(t *testing.T) {
			f, err := lang.Read(c.file)
			if err != nil {
				t.Fatal(err)
			}
			sys, err := f.Build(map[string]int{"n": c.n, "L": c.l, "K": c.k})
			if err != nil {
				t.Fatal(err)
			}
			handles, err := klddhlenum.Find(sys, c.l, c.k)
			if err != nil {
				t.Fatal(err)
			}
			hand := map[string]bool{}
			handles.Enumerate(sys, func(st *model.State) bool {
				if !sys.Legitimate.Holds(st) {
					t.Fatalf("the hand-written enumerator yields %v, outside L", sys.Decode(st))
				}
				hand[keyOf(sys, st)] = true
				return true
			})
			got := enumerated(t, sys)
			for k := range got {
				if !hand[k] {
					t.Fatalf("the file's L enumerates a configuration the hand-written enumerator misses")
				}
			}
			if len(got) != len(hand) {
				t.Fatalf("the file's L enumerates %d configurations, the hand-written enumerator %d", len(got), len(hand))
			}
			t.Logf("%d legitimate configurations", len(got))
		})
	}
}

// TestLegitimateEnumerationBounds checks that a bound stops the encoding of
// L with a *Stopped error that wraps the bound's, and that a predicate the
// engine cannot encode is refused with ErrUnsupported.
func TestLegitimateEnumerationBounds(t *testing.T) {
	f, err := lang.Read("../specs/ring/kl-ddhl.ring")
	if err != nil {
		t.Fatal(err)
	}
	inst, err := f.Instance(map[string]int{"n": 3, "L": 2, "K": 2})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var st *symbolic.Stopped
	if _, err := symbolic.EncodeLegitimate(ctx, inst, nil); !errors.As(err, &st) || !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled encoding of L: %v, want a *Stopped wrapping context.Canceled", err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := symbolic.EncodeLegitimate(ctx, inst, nil); !errors.As(err, &st) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("an encoding of L past its deadline: %v, want a *Stopped wrapping context.DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("the encoding of L took %v to stop at a deadline of 200ms", d)
	}
	var ex *budget.Exceeded
	if _, err := symbolic.EncodeLegitimate(context.Background(), inst, budget.New(1<<20)); !errors.As(err, &st) || !errors.As(err, &ex) {
		t.Errorf("an encoding of L over a 1 MiB budget: %v, want a *Stopped wrapping a *budget.Exceeded", err)
	}

	src := `spec guarded "L divides where the divisor may be 0"
param n = 3 in 2..4 "processes"
topology ring(n)
var x: 0..3 = 0
var y: 0..3 = 0
process all {
  action A: x != x[pred] -> x := x[pred]
}
legitimate "guarded division": forall p: y[p] == 0 || x[p] / y[p] == 1
`
	g, err := lang.Parse("guarded.ring", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	ginst, err := g.Instance(nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := symbolic.EncodeLegitimate(context.Background(), ginst, nil); !errors.Is(err, symbolic.ErrUnsupported) {
		t.Errorf("an L with a division that may be by 0: %v, want ErrUnsupported", err)
	}
}

// enumerationIsL fails t unless the enumeration derived from sys's
// legitimacy predicate yields exactly the configurations of a full sweep
// in which it holds (and the closure from predicate, if sys has one); the
// instance must be small enough to sweep and that set neither empty nor
// everything.
func enumerationIsL(t *testing.T, sys *model.System) {
	t.Helper()
	size, ok := sys.Configurations()
	if !ok || size > 1<<20 {
		t.Fatalf("%d configurations: too many to sweep in a test", size)
	}
	want := map[string]bool{}
	st := sys.NewState()
	for r := range size {
		if err := sys.Unrank(r, st); err != nil {
			t.Fatal(err)
		}
		if sys.Legitimate.Holds(st) && (sys.ClosureFrom == nil || sys.ClosureFrom.Holds(st)) {
			want[keyOf(sys, st)] = true
		}
	}
	if len(want) == 0 || uint64(len(want)) == size {
		t.Fatalf("L holds in %d of %d configurations: the instance tells nothing", len(want), size)
	}
	got := enumerated(t, sys)
	for k := range want {
		if !got[k] {
			t.Fatalf("the enumeration misses a legitimate configuration (it yields %d of %d)", len(got), len(want))
		}
	}
	if len(got) != len(want) {
		t.Fatalf("the enumeration yields %d configurations, L holds in %d", len(got), len(want))
	}
}

// TestClosureFromEnumeration checks that the enumeration closure uses
// yields the legitimate configurations where the closure from predicate
// holds, and only those (a full sweep of a small instance compared).
func TestClosureFromEnumeration(t *testing.T) {
	src := `spec narrowed
topology ring(3)
var x: 0..2
var y: 0..1
process all {
  action up: x == 0 -> x := 1
}
legitimate: forall p: x[p] <= 1
closure from: forall p: y[p] == 0 || x[p] == 0
`
	f, err := lang.Parse("narrowed.ring", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	sys, err := f.Build(nil)
	if err != nil {
		t.Fatal(err)
	}
	// L holds in (2·2)^3 = 64 configurations, closure is decided from
	// 3^3 = 27 of them.
	if got := len(enumerated(t, sys)); got != 27 {
		t.Fatalf("the enumeration yields %d configurations, want the 27 of L where closure from holds", got)
	}
	enumerationIsL(t, sys)
}
