package model_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"pgregory.net/rapid"

	"github.com/ringcheck/ringcheck/model"
)

// mixed builds a system with every kind of declaration the encoding must
// handle: integer and enumerated variables, a process-local variable,
// message types with and without fields, channels restricted to some types.
func mixed(t interface{ Fatal(...any) }, n, capacity int) (*model.System, model.MsgType, model.MsgType) {
	b := model.NewBuilder("mixed", model.BiRing, n)
	b.Var("x", model.IntRange(-2, 3))
	b.Var("mode", model.Enum("Out", "Request", "In"))
	b.Var("root", model.IntRange(0, 6), 0)
	tok := b.Message("Tok")
	seq := b.Message("Seq", model.Var{Name: "c", Domain: model.IntRange(0, 4)}, model.Var{Name: "b", Domain: model.Bool()})
	for _, l := range b.Links() {
		types := []model.MsgType{tok, seq}
		if l[1] == 0 {
			types = []model.MsgType{seq}
		}
		b.Channel(model.Channel{From: l[0], To: l[1], Capacity: capacity, Overflow: model.Drop, Types: types})
	}
	b.Action(model.Action{Name: "noop", Guard: func(*model.Ctx) bool { return false }, Effect: func(*model.Ctx, int) {}})
	b.Initial(func(*model.System, *model.State) {})
	sys, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return sys, tok, seq
}

// drawState draws an arbitrary configuration of sys.
func drawState(t *rapid.T, sys *model.System, tok, seq model.MsgType) *model.State {
	st := sys.NewState()
	for p := 0; p < sys.N(); p++ {
		for _, v := range sys.Processes[p].Vars {
			d := sys.Vars[v].Domain
			st.Set(p, v, rapid.IntRange(d.Min, d.Max).Draw(t, "var"))
		}
	}
	for c, ch := range sys.Channels {
		n := rapid.IntRange(0, ch.Capacity).Draw(t, "len")
		for range n {
			var m model.Msg
			if ch.To != 0 && rapid.Bool().Draw(t, "tok") {
				m = sys.Msg(tok)
			} else {
				m = sys.Msg(seq, rapid.IntRange(0, 4).Draw(t, "c"), rapid.IntRange(0, 1).Draw(t, "b"))
			}
			st.Push(model.ChanID(c), m)
		}
	}
	return st
}

func TestPackUnpackRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sys, tok, seq := mixed(t, rapid.IntRange(2, 4).Draw(t, "n"), rapid.IntRange(1, 3).Draw(t, "cap"))
		st := drawState(t, sys, tok, seq)
		if err := sys.Validate(st); err != nil {
			t.Fatalf("drawn state is invalid: %v", err)
		}
		packed := make([]uint64, sys.Words())
		sys.Pack(st, packed)
		back := sys.NewState()
		sys.Unpack(packed, back)
		if !back.Equal(st) {
			t.Fatalf("unpack(pack(s)) != s:\n%v\n%v", sys.Decode(st), sys.Decode(back))
		}
		again := make([]uint64, sys.Words())
		sys.Pack(back, again)
		for i := range packed {
			if packed[i] != again[i] {
				t.Fatal("pack is not canonical")
			}
		}
		if _, ok := sys.Configurations(); !ok {
			return // ranks only exist for spaces that fit in 63 bits
		}
		r := sys.Rank(st)
		un := sys.NewState()
		if err := sys.Unrank(r, un); err != nil {
			t.Fatal(err)
		}
		if !un.Equal(st) {
			t.Fatalf("unrank(rank(s)) != s")
		}
	})
}

func TestPackDistinguishesStates(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sys, tok, seq := mixed(t, 3, 2)
		a, b := drawState(t, sys, tok, seq), drawState(t, sys, tok, seq)
		pa, pb := make([]uint64, sys.Words()), make([]uint64, sys.Words())
		sys.Pack(a, pa)
		sys.Pack(b, pb)
		same := true
		for i := range pa {
			same = same && pa[i] == pb[i]
		}
		if same != a.Equal(b) {
			t.Fatalf("packed equality %v, state equality %v", same, a.Equal(b))
		}
	})
}

// TestRankEnumeratesTheSpace walks every rank with NextRank and checks
// that it agrees with Unrank, that every configuration is valid and that
// the count is the product of the domains and channel contents.
func TestRankEnumeratesTheSpace(t *testing.T) {
	sys, _, _ := mixed(t, 2, 1)
	total, ok := sys.Configurations()
	if !ok {
		t.Fatal("space too large")
	}
	// Per process: x 6 values, mode 3; root 7 at process 0. Channel 0→1
	// carries Tok and Seq (1+10 = 11 letters), 1→0 only Seq (10 letters):
	// with capacity 1, contents 1+11 = 12 and 1+10 = 11.
	want := uint64(6*3*7) * uint64(6*3) * 12 * 11
	if total != want {
		t.Fatalf("Configurations() = %d, want %d", total, want)
	}
	st, un := sys.NewState(), sys.NewState()
	for r := uint64(0); r < total; r++ {
		if err := sys.Validate(st); err != nil {
			t.Fatalf("rank %d: %v", r, err)
		}
		if got := sys.Rank(st); got != r {
			t.Fatalf("Rank of the %d-th configuration is %d", r, got)
		}
		if r%997 == 0 {
			if err := sys.Unrank(r, un); err != nil || !un.Equal(st) {
				t.Fatalf("Unrank(%d) disagrees with NextRank (%v)", r, err)
			}
		}
		more := sys.NextRank(st)
		if more != (r+1 < total) {
			t.Fatalf("NextRank at %d of %d reported %v", r, total, more)
		}
	}
}

func TestDomain(t *testing.T) {
	tests := []struct {
		d    model.Domain
		size int
		show string
	}{
		{model.IntRange(0, 4), 5, "0..4"},
		{model.IntRange(-1, 1), 3, "-1..1"},
		{model.Enum("Out", "Request", "In"), 3, "{Out,Request,In}"},
		{model.Bool(), 2, "{false,true}"},
	}
	for _, tt := range tests {
		if tt.d.Size() != tt.size || tt.d.String() != tt.show {
			t.Errorf("%v: size %d string %q, want %d %q", tt.d, tt.d.Size(), tt.d.String(), tt.size, tt.show)
		}
		for v := tt.d.Min; v <= tt.d.Max; v++ {
			back, err := tt.d.Parse(tt.d.Format(v))
			if err != nil || back != v {
				t.Errorf("%v: Parse(Format(%d)) = %d, %v", tt.d, v, back, err)
			}
		}
		if _, err := tt.d.Parse("99"); err == nil {
			t.Errorf("%v: Parse(99) accepted a value outside the domain", tt.d)
		}
	}
}

func TestTopologyLinks(t *testing.T) {
	tests := []struct {
		kind  model.TopologyKind
		n     int
		links int
	}{
		{model.UniRing, 5, 5},
		{model.BiRing, 5, 10},
		{model.BiRing, 2, 2},
		{model.Complete, 4, 12},
	}
	for _, tt := range tests {
		top := model.Topology{Kind: tt.kind, N: tt.n}
		if got := len(top.Links()); got != tt.links {
			t.Errorf("%v n=%d: %d links, want %d", tt.kind, tt.n, got, tt.links)
		}
	}
	uni := model.Topology{Kind: model.UniRing, N: 4}
	if !uni.Linked(3, 0) || uni.Linked(0, 3) {
		t.Error("unidirectional ring: want 3→0 linked and 0→3 not")
	}
}

func TestBuildRejects(t *testing.T) {
	tests := []struct {
		name  string
		build func(b *model.Builder)
	}{
		{"channel without link", func(b *model.Builder) {
			b.Channel(model.Channel{From: 1, To: 0, Capacity: 1})
		}},
		{"zero capacity", func(b *model.Builder) {
			b.Channel(model.Channel{From: 0, To: 1, Capacity: 0})
		}},
		{"empty domain", func(b *model.Builder) { b.Var("v", model.IntRange(3, 1)) }},
		{"distributed daemon with channels", func(b *model.Builder) {
			b.Message("M")
			b.LinkChannels(1, model.Block)
			b.Daemon(model.Distributed)
		}},
		{"action without guard", func(b *model.Builder) { b.Action(model.Action{Name: "a"}) }},
		{"initial state out of domain", func(b *model.Builder) {
			v := b.Var("v", model.IntRange(0, 1))
			b.Initial(func(_ *model.System, s *model.State) { s.Set(0, v, 5) })
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := model.NewBuilder("bad", model.UniRing, 3)
			b.Initial(func(*model.System, *model.State) {})
			tt.build(b)
			if _, err := b.Build(); err == nil {
				t.Fatal("Build accepted it")
			}
		})
	}
}

func TestRankFrom(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sys, tok, seq := mixed(t, rapid.IntRange(2, 3).Draw(t, "n"), 1)
		if _, ok := sys.Configurations(); !ok {
			t.Skip("space too large to rank")
		}
		a, b := drawState(t, sys, tok, seq), drawState(t, sys, tok, seq)
		if got, want := sys.RankFrom(sys.Rank(a), a, b), sys.Rank(b); got != want {
			t.Fatalf("RankFrom = %d, Rank = %d", got, want)
		}
	})
}

// TestRandomConfigurationIsUniform draws configurations of a small space
// and checks that each is valid and every one of them comes up about as
// often as uniformity says (within six standard deviations), and that the
// space's logarithmic size agrees with its exact one.
// tiny is a two-process ring with x in 0..2 and channels of capacity 2
// holding Tok(c), c in 0..1: 3·3 · 7·7 = 441 configurations.
func tiny(t *testing.T) *model.System {
	t.Helper()
	b := model.NewBuilder("tiny", model.UniRing, 2)
	b.Var("x", model.IntRange(0, 2))
	tok := b.Message("Tok", model.Var{Name: "c", Domain: model.IntRange(0, 1)})
	b.LinkChannels(2, model.Drop, tok)
	b.Action(model.Action{Name: "noop", Guard: func(*model.Ctx) bool { return false }, Effect: func(*model.Ctx, int) {}})
	b.Initial(func(*model.System, *model.State) {})
	sys, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

func TestRandomConfigurationIsUniform(t *testing.T) {
	sys := tiny(t)
	total, _ := sys.Configurations() // 3·3 · 7·7 = 441
	if got := math.Pow(10, sys.ConfigurationsLog10()); math.Abs(got-float64(total)) > 1e-6*float64(total) {
		t.Fatalf("10^ConfigurationsLog10 = %v, want %d", got, total)
	}
	const draws = 441 * 400
	seen := make([]int, total)
	rng := rand.New(rand.NewPCG(1, 2))
	st := sys.NewState()
	for range draws {
		sys.RandomConfiguration(rng, st)
		if err := sys.Validate(st); err != nil {
			t.Fatal(err)
		}
		seen[sys.Rank(st)]++
	}
	mean := float64(draws) / float64(total)
	for r, k := range seen {
		if math.Abs(float64(k)-mean) > 6*math.Sqrt(mean) {
			t.Fatalf("configuration %d drawn %d times, expected about %.0f", r, k, mean)
		}
	}
}

// TestRandomConfigurationUpToIsUniformOverItsSubspace: with fill 1 every
// channel holds at most one message, and each configuration with that
// property (3·3 variable values times 3·3 channel contents: empty, Tok(0),
// Tok(1)) is drawn equally often; fill at the capacity is the full space.
func TestRandomConfigurationUpToIsUniformOverItsSubspace(t *testing.T) {
	sys := tiny(t)
	for _, tc := range []struct{ fill, want int }{{-1, 9}, {0, 9}, {1, 81}, {2, 441}, {9, 441}} {
		const perConfig = 400
		draws := tc.want * perConfig
		seen := map[uint64]int{}
		rng := rand.New(rand.NewPCG(3, uint64(tc.fill+10)))
		st := sys.NewState()
		for range draws {
			sys.RandomConfigurationUpTo(rng, st, tc.fill)
			if err := sys.Validate(st); err != nil {
				t.Fatal(err)
			}
			for c := range sys.Channels {
				if st.Len(model.ChanID(c)) > max(tc.fill, 0) {
					t.Fatalf("fill %d: channel %d holds %d messages", tc.fill, c, st.Len(model.ChanID(c)))
				}
			}
			seen[sys.Rank(st)]++
		}
		if len(seen) != tc.want {
			t.Fatalf("fill %d: %d distinct configurations drawn, want %d", tc.fill, len(seen), tc.want)
		}
		for r, k := range seen {
			if math.Abs(float64(k-perConfig)) > 6*math.Sqrt(perConfig) {
				t.Fatalf("fill %d: configuration %d drawn %d times, expected about %d", tc.fill, r, k, perConfig)
			}
		}
	}
}

// TestUnrankEmptyChannels: the configurations with empty channels are the
// 3·3 assignments of tiny's variables, each once, with every channel
// empty, and they are Unrank's first ones; a rank past them is refused.
func TestUnrankEmptyChannels(t *testing.T) {
	sys := tiny(t)
	count, ok := sys.EmptyChannelConfigurations()
	if !ok || count != 9 {
		t.Fatalf("%d configurations with empty channels (ok %v), want 9", count, ok)
	}
	st := sys.NewState()
	seen := map[uint64]bool{}
	for r := range count {
		if err := sys.UnrankEmptyChannels(r, st); err != nil {
			t.Fatal(err)
		}
		if err := sys.Validate(st); err != nil {
			t.Fatal(err)
		}
		for c := range sys.Channels {
			if st.Len(model.ChanID(c)) != 0 {
				t.Fatalf("rank %d: channel %d holds %d messages", r, c, st.Len(model.ChanID(c)))
			}
		}
		if got := sys.Rank(st); got != r {
			t.Fatalf("rank %d unranks to a configuration of rank %d", r, got)
		}
		seen[r] = true
	}
	if len(seen) != 9 {
		t.Fatalf("%d distinct configurations", len(seen))
	}
	if err := sys.UnrankEmptyChannels(count, st); err == nil {
		t.Error("rank 9 accepted")
	}
}

// TestEncodeInvertsDecode: every configuration of a system with an
// enumeration, a message with fields and bounded channels comes back from
// its decoded form; and snapshots that do not fit the system are refused
// with a reason.
func TestEncodeInvertsDecode(t *testing.T) {
	b := model.NewBuilder("tiny", model.UniRing, 2)
	b.Var("mode", model.Enum("idle", "busy"))
	b.Var("x", model.IntRange(-1, 1))
	tok := b.Message("Tok", model.Var{Name: "c", Domain: model.IntRange(0, 2)})
	b.Message("Ack")
	b.LinkChannels(2, model.Drop, tok)
	b.Action(model.Action{Name: "noop", Guard: func(*model.Ctx) bool { return false }, Effect: func(*model.Ctx, int) {}})
	b.Initial(func(*model.System, *model.State) {})
	sys, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	st := sys.NewState()
	for range 500 {
		sys.RandomConfiguration(rng, st)
		got, err := sys.Encode(sys.Decode(st))
		if err != nil {
			t.Fatal(err)
		}
		if !got.Equal(st) {
			t.Fatalf("Encode(Decode(s)) differs from s")
		}
	}
	good := func() model.Snapshot {
		st := sys.NewState()
		st.Push(0, sys.Msg(0, 2))
		return sys.Decode(st)
	}
	for name, spoil := range map[string]func(s *model.Snapshot){
		"a process missing":    func(s *model.Snapshot) { s.Processes = s.Processes[:1] },
		"a process renumbered": func(s *model.Snapshot) { s.Processes[1].ID = 0 },
		"a variable renamed":   func(s *model.Snapshot) { s.Processes[0].Vars[1].Name = "y" },
		"a value outside":      func(s *model.Snapshot) { s.Processes[0].Vars[1].Int = 2 },
		"an unknown label":     func(s *model.Snapshot) { s.Processes[0].Vars[0].Text = "asleep" },
		"an unknown message":   func(s *model.Snapshot) { s.Channels[0].Messages[0].Type = "Nack" },
		"a field missing":      func(s *model.Snapshot) { s.Channels[0].Messages[0].Fields = nil },
		"a field outside":      func(s *model.Snapshot) { s.Channels[0].Messages[0].Fields[0].Int = 3 },
		"a channel reversed":   func(s *model.Snapshot) { s.Channels[0].From, s.Channels[0].To = 1, 0 },
		"a channel overfull": func(s *model.Snapshot) {
			m := s.Channels[0].Messages[0]
			s.Channels[0].Messages = append(s.Channels[0].Messages, m, m)
		},
	} {
		snap := good()
		if _, err := sys.Encode(snap); err != nil {
			t.Fatalf("the unspoiled snapshot: %v", err)
		}
		spoil(&snap)
		if _, err := sys.Encode(snap); err == nil {
			t.Errorf("%s: encoded", name)
		}
	}
}
