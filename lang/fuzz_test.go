package lang_test

import (
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
