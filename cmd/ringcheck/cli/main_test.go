package cli

import (
	"context"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the test binary act as the ringcheck command inside the
// scripts: testscript installs "ringcheck" on the scripts' PATH.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"ringcheck": func() {
			os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
		},
	})
}

var update = flag.Bool("update", false, "rewrite the goldens embedded in the scripts from the actual output")

// TestScripts runs testdata/script/*.txtar. Besides testscript's own
// commands the scripts have:
//
//	exits N prog args...   run prog like exec and require exit status N
//	                        exactly (exec only tells zero from non-zero);
//	                        stdout and stderr then apply to it as usual
//	untime FILE OUT        copy FILE (or stdout/stderr) to OUT with the
//	                        measurements that vary from run to run (time,
//	                        rate, heap, store size, a sweep row's
//	                        seconds) replaced by "_"
//	bigfile FILE BYTES     make FILE (replacing it) a file of BYTES zero
//	                        bytes, sparse where the file system allows: a
//	                        file over a size limit, never committed
//	tracedit IN OUT EDIT... write the JSON trace IN to OUT edited
//	                        (cmdTracedit)
func TestScripts(t *testing.T) {
	goEnv := goEnvironment(t)
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       *update,
		Setup: func(env *testscript.Env) error {
			env.Vars = append(env.Vars, goEnv...)
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits":    cmdExits,
			"untime":   cmdUntime,
			"bigfile":  cmdBigfile,
			"tracedit": cmdTracedit,
		},
	})
}

// goEnvironment is what a script needs to run the go command as this
// test runs (gen.txtar builds a generated module): the source directory
// of ringcheck's module as RINGCHECK_SRC, and the go command's caches,
// with the network off (the modules come from the module cache, which
// building this test filled). Without the go command on PATH only
// RINGCHECK_SRC is set, and the scripts that need go skip.
func goEnvironment(t *testing.T) []string {
	src, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	vars := []string{"RINGCHECK_SRC=" + src}
	goBin, err := exec.LookPath("go")
	if err != nil {
		return vars
	}
	out, err := exec.Command(goBin, "env", "GOCACHE", "GOMODCACHE", "GOPATH", "GOROOT").Output()
	if err != nil {
		return vars
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	for i, name := range []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOROOT"} {
		if i < len(lines) {
			vars = append(vars, name+"="+lines[i])
		}
	}
	return append(vars, "GOPROXY=off", "GOTOOLCHAIN=local", "GOFLAGS=")
}

func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("exits does not support !")
	}
	if len(args) < 2 {
		ts.Fatalf("usage: exits N prog args...")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: %q is not an exit status", args[0])
	}
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exits: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}

func cmdBigfile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: bigfile FILE BYTES")
	}
	size, err := strconv.ParseInt(args[1], 10, 64)
	if err != nil || size < 0 {
		ts.Fatalf("bigfile: %q is not a size in bytes", args[1])
	}
	path := ts.MkAbs(args[0])
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		ts.Fatalf("bigfile: %v", err)
	}
	f, err := os.Create(path)
	if err != nil {
		ts.Fatalf("bigfile: %v", err)
	}
	err = f.Truncate(size)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		ts.Fatalf("bigfile: %v", err)
	}
}

// Lines of measurements that differ between runs: JSON fields of the stats
// object, and the timing line of the text report.
var (
	volatileJSON = regexp.MustCompile(`(?m)^(\s*"(?:seconds|states_per_second|peak_heap_bytes|store_bytes)": )[^,\n]*`)
	volatileText = regexp.MustCompile(`(?m)^  \S+, \d+ states/s, peak heap .*$`)
	// A row of a sweep's table: the value, the cells, the seconds last.
	volatileSeconds = regexp.MustCompile(`(?m)^(-?\d+  .*  )\d+\.\d{3}$`)
)

func cmdUntime(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: untime FILE OUT")
	}
	s := untime(ts.ReadFile(args[0]))
	if err := os.WriteFile(ts.MkAbs(args[1]), []byte(s), 0o666); err != nil {
		ts.Fatalf("untime: %v", err)
	}
}

func untime(s string) string {
	s = volatileJSON.ReplaceAllString(s, "${1}_")
	s = volatileSeconds.ReplaceAllString(s, "${1}_")
	return volatileText.ReplaceAllString(s, "  _, _ states/s, peak heap _")
}

// TestUntime pins the helper the scripts' goldens rely on.
func TestUntime(t *testing.T) {
	in := "{\n  \"stats\": {\n    \"states\": 25,\n    \"seconds\": 0.000297,\n    \"states_per_second\": 84159,\n" +
		"    \"peak_heap_bytes\": 851328,\n    \"store_bytes\": 819200\n  }\n}\n" +
		"  25 states, 25 transitions, depth 24: complete\n  1.5ms, 30629 states/s, peak heap 839.4 KiB\n" +
		"K  closure  states  seconds\n5  holds    15625   0.088\n"
	want := "{\n  \"stats\": {\n    \"states\": 25,\n    \"seconds\": _,\n    \"states_per_second\": _,\n" +
		"    \"peak_heap_bytes\": _,\n    \"store_bytes\": _\n  }\n}\n" +
		"  25 states, 25 transitions, depth 24: complete\n  _, _ states/s, peak heap _\n" +
		"K  closure  states  seconds\n5  holds    15625   _\n"
	got := untime(in)
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
