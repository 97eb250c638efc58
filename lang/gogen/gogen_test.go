package gogen_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/lang"
	"github.com/ringcheck/ringcheck/lang/compile"
	"github.com/ringcheck/ringcheck/lang/gogen"
	"github.com/ringcheck/ringcheck/lang/gogen/gentest"
	"github.com/ringcheck/ringcheck/lang/gogen/internal/snippets/arith"
	"github.com/ringcheck/ringcheck/lang/gogen/internal/snippets/arrays"
	"github.com/ringcheck/ringcheck/lang/gogen/internal/snippets/atomic"
	"github.com/ringcheck/ringcheck/lang/gogen/internal/snippets/chanblock"
	"github.com/ringcheck/ringcheck/lang/gogen/internal/snippets/chandrop"
	"github.com/ringcheck/ringcheck/lang/gogen/internal/snippets/chanerror"
	"github.com/ringcheck/ringcheck/lang/gogen/internal/snippets/choices"
	"github.com/ringcheck/ringcheck/lang/ir"
)

var update = flag.Bool("update", false, "rewrite the generated packages of internal/snippets")

// snippets are small specs (testdata/NAME.ring), each generated into
// internal/snippets/NAME; faults lists errors some expansion of each
// must meet (with the closures and with the generated code alike).
var snippets = []struct {
	name   string
	code   func() *compile.Code
	faults []string
}{
	{"arith", arith.Code, []string{
		"action ovf: action ovf: testdata/arith.ring:7:27: integer overflow: 2 * 4611686018427387904 is outside int64",
		"action div: testdata/arith.ring:8:32: division by zero",
		"process 0 reads x of process 1, which is not linked to it",
	}},
	{"arrays", arrays.Code, []string{"action miss: testdata/arrays.ring:7:44: process 0 has no entry 2 of a"}},
	{"atomic", atomic.Code, nil},
	{"chanblock", chanblock.Code, nil},
	{"chandrop", chandrop.Code, nil},
	{"chanerror", chanerror.Code, nil},
	{"choices", choices.Code, nil},
}

func instance(t *testing.T, name string) *ir.Spec {
	t.Helper()
	f, err := lang.Read(filepath.Join("testdata", name+".ring"))
	if err != nil {
		t.Fatal(err)
	}
	inst, err := f.Instance(nil)
	if err != nil {
		t.Fatal(err)
	}
	return inst
}

// TestSnippetsAreCurrent regenerates each snippet's package and compares
// it with the checked-in file (-update rewrites it); every construct of
// the snippets is generated, none left to the closures.
func TestSnippetsAreCurrent(t *testing.T) {
	for _, sn := range snippets {
		out, err := gogen.Generate(instance(t, sn.name), sn.name)
		if err != nil {
			t.Fatal(err)
		}
		if len(out.Fallback) > 0 {
			t.Errorf("%s: left to the closures: %q", sn.name, out.Fallback)
		}
		path := filepath.Join("internal", "snippets", sn.name, "code.go")
		if *update {
			if err := os.WriteFile(path, out.Source, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, out.Source) {
			t.Errorf("%s is not what gogen generates: run go test ./lang/gogen -run TestSnippetsAreCurrent -update", path)
		}
	}
}

// TestSnippetsTakeTheSameSteps runs each snippet's generated code
// against the closures on every configuration reached from init and on
// random ones: the same steps, predicates and faults, the faults listed
// among them.
func TestSnippetsTakeTheSameSteps(t *testing.T) {
	for _, sn := range snippets {
		t.Run(sn.name, func(t *testing.T) {
			inst := instance(t, sn.name)
			csys, err := compile.System(inst)
			if err != nil {
				t.Fatal(err)
			}
			gsys, err := compile.SystemWith(inst, sn.code())
			if err != nil {
				t.Fatal(err)
			}
			errs := gentest.SameSteps(t, csys, gsys, 5000, 500)
			all := strings.Join(errs, "\n")
			for _, f := range sn.faults {
				if !strings.Contains(all, f) {
					t.Errorf("no expansion failed with %q; the errors met:\n%s", f, all)
				}
			}
		})
	}
}

// TestSystemWithRefusesAnotherInstance: code generated from one instance
// does not run another.
func TestSystemWithRefusesAnotherInstance(t *testing.T) {
	_, err := compile.SystemWith(instance(t, "chanblock"), chandrop.Code())
	if err == nil || !strings.Contains(err.Error(), "regenerate it") {
		t.Fatalf("got %v, want the refusal of another instance's code", err)
	}
}
