package lang_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/lang"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestErrorMessages vets every file of testdata/errors and compares what
// it reports with the file's .golden twin: every problem as
// file:line:col: message.
func TestErrorMessages(t *testing.T) {
	files, err := filepath.Glob("testdata/errors/*.ring")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files: %v", err)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			err := lang.Vet(path)
			if err == nil {
				t.Fatal("vet found no problem")
			}
			got := []byte(err.Error() + "\n")
			golden := strings.TrimSuffix(path, ".ring") + ".golden"
			if *update {
				if err := os.WriteFile(golden, got, 0o666); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test -update writes it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("--- got\n%s--- want\n%s", got, want)
			}
			for _, line := range strings.Split(strings.TrimSpace(string(got)), "\n") {
				if !strings.HasPrefix(line, path+":") {
					t.Errorf("%q does not start with the file's name", line)
				}
			}
		})
	}
}

// TestLineBreaks checks a file with each kind of line break (\n, \r\n,
// \r alone): its problems are reported on their own lines.
func TestLineBreaks(t *testing.T) {
	lines := []string{"spec s", "topology ring(3) // the ring", "var x: 0..2", "process all { action A: x == 0 -> x := y }", "invariant i: z[0] == 0"}
	want := "s.ring:4:40: undefined: y\ns.ring:5:14: z is not a process variable"
	for _, nl := range []string{"\n", "\r\n", "\r"} {
		t.Run(strings.NewReplacer("\n", `\n`, "\r", `\r`).Replace(nl), func(t *testing.T) {
			f, err := lang.Parse("s.ring", []byte(strings.Join(lines, nl)+nl))
			if err == nil {
				_, err = f.Build(nil)
			}
			if err == nil || err.Error() != want {
				t.Errorf("got\n%v\nwant\n%s", err, want)
			}
		})
	}
}
