package cli

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCustomModule builds examples/custom, a Go module of its own that
// defines a spec with model.Builder and runs the command line over it with
// cli.Main, and checks the spec from the built binary: the figures of the
// same algorithm written in the ring language (examples/three-state.ring).
func TestCustomModule(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH: cannot build the example module")
	}
	if testing.Short() {
		t.Skip("-short: not building the example module")
	}
	bin := filepath.Join(t.TempDir(), "custom")
	build := exec.Command(goTool, "build", "-o", bin, ".")
	build.Dir = filepath.Join("..", "..", "..", "examples", "custom")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build in %s: %v\n%s", build.Dir, err, out)
	}
	for _, spec := range []string{"three-state-go", filepath.Join("..", "..", "..", "examples", "three-state.ring")} {
		out, err := exec.Command(bin, "check", spec, "-p", "n=5", "--check", "closure,convergence", "--workers", "1").Output()
		if err != nil {
			t.Fatalf("check %s: %v\n%s", spec, err, out)
		}
		for _, want := range []string{
			"  243 states, 621 transitions (540 distinct pairs), depth 0: complete\n",
			"  convergence  holds\n",
			"  stabilization from 243 configurations (45 legitimate):\n",
			"    worst case  22 steps, 6 rounds\n",
		} {
			if !strings.Contains(string(out), want) {
				t.Errorf("check %s: no line %q in\n%s", spec, want, out)
			}
		}
	}
	// The module's spec is listed beside the built-in ones.
	out, err := exec.Command(bin, "list").Output()
	if err != nil || !strings.Contains(string(out), "three-state-go — Dijkstra's three-state machines, written in Go\n") {
		t.Fatalf("list: %v\n%s", err, out)
	}
}
