// Package spintest runs the SPIN model checker on the Promela twins of
// ringcheck's specs (the testdata/*.pml files), so that tests can check that
// a twin agrees with ringcheck and benchmarks can compare the two checkers'
// throughput on the same machine.
//
// A run is `spin -a` with -D defines, a gcc build of the generated pan.c with
// the flags CFlags returns (exhaustive safety search, no partial-order
// reduction, no state compression), and a run of ./pan whose report is
// parsed into a Result. Everything needs spin and gcc on PATH; without them
// the calling test or benchmark is skipped.
package spintest

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Result is what pan reports about one search. pan prints its counts with
// %9.8g, so counts of 10^8 or more are rounded to 8 significant digits.
type Result struct {
	// StatesStored is pan's "states, stored": the distinct states it found
	// (intermediate states of atomic sequences are not stored).
	StatesStored int64
	// StatesMatched is pan's "states, matched": revisits of stored states.
	StatesMatched int64
	// Transitions is pan's "transitions (= stored+matched)".
	Transitions int64
	// AtomicSteps is pan's "atomic steps": steps inside atomic sequences.
	AtomicSteps int64
	// Depth is pan's "depth reached" (depth-first, so not the diameter).
	Depth int64
	// Seconds is pan's own "pan: elapsed time", which excludes compiling.
	Seconds float64
	// StatesPerSecond is pan's "pan: rate" line, or 0 if pan printed none
	// (it does not when the elapsed time rounds to 0).
	StatesPerSecond float64
	// MemoryMB is pan's "total actual memory usage" in megabytes, or its
	// "memory usage (Mbyte)" line when the detailed breakdown is absent
	// (as with -DNOCOMP).
	MemoryMB float64
	// Errors is pan's error count: assertion violations and, unless pan ran
	// with -E, invalid end states (deadlocks).
	Errors int
	// Complete reports that pan did not print "Search not completed": the
	// search was exhaustive (it is not after stopping at an error).
	Complete bool
	// DepthTruncated reports that pan printed "max search depth too small":
	// the -m bound cut the search, so the counts are not the full space.
	DepthTruncated bool
	// Output is pan's full standard output and standard error.
	Output string
}

// Model is a pan verifier compiled from a Promela model, ready to run.
type Model struct {
	// Dir is the temporary directory holding the model and pan.
	Dir string
	// Pan is the path of the compiled verifier.
	Pan string
}

// CFlags returns the gcc flags pan.c is compiled with: an exhaustive safety
// search (no cycle detection) without partial-order reduction or state
// compression, so pan stores the same kind of states ringcheck does, with
// a 16 GB memory limit.
func CFlags() []string {
	return []string{"-O2", "-DSAFETY", "-DNOREDUCE", "-DNOCOMP", "-DMEMLIM=16000"}
}

// Tools returns the paths of spin and gcc, or an error naming the one
// missing from PATH.
func Tools() (spin, gcc string, err error) {
	spin, err = exec.LookPath("spin")
	if err != nil {
		return "", "", fmt.Errorf("spin model checker not on PATH: %w", err)
	}
	gcc, err = exec.LookPath("gcc")
	if err != nil {
		return "", "", fmt.Errorf("gcc not on PATH (needed to compile pan.c): %w", err)
	}
	return spin, gcc, nil
}

// Compile copies the Promela model at path pml into tb.TempDir(), generates
// pan.c with `spin -a` and the defines (each as -DNAME=VALUE), and builds pan
// with gcc and CFlags. It skips tb when spin or gcc is missing and fails it
// on any other error.
func Compile(tb testing.TB, pml string, defines map[string]int) *Model {
	tb.Helper()
	spin, gcc, err := Tools()
	if err != nil {
		tb.Skipf("skipping SPIN comparison: %v", err)
	}
	dir := tb.TempDir()
	src, err := os.ReadFile(pml)
	if err != nil {
		tb.Fatalf("spintest: reading model: %v", err)
	}
	name := filepath.Base(pml)
	if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
		tb.Fatalf("spintest: copying model: %v", err)
	}
	args := []string{}
	for _, k := range slices.Sorted(maps.Keys(defines)) {
		args = append(args, fmt.Sprintf("-D%s=%d", k, defines[k]))
	}
	args = append(args, "-a", name)
	if out, err := runIn(tb, dir, spin, args...); err != nil {
		tb.Fatalf("spintest: spin %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	gccArgs := append(CFlags(), "-w", "-o", "pan", "pan.c")
	if out, err := runIn(tb, dir, gcc, gccArgs...); err != nil {
		tb.Fatalf("spintest: gcc %s: %v\n%s", strings.Join(gccArgs, " "), err, out)
	}
	return &Model{Dir: dir, Pan: filepath.Join(dir, "pan")}
}

// Run runs pan with the given flags (e.g. -m1000000 for the depth bound,
// -w24 for the hash table size, -E to ignore invalid end states) and parses
// its report. It fails tb if pan cannot run or its report cannot be parsed.
func (m *Model) Run(tb testing.TB, panFlags ...string) Result {
	tb.Helper()
	out, err := runIn(tb, m.Dir, m.Pan, panFlags...)
	if err != nil {
		tb.Fatalf("spintest: pan %s: %v\n%s", strings.Join(panFlags, " "), err, out)
	}
	r, err := Parse(out)
	if err != nil {
		tb.Fatalf("spintest: %v\n%s", err, out)
	}
	return r
}

// Run compiles the model at path pml with the defines and runs pan once with
// panFlags: Compile followed by Model.Run.
func Run(tb testing.TB, pml string, defines map[string]int, panFlags ...string) Result {
	tb.Helper()
	return Compile(tb, pml, defines).Run(tb, panFlags...)
}

// runIn runs a command in dir, stopping it when tb's context ends, and
// returns its combined output.
func runIn(tb testing.TB, dir, prog string, args ...string) (string, error) {
	var buf bytes.Buffer
	cmd := exec.CommandContext(tb.Context(), prog, args...)
	cmd.Dir = dir
	cmd.Stdout = &buf
	cmd.Stderr = &buf
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Run(); err != nil {
		return buf.String(), fmt.Errorf("running %s: %w", filepath.Base(prog), err)
	}
	return buf.String(), nil
}

// Parse reads pan's report. The stored-state, transition, depth and error
// counts and the elapsed time are required; the rate and memory lines are
// optional.
func Parse(out string) (Result, error) {
	// Counts are printed with %9.8g, so large ones may be in exponent form.
	const number = `([0-9.eE+-]+)`
	r := Result{Output: out}
	find := func(pattern string) []string {
		return regexp.MustCompile(`(?m)` + pattern).FindStringSubmatch(out)
	}
	count := func(what, pattern string, dst *int64, required bool) error {
		m := find(`^\s*` + number + `\s+` + pattern)
		if m == nil {
			if required {
				return fmt.Errorf("pan output has no %q line", what)
			}
			return nil
		}
		v, err := strconv.ParseFloat(m[1], 64)
		if err != nil {
			return fmt.Errorf("parsing pan's %s %q: %w", what, m[1], err)
		}
		*dst = int64(v)
		return nil
	}
	var errs []error
	errs = append(errs,
		count("states, stored", `states, stored`, &r.StatesStored, true),
		count("states, matched", `states, matched`, &r.StatesMatched, false),
		count("transitions", `transitions \(`, &r.Transitions, true),
		count("atomic steps", `atomic steps`, &r.AtomicSteps, false),
	)
	if m := find(`depth reached ` + number + `, errors: ` + number); m == nil {
		errs = append(errs, errors.New(`pan output has no "depth reached ..., errors: ..." line`))
	} else {
		d, err1 := strconv.ParseInt(m[1], 10, 64)
		e, err2 := strconv.Atoi(m[2])
		errs = append(errs, err1, err2)
		r.Depth, r.Errors = d, e
	}
	float := func(what, pattern string, dst *float64, required bool) error {
		m := find(pattern)
		if m == nil {
			if required {
				return fmt.Errorf("pan output has no %q line", what)
			}
			return nil
		}
		v, err := strconv.ParseFloat(m[1], 64)
		if err != nil {
			return fmt.Errorf("parsing pan's %s %q: %w", what, m[1], err)
		}
		*dst = v
		return nil
	}
	errs = append(errs,
		float("pan: elapsed time", `^pan: elapsed time `+number+` seconds`, &r.Seconds, true),
		float("pan: rate", `^pan: rate\s+`+number+` states/second`, &r.StatesPerSecond, false),
	)
	if find(`total actual memory usage`) != nil {
		errs = append(errs, float("total actual memory usage", `^\s*`+number+`\s+total actual memory usage`, &r.MemoryMB, true))
	} else {
		errs = append(errs, float("memory usage (Mbyte)", `^\s*`+number+`\s+memory usage \(Mbyte\)`, &r.MemoryMB, false))
	}
	r.Complete = !strings.Contains(out, "Search not completed")
	r.DepthTruncated = strings.Contains(out, "max search depth too small")
	if err := errors.Join(errs...); err != nil {
		return r, fmt.Errorf("parsing pan output: %w", err)
	}
	return r, nil
}
