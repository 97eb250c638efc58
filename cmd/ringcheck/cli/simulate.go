package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/reports"
	"github.com/ringcheck/ringcheck/runs"
)

// simFlags are the simulate command's flags, as given.
type simFlags struct {
	params    []string
	steps     int
	runs      int
	seed      uint64
	from      string
	faultAt   int
	daemon    string
	asJSON    bool
	tracePath string
}

func newSimulateCmd() *cobra.Command {
	var f simFlags
	cmd := &cobra.Command{
		Use:   "simulate SPEC",
		Short: "Run random executions of a spec (evidence, not proof)",
		Long: `Run --runs random executions of SPEC of up to --steps steps each, and
check the spec's state invariants in every configuration they visit. Each
step is drawn uniformly among the enabled steps; each run starts from a
random initial configuration (--from init) or a uniformly random
configuration of the full configuration space (--from all).

A simulation is evidence, not proof. It visits a few random executions
where 'check' visits every reachable state: a violation it finds is real
(the trace replays it), but "no violation in R runs of N steps" says only
that these runs found none. Use it on instances too large to check, to
look for bugs quickly, or to watch an algorithm recover from a fault; use
'check' for a verdict.

--fault-at N injects a transient fault after N steps of each run: the
whole configuration is replaced by a uniformly random one, and the run
counts the steps until the spec's legitimacy predicate L holds again
(the summary gives the minimum, mean and maximum, and how many runs did
not get there). The invariants describe legitimate executions, which the
fault breaks: they are not checked from the fault until L holds again.

A run ends early at a violated invariant, at a send that overflows a
channel whose policy is "error", or at a configuration with no enabled
step (a deadlock, unless the spec says it is a valid end state). The path
to the first one is printed (with --trace FILE, written as JSON for
'ringcheck trace'); with a fault, the path starts at the configuration the
fault left. --seed makes the runs reproducible: the same seed and flags
give the same runs.

Exit status: 0 no run found a violation or a deadlock; 1 one did; 2 bad
usage, unknown spec or bad parameter; 3 Ctrl-C or SIGTERM stopped the simulation
before any violation was found.`,
		Example: `  ringcheck simulate dijkstra -p n=12 -p K=12 --steps 10000 --runs 100
  ringcheck simulate dijkstra -p n=8 -p K=8 --fault-at 100 --steps 1000
  ringcheck simulate kl-naive --steps 200 --runs 50 --trace t.json`,
		Args: exactArgs(1, "simulate needs exactly one SPEC (see 'ringcheck list')"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSimulate(cmd, args[0], &f)
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVarP(&f.params, "param", "p", nil, "set a spec parameter, as name=value (repeatable)")
	fl.IntVar(&f.steps, "steps", 1000, "the most steps a run takes")
	fl.IntVar(&f.runs, "runs", 10, "the number of runs")
	fl.Uint64Var(&f.seed, "seed", 1, "seed of the random choices (the same seed gives the same runs)")
	fl.StringVar(&f.from, "from", "init", "where runs start: init (a random initial configuration of the spec) or all (a uniformly random configuration)")
	fl.IntVar(&f.faultAt, "fault-at", 0, "after this many steps, replace the configuration by a random one and count the steps back to L (0: no fault)")
	fl.StringVar(&f.daemon, "daemon", "central", "scheduler: central, distributed or synchronous (state-reading specs only for the last two)")
	fl.BoolVar(&f.asJSON, "json", false, "print the result as one JSON object")
	fl.StringVar(&f.tracePath, "trace", "", "write the path to the first violation or deadlock to this file, as JSON")
	return cmd
}

// simJSON is simulate --json's object.
type simJSON struct {
	Spec       string         `json:"spec"`
	Params     map[string]int `json:"params"`
	Options    simOptsJSON    `json:"options"`
	Runs       int            `json:"runs"`
	Steps      int            `json:"steps"`
	Deadlocks  int            `json:"deadlocks"`
	Violations int            `json:"violations"`
	Recovery   *recoveryJSON  `json:"recovery,omitempty"`
	Violation  *violationJSON `json:"violation,omitempty"`
	Stopped    bool           `json:"stopped"`
}

type simOptsJSON struct {
	Steps   int    `json:"steps"`
	Runs    int    `json:"runs"`
	Seed    uint64 `json:"seed"`
	From    string `json:"from"`
	Daemon  string `json:"daemon"`
	FaultAt int    `json:"fault_at,omitempty"`
}

type recoveryJSON struct {
	Faulted    int     `json:"faulted"`
	Reached    int     `json:"reached"`
	NotReached int     `json:"not_reached"`
	MinSteps   int     `json:"min_steps"`
	MeanSteps  float64 `json:"mean_steps"`
	MaxSteps   int     `json:"max_steps"`
	MinRounds  int     `json:"min_rounds"`
	MeanRounds float64 `json:"mean_rounds"`
	MaxRounds  int     `json:"max_rounds"`
}

type violationJSON struct {
	Run        int            `json:"run"`
	Property   string         `json:"property"`
	Name       string         `json:"name"`
	AfterFault bool           `json:"after_fault"`
	Start      int            `json:"start"`
	Trace      *reports.Trace `json:"trace"`
}

func runSimulate(cmd *cobra.Command, specName string, f *simFlags) error {
	if f.steps < 1 || f.runs < 1 {
		return usageError("--steps and --runs must be at least 1")
	}
	if f.faultAt < 0 || f.faultAt >= f.steps {
		return usageError("--fault-at must be between 1 and --steps - 1 (0: no fault)")
	}
	if f.from != string(invariants.FromInit) && f.from != string(invariants.FromAll) {
		return usageError("--from %q is not one of init, all", f.from)
	}
	if f.tracePath != "" {
		if err := checkTracePath(f.tracePath); err != nil {
			return usageError("--trace: %v", err)
		}
	}
	plan, err := buildSystem(cmd.Context(), specName, f.params, f.daemon, "")
	if err != nil {
		return err
	}
	sys := plan.sys
	var legit func(*model.State) bool
	if sys.Legitimate != nil {
		legit = sys.Legitimate.Holds
	}
	if f.faultAt > 0 {
		if legit == nil {
			return usageError("spec %s declares no legitimacy predicate: --fault-at measures the recovery to it", sys.Name)
		}
	}
	check := func(s *model.State) string {
		for i := range sys.Invariants {
			if !sys.Invariants[i].Holds(s) {
				return sys.Invariants[i].Name
			}
		}
		return ""
	}
	opts := runs.SimOptions{
		Steps: f.steps, Runs: f.runs, Seed: f.seed,
		FromAll: f.from == string(invariants.FromAll), FaultAt: f.faultAt,
	}
	res, err := runs.Simulate(cmd.Context(), sys, opts, check, legit)
	if err != nil {
		return &exitError{code: exitUsage, err: err}
	}

	var trace *reports.Trace
	if v := res.First; v != nil {
		trace = reports.NewTrace(sys, plan.values, simProperty(v), &invariants.Counterexample{
			Kind: invariants.Path, States: v.States, Steps: v.Steps,
		})
		stampSpecFile(trace, plan.spec)
		if !v.Deadlock && v.Name != runs.ChannelBound && v.Name != runs.RangeFault {
			trace.Invariant = v.Name
		}
		switch {
		case v.AfterFault:
			trace.Start = "fault"
		case opts.FromAll:
			trace.Start = "random"
		}
	}
	out := cmd.OutOrStdout()
	if f.asJSON {
		err = writeSimJSON(out, plan, f, res, trace)
	} else {
		err = writeSimText(out, plan, f, res, trace)
	}
	if err != nil {
		return &exitError{code: exitUsage, err: fmt.Errorf("writing the result: %w", err)}
	}
	if f.tracePath != "" {
		if trace == nil {
			fmt.Fprintf(cmd.ErrOrStderr(), "ringcheck: no violation, %s not written\n", f.tracePath)
		} else if err := writeSimTrace(f.tracePath, trace); err != nil {
			// The outcome stands whatever happens to the file.
			fmt.Fprintf(cmd.ErrOrStderr(), "ringcheck: %v\n", err)
		}
	}
	return verdictExit(res.First != nil, res.Stopped)
}

// simProperty is the property of the CLI contract a violation belongs to.
func simProperty(v *runs.SimViolation) string {
	if v.Deadlock {
		return string(invariants.Deadlock)
	}
	return string(invariants.Safety)
}

func writeSimTrace(path string, t *reports.Trace) error {
	file, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("--trace: %w", err)
	}
	err = reports.WriteTraceJSON(file, t)
	if cerr := file.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("--trace: writing %s: %w", path, err)
	}
	return nil
}

func writeSimJSON(w io.Writer, plan *builtSystem, f *simFlags, res *runs.SimResult, trace *reports.Trace) error {
	out := simJSON{
		Spec: plan.sys.Name, Params: plan.values,
		Options: simOptsJSON{
			Steps: f.steps, Runs: f.runs, Seed: f.seed, From: f.from,
			Daemon: plan.daemon.String(), FaultAt: f.faultAt,
		},
		Runs: len(res.Runs), Steps: res.Steps, Deadlocks: res.Deadlocks, Violations: res.Violations,
		Stopped: res.Stopped,
	}
	if f.faultAt > 0 {
		faulted, reached, lo, hi, mean := res.Recovery()
		rlo, rhi, rmean := res.RecoveryRounds()
		out.Recovery = &recoveryJSON{Faulted: faulted, Reached: reached, NotReached: faulted - reached,
			MinSteps: lo, MeanSteps: mean, MaxSteps: hi, MinRounds: rlo, MeanRounds: rmean, MaxRounds: rhi}
	}
	if v := res.First; v != nil {
		out.Violation = &violationJSON{Run: v.Run, Property: simProperty(v), Name: v.Name,
			AfterFault: v.AfterFault, Start: v.Start, Trace: trace}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func writeSimText(w io.Writer, plan *builtSystem, f *simFlags, res *runs.SimResult, trace *reports.Trace) error {
	p := &simPrinter{w: w}
	p.printf("%s  %s  from %s, %s daemon, seed %d\n", plan.sys.Name, plan.values, f.from, plan.daemon, f.seed)
	p.printf("  %d run%s of up to %d steps: %d steps, %d deadlock%s, %d violation%s\n",
		len(res.Runs), plurals(len(res.Runs)), f.steps, res.Steps,
		res.Deadlocks, plurals(res.Deadlocks), res.Violations, plurals(res.Violations))
	if f.faultAt > 0 {
		faulted, reached, lo, hi, mean := res.Recovery()
		p.printf("  after the fault at step %d: %d of %d runs reached L", f.faultAt, reached, faulted)
		if reached > 0 {
			rlo, rhi, rmean := res.RecoveryRounds()
			p.printf(", in min %d / mean %.1f / max %d steps, min %d / mean %.1f / max %d rounds", lo, mean, hi, rlo, rmean, rhi)
		}
		p.printf("; %d did not\n", faulted-reached)
	}
	p.printf("\n")
	v := res.First
	switch {
	case v != nil:
		where := fmt.Sprintf("at step %d of run %d", v.Start+len(v.Steps), v.Run)
		from := "its start"
		if v.AfterFault {
			from = fmt.Sprintf("the configuration the fault left at step %d", v.Start)
		}
		if v.Deadlock {
			p.printf("  deadlock     violated  a configuration with no enabled step %s (path of %d step%s from %s below)\n",
				where, len(v.Steps), plurals(len(v.Steps)), from)
		} else {
			p.printf("  safety       violated  %s %s (path of %d step%s from %s below)\n",
				v.Name, where, len(v.Steps), plurals(len(v.Steps)), from)
		}
		p.printf("\n")
		if p.err != nil {
			return p.err
		}
		return reports.WriteTraceText(w, trace)
	case res.Stopped:
		p.printf("  stopped after %d of %d runs, no violation found\n", len(res.Runs), f.runs)
	default:
		p.printf("  no violation in %d runs of %d steps (a simulation is evidence, not proof: use check for a verdict)\n", f.runs, f.steps)
	}
	return p.err
}

// simPrinter remembers the first write error.
type simPrinter struct {
	w   io.Writer
	err error
}

func (p *simPrinter) printf(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}

func plurals(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
