package ringcheck

import (
	"os/exec"
	"strings"
	"testing"
)

// TestSearchImportsNoKeyOrGraphLibrary checks that the packages on the
// search's hot path (the model, the engines and the analyses) import
// neither hashstructure, which keys requests, nor the graph library, which
// draws small state graphs: both stay off the hot path.
func TestSearchImportsNoKeyOrGraphLibrary(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH: cannot list dependencies")
	}
	out, err := exec.Command(goTool, "list", "-deps", "./model", "./explore", "./statespace", "./runs", "./invariants").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "github.com/mitchellh/hashstructure") || strings.HasPrefix(dep, "github.com/dominikbraun/graph") {
			t.Errorf("%s is a dependency of the search", dep)
		}
	}
}
