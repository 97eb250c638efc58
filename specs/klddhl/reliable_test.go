package klddhl_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
)

// TestReliableStartsAreTheLossyOnes: each reliable-*.json start file
// starts at the first configuration of the lossy (or blocking)
// counterexample of the same name, under the parameters of reliable links
// with the same counter domain (Cmax=32, counters=10), so that the
// regression manifest checks convergence from the very configurations
// where the bounded links fail. (Each is a shortest path from there to L
// on reliable links, a witness of stabilization that 'ringcheck trace'
// replays.)
func TestReliableStartsAreTheLossyOnes(t *testing.T) {
	type trace struct {
		Params map[string]int    `json:"params"`
		States []json.RawMessage `json:"states"`
	}
	read := func(path string) trace {
		t.Helper()
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var tr trace
		if err := json.Unmarshal(src, &tr); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if len(tr.States) == 0 {
			t.Fatalf("%s: no state", path)
		}
		return tr
	}
	for _, name := range []string{"no-convergence-n2", "no-convergence-n2-resends", "no-convergence-n2-counter-resends", "dead-n2-block"} {
		lossy, reliable := read("testdata/"+name+".json"), read("testdata/reliable-"+name+".json")
		var a, b any
		if err := json.Unmarshal(lossy.States[0], &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(reliable.States[0], &b); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: the reliable start is not the lossy trace's first configuration", name)
		}
		want := map[string]int{}
		for k, v := range lossy.Params {
			want[k] = v
		}
		want["Cmax"], want["counters"] = 32, 10
		if !reflect.DeepEqual(reliable.Params, want) {
			t.Errorf("%s: parameters %v, want %v", name, reliable.Params, want)
		}
	}
}

// distinctCounters draws count configurations of n=2, L=K=1 on reliable
// links (channels of 32 messages, counters modulo 10) where counter
// flushing has the most to flush: both channels hold the paper's bound of
// L+3 = 4 privileges, and the two processes' counters and the eight
// privileges' counters hold the ten values, each once, in a random order;
// every other variable and field is drawn in its domain.
func distinctCounters(t *testing.T, sys *model.System, v vars, seed uint64, count int) []*model.State {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 0))
	bit := func() int { return rng.IntN(2) }
	starts := make([]*model.State, count)
	for i := range starts {
		values := rng.Perm(v.M)
		s := sys.NewState()
		for p := range 2 {
			s.Set(p, v.Need, rng.IntN(v.K+2))
			s.Set(p, v.Cnt, rng.IntN(v.K+1))
			s.Set(p, v.Prio, bit())
			s.Set(p, v.C, values[p])
		}
		s.Set(0, v.Tok, rng.IntN(v.L+2))
		s.Set(0, v.Pri, rng.IntN(3))
		s.Set(0, v.Push, rng.IntN(3))
		s.Set(0, v.Reset, bit())
		for k, c := range values[2:] {
			if !s.Push(v.Out[k/(v.L+3)], sys.Msg(v.Priv, c, rng.IntN(v.L+2), rng.IntN(3), bit())) {
				t.Fatal("a channel is full")
			}
		}
		if err := sys.Validate(s); err != nil {
			t.Fatal(err)
		}
		starts[i] = s
	}
	return starts
}

// hardest is how many configurations of distinctCounters
// TestReliableConvergesWhereCounterFlushingIsHardest searches from.
var hardest = flag.Int("hardest", 300, "configurations TestReliableConvergesWhereCounterFlushingIsHardest searches from")

// TestReliableConvergesWhereCounterFlushingIsHardest: from each of 300
// configurations of distinctCounters (seed 1; -hardest N for more), every
// execution on reliable links reaches L, under no fairness (so under every
// fairness), and no send finds a channel full. Evidence for the paper's
// claim on its own links, not a proof: convergence stays unknown.
func TestReliableConvergesWhereCounterFlushingIsHardest(t *testing.T) {
	sys, v := buildP(t, params(t, "n", 2, "L", 1, "K", 1, "Cmax", 32, "counters", 10, "staycs", 0), model.Error)
	if v.M != 10 {
		t.Fatalf("counters modulo %d, want 10", v.M)
	}
	starts := distinctCounters(t, sys, v, 1, *hardest)
	rep, err := invariants.Check(context.Background(), sys, invariants.Options{
		Properties: []invariants.Property{invariants.Convergence},
		From:       invariants.FromGiven, Start: starts, Search: explore.Options{Workers: 2},
	})
	if err != nil {
		t.Fatal(err)
	}
	o := rep.Outcomes[0]
	t.Logf("convergence %s (%s), %d states", o.Verdict, o.Reason, rep.Search.States)
	if want := fmt.Sprintf("every execution from the %d given configurations reaches L (fairness none", *hardest); o.Verdict != invariants.Unknown || !strings.HasPrefix(o.Reason, want) {
		t.Fatalf("convergence %s (%s), want every execution to reach L", o.Verdict, o.Reason)
	}
	if *hardest == 300 && rep.Search.States != 205396 {
		t.Errorf("%d states reachable from the 300 configurations, want 205396", rep.Search.States)
	}
}
