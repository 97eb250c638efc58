package model_test

import (
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/ringcheck/ringcheck/model"
)

// symmetric builds a ring of n processes, every one with the same
// variables, and channels that all carry both message types, declared
// symmetric under rotation (and reflection on a bidirectional ring).
func symmetric(t interface{ Fatal(...any) }, kind model.TopologyKind, n, capacity int, reflection bool) (*model.System, model.MsgType, model.MsgType) {
	b := model.NewBuilder("sym", kind, n)
	b.Var("x", model.IntRange(-2, 3))
	b.Var("mode", model.Enum("Out", "Request", "In"))
	tok := b.Message("Tok")
	seq := b.Message("Seq", model.Var{Name: "c", Domain: model.IntRange(0, 4)}, model.Var{Name: "b", Domain: model.Bool()})
	for _, l := range b.Links() {
		b.Channel(model.Channel{From: l[0], To: l[1], Capacity: capacity, Overflow: model.Drop, Types: []model.MsgType{tok, seq}})
	}
	b.Action(model.Action{Name: "noop", Guard: func(*model.Ctx) bool { return false }, Effect: func(*model.Ctx, int) {}})
	b.Initial(func(*model.System, *model.State) {})
	b.Symmetry(reflection)
	sys, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return sys, tok, seq
}

func drawSymmetric(t *rapid.T) (*model.System, *model.State) {
	kind := model.UniRing
	refl := false
	if rapid.Bool().Draw(t, "biring") {
		kind, refl = model.BiRing, rapid.Bool().Draw(t, "reflection")
	}
	sys, tok, seq := symmetric(t, kind, rapid.IntRange(2, 5).Draw(t, "n"), rapid.IntRange(1, 2).Draw(t, "cap"), refl)
	return sys, drawState(t, sys, tok, seq)
}

// TestCanonicalIsOrbitInvariant: every image of a configuration has the
// configuration's canonical form, which is the least packed image and
// the image under the element Pack returns.
func TestCanonicalIsOrbitInvariant(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sys, st := drawSymmetric(t)
		cz, err := sys.NewCanonizer()
		if err != nil {
			t.Fatal(err)
		}
		w := sys.Words()
		want := make([]uint64, w)
		g0 := cz.Pack(st, want)
		img, got, packed := sys.NewState(), make([]uint64, w), make([]uint64, w)
		sys.Permute(g0, st, img)
		sys.Pack(img, packed)
		if !slices.Equal(packed, want) {
			t.Fatalf("the image under %d is not the canonical form", g0)
		}
		for g := range sys.GroupSize() {
			sys.Permute(g, st, img)
			if err := sys.Validate(img); err != nil {
				t.Fatalf("image under %d: %v", g, err)
			}
			sys.Pack(img, packed)
			if lessWords(packed, want) {
				t.Fatalf("the image under %d is less than the canonical form", g)
			}
			cz.Pack(img, got)
			if !slices.Equal(got, want) {
				t.Fatalf("the image under %d of\n%v\nhas canonical form\n%v\nnot\n%v", g, sys.Decode(st), unpack(sys, got), unpack(sys, want))
			}
		}
		c := st.Clone()
		cz.Canonical(c)
		sys.Pack(c, packed)
		if !slices.Equal(packed, want) {
			t.Fatal("Canonical does not give the canonical form")
		}
	})
}

func lessWords(a, b []uint64) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

func unpack(sys *model.System, w []uint64) model.Snapshot {
	st := sys.NewState()
	sys.Unpack(w, st)
	return sys.Decode(st)
}

// TestPermuteRotatesVariablesAndChannels: rotation by one moves process
// p's variables to p+1 and the channel p→q to p+1→q+1; the reflection
// p → -p moves the channel p→p+1 to -p→-p-1.
func TestPermuteRotatesVariablesAndChannels(t *testing.T) {
	const n = 4
	sys, tok, seq := symmetric(t, model.BiRing, n, 2, true)
	x, _ := sys.VarByName("x")
	st := sys.NewState()
	for p := range n {
		st.Set(p, x, p-2)
		st.Push(sys.ChanBetween(p, (p+1)%n), sys.Msg(seq, p, 0))
	}
	st.Push(sys.ChanBetween(0, n-1), sys.Msg(tok))
	img := sys.NewState()
	sys.Permute(1, st, img) // rotation by one
	for p := range n {
		if got := img.Get((p+1)%n, x); got != p-2 {
			t.Errorf("rotated: process %d has x = %d, want %d", (p+1)%n, got, p-2)
		}
		c := sys.ChanBetween((p+1)%n, (p+2)%n)
		if img.Len(c) != 1 || sys.Field(img.At(c, 0), 0) != p {
			t.Errorf("rotated: channel %d→%d does not hold Seq(%d)", (p+1)%n, (p+2)%n, p)
		}
	}
	if c := sys.ChanBetween(1, 0); img.Len(c) != 1 || sys.TypeOf(img.At(c, 0)) != tok {
		t.Errorf("rotated: channel 1→0 does not hold Tok")
	}
	sys.Permute(n, st, img) // the reflection p → -p
	for p := range n {
		if got := img.Get((n-p)%n, x); got != p-2 {
			t.Errorf("reflected: process %d has x = %d, want %d", (n-p)%n, got, p-2)
		}
		c := sys.ChanBetween((n-p)%n, (2*n-p-1)%n)
		if img.Len(c) != 1 || sys.Field(img.At(c, 0), 0) != p {
			t.Errorf("reflected: channel %d→%d does not hold Seq(%d)", (n-p)%n, (2*n-p-1)%n, p)
		}
	}
	if g := sys.GroupSize(); g != 2*n {
		t.Errorf("group of %d elements, want %d", g, 2*n)
	}
}

// TestSymmetryBuildErrors: Build refuses a symmetry that does not map the
// system to itself.
func TestSymmetryBuildErrors(t *testing.T) {
	build := func(kind model.TopologyKind, refl bool, f func(b *model.Builder)) error {
		b := model.NewBuilder("asym", kind, 3)
		b.Var("x", model.IntRange(0, 1))
		f(b)
		b.Action(model.Action{Name: "noop", Guard: func(*model.Ctx) bool { return false }, Effect: func(*model.Ctx, int) {}})
		b.Initial(func(*model.System, *model.State) {})
		b.Symmetry(refl)
		_, err := b.Build()
		return err
	}
	for _, c := range []struct {
		name string
		kind model.TopologyKind
		refl bool
		f    func(b *model.Builder)
		want string
	}{
		{"a variable of process 0 only", model.UniRing, false, func(b *model.Builder) { b.Var("root", model.Bool(), 0) }, "process 0 declares root and process 1 does not"},
		{"reflection on a unidirectional ring", model.UniRing, true, func(*model.Builder) {}, "reflection needs a bidirectional ring"},
		{"a line", model.Line, false, func(*model.Builder) {}, "not a ring"},
		{"a missing channel", model.UniRing, false, func(b *model.Builder) {
			m := b.Message("M")
			b.Channel(model.Channel{From: 0, To: 1, Capacity: 1, Types: []model.MsgType{m}})
		}, "there is a channel from 0 to 1 and none from 1 to 2"},
		{"channels of different capacities", model.UniRing, false, func(b *model.Builder) {
			m := b.Message("M")
			for _, l := range b.Links() {
				b.Channel(model.Channel{From: l[0], To: l[1], Capacity: 1 + l[0]/2, Types: []model.MsgType{m}})
			}
		}, "the channels 1→2 and 2→0 differ"},
	} {
		err := build(c.kind, c.refl, c.f)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
	}
}

// BenchmarkCanonicalPack measures the canonical form of a configuration
// of a ring of 8 with messages in its channels (16 images).
func BenchmarkCanonicalPack(b *testing.B) {
	sys, _, seq := symmetric(b, model.BiRing, 8, 2, true)
	x, _ := sys.VarByName("x")
	st := sys.NewState()
	for p := range 8 {
		st.Set(p, x, p%3)
		st.Push(sys.ChanBetween(p, (p+1)%8), sys.Msg(seq, p%5, p%2))
	}
	cz, err := sys.NewCanonizer()
	if err != nil {
		b.Fatal(err)
	}
	dst := make([]uint64, sys.Words())
	b.ReportAllocs()
	for b.Loop() {
		cz.Pack(st, dst)
	}
}

// TestInverseUndoesEveryElement: the inverse of every element maps every
// configuration back, and PermuteStep maps process p's move to process
// g(p)'s.
func TestInverseUndoesEveryElement(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sys, st := drawSymmetric(t)
		img, back := sys.NewState(), sys.NewState()
		for g := range sys.GroupSize() {
			sys.Permute(g, st, img)
			sys.Permute(sys.Inverse(g), img, back)
			if !back.Equal(st) {
				t.Fatalf("the inverse of %d is not %d", g, sys.Inverse(g))
			}
			step := model.Step{Moves: []model.Move{{Proc: 0, Action: 0}, {Proc: 1, Action: 0}}}
			ps := sys.PermuteStep(g, &step)
			want := []int{sys.ProcessImage(g, 0), sys.ProcessImage(g, 1)}
			slices.Sort(want)
			if int(ps.Moves[0].Proc) != want[0] || int(ps.Moves[1].Proc) != want[1] {
				t.Fatalf("PermuteStep(%d) gives %v, want processes %v", g, ps.Moves, want)
			}
		}
	})
}
