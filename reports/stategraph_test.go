package reports

import (
	"bytes"
	"context"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/statespace"
)

// dijkstraSpace is the full configuration space of Dijkstra's ring with
// n processes and K states under daemon d, with the options that mark its
// initial and legitimate configurations.
func dijkstraSpace(t testing.TB, n, k int, d model.Daemon) (*statespace.Space, StateGraphOptions) {
	t.Helper()
	sys, err := DijkstraFixture(n, k)
	if err != nil {
		t.Fatal(err)
	}
	if sys, err = sys.WithDaemon(d); err != nil {
		t.Fatal(err)
	}
	sp, err := statespace.NewSpace(sys)
	if err != nil {
		t.Fatal(err)
	}
	initial := map[uint32]bool{}
	for _, st := range sys.Initial() {
		initial[uint32(sys.Rank(st))] = true
	}
	return sp, StateGraphOptions{
		Title:      "dijkstra n=" + strconv.Itoa(n) + " K=" + strconv.Itoa(k),
		Initial:    func(v uint32) bool { return initial[v] },
		Legitimate: sys.Legitimate.Holds,
	}
}

func TestStateGraphDOTGolden(t *testing.T) {
	sp, opts := dijkstraSpace(t, 4, 2, model.Central)
	var first []byte
	for range 3 {
		var buf bytes.Buffer
		if err := WriteStateGraphDOT(&buf, sp, opts); err != nil {
			t.Fatal(err)
		}
		if first != nil && !bytes.Equal(first, buf.Bytes()) {
			t.Fatal("two drawings of the same graph differ")
		}
		first = buf.Bytes()
	}
	golden(t, "stategraph_dijkstra.dot.golden", first)
}

// red returns the vertices a drawing marks as lying on a cycle outside L.
func red(dot []byte) []uint32 {
	var vs []uint32
	for _, m := range regexp.MustCompile(`(?m)^\t"s(\d+)" \[[^\n]*color="red"`).FindAllSubmatch(dot, -1) {
		v, _ := strconv.Atoi(string(m[1]))
		vs = append(vs, uint32(v))
	}
	slices.Sort(vs)
	return vs
}

// onCyclesOutside computes with statespace.Components what the drawing
// marks: the vertices outside L in a strongly connected component, of the
// subgraph outside L, that has a cycle.
func onCyclesOutside(t *testing.T, sp *statespace.Space, legit func(*model.State) bool) []uint32 {
	t.Helper()
	c := sp.NewCursor()
	outside := func(v uint32) bool {
		st, err := c.Load(v)
		if err != nil {
			t.Fatal(err)
		}
		return !legit(st)
	}
	keep := statespace.NewBits(sp.Size())
	for v := range uint32(sp.Size()) {
		if outside(v) {
			keep.Set(v)
		}
	}
	succ := func(v uint32, dst []uint32) ([]uint32, error) {
		st, err := c.Load(v)
		if err != nil {
			return dst, err
		}
		_, err = c.Successors(st, func(_ *model.Step, to uint32, _ *model.State) {
			if keep.Has(to) {
				dst = append(dst, to)
			}
		})
		return dst, err
	}
	var vs []uint32
	err := sp.Components(context.Background(), keep.Has, succ, func(members, succs []uint32) error {
		if len(members) > 1 || slices.Contains(succs, members[0]) {
			vs = append(vs, members...)
		}
		return nil
	}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(vs)
	return vs
}

// TestStateGraphCyclesAgreeWithComponents checks the library's strongly
// connected components, which the drawing marks, against ringcheck's own
// (statespace.Components), on spaces with and without cycles outside L.
func TestStateGraphCyclesAgreeWithComponents(t *testing.T) {
	for _, tc := range []struct {
		n, k   int
		daemon model.Daemon
		cyclic bool
	}{
		{4, 2, model.Central, true},
		{4, 3, model.Central, false},
		{5, 3, model.Central, true},
		{5, 4, model.Central, false},
		{4, 3, model.Distributed, true},
		{4, 4, model.Distributed, false},
		{3, 2, model.Synchronous, true},
	} {
		sp, opts := dijkstraSpace(t, tc.n, tc.k, tc.daemon)
		var buf bytes.Buffer
		if err := WriteStateGraphDOT(&buf, sp, opts); err != nil {
			t.Fatal(err)
		}
		got, want := red(buf.Bytes()), onCyclesOutside(t, sp, opts.Legitimate)
		if !slices.Equal(got, want) {
			t.Errorf("n=%d K=%d %v: drawn on cycles outside L %v, Components finds %v", tc.n, tc.k, tc.daemon, got, want)
		}
		if (len(want) > 0) != tc.cyclic {
			t.Errorf("n=%d K=%d %v: %d vertices on cycles outside L, want cyclic=%v", tc.n, tc.k, tc.daemon, len(want), tc.cyclic)
		}
	}
}

func TestStateGraphRefusesALargeGraph(t *testing.T) {
	sp, opts := dijkstraSpace(t, 4, 3, model.Central)
	opts.Limit = 80
	err := WriteStateGraphDOT(&bytes.Buffer{}, sp, opts)
	if err == nil || err.Error() != "the state graph has 81 states, more than the 80 drawn" {
		t.Fatalf("got %v", err)
	}
}

func TestStateGraphRendersWithGraphviz(t *testing.T) {
	dot := graphviz(t)
	sp, opts := dijkstraSpace(t, 4, 2, model.Central)
	opts.Title = `a "quoted" \ title`
	var buf bytes.Buffer
	if err := WriteStateGraphDOT(&buf, sp, opts); err != nil {
		t.Fatal(err)
	}
	renderSVG(t, dot, "the state graph", &buf)
}

// BenchmarkWriteStateGraphDOT draws the 729 configurations of Dijkstra's
// ring with n=6, K=3 (2,916 edges under the central daemon), reporting the
// cost per state drawn.
func BenchmarkWriteStateGraphDOT(b *testing.B) {
	sp, opts := dijkstraSpace(b, 6, 3, model.Central)
	b.ReportAllocs()
	for b.Loop() {
		if err := WriteStateGraphDOT(&bytes.Buffer{}, sp, opts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(sp.Size()), "ns/state")
}
