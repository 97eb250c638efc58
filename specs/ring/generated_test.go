package ring_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/ringcheck/ringcheck/lang"
	"github.com/ringcheck/ringcheck/lang/compile"
	"github.com/ringcheck/ringcheck/lang/gogen"
	"github.com/ringcheck/ringcheck/lang/gogen/gentest"
	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/ring/generated/counterflush_n3"
	"github.com/ringcheck/ringcheck/specs/ring/generated/dijkstra_n4"
	"github.com/ringcheck/ringcheck/specs/ring/generated/dijkstra_n7"
	"github.com/ringcheck/ringcheck/specs/ring/generated/ewd392"
	"github.com/ringcheck/ringcheck/specs/ring/generated/ewd396"
	"github.com/ringcheck/ringcheck/specs/ring/generated/herman"
	"github.com/ringcheck/ringcheck/specs/ring/generated/israelijalfon"
	"github.com/ringcheck/ringcheck/specs/ring/generated/klddhl_n3"
	"github.com/ringcheck/ringcheck/specs/ring/generated/kldhv_n3"
	"github.com/ringcheck/ringcheck/specs/ring/generated/klnaive_n5"
	"github.com/ringcheck/ringcheck/specs/ring/generated/klpusher_n5"
	"github.com/ringcheck/ringcheck/specs/ring/generated/lejeune_n3"
	"github.com/ringcheck/ringcheck/specs/ring/generated/raynal_n3"
	"github.com/ringcheck/ringcheck/specs/ring/generated/raynaland_n3"
	"github.com/ringcheck/ringcheck/specs/ring/generated/thiare_n4"
	"github.com/ringcheck/ringcheck/specs/ring/generated/threestate"
)

var update = flag.Bool("update", false, "rewrite the generated packages of specs/ring/generated")

// generatedInstance is an instance whose Go is generated and checked in,
// under specs/ring/generated/<pkg>.
type generatedInstance struct {
	file, pkg string
	values    specs.Values
	code      func() *compile.Code
}

// generatedInstances are the instances of BenchmarkTwinSteps's cases
// and a small instance of every other .ring file of
// specs/ring and examples.
var generatedInstances = []generatedInstance{
	{"kl-ddhl.ring", "klddhl_n3", largeCase("kl-ddhl"), klddhl_n3.Code},
	{"raynal.ring", "raynal_n3", largeCase("raynal"), raynal_n3.Code},
	{"kl-naive.ring", "klnaive_n5", largeCase("kl-naive"), klnaive_n5.Code},
	{"kl-pusher.ring", "klpusher_n5", largeCase("kl-pusher"), klpusher_n5.Code},
	{"kl-dhv.ring", "kldhv_n3", largeCase("kl-dhv"), kldhv_n3.Code},
	{"thiare.ring", "thiare_n4", largeCase("thiare"), thiare_n4.Code},
	{"raynal-and.ring", "raynaland_n3", largeCase("raynal-and"), raynaland_n3.Code},
	{"lejeune.ring", "lejeune_n3", largeCase("lejeune"), lejeune_n3.Code},
	{"dijkstra.ring", "dijkstra_n4", specs.Values{"n": 4, "K": 4}, dijkstra_n4.Code},
	{"dijkstra.ring", "dijkstra_n7", specs.Values{"n": 7, "K": 7}, dijkstra_n7.Code},
	{"counterflush.ring", "counterflush_n3", specs.Values{"n": 3, "Cmax": 1}, counterflush_n3.Code},
	{"../../examples/ewd392.ring", "ewd392", nil, ewd392.Code},
	{"../../examples/ewd396.ring", "ewd396", nil, ewd396.Code},
	{"../../examples/herman.ring", "herman", nil, herman.Code},
	{"../../examples/israeli-jalfon.ring", "israelijalfon", nil, israelijalfon.Code},
	{"../../examples/three-state.ring", "threestate", nil, threestate.Code},
}

// largeCase returns the values of BenchmarkTwinSteps's case of spec.
func largeCase(spec string) specs.Values {
	for _, bc := range largeCases {
		if bc.spec == spec {
			return bc.values
		}
	}
	panic("no large case " + spec)
}

// instance returns the IR of gi.
func (gi generatedInstance) instance(t testing.TB) *ir.Spec {
	t.Helper()
	f, err := lang.Read(gi.file)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := f.Instance(gi.values)
	if err != nil {
		t.Fatal(err)
	}
	return inst
}

// TestGeneratedCodeIsCurrent regenerates every checked-in generated
// package and compares it with the file; -update rewrites the files.
func TestGeneratedCodeIsCurrent(t *testing.T) {
	for _, gi := range generatedInstances {
		out, err := gogen.Generate(gi.instance(t), gi.pkg)
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join("generated", gi.pkg)
		files := map[string][]byte{"code.go": out.Source, "doc.go": generatedDoc(gi)}
		if *update {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			for name, src := range files {
				if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			t.Logf("%s: left to the closures: %q", gi.pkg, out.Fallback)
			continue
		}
		for name, src := range files {
			path := filepath.Join(dir, name)
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, src) {
				t.Errorf("%s is not what gogen generates from %s %v: run go test ./specs/ring -run TestGeneratedCodeIsCurrent -update", path, gi.file, gi.values)
			}
		}
	}
}

// generatedDoc is the doc.go of gi's checked-in package: how it is
// regenerated (code.go, which lang/gogen writes, does not say, as it is
// the same file `ringcheck gen` writes).
func generatedDoc(gi generatedInstance) []byte {
	return []byte(fmt.Sprintf("// Code generated by specs/ring's TestGeneratedCodeIsCurrent; DO NOT EDIT.\n\n"+
		"// This package's code.go is generated from %s %v; after an edit of the\n"+
		"// file or of lang/gogen, regenerate it with\n"+
		"// `go test ./specs/ring -run TestGeneratedCodeIsCurrent -update`.\n\npackage %s\n", gi.file, gi.values, gi.pkg))
}

// TestGeneratedTakesTheSameSteps compares, for every generated instance,
// the closures' system with the generated code's: on the first
// configurations of a breadth-first search from init and on random
// configurations, the same successors with the same labels, overflows
// and range faults, the same errors, and the same values of the
// invariants and of the other state and process predicates.
func TestGeneratedTakesTheSameSteps(t *testing.T) {
	bfs, random := 2000, 300
	if testing.Short() {
		bfs, random = 300, 50
	}
	for _, gi := range generatedInstances {
		t.Run(gi.pkg, func(t *testing.T) {
			bfs, random := bfs, random
			if gi.pkg == "lejeune_n3" {
				// Its expansions cost ten times the others': half the
				// configurations keep the test within seconds.
				bfs, random = bfs/2, random/2
			}
			inst := gi.instance(t)
			csys, err := compile.System(inst)
			if err != nil {
				t.Fatal(err)
			}
			gsys, err := compile.SystemWith(inst, gi.code())
			if err != nil {
				t.Fatal(err)
			}
			gentest.SameSteps(t, csys, gsys, bfs, random)
		})
	}
}

// generatedSystem builds the instance of file with values with its
// checked-in generated code (skipping b when there is none).
func generatedSystem(b *testing.B, file string, values specs.Values) (*model.System, error) {
	for _, gi := range generatedInstances {
		if gi.file != file {
			continue
		}
		f, err := lang.Read(file)
		if err != nil {
			return nil, err
		}
		inst, err := f.Instance(values)
		if err != nil {
			return nil, err
		}
		if compile.Fingerprint(inst) != gi.code().Instance {
			continue
		}
		return compile.SystemWith(inst, gi.code())
	}
	b.Skipf("no generated package of %s %v", file, values)
	return nil, nil
}
