package lang_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ringcheck/ringcheck/lang"
	"github.com/ringcheck/ringcheck/model"
)

// expansion is what an Expander yields from one configuration: each
// step's label and its successor packed, in order.
func expansion(t *testing.T, sys *model.System, ex *model.Expander, st *model.State) ([]string, error) {
	t.Helper()
	words := make([]uint64, sys.Words())
	var out []string
	_, err := ex.Expand(st, func(step *model.Step, next *model.State) bool {
		sys.Pack(next, words)
		out = append(out, fmt.Sprintf("%s %x %v %q", sys.Label(step), words, step.Overflow, step.RangeFault))
		return true
	})
	return out, err
}

// checkSources walks up to limit configurations of sys reachable from its
// initial ones and checks that its Expander, which passes over an
// alternative whose channel (model.Action.Source) is empty, yields the
// steps and the errors of plain, the same system whose actions have no
// Source, which runs every guard. It returns the actions with a Source.
func checkSources(t *testing.T, name string, sys, plain *model.System, limit int) (sources int) {
	t.Helper()
	for p := range plain.Processes {
		for a := range plain.Processes[p].Actions {
			if sys.Processes[p].Actions[a].Source != nil {
				sources++
			}
			plain.Processes[p].Actions[a].Source = nil
		}
	}
	ex, ref := sys.NewExpander(), plain.NewExpander()
	seen := map[string]bool{}
	var queue [][]uint64
	push := func(st *model.State) {
		ws := make([]uint64, sys.Words())
		sys.Pack(st, ws)
		if k := fmt.Sprint(ws); !seen[k] {
			seen[k] = true
			queue = append(queue, ws)
		}
	}
	for _, st := range sys.Initial() {
		push(st)
	}
	cur := sys.NewState()
	for len(queue) > 0 && len(seen) < limit {
		sys.Unpack(queue[0], cur)
		queue = queue[1:]
		got, err := expansion(t, sys, ex, cur)
		want, wantErr := expansion(t, plain, ref, cur)
		if !slices.Equal(got, want) || fmt.Sprint(err) != fmt.Sprint(wantErr) {
			t.Fatalf("%s: from %v the expansion yields\n%v (error %v)\nand with every guard run\n%v (error %v)", name, cur, got, err, want, wantErr)
		}
		if err != nil {
			return sources
		}
		if _, err := ex.Expand(cur, func(_ *model.Step, next *model.State) bool { push(next); return true }); err != nil {
			t.Fatal(err)
		}
	}
	return sources
}

// chosen receives, at process 0, from the process its choice names; only
// process 2 sends to it.
const chosen = `spec chosen "a receive from the process a choice names"
param n = 3 in 3..3 "processes"
topology complete(n)
var x: 0..3 = 0
message T(v: 0..1)
channels capacity 2 overflow block
process all {
  action s: x < 2 -> send T(1) to succ, x := x + 1
}
process 0 {
  action r(q in 1..2): recv T(v) from q -> x := 3 - q
}
`

// TestSourcesSkipOnlyDisabledSteps checks, on every shipped .ring spec and
// on random systems, that passing over the alternatives whose channel is
// empty without running their guards leaves every expansion as it is.
func TestSourcesSkipOnlyDisabledSteps(t *testing.T) {
	sources := map[string]int{}
	withSources := 0
	check := func(name string, sys *model.System, f *lang.File, random bool) {
		plain, err := f.Build(nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		n := checkSources(t, name, sys, plain, 5000)
		sources[filepath.Base(name)] = n
		if random && n > 0 {
			withSources++
		}
	}
	eachRingSystem(t, 32, check)
	// A receive from the process a choice names: each alternative has a
	// channel of its own.
	f, err := lang.Parse("chosen.ring", []byte(chosen))
	if err != nil {
		t.Fatal(err)
	}
	sys, err := f.Build(nil)
	if err != nil {
		t.Fatal(err)
	}
	check("chosen.ring", sys, f, false)
	// Receives from the predecessor (thiare), from a peer named by a
	// constant (raynal's recvReq(j) for each peer j) and from a choice's
	// peer.
	for _, name := range []string{"thiare.ring", "raynal.ring", "lejeune.ring", "kl-ddhl.ring", "chosen.ring"} {
		if sources[name] == 0 {
			t.Errorf("%s: no action has a Source", name)
		}
	}
	if withSources == 0 {
		t.Fatal("no random system has an action with a Source")
	}
}
