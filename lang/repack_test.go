package lang_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ringcheck/ringcheck/lang"
	"github.com/ringcheck/ringcheck/model"
)

// checkRepack walks up to limit configurations of sys reachable from its
// initial ones, and checks that every successor the Expander yields is
// its step applied alone (the Expander undoes a move in its action's
// Delta only), and that every successor reached by one move, repacked
// from its parent's packed form in the fields of the move's action
// (model.System.DeltaOf), is the successor packed whole.
func checkRepack(t *testing.T, name string, sys *model.System, limit int) (checked int) {
	t.Helper()
	words := sys.Words()
	ex := sys.NewExpander()
	seen := map[string]bool{}
	key := func(ws []uint64) string { return fmt.Sprint(ws) }
	var queue [][]uint64
	for _, st := range sys.Initial() {
		ws := make([]uint64, words)
		sys.Pack(st, ws)
		if !seen[key(ws)] {
			seen[key(ws)] = true
			queue = append(queue, ws)
		}
	}
	cur, applied := sys.NewState(), sys.NewState()
	ref := sys.NewExpander()
	whole, repacked, want := make([]uint64, words), make([]uint64, words), make([]uint64, words)
	for len(queue) > 0 && len(seen) < limit {
		parent := queue[0]
		queue = queue[1:]
		sys.Unpack(parent, cur)
		_, err := ex.Expand(cur, func(step *model.Step, next *model.State) bool {
			sys.Pack(next, whole)
			// The Expander undoes each move in its Delta's fields before
			// the next: the successor must be the step applied alone.
			if err := ref.Apply(cur, step, applied); err != nil {
				t.Errorf("%s: step %s: %v", name, sys.Label(step), err)
				return false
			}
			if sys.Pack(applied, want); !slices.Equal(whole, want) {
				t.Errorf("%s: step %s from %v: expanded %x, applied alone %x", name, sys.Label(step), cur, whole, want)
				return false
			}
			if len(step.Moves) == 1 {
				if d := sys.DeltaOf(int(step.Moves[0].Proc), int(step.Moves[0].Action)); d != nil {
					copy(repacked, parent)
					sys.Repack(next, repacked, d)
					if !slices.Equal(repacked, whole) {
						t.Errorf("%s: step %s from %v: repacked %x, packed whole %x", name, sys.Label(step), cur, repacked, whole)
						return false
					}
					checked++
				}
			}
			if k := key(whole); !seen[k] {
				seen[k] = true
				queue = append(queue, slices.Clone(whole))
			}
			return true
		})
		if err != nil {
			return checked
		}
	}
	return checked
}

// TestRepackMatchesPack checks what the Deltas of actions save on every
// shipped .ring spec and on random systems: the Expander's undoing of a
// move in its Delta's fields, and the search's repacking of a successor
// (explore.BFS repacks the fields its action may change in its parent's
// packed form rather than pack it whole). A field missing from an
// action's Delta shows as a difference.
func TestRepackMatchesPack(t *testing.T) {
	checked := 0
	eachRingSystem(t, 31, func(name string, sys *model.System, f *lang.File, random bool) {
		if random {
			checked += checkRepack(t, name, sys, 5000)
		} else if checkRepack(t, name, sys, 20000) == 0 {
			t.Errorf("%s: no step was repacked", name)
		}
	})
	if checked == 0 {
		t.Fatal("no step of a random system was repacked")
	}
}

// eachRingSystem calls check on every shipped .ring spec (specs/ring and
// examples), then on the random systems of 200 draws from seed (40 under
// -short) that build, named "system i", each built (sys) from its file
// f at its default parameters; it stops at the first random system after
// which the test has failed, and prints its source.
func eachRingSystem(t *testing.T, seed uint64, check func(name string, sys *model.System, f *lang.File, random bool)) {
	t.Helper()
	files, _ := filepath.Glob("../specs/ring/*.ring")
	more, _ := filepath.Glob("../examples/*.ring")
	files = append(files, more...)
	if len(files) < 10 {
		t.Fatalf("found %d .ring files", len(files))
	}
	build := func(name string, src []byte) (*model.System, *lang.File, error) {
		f, err := lang.Parse(name, src)
		if err != nil {
			t.Fatalf("%s does not parse: %v\n%s", name, err, src)
		}
		sys, err := f.Build(nil)
		return sys, f, err
	}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		sys, f, err := build(file, src)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		check(file, sys, f, false)
	}
	count := 200
	if testing.Short() {
		count = 40
	}
	r := rand.New(rand.NewPCG(seed, 1))
	for i := range count {
		src := randomRing(r)
		name := fmt.Sprintf("system %d", i)
		if sys, f, err := build(name, []byte(src)); err == nil {
			check(name, sys, f, true)
		}
		if t.Failed() {
			t.Fatalf("system %d:\n%s", i, src)
		}
	}
}
