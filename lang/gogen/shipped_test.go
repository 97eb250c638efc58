package gogen_test

import (
	"path/filepath"
	"testing"

	"github.com/ringcheck/ringcheck/lang"
	"github.com/ringcheck/ringcheck/lang/gogen"
)

// TestShippedSpecsGenerateWholly generates every .ring file of specs/ring
// and examples at its default parameters: nothing is left to the
// closures.
func TestShippedSpecsGenerateWholly(t *testing.T) {
	var files []string
	for _, dir := range []string{"../../specs/ring", "../../examples"} {
		m, err := filepath.Glob(filepath.Join(dir, "*.ring"))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 10 {
		t.Fatalf("found %d .ring files, want the shipped ones", len(files))
	}
	for _, file := range files {
		f, err := lang.Read(file)
		if err != nil {
			t.Fatal(err)
		}
		inst, err := f.Instance(nil)
		if err != nil {
			t.Fatal(err)
		}
		out, err := gogen.Generate(inst, "x")
		if err != nil {
			t.Fatal(err)
		}
		for _, why := range out.Fallback {
			t.Errorf("%s: left to the closures: %s", file, why)
		}
	}
}
