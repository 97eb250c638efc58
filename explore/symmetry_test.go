package explore_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"pgregory.net/rapid"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/model"
)

// symSystem is a random system invariant under rotation (and, with
// reflection, under reflection): every process runs the same actions,
// which read the process's x and its neighbours' only relatively, and
// pass tokens carrying a bit to a neighbour.
type symSystem struct {
	sys  *model.System
	x    model.VarID
	tok  model.MsgType
	n, k int // the invariant: at most k processes have x == 0
}

func drawSymSystem(t *rapid.T) *symSystem {
	n := rapid.IntRange(2, 5).Draw(t, "n")
	m := rapid.IntRange(2, 3).Draw(t, "m")
	kind := model.UniRing
	refl := false
	if rapid.Bool().Draw(t, "biring") {
		kind, refl = model.BiRing, rapid.Bool().Draw(t, "reflection")
	}
	chans := rapid.Bool().Draw(t, "channels")
	// move[x][xp][xs]: the new x, or -1 where the action is disabled; on
	// a unidirectional ring xs is not read (always 0).
	ms := 1
	if kind == model.BiRing {
		ms = m
	}
	move := make([][][]int, m)
	for x := range m {
		move[x] = make([][]int, m)
		for xp := range m {
			move[x][xp] = make([]int, ms)
			for xs := range ms {
				if refl && xs < xp {
					move[x][xp][xs] = move[x][xs][xp]
					continue
				}
				move[x][xp][xs] = rapid.IntRange(-1, m-1).Draw(t, "move")
			}
		}
	}
	send := rapid.IntRange(-1, m-1).Draw(t, "send") // x that sends a token (-1: none)
	add := rapid.IntRange(0, m-1).Draw(t, "add")
	initX := make([]int, n)
	for p := range initX {
		initX[p] = rapid.IntRange(0, m-1).Draw(t, "init")
	}
	b := model.NewBuilder("random", kind, n)
	x := b.Var("x", model.IntRange(0, m-1))
	var tok model.MsgType
	if chans {
		tok = b.Message("Tok", model.Var{Name: "c", Domain: model.IntRange(0, 1)})
		b.LinkChannels(1, model.Block, tok)
	}
	b.Action(model.Action{Name: "move", Choices: 1,
		Guard: func(c *model.Ctx) bool {
			xs := 0
			if ms > 1 {
				xs = c.Read(c.Succ(), x)
			}
			return move[c.Get(x)][c.Read(c.Pred(), x)][xs] >= 0
		},
		Effect: func(c *model.Ctx, _ int) {
			xs := 0
			if ms > 1 {
				xs = c.Read(c.Succ(), x)
			}
			c.Set(x, move[c.Get(x)][c.Read(c.Pred(), x)][xs])
		}})
	if chans && send >= 0 {
		dirs := []func(c *model.Ctx) int{(*model.Ctx).Succ}
		if refl {
			dirs = append(dirs, (*model.Ctx).Pred)
		}
		for i, to := range dirs {
			b.Action(model.Action{Name: fmt.Sprintf("send%d", i), Choices: 1,
				Guard: func(c *model.Ctx) bool { return c.Get(x) == send },
				Effect: func(c *model.Ctx, _ int) {
					c.SendFields(c.Out(to(c)), tok, c.Get(x)%2)
					c.Set(x, (c.Get(x)+1)%m)
				}})
			from := (*model.Ctx).Pred
			if i == 1 {
				from = (*model.Ctx).Succ
			}
			b.Action(model.Action{Name: fmt.Sprintf("recv%d", i), Choices: 1,
				Guard: func(c *model.Ctx) bool { return c.HeadIs(c.In(from(c)), tok) },
				Effect: func(c *model.Ctx, _ int) {
					msg := c.Receive(c.In(from(c)))
					c.Set(x, (c.Get(x)+c.Field(msg, 0)+add)%m)
				}})
		}
	}
	b.Initial(func(_ *model.System, s *model.State) {
		for p, v := range initX {
			s.Set(p, x, v)
		}
	})
	b.Symmetry(refl)
	sys, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return &symSystem{sys: sys, x: x, tok: tok, n: n, k: rapid.IntRange(0, n).Draw(t, "k")}
}

// bad is the invariant's violation: more than k processes have x == 0.
func (s *symSystem) bad(st *model.State) bool {
	zeros := 0
	for p := range s.n {
		if st.Get(p, s.x) == 0 {
			zeros++
		}
	}
	return zeros > s.k
}

// symRecorder records every state visited, packed, with its depth and
// whether it violates the invariant or deadlocks.
type symRecorder struct {
	mu       sync.Mutex
	sys      *model.System
	bad      func(*model.State) bool
	states   map[string]int // packed state → depth
	firstBad explore.StateID
	badDepth int
	deadlock bool
}

func newSymRecorder(s *symSystem) *symRecorder {
	return &symRecorder{sys: s.sys, bad: s.bad, states: map[string]int{}, firstBad: -1, badDepth: -1}
}

func (r *symRecorder) Observe(v *explore.Visit) {
	w := make([]uint64, r.sys.Words())
	r.sys.Pack(v.State, w)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.states[fmt.Sprint(w)] = v.Depth
	if r.bad(v.State) && (r.firstBad < 0 || v.ID < r.firstBad) {
		r.firstBad, r.badDepth = v.ID, v.Depth
	}
	if v.Successors == 0 {
		r.deadlock = true
	}
}

func (r *symRecorder) Decided() bool { return false }

// TestSymmetryReducedMatchesUnreduced: on random symmetric systems, BFS
// with symmetry reduction visits exactly the canonical forms of the
// states the unreduced search visits, at the same depths, finds the
// same verdicts (the invariant, deadlock) at the same depth, and its
// counterexample is a concrete path of the unreduced system.
func TestSymmetryReducedMatchesUnreduced(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := drawSymSystem(t)
		sys := s.sys
		workers := rapid.IntRange(1, 2).Draw(t, "workers")
		fp := rapid.Bool().Draw(t, "fingerprints")
		full := newSymRecorder(s)
		resFull, err := explore.BFS(context.Background(), sys, full, explore.Options{Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		red := newSymRecorder(s)
		res, err := explore.BFS(context.Background(), sys, red, explore.Options{Workers: workers, Symmetry: true, Fingerprints: fp})
		if err != nil {
			t.Fatal(err)
		}
		if !resFull.Complete() || !res.Complete() || !res.Symmetry {
			t.Fatalf("incomplete: %v %v", resFull.Stop, res.Stop)
		}
		// The canonical forms of the unreduced search's states.
		cz, err := sys.NewCanonizer()
		if err != nil {
			t.Fatal(err)
		}
		orbits := map[string]int{}
		st := sys.NewState()
		for k, d := range full.states {
			var w []uint64
			for _, f := range strings.Fields(strings.Trim(k, "[]")) {
				var u uint64
				fmt.Sscan(f, &u)
				w = append(w, u)
			}
			sys.Unpack(w, st)
			cz.Pack(st, w)
			key := fmt.Sprint(w)
			if od, ok := orbits[key]; !ok || d < od {
				orbits[key] = d
			}
		}
		if int64(len(orbits)) != res.States || len(red.states) != len(orbits) {
			t.Fatalf("%d orbits among %d states, the reduced search stored %d and visited %d", len(orbits), resFull.States, res.States, len(red.states))
		}
		for k, d := range red.states {
			if od, ok := orbits[k]; !ok || od != d {
				t.Fatalf("the reduced search visited %s at depth %d, the orbit's least depth is %d (%v)", k, d, od, ok)
			}
		}
		if (full.firstBad < 0) != (red.firstBad < 0) || full.badDepth != red.badDepth || full.deadlock != red.deadlock {
			t.Fatalf("verdicts differ: unreduced violation at depth %d, deadlock %v; reduced at depth %d, deadlock %v", full.badDepth, full.deadlock, red.badDepth, red.deadlock)
		}
		if red.firstBad < 0 {
			return
		}
		states, steps, err := res.Path(red.firstBad)
		if err != nil {
			t.Fatal(err)
		}
		if len(steps) != red.badDepth || !s.bad(states[len(states)-1]) {
			t.Fatalf("the path to the violation has %d steps (want %d) and ends in a violation: %v", len(steps), red.badDepth, s.bad(states[len(states)-1]))
		}
		if !slices.ContainsFunc(sys.Initial(), states[0].Equal) {
			t.Fatal("the path does not start from an initial configuration")
		}
		ex, next := sys.NewExpander(), sys.NewState()
		for i := range steps {
			if err := ex.Apply(states[i], &steps[i], next); err != nil || !next.Equal(states[i+1]) {
				t.Fatalf("step %d of the path does not replay: %v", i, err)
			}
		}
	})
}

// TestSymmetryNeedsADeclaredGroup: BFS with Options.Symmetry refuses a
// system that declares no symmetry.
func TestSymmetryNeedsADeclaredGroup(t *testing.T) {
	b := model.NewBuilder("plain", model.UniRing, 3)
	b.Var("x", model.IntRange(0, 1))
	b.Action(model.Action{Name: "noop", Guard: func(*model.Ctx) bool { return false }, Effect: func(*model.Ctx, int) {}})
	b.Initial(func(*model.System, *model.State) {})
	sys, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	_, err = explore.BFS(context.Background(), sys, newSymRecorder(&symSystem{sys: sys, n: 3, k: 3}), explore.Options{Symmetry: true})
	if err == nil || !strings.Contains(err.Error(), "declares no symmetry") {
		t.Fatalf("error %v, want one saying the system declares no symmetry", err)
	}
}

// TestSymmetryGraphRefused: a search with symmetry reduction has no
// state graph (its graph is the quotient's).
func TestSymmetryGraphRefused(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := drawSymSystem(t)
		res, err := explore.BFS(context.Background(), s.sys, newSymRecorder(s), explore.Options{Symmetry: true})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := res.Graph(); err == nil {
			t.Fatal("Graph of a reduced search")
		}
	})
}
