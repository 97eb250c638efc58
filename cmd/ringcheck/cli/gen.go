package cli

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ringcheck/ringcheck/lang/gogen"
	"github.com/ringcheck/ringcheck/lang/syntax"
)

// modulePath is the path of ringcheck's Go module, which a generated
// program requires.
const modulePath = "github.com/ringcheck/ringcheck"

// generatedCode is how a report names a check that ran on generated Go.
const generatedCode = "generated Go"

// genFlags are the flags of gen.
type genFlags struct {
	params []string
	out    string
	module string
	build  bool
}

func newGenCmd() *cobra.Command {
	f := &genFlags{}
	cmd := &cobra.Command{
		Use:   "gen SPEC",
		Short: "Generate Go for one instance of a spec: a ringcheck that checks it faster",
		Long: `Generate Go source for one instance of a spec (a built-in one or a
.ring file, with its parameters as check takes them) and write, in DIR,
a Go module whose program is ringcheck itself with that code: the
instance's guards, effects and predicates become Go functions with every
parameter, process number and variable's place folded in, as SPIN writes
pan.c for one model. Built with the Go toolchain, that program checks the
instance faster than ringcheck's compiled closures do and gives the same
verdicts, counts and counterexamples; any other instance it runs on the
closures, as ringcheck does.

DIR receives go.mod, code.go (the generated code) and main.go. The module
requires ringcheck's: its source directory (--ringcheck, or the module
above the current directory when it is ringcheck's, for a ringcheck built
from its source), or the released version this ringcheck was installed
from. With --build, gen also runs 'go build -mod=mod' there and writes
the program as DIR/ringcheck; it needs the go command on PATH. The
program's reports say "generated Go" where an instance ran on it.

The parts the generator does not cover yet are left to the closures, and
gen names them on stderr.`,
		Example: `  ringcheck gen raynal -p n=3 -p M=2 -o /tmp/raynal --build
  /tmp/raynal/ringcheck check raynal -p n=3 -p M=2
  ringcheck gen specs/ring/dijkstra.ring -p n=6 -p K=6 -o gen/dijkstra`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runGen(cmd, args[0], f)
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVarP(&f.params, "param", "p", nil, "set a spec parameter, as name=value (repeatable)")
	fl.StringVarP(&f.out, "out", "o", "", "the directory to write the generated module to (created if missing)")
	fl.StringVar(&f.module, "ringcheck", "", "the directory of ringcheck's source module the generated module builds against")
	fl.BoolVar(&f.build, "build", false, "also build the program, as DIR/ringcheck, with the go command")
	return cmd
}

func runGen(cmd *cobra.Command, specName string, f *genFlags) error {
	if f.out == "" {
		return usageError("gen needs -o DIR, the directory to write the generated module to")
	}
	spec, params, err := lookupSpec(cmd.Context(), specName, f.params, nil)
	if err != nil {
		return err
	}
	if spec.Instance == nil {
		return usageError("spec %s is written in Go: gen generates Go from a spec's ring-language form", spec.Name)
	}
	values, err := spec.Resolve(params)
	if err != nil {
		return usageError("%v", err)
	}
	inst, err := spec.Instance(values)
	if err != nil {
		if _, inFile := syntax.AsError(err); inFile {
			return sourceError(err)
		}
		return usageError("%v", err)
	}
	out, err := gogen.Generate(inst, "main")
	if err != nil {
		return fmt.Errorf("generating Go for %s: %w", spec.Name, err)
	}
	require, err := requirement(f.module)
	if err != nil {
		return usageError("%v", err)
	}
	if err := os.MkdirAll(f.out, 0o755); err != nil {
		return err
	}
	files := map[string][]byte{
		"code.go": out.Source,
		"main.go": genMain(spec.Name, values),
		"go.mod":  require.goMod(spec.Name),
	}
	if require.sum != nil {
		files["go.sum"] = require.sum
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(f.out, name), data, 0o644); err != nil {
			return fmt.Errorf("writing the generated module: %w", err)
		}
	}
	stderr := cmd.ErrOrStderr()
	for _, fb := range out.Fallback {
		fmt.Fprintf(stderr, "ringcheck: left to the closures: %s\n", fb)
	}
	stdout := cmd.OutOrStdout()
	if !f.build {
		fmt.Fprintf(stdout, "wrote %s: build it with\n  cd %s && go build -mod=mod -o ringcheck .\n", f.out, f.out)
		return nil
	}
	// -mod=mod lets the build complete go.mod with the modules
	// ringcheck's requires, from go.sum and the module cache.
	if err := goCommand(f.out, stderr, "build", "-mod=mod", "-o", "ringcheck", "."); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s\n", filepath.Join(f.out, "ringcheck"))
	return nil
}

// genMain is the main.go of a generated module: ringcheck's command line
// with the generated code.
func genMain(spec string, values map[string]int) []byte {
	names := make([]string, 0, len(values))
	for name := range values {
		names = append(names, name)
	}
	slices.Sort(names)
	var inst strings.Builder
	for _, name := range names {
		fmt.Fprintf(&inst, " %s=%d", name, values[name])
	}
	return fmt.Appendf(nil, `// Code generated by ringcheck gen. DO NOT EDIT.

// Command ringcheck is ringcheck's command line with Go generated for
// the instance %s%s (code.go): that instance runs on it, every
// other one on the compiled closures.
package main

import (
	"github.com/ringcheck/ringcheck/cmd/ringcheck/cli"
	"github.com/ringcheck/ringcheck/lang/compile"
)

func main() { cli.MainWith(cli.Options{Code: []*compile.Code{Code()}}) }
`, spec, inst.String())
}

// moduleRequirement is how a generated module requires ringcheck's: from
// a source directory (dir), or at a released version.
type moduleRequirement struct {
	dir, version, goVersion string
	// sum is the source module's go.sum, the checksums of the modules
	// it requires (nil: none known).
	sum []byte
}

// goMod returns the go.mod of a generated module for spec.
func (r *moduleRequirement) goMod(spec string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "module ringcheck.gen/%s\n\ngo %s\n\n", strings.ReplaceAll(spec, " ", "-"), r.goVersion)
	if r.dir != "" {
		fmt.Fprintf(&b, "require %s v0.0.0-00010101000000-000000000000\n\nreplace %s => %s\n", modulePath, modulePath, r.dir)
	} else {
		fmt.Fprintf(&b, "require %s %s\n", modulePath, r.version)
	}
	return b.Bytes()
}

// requirement finds ringcheck's module for a generated one: the source
// directory dir when given, else the module above the current directory
// when it is ringcheck's, else the released version this program was
// built from.
func requirement(dir string) (*moduleRequirement, error) {
	if dir == "" {
		if wd, err := os.Getwd(); err == nil {
			dir = moduleAbove(wd)
		}
	} else if moduleName(filepath.Join(dir, "go.mod")) != modulePath {
		return nil, fmt.Errorf("%s holds no source of module %s (no go.mod declaring it)", dir, modulePath)
	}
	if dir != "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return nil, err
		}
		r := &moduleRequirement{dir: abs, goVersion: goDirective(filepath.Join(abs, "go.mod"))}
		if sum, err := os.ReadFile(filepath.Join(abs, "go.sum")); err == nil {
			r.sum = sum
		}
		return r, nil
	}
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Path == modulePath && strings.HasPrefix(info.Main.Version, "v") {
		return &moduleRequirement{version: info.Main.Version, goVersion: strings.TrimPrefix(info.GoVersion, "go")}, nil
	}
	return nil, errors.New("the generated module builds against ringcheck's source: give its directory with --ringcheck DIR, or run gen inside it")
}

// moduleAbove returns the directory at or above dir whose go.mod declares
// ringcheck's module, or "".
func moduleAbove(dir string) string {
	for {
		if moduleName(filepath.Join(dir, "go.mod")) == modulePath {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// moduleName returns the module path a go.mod declares, or "".
func moduleName(goMod string) string {
	return directive(goMod, "module")
}

// goDirective returns the go version a go.mod declares, or the version of
// the toolchain this program was built with.
func goDirective(goMod string) string {
	if v := directive(goMod, "go"); v != "" {
		return v
	}
	if info, ok := debug.ReadBuildInfo(); ok {
		return strings.TrimPrefix(info.GoVersion, "go")
	}
	return "1.24"
}

// directive returns the argument of the first line of file that starts
// with keyword, or "".
func directive(file, keyword string) string {
	data, err := os.ReadFile(file)
	if err != nil {
		return ""
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), keyword+" "); ok {
			return strings.TrimSpace(rest)
		}
	}
	return ""
}

// goCommand runs the go command with args in dir, its output on w.
func goCommand(dir string, w io.Writer, args ...string) error {
	goBin, err := exec.LookPath("go")
	if err != nil {
		return fmt.Errorf("--build needs the go command on PATH: %w", err)
	}
	c := exec.Command(goBin, args...)
	c.Dir, c.Stdout, c.Stderr = dir, w, w
	if err := c.Run(); err != nil {
		return fmt.Errorf("go %s in %s: %w", strings.Join(args, " "), dir, err)
	}
	return nil
}
