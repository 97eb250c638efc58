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
