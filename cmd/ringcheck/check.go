package main

import (
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/reports"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/catalog"
)

// checkFlags are the check command's flags, as given.
type checkFlags struct {
	params      []string
	checks      string
	from        string
	daemon      string
	fairness    string
	overflow    string
	maxDepth    int
	maxStates   int64
	timeLimit   time.Duration
	workers     int
	asJSON      bool
	tracePath   string
	traceFormat string
	// traceFormatSet, fromSet, fairnessSet: the flag was given explicitly
	traceFormatSet bool
	fromSet        bool
	fairnessSet    bool
	progress       bool
	sweep          string
	leadsTo        string
	// start is a trace file whose state startState (negative: from the
	// end) the check starts from; startSet: --start-state was given.
	start      string
	startState int
	startSet   bool
	// samples and seed: --from random's.
	samples             int
	seed                uint64
	samplesSet, seedSet bool
	// drawn: the configurations --from all names are drawn at random
	// (simulate), not enumerated, so the space may be of any size.
	drawn bool
}

func newCheckCmd() *cobra.Command {
	var f checkFlags
	cmd := &cobra.Command{
		Use:   "check SPEC",
		Short: "Explore a spec's state space and check its properties",
		Long: `Explore the states of SPEC breadth-first and check the properties named
by --check (default: the spec's own list; see 'ringcheck list').

  safety     every state invariant of the spec holds in every reachable
             state, and no send overflows a channel whose policy is "error"
  deadlock   no reachable state (outside the spec's valid end states)
             has no enabled step

Every counterexample is a shortest path from a starting configuration.
--from init starts from the spec's initial configurations; --from all
starts from every configuration of the full configuration space (every
variable value, every channel content up to its capacity), which is what
self-stabilization is about: there, every configuration is a starting
point, so a violation is a single configuration.

A search stopped by --max-depth, --max-states, --time-limit or Ctrl-C
reports what it found; properties it did not violate are "unknown", never
"holds", and the exit status is 3.

Exit status: 0 every checked property holds and the search was complete;
1 a property is violated; 2 bad usage, unknown spec or bad parameter;
3 a bound stopped the search before any violation was found.`,
		Example: `  ringcheck check dijkstra -p n=5 -p K=5 --from all --check deadlock
  ringcheck check kl-naive -p n=5 -p L=5 -p K=3 --check deadlock --trace t.json
  ringcheck check dijkstra -p n=6 -p K=3 --daemon distributed --json`,
		Args: exactArgs(1, "check needs exactly one SPEC (see 'ringcheck list')"),
		RunE: func(cmd *cobra.Command, args []string) error {
			f.traceFormatSet = cmd.Flags().Changed("trace-format")
			f.fromSet = cmd.Flags().Changed("from")
			f.fairnessSet = cmd.Flags().Changed("fairness")
			f.startSet = cmd.Flags().Changed("start-state")
			f.samplesSet = cmd.Flags().Changed("samples")
			f.seedSet = cmd.Flags().Changed("seed")
			return runCheck(cmd, args[0], &f)
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVarP(&f.params, "param", "p", nil, "set a spec parameter, as name=value (repeatable)")
	fl.StringVar(&f.checks, "check", "", "comma-separated properties: safety,deadlock (default: the spec's)")
	fl.StringVar(&f.from, "from", "init", "starting configurations: init (the spec's), all (every configuration; the default for closure and convergence) or random (--samples uniformly random configurations, for convergence where all cannot be swept)")
	fl.IntVar(&f.samples, "samples", 10, "with --from random: how many random configurations convergence is decided from, one after the other")
	fl.Uint64Var(&f.seed, "seed", 1, "with --from random: the seed of the random configurations (sample i is drawn from a PCG seeded with (seed, i))")
	fl.StringVar(&f.daemon, "daemon", "central", "scheduler: central, distributed or synchronous (state-reading specs only for the last two)")
	fl.StringVar(&f.fairness, "fairness", "none", "fairness for starvation and convergence: none, weak (no process continuously enabled without moving) or strong (no process infinitely often enabled without moving); leaving the critical section is always weakly fair")
	fl.StringVar(&f.overflow, "overflow", "", "override every channel's overflow policy: block, drop or error")
	fl.IntVar(&f.maxDepth, "max-depth", 0, "explore at most this many steps from the start (0: no bound)")
	fl.Int64Var(&f.maxStates, "max-states", 0, "keep at most this many states (0: no bound)")
	fl.DurationVar(&f.timeLimit, "time-limit", 0, "stop after this long, as 90s or 5m (0: no limit)")
	fl.IntVar(&f.workers, "workers", runtime.NumCPU(), "goroutines expanding states")
	fl.BoolVar(&f.asJSON, "json", false, "print the result as one JSON object")
	fl.StringVar(&f.tracePath, "trace", "", "write the first counterexample found to this file")
	fl.StringVar(&f.traceFormat, "trace-format", "json", "format of --trace: "+traceFormatList)
	fl.StringVar(&f.leadsTo, "leads-to", "", "also check FROM ~> TO for every process, over two per-process predicates of the spec, as requesting,inCS (see list --json)")
	fl.StringVar(&f.sweep, "sweep", "", "run the check for every value of one parameter, as K=2..7, and print a table")
	fl.StringVar(&f.start, "start", "", "start from one configuration of a trace FILE written by ringcheck (--trace, rounds --trace, simulate --trace) for the same spec and parameters, instead of --from")
	fl.IntVar(&f.startState, "start-state", 0, "with --start: the index of the trace's state to start from (negative counts from the end: -1 is the last)")
	fl.BoolVar(&f.progress, "progress", false, "report progress on stderr every 2s even when it is not a terminal")
	return cmd
}

func exactArgs(n int, msg string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) != n {
			return usageError("%s", msg)
		}
		return nil
	}
}

// checkPlan is a validated check command: everything is resolved before
// anything runs.
type checkPlan struct {
	spec    *specs.Spec
	values  specs.Values
	sys     *model.System
	opts    invariants.Options
	daemon  model.Daemon
	workers int
}

// planCheck validates the flags (and extra, the parameter a sweep sets)
// and builds the system; nothing runs.
func planCheck(specName string, f *checkFlags, extra map[string]int) (*checkPlan, error) {
	reg, err := catalog.Registry()
	if err != nil {
		return nil, err
	}
	spec, err := reg.Lookup(specName)
	if err != nil {
		return nil, usageError("%v", err)
	}
	overrides := map[string]int{}
	for _, a := range f.params {
		name, val, err := specs.ParseAssignment(a)
		if err != nil {
			return nil, usageError("%v", err)
		}
		if _, dup := overrides[name]; dup {
			return nil, usageError("parameter %s is given twice", name)
		}
		overrides[name] = val
	}
	for name, val := range extra {
		if _, dup := overrides[name]; dup {
			return nil, usageError("parameter %s is both swept and set with -p", name)
		}
		overrides[name] = val
	}
	values, err := spec.Resolve(overrides)
	if err != nil {
		return nil, usageError("%v", err)
	}
	fairness, err := invariants.ParseFairness(f.fairness)
	if err != nil {
		return nil, usageError("%v", err)
	}

	daemon, err := model.ParseDaemon(f.daemon)
	if err != nil {
		return nil, usageError("%v", err)
	}
	var bopts specs.BuildOptions
	bopts.Daemon = daemon
	if f.overflow != "" {
		o, err := model.ParseOverflow(f.overflow)
		if err != nil {
			return nil, usageError("%v", err)
		}
		bopts.Overflow = &o
	}
	checks := spec.DefaultChecks
	if f.checks != "" {
		checks = strings.Split(f.checks, ",")
	}
	var props []invariants.Property
	for _, c := range checks {
		p := invariants.Property(strings.TrimSpace(c))
		if err := invariants.Implemented(p); err != nil {
			return nil, usageError("--check: %v", err)
		}
		if slices.Contains(props, p) {
			return nil, usageError("--check: %s is named twice", p)
		}
		props = append(props, p)
	}
	if traceWriters[f.traceFormat] == nil {
		return nil, usageError("--trace-format %q is not one of %s", f.traceFormat, traceFormatList)
	}
	var leadsTo invariants.LeadsTo
	if f.leadsTo != "" {
		a, b, ok := strings.Cut(f.leadsTo, ",")
		if !ok || strings.TrimSpace(a) == "" || strings.TrimSpace(b) == "" {
			return nil, usageError("--leads-to %q is not of the form FROM,TO", f.leadsTo)
		}
		leadsTo = invariants.LeadsTo{From: strings.TrimSpace(a), To: strings.TrimSpace(b)}
		if !slices.Contains(props, invariants.LeadsToProperty) {
			props = append(props, invariants.LeadsToProperty)
		}
	}
	stabilizing := slices.Contains(props, invariants.Closure) || slices.Contains(props, invariants.Convergence)
	from := invariants.FromInit
	if stabilizing {
		from = invariants.FromAll
	}
	if f.startSet && f.start == "" {
		return nil, usageError("--start-state needs --start FILE")
	}
	if f.start != "" {
		if f.fromSet {
			return nil, usageError("--start and --from both say where the check starts: give one")
		}
		if slices.Contains(props, invariants.Closure) {
			return nil, usageError("closure is about every legitimate configuration: check it --from all, not from --start")
		}
		from = invariants.FromGiven
	}
	if f.fromSet {
		if from, err = invariants.ParseFrom(f.from); err != nil {
			return nil, usageError("%v", err)
		}
		if stabilizing && from != invariants.FromAll && from != invariants.FromRandom {
			return nil, usageError("closure and convergence are about every configuration: they need --from all")
		}
		if from == invariants.FromRandom && (len(props) != 1 || props[0] != invariants.Convergence) {
			return nil, usageError("--from random decides convergence alone (--check convergence): the other properties are about the initial configurations or every configuration")
		}
	}
	live := slices.Contains(props, invariants.Starvation) || slices.Contains(props, invariants.LeadsToProperty)
	if (f.samplesSet || f.seedSet) && from != invariants.FromRandom {
		return nil, usageError("--samples and --seed choose the configurations of --from random")
	}
	if from == invariants.FromRandom && f.samples < 1 {
		return nil, usageError("--samples must be at least 1")
	}
	if from == invariants.FromAll && f.maxDepth > 0 {
		return nil, usageError("--max-depth bounds a search from the initial configurations; from all, every configuration is a starting point at depth 0 (use --max-states or --time-limit)")
	}
	if f.fairnessSet && !slices.Contains(props, invariants.Convergence) && !live {
		return nil, usageError("--fairness applies to starvation, leads-to and convergence, which --check does not name")
	}
	if stabilizing && live && from != invariants.FromGiven {
		return nil, usageError("starvation and leads-to are checked from the initial configurations and closure and convergence from all of them: check them in separate runs")
	}
	if f.traceFormatSet && f.tracePath == "" {
		return nil, usageError("--trace-format needs --trace FILE")
	}
	if f.maxDepth < 0 || f.maxStates < 0 || f.timeLimit < 0 {
		return nil, usageError("--max-depth, --max-states and --time-limit must not be negative")
	}
	if f.workers < 1 {
		return nil, usageError("--workers must be at least 1")
	}
	if f.tracePath != "" {
		if err := checkTracePath(f.tracePath); err != nil {
			return nil, usageError("--trace: %v", err)
		}
	}
	sys, err := spec.Build(values, bopts)
	if err != nil {
		return nil, usageError("%v", err)
	}
	if err := invariants.Applicable(sys, props, leadsTo); err != nil {
		return nil, usageError("--check: %v", err)
	}
	var start []*model.State
	if f.start != "" {
		st, err := readStart(f.start, f.startState, spec, values, sys)
		if err != nil {
			return nil, usageError("--start: %v", err)
		}
		start = []*model.State{st}
	}
	closureOnly := len(props) == 1 && props[0] == invariants.Closure && sys.LegitimateConfigurations != nil
	if from == invariants.FromAll && !f.drawn && !closureOnly {
		if _, ok := sys.Configurations(); !ok {
			also := ""
			if sys.LegitimateConfigurations != nil {
				also = " (closure alone is decided from the spec's enumeration of L: --check closure)"
			}
			return nil, usageError("spec %s (%s): the full configuration space has about 10^%.0f configurations, too many to sweep%s; 'ringcheck rounds %s' measures recovery from random configurations, and check --start FILE decides convergence from one of them", spec.Name, values, sys.ConfigurationsLog10(), also, spec.Name)
		}
	}
	return &checkPlan{
		spec: spec, values: values, sys: sys, daemon: daemon, workers: f.workers,
		opts: invariants.Options{
			Properties: props,
			From:       from,
			Fairness:   fairness,
			LeadsTo:    leadsTo,
			Start:      start,
			Samples:    f.samples,
			Seed:       f.seed,
			Search: explore.Options{
				MaxDepth:  f.maxDepth,
				MaxStates: f.maxStates,
				TimeLimit: f.timeLimit,
				Workers:   f.workers,
			},
		},
	}, nil
}

// readStart reads the configuration a check --start begins from: state
// index (negative: from the end) of the trace in path, which must be a
// trace of the same spec with the same parameters.
func readStart(path string, index int, spec *specs.Spec, values specs.Values, sys *model.System) (*model.State, error) {
	t, err := reports.ReadTraceFile(path)
	if err != nil {
		return nil, err
	}
	if t.Spec != spec.Name {
		return nil, fmt.Errorf("%s is a trace of %s, not of %s", path, t.Spec, spec.Name)
	}
	if got := specs.Values(t.Params); !maps.Equal(got, values) {
		return nil, fmt.Errorf("%s has parameters %s, but this check has %s (give the same with -p)", path, got, values)
	}
	st, err := t.Configuration(sys, index)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return st, nil
}

func runCheck(cmd *cobra.Command, specName string, f *checkFlags) error {
	if f.sweep != "" {
		return runSweep(cmd, specName, f)
	}
	plan, err := planCheck(specName, f, nil)
	if err != nil {
		return err
	}
	stderr := cmd.ErrOrStderr()
	result, rep, err := runPlan(cmd, plan, f)
	if err != nil {
		return err
	}
	if f.tracePath != "" {
		// The verdict stands whatever happens to the file: a failure to
		// write it is reported, and the exit status is still the verdict's.
		if err := writeTraceFile(f.tracePath, f.traceFormat, result, stderr); err != nil {
			fmt.Fprintf(stderr, "ringcheck: %v\n", err)
		}
	}
	out := cmd.OutOrStdout()
	if f.asJSON {
		err = reports.WriteCheckJSON(out, result)
	} else {
		err = reports.WriteCheckText(out, result)
	}
	if err != nil {
		return &exitError{code: exitUsage, err: fmt.Errorf("writing the result: %w", err)}
	}
	return verdictExit(rep.Violated(), rep.Unknown())
}

func verdictExit(violated, unknown bool) error {
	switch {
	case violated:
		return &exitError{code: exitViolated}
	case unknown:
		return &exitError{code: exitUnknown}
	}
	return nil
}

// runPlan runs one validated check and assembles its result.
func runPlan(cmd *cobra.Command, plan *checkPlan, f *checkFlags) (*reports.CheckResult, *invariants.Report, error) {
	stderr := cmd.ErrOrStderr()
	if f.progress || isTerminal(stderr) {
		plan.opts.Search.Progress = progressPrinter(stderr)
	}
	heap := explore.StartHeapSampler(20 * time.Millisecond)
	rep, err := invariants.Check(cmd.Context(), plan.sys, plan.opts)
	peak := heap.Stop()
	if err != nil {
		return nil, nil, &exitError{code: exitUsage, err: err}
	}
	opts := reports.CheckOptions{
		From: string(plan.opts.From), Daemon: plan.daemon.String(),
		MaxDepth: f.maxDepth, MaxStates: f.maxStates, Workers: plan.workers,
	}
	if f.timeLimit > 0 {
		opts.TimeLimit = f.timeLimit.String()
	}
	if slices.Contains(plan.opts.Properties, invariants.Convergence) || slices.Contains(plan.opts.Properties, invariants.Starvation) ||
		slices.Contains(plan.opts.Properties, invariants.LeadsToProperty) {
		// Fairness qualifies the liveness verdicts only.
		opts.Fairness = string(plan.opts.Fairness)
	}
	result := reports.NewCheckResult(reports.Run{
		System: plan.sys, Params: plan.values, Options: opts, Report: rep, PeakHeapBytes: peak,
		PaperBound: plan.spec.StabilizationBound,
	})
	return result, rep, nil
}

// runSweep runs the same check for every value of one parameter, after
// validating every one of them, and prints a table (or a JSON array).
func runSweep(cmd *cobra.Command, specName string, f *checkFlags) error {
	name, lo, hi, err := parseSweep(f.sweep)
	if err != nil {
		return usageError("--sweep: %v", err)
	}
	if f.tracePath != "" {
		return usageError("--trace writes one counterexample and does not combine with --sweep; the counterexamples are in the sweep's output")
	}
	var plans []*checkPlan
	for v := lo; v <= hi; v++ {
		plan, err := planCheck(specName, f, map[string]int{name: v})
		if err != nil {
			return err
		}
		plans = append(plans, plan)
	}
	var (
		rows              []reports.SweepRow
		violated, unknown bool
	)
	for i, plan := range plans {
		result, rep, err := runPlan(cmd, plan, f)
		if err != nil {
			return err
		}
		rows = append(rows, reports.SweepRow{Value: lo + i, Result: result})
		violated = violated || rep.Violated()
		unknown = unknown || rep.Unknown()
		if cmd.Context().Err() != nil {
			break
		}
	}
	out := cmd.OutOrStdout()
	if f.asJSON {
		err = reports.WriteSweepJSON(out, rows)
	} else {
		err = reports.WriteSweepText(out, name, rows)
	}
	if err != nil {
		return &exitError{code: exitUsage, err: fmt.Errorf("writing the result: %w", err)}
	}
	return verdictExit(violated, unknown)
}

// parseSweep parses "name=lo..hi".
func parseSweep(s string) (name string, lo, hi int, err error) {
	name, rng, ok := strings.Cut(s, "=")
	a, b, ok2 := strings.Cut(rng, "..")
	if !ok || !ok2 || name == "" {
		return "", 0, 0, fmt.Errorf("%q is not of the form name=lo..hi", s)
	}
	if lo, err = strconv.Atoi(a); err == nil {
		hi, err = strconv.Atoi(b)
	}
	if err != nil {
		return "", 0, 0, fmt.Errorf("%q: the bounds must be integers", s)
	}
	if lo > hi {
		return "", 0, 0, fmt.Errorf("%q: empty range", s)
	}
	if hi-lo >= 1000 {
		return "", 0, 0, fmt.Errorf("%q: more than 1000 values", s)
	}
	return name, lo, hi, nil
}

// traceWriters are the trace formats of --trace-format and 'trace --format'.
var traceWriters = map[string]func(io.Writer, *reports.Trace) error{
	"json":    reports.WriteTraceJSON,
	"text":    reports.WriteTraceText,
	"dot":     reports.WriteTraceDOT,
	"svg":     reports.WriteTraceSVG,
	"mermaid": reports.WriteTraceMermaid,
}

// traceFormatList names traceWriters' keys, for messages and help.
const traceFormatList = "json, text, dot, svg, mermaid"

// writeTraceFile writes the first counterexample of the result, in the
// order of --check.
// It records the file in the property's result, for the text summary.
func writeTraceFile(path, format string, result *reports.CheckResult, stderr io.Writer) error {
	for i, p := range result.Properties {
		if p.Trace == nil {
			continue
		}
		file, err := os.Create(path)
		if err != nil {
			return fmt.Errorf("--trace: %w", err)
		}
		err = traceWriters[format](file, p.Trace)
		if cerr := file.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("--trace: writing %s: %w", path, err)
		}
		result.Properties[i].TraceFile = path
		return nil
	}
	fmt.Fprintf(stderr, "ringcheck: no counterexample, %s not written\n", path)
	return nil
}

// checkTracePath rejects, before the search, a --trace file that could not
// be written after it: one in a folder that does not exist, or a folder.
func checkTracePath(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("%s is a directory", path)
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	return nil
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func progressPrinter(w io.Writer) func(explore.Progress) {
	return func(p explore.Progress) {
		fmt.Fprintf(w, "progress: %d states, %d transitions, depth %d, %.0f states/s, %s\n",
			p.States, p.Transitions, p.Depth, p.StatesPerSecond(), p.Elapsed.Round(time.Millisecond))
	}
}
