package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/ringcheck/ringcheck"
	"github.com/ringcheck/ringcheck/budget"
	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/fields"
	"github.com/ringcheck/ringcheck/invariants"
	langcheck "github.com/ringcheck/ringcheck/lang/check"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/reports"
	"github.com/ringcheck/ringcheck/shard"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/symbolic"
)

// checkFlags are the check command's flags, as given.
type checkFlags struct {
	params    []string
	checks    string
	from      string
	daemon    string
	fairness  string
	overflow  string
	links     string
	maxDepth  int
	maxStates int64
	timeLimit time.Duration
	maxMemory string
	store     string
	// memorySource says where the memory budget comes from.
	memorySource string
	workers      int
	asJSON       bool
	tracePath    string
	traceFormat  string
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
	// graphPath: --graph's file.
	graphPath string
	// engine: --engine; symbolicRounds: --symbolic-rounds.
	engine         string
	symbolicRounds bool
	// reduce: --reduce.
	reduce string
	// cluster: --procs, --cluster and --cluster-workers.
	cluster clusterFlags
	// shard: --shard; output: -o; sampleShard: the samples of --from
	// random this run checks (parsed from --shard, without --sweep).
	shard       string
	output      string
	sampleShard invariants.Shard
}

func newCheckCmd() *cobra.Command {
	var f checkFlags
	cmd := &cobra.Command{
		Use:   "check SPEC",
		Short: "Explore a spec's state space and check its properties",
		Long: `Check the properties named by --check (default: the spec's own list;
see 'ringcheck list') on SPEC with the parameters set by -p. SPEC is a
built-in spec's name or the path of a .ring file (the ring language: see
docs/language.md).

  safety       every state invariant of the spec holds in every reachable
               state, and no send overflows a channel whose policy is "error"
  deadlock     no reachable state (outside the spec's valid end states)
               has no enabled step
  starvation   no execution (under --fairness) keeps a requesting process
               out of its critical section forever
  leads-to     with --leads-to FROM,TO: every process in which FROM holds
               later has TO (under --fairness)
  closure      no step leaves the legitimate configurations L
  convergence  every execution (under --fairness) from every configuration
               reaches L; when it holds, the worst case in steps and in
               asynchronous rounds is printed

Where the check starts:
  --from init    the spec's initial configurations (the default for safety,
                 deadlock, starvation and leads-to), explored breadth-first,
                 so a safety or deadlock violation is reached by a
                 shortest path;
  --from all     every configuration of the full space, channel contents
                 included (the default for closure and convergence): what
                 self-stabilization is about;
  --from random  --samples random configurations, convergence alone: a
                 violation is decided, otherwise the verdict stays unknown;
  --start FILE   one configuration of a trace file (--start-state K picks
                 which), convergence decided from it in the same way;
  --from empty-channels
                 every configuration whose channels are empty (every
                 assignment of the variables), convergence alone, searched
                 together: a violation is decided, otherwise unknown;
  --from start   every configuration where the .ring file's start predicate
                 holds (start: EXPR), searched together: safety, deadlock,
                 starvation and leads-to over what they reach, and
                 convergence decided both ways (every execution from them,
                 and from what they reach, reaches L).
With --from random, empty-channels or --start, --links reliable runs a spec whose paper
makes its links reliable (kl-ddhl, kl-dhv) on such links: channels
enlarged, random configurations with at most the spec's own capacity a
channel, and a configuration from which a send can overflow deciding
nothing.

A search stopped by --max-depth, --max-states, --time-limit, the memory
budget (--max-memory, by default 70% of the memory), Ctrl-C or SIGTERM reports
what it found; properties it did not violate are "unknown", never
"holds", and the exit status is 3. --trace FILE writes the first
counterexample, which 'ringcheck trace FILE' renders and 'check --start
FILE' starts from; --graph FILE.dot draws the state graph of an instance
of at most ` + strconv.Itoa(reports.StateGraphLimit) + ` states for Graphviz.

Exit status: 0 every checked property holds and the search was complete;
1 a property is violated; 2 bad usage, unknown spec or bad parameter;
3 a bound stopped the search before any violation was found.`,
		Example: `  ringcheck check dijkstra -p n=5 -p K=5 --check closure,convergence
  ringcheck check kl-naive -p n=5 -p L=5 -p K=3 --check deadlock --trace t.json
  ringcheck check kl-pusher --check starvation --fairness weak
  ringcheck check dijkstra -p n=6 -p K=3 --daemon distributed --json
  ringcheck check dijkstra --check convergence --sweep K=2..6
  ringcheck check dijkstra -p n=4 -p K=2 --check convergence --graph g.dot
  ringcheck check dijkstra --sweep K=2..9 --check convergence --shard 0/4 --json -o part-0.json   # then: ringcheck merge part-*.json`,
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
	fl.StringVar(&f.checks, "check", "", "comma-separated properties: safety, deadlock, starvation, leads-to, closure, convergence (default: the spec's)")
	fl.StringVar(&f.from, "from", "init", "starting configurations: init (the spec's), all (every configuration; the default for closure and convergence), random (--samples uniformly random configurations, for convergence where all cannot be swept) empty-channels (every configuration whose channels are empty, for convergence) or start (every configuration where the .ring file's start predicate holds)")
	fl.IntVar(&f.samples, "samples", 10, "with --from random: how many random configurations convergence is decided from, one after the other")
	fl.Uint64Var(&f.seed, "seed", 1, "with --from random: the seed of the random configurations (sample i is drawn from a PCG seeded with (seed, i))")
	fl.StringVar(&f.daemon, "daemon", "central", "scheduler: central, distributed or synchronous (state-reading specs only for the last two)")
	fl.StringVar(&f.fairness, "fairness", "none", "fairness for starvation, leads-to and convergence: none, weak (no process continuously enabled without moving), strong (no process infinitely often enabled without moving), or weak-action and strong-action, the same for each action of each process (a message at a channel's head whose receive is enabled is received: reliable links with finite delay); leaving the critical section is always weakly fair")
	fl.StringVar(&f.overflow, "overflow", "", "override every channel's overflow policy: block (the send waits), drop (the message is lost) or error (a safety violation; the other properties treat the step as leaving the model)")
	fl.StringVar(&f.links, "links", "", "with --from random, --from empty-channels or --start, for a spec whose paper makes its links reliable once the faults end (kl-ddhl, kl-dhv): reliable (the paper's: channels enlarged, random configurations with at most the spec's own capacity a channel, and a configuration from which a send can overflow decides nothing) or lossy (the spec's own bounded links, the default)")
	fl.IntVar(&f.maxDepth, "max-depth", 0, "explore at most this many steps from the start (0: no bound)")
	fl.Int64Var(&f.maxStates, "max-states", 0, "keep at most this many states (0: no bound)")
	fl.DurationVar(&f.timeLimit, "time-limit", 0, "stop after this long, as 90s or 5m (0: no limit)")
	fl.StringVar(&f.maxMemory, "max-memory", "auto", memoryFlagHelp)
	fl.StringVar(&f.store, "store", "exact", "what a search from init keeps of each state: exact (the state), tree (the state, tree-compressed: less than half the memory, slower) or fingerprint (a 64-bit fingerprint: about a third of the memory, for safety and deadlock, with the probability of a missed state reported)")
	fl.IntVar(&f.workers, "workers", min(runtime.NumCPU(), explore.MaxWorkers), fmt.Sprintf("goroutines expanding states (at most %d)", explore.MaxWorkers))
	fl.BoolVar(&f.asJSON, "json", false, "print the result as one JSON object")
	fl.StringVar(&f.tracePath, "trace", "", "write the first counterexample found to this file")
	fl.StringVar(&f.traceFormat, "trace-format", "json", "format of --trace: "+traceFormatList)
	fl.StringVar(&f.leadsTo, "leads-to", "", "also check FROM ~> TO for every process, over two per-process predicates of the spec, as requesting,inCS (see list --json)")
	fl.StringVar(&f.sweep, "sweep", "", "run the check for every value of one parameter, as K=2..7, and print a table")
	fl.StringVar(&f.start, "start", "", "start from one configuration of a trace FILE written by ringcheck (--trace, rounds --trace, simulate --trace) for the same spec and parameters, instead of --from")
	fl.IntVar(&f.startState, "start-state", 0, "with --start: the index of the trace's state to start from (negative counts from the end: -1 is the last)")
	fl.StringVar(&f.graphPath, "graph", "", fmt.Sprintf("also write the whole state graph (reachable from init, or every configuration with --from all) to this Graphviz DOT file, up to %d states", reports.StateGraphLimit))
	fl.BoolVar(&f.progress, "progress", false, "report progress on stderr every 2s even when it is not a terminal")
	f.cluster.add(fl)
	fl.BoolVar(&f.symbolicRounds, "symbolic-rounds", false, "with --engine symbolic or auto: also compute the worst case in asynchronous rounds (central daemon), as the explicit engine always does; it costs far more than the worst case in steps (dijkstra.ring n=K=8: about 3 minutes against 2 s)")
	fl.StringVar(&f.engine, "engine", "explicit", "what decides closure and convergence from all: explicit (every configuration one by one), symbolic (BDD fixpoints, for a .ring spec, channel contents included; any fairness under the central daemon, witnesses replayed on the explicit model, rounds only with --symbolic-rounds) or auto (symbolic where it applies and the explicit engine could not hold the space within --max-memory)")
	fl.StringVar(&f.shard, "shard", "", "run shard i of K of a sweep or of the samples of --from random, as i/K, or auto/K to read i from JOB_COMPLETION_INDEX (a Kubernetes Indexed Job), and write a partial result for 'ringcheck merge' (needs --json)")
	fl.StringVarP(&f.output, "output", "o", "", "write the result to this file instead of stdout")
	fl.StringVar(&f.reduce, "reduce", "", "state-space reductions: none, por (partial-order reduction, for safety and deadlock from init: an error where it cannot run), symmetry, or all (each that applies; the report says why one does not); default: "+string(ringcheck.DefaultReduce))
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

// checkFlagNames names the fields of a ringcheck.Request as check's flags,
// for its errors.
var checkFlagNames = map[string]string{
	"Spec": "SPEC", "Params": "-p", "Properties": "--check", "LeadsTo": "--leads-to",
	"From": "--from", "Start.Trace": "--start", "Start.Index": "--start-state",
	"Random": "--samples and --seed", "Random.Samples": "--samples", "Random.Seed": "--seed",
	"Daemon": "--daemon", "Overflow": "--overflow", "ReliableLinks": "--links reliable", "Fairness": "--fairness",
	"MaxDepth": "--max-depth", "MaxStates": "--max-states", "TimeLimit": "--time-limit", "Workers": "--workers",
	"MaxMemory": "--max-memory", "Fingerprints": "--store fingerprint", "Engine": "--engine", "SymbolicRounds": "--symbolic-rounds",
	"Reduce": "--reduce", "Shard": "--shard", "Shard.Index": "--shard", "Shard.Count": "--shard",
}

// requestError is a usage error for an error about a request, naming the
// flags that set the fields at fault.
func requestError(err error) error {
	var fe *fields.Error
	if errors.As(err, &fe) {
		return usageError("%s", fe.Render(func(f string) string { return checkFlagNames[f] }))
	}
	return usageError("%v", err)
}

// planCheck maps the flags (and extra, the parameter a sweep sets) onto a
// request and validates it; nothing runs.
func planCheck(ctx context.Context, specName string, f *checkFlags, extra map[string]int) (*ringcheck.Request, error) {
	req, err := f.request(ctx, specName, extra)
	if err != nil {
		return nil, err
	}
	if err := f.cluster.prepare(req, f); err != nil {
		return nil, err
	}
	if f.traceFormatSet && f.tracePath == "" {
		return nil, usageError("--trace-format needs --trace FILE")
	}
	for _, out := range [][2]string{{"--trace", f.tracePath}, {"--graph", f.graphPath}} {
		if err := checkTracePath(out[1]); out[1] != "" && err != nil {
			return nil, usageError("%s: %v", out[0], err)
		}
	}
	if f.graphPath != "" && (req.Start != nil || req.From == invariants.FromRandom || req.From == invariants.FromEmptyChannels || req.From == invariants.FromStart) {
		return nil, usageError("--graph draws the graph from init or from all; not with --start, --from random, --from empty-channels or --from start")
	}
	if err := req.Validate(); err != nil {
		return nil, requestError(err)
	}
	return req, nil
}

// request parses the flags into a request, leaving the rules on what may
// be combined to the request's Validate.
func (f *checkFlags) request(ctx context.Context, specName string, extra map[string]int) (*ringcheck.Request, error) {
	spec, params, err := lookupSpec(ctx, specName, f.params, extra)
	if err != nil {
		return nil, err
	}
	req := &ringcheck.Request{Spec: spec, Params: params, MaxDepth: f.maxDepth, MaxStates: f.maxStates, TimeLimit: f.timeLimit, Workers: f.workers}
	if req.MaxMemory, f.memorySource, err = memoryLimit(f.maxMemory); err != nil {
		return nil, usageError("--max-memory: %v", err)
	}
	if req.Fingerprints, req.TreeStore, err = parseStore(f.store); err != nil {
		return nil, usageError("--store: %v", err)
	}
	if req.Daemon, err = model.ParseDaemon(f.daemon); err != nil {
		return nil, usageError("%v", err)
	}
	if req.Engine, err = ringcheck.ParseEngine(f.engine); err != nil {
		return nil, usageError("--engine: %v", err)
	}
	req.SymbolicRounds = f.symbolicRounds
	if f.reduce != "" {
		if req.Reduce, err = ringcheck.ParseReduce(f.reduce); err != nil {
			return nil, usageError("--reduce: %v", err)
		}
	}
	if f.overflow != "" {
		o, err := model.ParseOverflow(f.overflow)
		if err != nil {
			return nil, usageError("%v", err)
		}
		req.Overflow = &o
	}
	if f.links != "" {
		if req.ReliableLinks, err = parseReliable(f.links); err != nil {
			return nil, usageError("--links: %v", err)
		}
	}
	if f.fairnessSet {
		if req.Fairness, err = invariants.ParseFairness(f.fairness); err != nil {
			return nil, usageError("%v", err)
		}
	}
	if f.checks != "" {
		for _, c := range strings.Split(f.checks, ",") {
			req.Properties = append(req.Properties, invariants.Property(strings.TrimSpace(c)))
		}
	}
	if traceWriters[f.traceFormat] == nil {
		return nil, usageError("--trace-format %q is not one of %s", f.traceFormat, traceFormatList)
	}
	if f.leadsTo != "" {
		a, b, ok := strings.Cut(f.leadsTo, ",")
		if !ok || strings.TrimSpace(a) == "" || strings.TrimSpace(b) == "" {
			return nil, usageError("--leads-to %q is not of the form FROM,TO", f.leadsTo)
		}
		req.LeadsTo = invariants.LeadsTo{From: strings.TrimSpace(a), To: strings.TrimSpace(b)}
	}
	if f.start != "" || f.startSet {
		req.Start = &ringcheck.Start{Trace: f.start, Index: f.startState}
	}
	if f.fromSet {
		if req.From, err = invariants.ParseFrom(f.from); err != nil {
			return nil, usageError("--from %q is not one of init, all, random, empty-channels, start", f.from)
		}
	}
	if f.samplesSet || f.seedSet {
		req.Random = &ringcheck.Random{Samples: f.samples, Seed: f.seed}
	}
	req.Shard = f.sampleShard
	return req, nil
}

// lookupSpec finds the named spec and parses its -p assignments (and
// extra, set by a sweep).
func lookupSpec(ctx context.Context, name string, assignments []string, extra map[string]int) (*specs.Spec, map[string]int, error) {
	spec, err := findSpec(ctx, name, "")
	if err != nil {
		return nil, nil, err
	}
	params := map[string]int{}
	for _, a := range assignments {
		name, val, err := specs.ParseAssignment(a)
		if err != nil {
			return nil, nil, usageError("%v", err)
		}
		if _, dup := params[name]; dup {
			return nil, nil, usageError("parameter %s is given twice", name)
		}
		params[name] = val
	}
	for name, val := range extra {
		if _, dup := params[name]; dup {
			return nil, nil, usageError("parameter %s is both swept and set with -p", name)
		}
		params[name] = val
	}
	return spec, params, nil
}

func runCheck(cmd *cobra.Command, specName string, f *checkFlags) error {
	var sh shard.Shard
	if f.shard != "" {
		var err error
		if sh, err = parseShard(f); err != nil {
			return err
		}
		if f.sweep == "" {
			f.sampleShard = sh
		}
	}
	if f.output != "" {
		if err := checkTracePath(f.output); err != nil {
			return usageError("-o: %v", err)
		}
	}
	if f.sweep != "" {
		if f.graphPath != "" {
			return usageError("--graph draws one instance's state graph; not with --sweep")
		}
		return runSweep(cmd, specName, f, sh)
	}
	plan, err := planCheck(cmd.Context(), specName, f, nil)
	if err != nil {
		return err
	}
	plan.Search = f.cluster.search(cmd, specName, f, plan)
	stderr := cmd.ErrOrStderr()
	result, res, err := runPlan(cmd, plan, f)
	if err != nil {
		return err
	}
	defer memoryHint(stderr, result)
	rep := res.Report
	if f.tracePath != "" {
		// The verdict stands whatever happens to the file: a failure to
		// write it is reported, and the exit status is still the verdict's.
		if err := writeTraceFile(f.tracePath, f.traceFormat, result, stderr); err != nil {
			fmt.Fprintf(stderr, "ringcheck: %v\n", err)
		}
	}
	if f.graphPath != "" {
		// As for --trace, the verdict stands whatever happens to the file.
		if err := writeGraphFile(cmd.Context(), f.graphPath, res); err != nil {
			fmt.Fprintf(stderr, "ringcheck: --graph: %v\n", err)
		}
	}
	out, closeOut, err := openOutput(cmd, f.output)
	if err != nil {
		return err
	}
	defer closeOut()
	if sh.Count > 0 {
		run := runFingerprint(cmd, plan.Spec, f.params)
		return writePartial(out, closeOut, randomPartial(sh, run, res.Options, rep, result, cmd.Context().Err() == nil))
	}
	if f.asJSON {
		err = reports.WriteCheckJSON(out, result)
	} else {
		err = reports.WriteCheckText(out, result)
	}
	if err == nil {
		err = closeOut()
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
func runPlan(cmd *cobra.Command, req *ringcheck.Request, f *checkFlags) (*reports.CheckResult, *ringcheck.Result, error) {
	stderr := cmd.ErrOrStderr()
	applyMemoryLimit(req.MaxMemory)
	if f.progress || isTerminal(stderr) {
		req.Progress = progressPrinter(stderr)
		req.SymbolicProgress = symbolicProgressPrinter(stderr)
	}
	if f.progress {
		describeMemoryLimit(stderr, req.MaxMemory, f.memorySource)
	}
	res, err := req.Run(cmd.Context())
	if err != nil {
		return nil, nil, &exitError{code: exitUsage, err: err}
	}
	opts := reports.CheckOptions{
		From: string(res.Options.From), Daemon: req.Daemon.String(),
		MaxDepth: req.MaxDepth, MaxStates: req.MaxStates, Workers: req.Workers,
	}
	if req.ReliableLinks {
		opts.Links = reliableLinks
	}
	opts.Reduce, opts.ReduceNote = reduceOption(req, res)
	var sym *reports.SymbolicStats
	if res.Engine == ringcheck.EngineSymbolic {
		opts.Engine = string(res.Engine)
		sym = symbolicStats(res.Symbolic)
	} else if res.System != nil && res.System.Generated {
		opts.Code = generatedCode
	}
	if f.memorySource == "--max-memory" {
		// A budget given is part of how the check ran; the automatic one
		// depends on the machine, and is left out of the record.
		opts.MaxMemory = req.MaxMemory
	}
	if req.TimeLimit > 0 {
		opts.TimeLimit = req.TimeLimit.String()
	}
	props := res.Options.Properties
	if slices.Contains(props, invariants.Convergence) || slices.Contains(props, invariants.Starvation) ||
		slices.Contains(props, invariants.LeadsToProperty) {
		// Fairness qualifies the liveness verdicts only.
		opts.Fairness = string(cmp.Or(res.Options.Fairness, invariants.NoFairness))
	}
	result := reports.NewCheckResult(reports.Run{
		System: res.System, Params: res.Values, Options: opts, Report: res.Report, PeakHeapBytes: res.PeakHeapBytes,
		PaperBound: req.Spec.StabilizationBound, Symbolic: sym,
	})
	if st := result.Stabilization; st != nil && st.RoundsNote == ringcheck.SymbolicRoundsNotAsked {
		st.RoundsNote += " (--symbolic-rounds)"
	}
	stampTraces(result, req, res.Key)
	return result, res, nil
}

// stampTraces records in every trace of result what replaying it needs
// and what it is a trace of: the overflow policy and the links it ran on,
// the key of the request that found it, and the .ring file of the spec.
func stampTraces(result *reports.CheckResult, req *ringcheck.Request, key string) {
	policy, links := req.OverflowPolicy(), ""
	if req.ReliableLinks {
		links = reports.ReliableLinks
	}
	stamp := func(t *reports.Trace) {
		t.Overflow, t.Links, t.Request = policy, links, key
		stampSpecFile(t, req.Spec)
	}
	for _, pr := range result.Properties {
		if pr.Trace != nil {
			stamp(pr.Trace)
		}
	}
	if st := result.Stabilization; st != nil && st.Witness != nil {
		stamp(st.Witness)
	}
}

// runSweep runs the same check for every value of one parameter, after
// validating every one of them, and prints a table (or a JSON array).
// With sh set (Count > 0), it runs the values of its shard only (the k-th
// value of the range, from 0, belongs to shard k mod Count) and writes
// their partial result.
func runSweep(cmd *cobra.Command, specName string, f *checkFlags, sh shard.Shard) error {
	name, lo, hi, err := parseSweep(f.sweep)
	if err != nil {
		return usageError("--sweep: %v", err)
	}
	if f.tracePath != "" {
		return usageError("--trace writes one counterexample and does not combine with --sweep; the counterexamples are in the sweep's output")
	}
	// A value for which the spec's requirement fails is skipped, with a
	// note; every other is validated before the first runs.
	plans := map[int]*ringcheck.Request{}
	skipped := map[int]*reports.CheckResult{}
	var firstSkip error
	for v := lo; v <= hi; v++ {
		extra := map[string]int{name: v}
		plan, err := planCheck(cmd.Context(), specName, f, extra)
		if err != nil {
			result, ok := requirementFails(cmd.Context(), specName, f.params, extra)
			if !ok {
				return err
			}
			skipped[v] = result
			firstSkip = cmp.Or(firstSkip, err)
			continue
		}
		plans[v] = plan
	}
	if len(plans) == 0 {
		return firstSkip
	}
	var (
		rows              []reports.SweepRow
		parts             []shard.Row
		violated, unknown bool
	)
	for v := lo; v <= hi; v++ {
		if sh.Count > 0 && !sh.Owns(v-lo) {
			continue
		}
		if result := skipped[v]; result != nil {
			rows = append(rows, reports.SweepRow{Value: v, Result: result})
			parts = append(parts, shard.Row{Value: v, Result: result})
			continue
		}
		result, res, err := runPlan(cmd, plans[v], f)
		if err != nil {
			return err
		}
		rep := res.Report
		rows = append(rows, reports.SweepRow{Value: v, Result: result})
		parts = append(parts, shard.Row{Value: v, Result: result, Violated: rep.Violated(), Unknown: rep.Unknown()})
		violated = violated || rep.Violated()
		unknown = unknown || rep.Unknown()
		if cmd.Context().Err() != nil {
			break
		}
	}
	out, closeOut, err := openOutput(cmd, f.output)
	if err != nil {
		return err
	}
	defer closeOut()
	if sh.Count > 0 {
		var spec *specs.Spec
		for _, p := range plans {
			spec = p.Spec
			break
		}
		owned := 0
		for v := lo; v <= hi; v++ {
			if sh.Owns(v - lo) {
				owned++
			}
		}
		return writePartial(out, closeOut, &shard.Partial{
			Format: shard.Format, Shard: sh.Index, Shards: sh.Count, Run: runFingerprint(cmd, spec, f.params),
			Complete: len(parts) == owned, Sweep: &shard.Sweep{Param: name, Lo: lo, Hi: hi, Rows: parts},
		})
	}
	if f.asJSON {
		err = reports.WriteSweepJSON(out, rows)
	} else {
		err = reports.WriteSweepText(out, name, rows)
	}
	if err == nil {
		err = closeOut()
	}
	if err != nil {
		return &exitError{code: exitUsage, err: fmt.Errorf("writing the result: %w", err)}
	}
	return verdictExit(violated, unknown)
}

// requirementFails is the row of a sweep's value for which the spec's
// requirement fails (a .ring spec's require declaration), skipped with a
// note that gives the requirement's message; false when the value's
// problem is another.
func requirementFails(ctx context.Context, specName string, assignments []string, extra map[string]int) (*reports.CheckResult, bool) {
	spec, params, err := lookupSpec(ctx, specName, assignments, extra)
	if err != nil || spec.Instance == nil {
		return nil, false
	}
	values, err := spec.Resolve(params)
	if err != nil {
		return nil, false
	}
	_, err = spec.Instance(values)
	msg, ok := failedRequirement(err)
	if !ok {
		return nil, false
	}
	return &reports.CheckResult{Spec: spec.Name, Params: values, Skipped: "requirement fails: " + msg}, true
}

// failedRequirement finds, among the problems of a spec's instance, a
// requirement that fails, and returns its message.
func failedRequirement(err error) (string, bool) {
	var re *langcheck.RequirementError
	if errors.As(err, &re) {
		return re.Reason, true
	}
	return "", false
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
	"html":    reports.WriteTraceHTML,
}

// traceFormatList names traceWriters' keys, for messages and help.
const traceFormatList = "json, text, dot, svg, mermaid, html"

// writeTraceFile writes the first counterexample of the result, in the
// order of --check (stamped by stampTraces). It records the file in the
// property's result, for the text summary.
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

// writeGraphFile writes the state graph of the checked instance to path,
// as DOT.
func writeGraphFile(ctx context.Context, path string, res *ringcheck.Result) error {
	g, initial, err := res.StateGraph(ctx, reports.StateGraphLimit)
	if err != nil {
		return err
	}
	opts := reports.StateGraphOptions{
		Title:   fmt.Sprintf("%s (%s): %d states, from %s", res.System.Name, res.Values, g.Size(), res.Options.From),
		Initial: initial,
	}
	if res.System.Legitimate != nil {
		opts.Legitimate = res.System.Legitimate.Holds
	}
	file, err := os.Create(path)
	if err != nil {
		return err
	}
	err = reports.WriteStateGraphDOT(file, g, opts)
	if cerr := file.Close(); err == nil {
		err = cerr
	}
	return err
}

// stampSpecFile records in t the .ring file spec was read from, if any.
func stampSpecFile(t *reports.Trace, spec *specs.Spec) {
	if spec.File != "" {
		t.SpecFile = &reports.SpecFile{Path: spec.File, SHA256: spec.FileHash}
	}
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

// symbolicProgressPrinter reports where the symbolic engine stands, at
// most every 2 s: the phase, the actions encoded or the fixpoint's
// iteration and set, the BDD node table, the heap and the time since the
// start.
func symbolicProgressPrinter(w io.Writer) func(symbolic.Progress) {
	start := time.Now()
	last := start
	return func(p symbolic.Progress) {
		if time.Since(last) < 2*time.Second {
			return
		}
		last = time.Now()
		line := "progress: " + p.Phase
		if p.Total > 0 {
			line += fmt.Sprintf(" (%d of %d actions encoded)", p.Done, p.Total)
		}
		if p.Iteration > 0 {
			line += fmt.Sprintf(", iteration %d", p.Iteration)
		}
		if p.Nodes > 0 {
			line += fmt.Sprintf(", %d BDD nodes", p.Nodes)
		}
		if p.Table > 0 {
			line += fmt.Sprintf(", node table %d", p.Table)
		}
		fmt.Fprintf(w, "%s, heap %s, %s\n", line, budget.Size(budget.Heap()), time.Since(start).Round(time.Second))
	}
}

// symbolicStats are the symbolic engine's figures for the report (nil
// when it stopped before it counted the configurations; without Stuck
// when it stopped before it decided convergence).
func symbolicStats(r *symbolic.Result) *reports.SymbolicStats {
	if r == nil {
		return nil
	}
	s := &reports.SymbolicStats{Configurations: r.Configurations.String(), Legitimate: r.Legitimate.String(),
		Iterations: r.Iterations, PeakNodes: r.PeakNodes, Faulty: r.Faulty.String()}
	if r.Stuck != nil {
		s.Stuck = r.Stuck.String()
	}
	for _, n := range r.Layers {
		s.Layers = append(s.Layers, n.String())
	}
	return s
}

// builtSystem is a spec's model for simulate and rounds, which run no
// check and so need none of a check request's rules.
type builtSystem struct {
	spec   *specs.Spec
	values specs.Values
	sys    *model.System
	daemon model.Daemon
}

// buildSystem builds the named spec with the -p assignments, under the
// named daemon and, if overflow is not empty, that overflow policy.
func buildSystem(ctx context.Context, specName string, assignments []string, daemon, overflow string) (*builtSystem, error) {
	spec, params, err := lookupSpec(ctx, specName, assignments, nil)
	if err != nil {
		return nil, err
	}
	d, err := model.ParseDaemon(daemon)
	if err != nil {
		return nil, usageError("%v", err)
	}
	var o *model.Overflow
	if overflow != "" {
		policy, err := model.ParseOverflow(overflow)
		if err != nil {
			return nil, usageError("%v", err)
		}
		o = &policy
	}
	plan, err := buildSpecSystem(spec, params, d, o)
	if err != nil {
		return nil, requestError(err)
	}
	return plan, nil
}

// buildSpecSystem builds spec with params under daemon and, if overflow is
// not nil, that overflow policy.
func buildSpecSystem(spec *specs.Spec, params map[string]int, daemon model.Daemon, overflow *model.Overflow) (*builtSystem, error) {
	req := &ringcheck.Request{Spec: spec, Params: params, Daemon: daemon, Overflow: overflow}
	values, err := req.Values()
	if err != nil {
		return nil, err
	}
	sys, err := req.System()
	if err != nil {
		return nil, err
	}
	return &builtSystem{spec: spec, values: values, sys: sys, daemon: req.Daemon}, nil
}

// reduceOption is the report's record of the reduction the check ran:
// "por", or "none" with the reason when --reduce asked for one (nothing
// when no reduction was asked for and none ran).
func reduceOption(req *ringcheck.Request, res *ringcheck.Result) (string, string) {
	switch {
	case res.Reduction.Ran == "symmetry":
		return "symmetry", ""
	case res.Reduction.Ran != "" && res.Report != nil && res.Report.Search.PartialOrderIdle > 0:
		return "por", fmt.Sprintf("partial-order reduction stopped after %d states expanded: it had reduced none of them", res.Report.Search.PartialOrderIdle)
	case res.Reduction.Ran != "":
		return "por", ""
	case req.Reduce != ringcheck.ReduceDefault:
		return "none", res.Reduction.Note
	}
	return "", ""
}
