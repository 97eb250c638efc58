package syntax

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse feeds the parser arbitrary sources: it must never panic, and
// any error must be an *Error at a position inside the source.
func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob("../../specs/ring/*.ring")
	more, _ := filepath.Glob("../testdata/errors/*.ring")
	examples, _ := filepath.Glob("../../examples/*.ring")
	more = append(more, examples...)
	for _, path := range append(seeds, more...) {
		src, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Add([]byte("spec s\ntopology ring(3)\nvar x: 0..2\nprocess all { action a: x == x[pred] -> x := (x + 1) mod 3 }\n"))
	f.Add([]byte("spec s\nparam C = 1 in 1..4\ntopology ring(3)\nmessage M\nchannels capacity C\nbound \"2n\" rounds 2 * 3\nlinks reliable enlarge C = 4 fill C\nclaim convergence holds found out-of-reach from all\nclaim convergence holds found violated from \"nc.json\" with C = 2\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := Parse("fuzz.ring", src)
		if err == nil {
			if file == nil {
				t.Fatal("no file and no error")
			}
			return
		}
		var perr *Error
		if !errors.As(err, &perr) {
			t.Fatalf("%v is not an *Error", err)
		}
		// A line ends at \n, \r\n or \r alone.
		lines := 1
		for i, b := range src {
			if b == '\n' || (b == '\r' && (i+1 == len(src) || src[i+1] != '\n')) {
				lines++
			}
		}
		if perr.Pos.IsValid() && perr.Pos.Line > lines {
			t.Fatalf("error at line %d of a %d-line source: %v", perr.Pos.Line, lines, err)
		}
	})
}
