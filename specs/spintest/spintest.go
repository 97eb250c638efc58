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
//
// Liveness searches (pan -a for acceptance cycles of a never claim or ltl
// formula, pan -l with -DNP for non-progress cycles) need a pan built with
// LivenessCFlags through CompileWith; Model.Replay then replays the
// counterexample pan wrote, with `spin -t`, into a Trail.
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
	// Visited is the "(N visited)" count pan prints after the stored count
	// in liveness searches (pan -a, pan -l): the states of both passes of
	// its nested depth-first search. It equals StatesStored when pan
	// printed no such count (safety searches).
	Visited int64
	// Transitions is pan's "transitions (= stored+matched)", or
	// "(= visited+matched)" in liveness searches.
	Transitions int64
	// AtomicSteps is pan's "atomic steps": steps inside atomic sequences.
	AtomicSteps int64
	// Depth is pan's "depth reached" (depth-first, so not the diameter).
	Depth int64
	// Seconds is pan's own "pan: elapsed time", which excludes compiling.
	Seconds float64
	// StatesPerSecond is pan's "pan: rate" line, or 0 if pan printed none
	// (it does not when the elapsed time rounds to 0). pan computes it from
	// the visited count, so in liveness searches it includes the nested
	// search's second visits.
	StatesPerSecond float64
	// MemoryMB is pan's "total actual memory usage" in megabytes, or its
	// "memory usage (Mbyte)" line when the detailed breakdown is absent
	// (as with -DNOCOMP).
	MemoryMB float64
	// Errors is pan's error count: assertion violations and, unless pan ran
	// with -E, invalid end states (deadlocks); in liveness searches,
	// acceptance cycles (pan -a) or non-progress cycles (pan -l).
	Errors int
	// Violation is the text of pan's first error report, after its
	// "pan:1: " prefix (e.g. "acceptance cycle (at depth 28)",
	// "invalid end state (at depth 3)"), or "" when pan found no error.
	Violation string
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

	// name is the model's file name in Dir, and defines the -D arguments
	// it was compiled with, for Replay.
	name    string
	defines []string
}

// CFlags returns the gcc flags pan.c is compiled with: an exhaustive safety
// search (no cycle detection) without partial-order reduction or state
// compression, so pan stores the same kind of states ringcheck does, with
// a 16 GB memory limit.
func CFlags() []string {
	return []string{"-O2", "-DSAFETY", "-DNOREDUCE", "-DNOCOMP", "-DMEMLIM=16000"}
}

// ReducedCFlags returns the gcc flags of SPIN's default safety search:
// CFlags without -DNOREDUCE and -DNOCOMP, so pan applies its partial-order
// reduction and its default byte-mask compression. A search compiled with
// them stores fewer states than the model has (as many as its reduction
// leaves), which is what a comparison with a reduced ringcheck search
// weighs: the time each takes to decide the same instance.
func ReducedCFlags() []string {
	return []string{"-O2", "-DSAFETY", "-DMEMLIM=16000"}
}

// LivenessCFlags returns gcc flags for a liveness search, to pass to
// CompileWith: CFlags without -DSAFETY (which removes cycle detection) and
// without -DNOCOMP (which pan refuses with -a and -l), so pan stores states
// with its default byte-mask compression. Add -DNP for a non-progress-cycle
// search (pan -l); a never claim or ltl formula needs nothing more (pan -a).
// Append a later -O flag (e.g. -O0, which compiles several times faster)
// to override -O2.
func LivenessCFlags() []string {
	return []string{"-O2", "-DNOREDUCE", "-DMEMLIM=16000"}
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
	return CompileWith(tb, pml, defines, CFlags())
}

// CompileWith is Compile with the gcc flags cflags in place of CFlags, e.g.
// LivenessCFlags for pan -a or, with -DNP, pan -l.
func CompileWith(tb testing.TB, pml string, defines map[string]int, cflags []string) *Model {
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
	var defs []string
	for _, k := range slices.Sorted(maps.Keys(defines)) {
		defs = append(defs, fmt.Sprintf("-D%s=%d", k, defines[k]))
	}
	args := append(slices.Clone(defs), "-a", name)
	if out, err := runIn(tb, dir, spin, args...); err != nil {
		tb.Fatalf("spintest: spin %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	gccArgs := append(slices.Clone(cflags), "-w", "-o", "pan", "pan.c")
	if out, err := runIn(tb, dir, gcc, gccArgs...); err != nil {
		tb.Fatalf("spintest: gcc %s: %v\n%s", strings.Join(gccArgs, " "), err, out)
	}
	return &Model{Dir: dir, Pan: filepath.Join(dir, "pan"), name: name, defines: defs}
}

// Step is one step of a replayed counterexample: one transition of one
// process (a d_step or an atomic statement's lines share a step).
type Step struct {
	// Num is spin's step number (it also counts the never claim's moves,
	// which are not Steps, so it is not the index in Trail.Steps).
	Num int
	// Pid is the process's pid as `spin -t` prints it.
	Pid int
	// Proc is the process's proctype, ":init:" for init.
	Proc string
	// Globals holds the global variables' values after the step, as far as
	// spin -g has printed them, keyed as printed ("x[0]", "started"); a
	// global absent from the map was never printed and still has its
	// initial value.
	Globals map[string]int
}

// Trail is a counterexample pan wrote, replayed by Model.Replay.
type Trail struct {
	// Steps are the processes' steps, in order; the never claim's moves
	// are left out.
	Steps []Step
	// CycleStart is the index in Steps of the first step of the accepting
	// or non-progress cycle the trail ends with, or -1 if it has none (a
	// safety violation). The cycle is Steps[CycleStart:]; it starts from
	// the state after Steps[CycleStart-1] and returns to it.
	CycleStart int
	// Output is spin's full output.
	Output string
}

// Replay replays, with `spin -t -p -g` and the model's defines, the trail
// pan wrote for its last error, and parses it with ParseTrail. It fails tb
// if there is no trail or spin fails.
func (m *Model) Replay(tb testing.TB) Trail {
	tb.Helper()
	if m.name == "" {
		tb.Fatalf("spintest: Replay needs a Model made by Compile or CompileWith")
	}
	if _, err := os.Stat(filepath.Join(m.Dir, m.name+".trail")); err != nil {
		tb.Fatalf("spintest: no trail to replay: %v", err)
	}
	spin, _, err := Tools()
	if err != nil {
		tb.Skipf("skipping SPIN replay: %v", err)
	}
	args := append(slices.Clone(m.defines), "-t", "-p", "-g", m.name)
	out, err := runIn(tb, m.Dir, spin, args...)
	if err != nil {
		tb.Fatalf("spintest: spin %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	t, err := ParseTrail(out)
	if err != nil {
		tb.Fatalf("spintest: %v\n%s", err, out)
	}
	return t
}

var (
	stepLine   = regexp.MustCompile(`^\s*(\d+):\s+proc\s+(\d+)\s+\((.+):\d+\)\s`)
	globalLine = regexp.MustCompile(`^\t\t(\S+) = (-?\d+)$`)
)

// ParseTrail reads the output of `spin -t -p -g`: each line
// "N:\tproc P (name:I) ..." is part of step N of process P, each line
// "\t\tvar = value" a global's new value, "<<<<<START OF CYCLE>>>>>" marks
// where the cycle starts, and "spin: trail ends" ends the replay. It fails
// if the output has no end line.
func ParseTrail(out string) (Trail, error) {
	t := Trail{CycleStart: -1, Output: out}
	globals := map[string]int{}
	for line := range strings.Lines(out) {
		line = strings.TrimRight(line, "\r\n")
		switch {
		case strings.HasPrefix(line, "spin: trail ends"):
			return t, nil
		case strings.Contains(line, "<<<<<START OF CYCLE>>>>>"):
			t.CycleStart = len(t.Steps)
		case stepLine.MatchString(line):
			m := stepLine.FindStringSubmatch(line)
			num, _ := strconv.Atoi(m[1])
			pid, _ := strconv.Atoi(m[2])
			if n := len(t.Steps); n > 0 && t.CycleStart != n && t.Steps[n-1].Num == num && t.Steps[n-1].Pid == pid {
				continue
			}
			t.Steps = append(t.Steps, Step{Num: num, Pid: pid, Proc: m[3], Globals: maps.Clone(globals)})
		case globalLine.MatchString(line):
			m := globalLine.FindStringSubmatch(line)
			v, err := strconv.Atoi(m[2])
			if err != nil {
				return t, fmt.Errorf("parsing spin's value %q of %s: %w", m[2], m[1], err)
			}
			globals[m[1]] = v
			if n := len(t.Steps); n > 0 {
				t.Steps[n-1].Globals[m[1]] = v
			}
		}
	}
	return t, errors.New(`spin's replay has no "spin: trail ends" line`)
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
	if m := find(`^\s*` + number + `\s+states, stored \(` + number + ` visited\)`); m != nil {
		v, err := strconv.ParseFloat(m[2], 64)
		errs = append(errs, err)
		r.Visited = int64(v)
	} else {
		r.Visited = r.StatesStored
	}
	if m := find(`^pan:1: (.*)$`); m != nil {
		r.Violation = strings.TrimSpace(m[1])
	}
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

// FairCFlags returns LivenessCFlags plus the -DNFAIR that pan needs for a
// weak-fairness search (pan -a -f) of a model running procs processes,
// init included: pan's default NFAIR=2 allows only 6, and pan refuses to
// run with more.
func FairCFlags(procs int) []string {
	return append(LivenessCFlags(), fmt.Sprintf("-DNFAIR=%d", max(2, (procs+1)/4+1)))
}

// BenchReduced is the body of a benchmark of SPIN's default search (a model
// compiled with ReducedCFlags): it runs pan with panFlags once per
// iteration of b, fails unless pan searched the whole space without error,
// and reports the states pan stored, at most full (the model's states as
// the unreduced search stores them), the seconds pan took (pan's own
// "elapsed time", compiling excluded) and its memory.
func (m *Model) BenchReduced(b *testing.B, full int64, panFlags ...string) {
	var r Result
	for b.Loop() {
		r = m.Run(b, panFlags...)
	}
	if r.Errors != 0 || !r.Complete || r.DepthTruncated || r.StatesStored > full {
		b.Fatalf("pan: %d stored (want at most %d), %d errors, complete %v, depth truncated %v\n%s",
			r.StatesStored, full, r.Errors, r.Complete, r.DepthTruncated, r.Output)
	}
	b.ReportMetric(float64(r.StatesStored), "spin-states")
	b.ReportMetric(r.Seconds, "spin-s")
	b.ReportMetric(r.MemoryMB, "spin-MB")
}

// Bench is the body of a BenchmarkSPIN: it runs pan with panFlags once per
// iteration of b, fails unless pan searched the whole space without error
// and stored exactly states states and made transitions transitions (the
// twins' relation to ringcheck, +1 and +2, is the caller's to add), and
// reports pan's stored states, its rate (pan's "pan: rate" line, or stored
// states over its time), its memory (hash table, state store and search
// stack) and that memory per stored state.
func (m *Model) Bench(b *testing.B, states, transitions int64, panFlags ...string) {
	var r Result
	for b.Loop() {
		r = m.Run(b, panFlags...)
	}
	if r.Errors != 0 || !r.Complete || r.DepthTruncated || r.StatesStored != states || r.Transitions != transitions {
		b.Fatalf("pan: %d stored (want %d), %d transitions (want %d), %d errors, complete %v, depth truncated %v\n%s",
			r.StatesStored, states, r.Transitions, transitions, r.Errors, r.Complete, r.DepthTruncated, r.Output)
	}
	rate := r.StatesPerSecond
	if rate == 0 && r.Seconds > 0 {
		rate = float64(r.StatesStored) / r.Seconds
	}
	b.ReportMetric(float64(r.StatesStored), "spin-states")
	b.ReportMetric(rate, "spin-states/s")
	b.ReportMetric(r.MemoryMB, "spin-MB")
	b.ReportMetric(r.MemoryMB*(1<<20)/float64(r.StatesStored), "spin-bytes/state")
}
