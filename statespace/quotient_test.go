package statespace_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/ringcheck/ringcheck/budget"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/statespace"
)

// tokenRing is a unidirectional ring of n processes declared symmetric
// under rotation: each has a bit x it may flip, and passes on the tokens
// it receives from its predecessor, one channel of capacity 1 per link.
func tokenRing(t *testing.T, n int) *model.System {
	t.Helper()
	b := model.NewBuilder("tokens", model.UniRing, n)
	x := b.Var("x", model.IntRange(0, 1))
	tok := b.Message("Tok")
	b.LinkChannels(1, model.Block, tok)
	b.Action(model.Action{Name: "pass", Choices: 1,
		Guard: func(c *model.Ctx) bool { return c.HeadIs(c.In(c.Pred()), tok) },
		Effect: func(c *model.Ctx, _ int) {
			c.Receive(c.In(c.Pred()))
			c.SendFields(c.Out(c.Succ()), tok)
		}})
	b.Action(model.Action{Name: "flip", Choices: 1,
		Guard:  func(c *model.Ctx) bool { return c.Get(x) == 0 },
		Effect: func(c *model.Ctx, _ int) { c.Set(x, 1) }})
	b.Initial(func(*model.System, *model.State) {})
	b.Symmetry(false)
	sys, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// TestQuotientIndexesOrbits: the quotient has one vertex per orbit (the
// distinct canonical forms), ID and Rank are inverse on the
// representatives, the orbits partition the space, and each
// configuration's orbit is the one of its canonical form.
func TestQuotientIndexesOrbits(t *testing.T) {
	for _, n := range []int{2, 3, 4} {
		sys := tokenRing(t, n)
		sp, err := statespace.NewSpace(sys)
		if err != nil {
			t.Fatal(err)
		}
		q, err := statespace.NewQuotient(context.Background(), sp, 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		cz, err := sys.NewCanonizer()
		if err != nil {
			t.Fatal(err)
		}
		forms := map[string]bool{}
		st, img := sys.NewState(), sys.NewState()
		w := make([]uint64, sys.Words())
		for r := range sp.Size() {
			if err := sys.Unrank(r, st); err != nil {
				t.Fatal(err)
			}
			cz.Pack(st, w)
			forms[fmt.Sprint(w)] = true
		}
		if q.Size() != uint64(len(forms)) {
			t.Fatalf("n=%d: %d orbits, want %d", n, q.Size(), len(forms))
		}
		walker := q.NewQuotientWalker()
		seen := make([]bool, sp.Size())
		total := 0
		for d := range uint32(q.Size()) {
			if q.ID(q.Rank(d)) != d {
				t.Fatalf("n=%d: ID(Rank(%d)) = %d", n, d, q.ID(q.Rank(d)))
			}
			members, err := q.Orbit(d, nil)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := walker.Load(d)
			if err != nil {
				t.Fatal(err)
			}
			if size := walker.OrbitSize(rep); size != len(members) {
				t.Errorf("n=%d orbit %d: OrbitSize %d, %d members", n, d, size, len(members))
			}
			for _, r := range members {
				if seen[r] {
					t.Fatalf("n=%d: configuration %d in two orbits", n, r)
				}
				seen[r] = true
				if err := sys.Unrank(uint64(r), img); err != nil {
					t.Fatal(err)
				}
				if got := walker.OrbitOf(img); got != d {
					t.Errorf("n=%d: configuration %d of orbit %d is put in orbit %d", n, r, d, got)
				}
			}
			total += len(members)
		}
		if uint64(total) != sp.Size() {
			t.Errorf("n=%d: the orbits hold %d configurations of %d", n, total, sp.Size())
		}
	}
}

// TestQuotientTraceLiftsCycles: a token passed round the ring is a step
// from an orbit to itself in the quotient; its lift goes round the ring,
// n steps through n distinct configurations, back to the start. A path
// of orbits lifts to a path through configurations of those orbits.
func TestQuotientTraceLiftsCycles(t *testing.T) {
	for _, n := range []int{2, 3, 5} {
		sys := tokenRing(t, n)
		sp, err := statespace.NewSpace(sys)
		if err != nil {
			t.Fatal(err)
		}
		q, err := statespace.NewQuotient(context.Background(), sp, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		// The orbit of one token, every x set: only the token moves.
		st := sys.NewState()
		var one uint32
		found := false
		for r := range sp.Size() {
			if err := sys.Unrank(r, st); err != nil {
				t.Fatal(err)
			}
			tokens, set := 0, 0
			for _, l := range st.Lens {
				tokens += int(l)
			}
			for _, v := range st.Vars {
				set += int(v)
			}
			if tokens == 1 && set == n {
				one, found = q.NewQuotientWalker().OrbitOf(st), true
				break
			}
		}
		if !found {
			t.Fatalf("n=%d: no configuration with one token", n)
		}
		states, steps, err := q.Trace([]uint32{one}, true)
		if err != nil {
			t.Fatal(err)
		}
		if len(states) != n || len(steps) != n {
			t.Fatalf("n=%d: the lift has %d states and %d steps, want %d", n, len(states), len(steps), n)
		}
		for i := range states {
			for j := range i {
				if states[i].Equal(states[j]) {
					t.Errorf("n=%d: the lift passes twice through one configuration", n)
				}
			}
		}
		if _, err := sys.StepsThrough(states, true); err != nil {
			t.Errorf("n=%d: the lift is not a cycle: %v", n, err)
		}
		path, _, err := q.Trace([]uint32{one, one, one}, false)
		if err != nil || len(path) != 3 {
			t.Fatalf("n=%d: a path of 3 orbits lifts to %d states (%v)", n, len(path), err)
		}
	}
}

// TestQuotientBudget: the budget's refusal stops the quotient's sweep.
func TestQuotientBudget(t *testing.T) {
	sp, err := statespace.NewSpace(tokenRing(t, 3))
	if err != nil {
		t.Fatal(err)
	}
	var ex *budget.Exceeded
	if _, err := statespace.NewQuotient(context.Background(), sp, 1, budget.New(1)); !errors.As(err, &ex) {
		t.Fatalf("error %v, want the budget's refusal", err)
	}
}
