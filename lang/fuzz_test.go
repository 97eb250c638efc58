package lang_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/ringcheck/ringcheck/lang"
)

// FuzzBuild feeds arbitrary sources through the parser, the checker and
// the compiler, for the defaults: none may panic, and a file that builds
// has a spec entry whose name is set.
func FuzzBuild(f *testing.F) {
	seeds, _ := filepath.Glob("../specs/ring/*.ring")
	more, _ := filepath.Glob("testdata/errors/*.ring")
	examples, _ := filepath.Glob("../examples/*.ring")
	more = append(more, examples...)
	for _, path := range append(seeds, more...) {
		src, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := lang.Parse("fuzz.ring", src)
		if err != nil {
			return
		}
		spec, err := file.Spec()
		if err != nil {
			return
		}
		if spec.Name == "" {
			t.Fatal("a spec entry with no name")
		}
		vals, err := spec.Resolve(nil)
		if err != nil {
			t.Fatalf("the defaults do not resolve: %v", err)
		}
		sys, err := spec.Build(vals)
		if err != nil {
			return
		}
		if len(sys.Initial()) == 0 {
			t.Fatal("a model with no initial configuration")
		}
	})
}

// FuzzArithmetic draws integer expressions over variables at extreme
// values and checks that every evaluator (ir.Eval, the compiled state
// predicate and guards, and the symbolic engine) gives the value math/big
// gives, or reports a fault that may happen: an overflow of int64 or a
// division by zero, never a value wrapped around (arith_test.go). The
// symbolic engine, whose encoding takes a few hundred milliseconds, is
// asked for one input in 256 (and for every seed by
// TestArithmeticSymbolic).
func FuzzArithmetic(f *testing.F) {
	for _, s := range arithSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkArith(t, data, len(data) > 0 && data[len(data)-1] == 0)
	})
}

// TestArithmeticSymbolic runs FuzzArithmetic's seeds through every
// evaluator, the symbolic engine included.
func TestArithmeticSymbolic(t *testing.T) {
	for i, s := range arithSeeds() {
		t.Run(fmt.Sprint(i), func(t *testing.T) { checkArith(t, s, true) })
	}
}
