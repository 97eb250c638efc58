package lang_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/ringcheck/ringcheck/lang"
)

// FuzzBuild feeds arbitrary sources through the parser, the checker and
// the compiler, for the defaults: none may panic, a file that builds has
// a spec entry whose name is set, and its bound in rounds and links give
// a bound and a fill of at least 1 and enlarge only its parameters.
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
	f.Add([]byte(metaSrc))
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
		// The defaults checked, their bound and fill are at least 1 and
		// the parameters enlarged are the spec's.
		if spec.RoundsBound != nil && spec.RoundsBound(vals) < 1 {
			t.Fatalf("a bound in rounds of %d for the defaults", spec.RoundsBound(vals))
		}
		if l := spec.Links; l != nil {
			if fill := l.Fill(vals); fill < 1 {
				t.Fatalf("a fill of %d for the defaults", fill)
			}
			for name := range l.Enlarge(vals) {
				if _, ok := spec.Param(name); !ok {
					t.Fatalf("links enlarge %s, which is no parameter", name)
				}
			}
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
