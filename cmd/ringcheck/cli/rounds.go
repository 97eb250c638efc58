package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/ringcheck/ringcheck"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/reports"
	"github.com/ringcheck/ringcheck/runs"
	"github.com/ringcheck/ringcheck/specs"
)

// roundsFlags are the rounds command's flags, as given.
type roundsFlags struct {
	params    []string
	runs      int
	run       int
	seed      uint64
	maxRounds int
	order     string
	fill      int
	overflow  string
	links     string
	csRounds  int
	asJSON    bool
	tracePath string
}

func newRoundsCmd() *cobra.Command {
	var f roundsFlags
	cmd := &cobra.Command{
		Use:   "rounds SPEC",
		Short: "Search for slow stabilization, in the papers' rounds (evidence, not proof)",
		Long: `Measure how many rounds SPEC takes to reach its legitimacy predicate L from
--runs uniformly random configurations (channel contents included), in the
round model of the papers on self-stabilizing message passing: a round is
the time the slowest process takes to act, and an action receives the
messages present in the process's channels, changes its state and sends.

In each round every process acts once, in --order: backward (process n-1
first, down to 0: against the ring's direction, so a message moves one hop
per round) or shuffled (a random order every round). A process's action is
a run of its own model steps: with probability 1/2 one step of the
application (request, leave; a process whose critical section has lasted
--cs-rounds of its actions leaves, as the papers bound critical sections),
then its first enabled protocol action again and again until it has none,
so that it receives every message present. A
process with nothing to do acts trivially. L is tested between actions;
the round in which L is reached counts. The spec's state invariants are
tested there too: the summary names the latest round at whose end a run
still violated one, which shows incorrect behaviour after a bound whatever
the legitimacy predicate says.

The most rounds found is a lower bound on the worst case, not the worst
case, which needs every configuration and every schedule ('check --check
convergence' computes it where the full space can be swept). When the spec
states its paper's bound in rounds (4n for kl-ddhl, 5n for kl-dhv), a run
that takes more refutes the bound for that execution; --trace FILE writes
the slowest run, with its round ends, for 'ringcheck trace'.

A run that ends in a configuration outside L with no enabled step is a
deadlock, which violates convergence.

A spec whose paper makes its links reliable once the faults end (kl-ddhl,
kl-dhv) runs by default on such links (--links reliable): its channels
enlarged, the runs starting with at most as many messages per channel as
its own links hold (unless --fill says otherwise), and a send to a full
channel ending its run, which is then left out. --links lossy runs the
spec's own bounded links, where such a send is lost: outside the paper's
model, and the summary says so. --overflow overrides the policy on lossy
links (error ends a run at a full channel and says so).

Exit status: 0 no run exceeded the paper's bound or deadlocked (and, for a
spec with no bound, every run reached L); 1 a run exceeded the bound,
deadlocked outside L or, on lossy links, overflowed a channel whose policy
is error; 2 bad usage,
unknown spec or bad parameter; 3 Ctrl-C or SIGTERM stopped the search, or a run of a
spec with no bound did not reach L within --max-rounds.`,
		Example: `  ringcheck rounds kl-ddhl --runs 10000
  ringcheck rounds kl-dhv -p MaxSeq=20 --order shuffled --trace slow.json`,
		Args: exactArgs(1, "rounds needs exactly one SPEC (see 'ringcheck list')"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRounds(cmd, args[0], &f)
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVarP(&f.params, "param", "p", nil, "set a spec parameter, as name=value (repeatable)")
	fl.IntVar(&f.runs, "runs", 1000, "the number of runs, each from its own random configuration")
	fl.IntVar(&f.run, "run", -1, "replay only this run of a search with the same seed and flags (runs are numbered from 0), as the summary names the slowest")
	fl.Uint64Var(&f.seed, "seed", 1, "seed of the random choices (the same seed gives the same runs)")
	fl.IntVar(&f.maxRounds, "max-rounds", 0, "end a run that has not reached L after this many rounds (0: ten times the paper's bound, at least 100)")
	fl.StringVar(&f.order, "order", "backward", "the order in which the processes act within a round: backward or shuffled")
	fl.IntVar(&f.fill, "fill", 0, "start from random configurations with at most this many messages per channel (0: up to the capacity, the full space)")
	fl.StringVar(&f.overflow, "overflow", "", "override the spec's policy for a send to a full channel: drop, block or error (error ends the run and says so); with --links lossy")
	fl.StringVar(&f.links, "links", "reliable", "the links of a spec whose paper makes them reliable once the faults end: reliable (the paper's: channels enlarged, a run that overflows one is left out) or lossy (the spec's bounded links, which lose a send to a full channel: outside the paper's model)")
	fl.IntVar(&f.csRounds, "cs-rounds", 1, "bound critical sections: a process leaves at its action that is the N-th in a row to start in its critical section (1: sections of at most one round; 0: geometric lengths, finite but unbounded)")
	fl.BoolVar(&f.asJSON, "json", false, "print the result as one JSON object")
	fl.StringVar(&f.tracePath, "trace", "", "write the slowest run to this file, as JSON with its round ends")
	return cmd
}

// roundsJSON is rounds --json's object.
type roundsJSON struct {
	Spec       string         `json:"spec"`
	Params     map[string]int `json:"params"`
	Order      string         `json:"order"`
	Seed       uint64         `json:"seed"`
	RoundLimit int            `json:"round_limit"`
	Runs       int            `json:"runs"`
	Reached    int            `json:"reached"`
	NotReached int            `json:"not_reached"`
	Deadlocks  int            `json:"deadlocks"`
	Overflows  int            `json:"overflows"`
	Fill       int            `json:"fill,omitempty"`
	// Links is "reliable" or "lossy" for a spec whose paper makes its
	// links reliable once the faults end (empty for the others).
	Links string `json:"links,omitempty"`
	// CSRounds bounds critical sections (0: geometric lengths).
	CSRounds   int     `json:"cs_rounds"`
	MinRounds  int     `json:"min_rounds"`
	MeanRounds float64 `json:"mean_rounds"`
	MaxRounds  int     `json:"max_rounds"`
	Bound      *int    `json:"bound,omitempty"`
	Exceeded   int     `json:"exceeded"`
	Slowest    int     `json:"slowest_run"`
	// Latest holds, per state invariant, the latest round at whose end a
	// run violated it, and that run (both -1 if none did).
	Latest  []violationJSONRounds `json:"latest_violations"`
	Stopped bool                  `json:"stopped"`
}

// violationJSONRounds is the latest violation of one state invariant.
type violationJSONRounds struct {
	Invariant string `json:"invariant"`
	Round     int    `json:"round"`
	Run       int    `json:"run"`
}

// roundsOutcome is what runRounds measured, ready to print.
type roundsOutcome struct {
	res                                    *runs.RoundResult
	reached, lo, hi, notReached, deadlocks int
	mean                                   float64
	bound                                  int // 0: the spec states none
	exceeded, overflows                    int
	latest                                 []violationJSONRounds
	order                                  runs.SweepOrder
	maxRounds                              int
}

func runRounds(cmd *cobra.Command, specName string, f *roundsFlags) error {
	if f.runs < 1 || f.maxRounds < 0 || f.fill < 0 || f.run < -1 || f.csRounds < 0 {
		return usageError("--runs must be at least 1, and --run, --max-rounds, --fill and --cs-rounds not negative")
	}
	first, count := 0, f.runs
	if f.run >= 0 {
		first, count = f.run, 1
	}
	order, err := runs.ParseSweepOrder(f.order)
	if err != nil {
		return usageError("--order: %v", err)
	}
	if f.tracePath != "" {
		if err := checkTracePath(f.tracePath); err != nil {
			return usageError("--trace: %v", err)
		}
	}
	plan, err := buildRoundsSystem(cmd, specName, f)
	if err != nil {
		return err
	}
	sys := plan.sys
	if sys.Legitimate == nil {
		return usageError("spec %s declares no legitimacy predicate: rounds measures the time to reach it", sys.Name)
	}
	opts := runs.RoundOptions{Runs: count, First: first, Seed: f.seed, MaxRounds: f.maxRounds, Order: order, Fill: f.fill, CSRounds: f.csRounds}
	bound := 0
	if plan.spec.RoundsBound != nil {
		bound = plan.spec.RoundsBound(plan.values)
	}
	out, err := measureRounds(cmd.Context(), plan, opts, bound)
	if err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	res := out.res

	var trace *reports.Trace
	if w := res.Witness; w != nil {
		trace = reports.NewTrace(sys, plan.values, "stabilization", &invariants.Counterexample{
			Kind: invariants.Path, States: w.States, Steps: w.Steps,
		})
		stampSpecFile(trace, plan.spec)
		trace.Start, trace.RoundEnds, trace.Order = "random", w.RoundEnds, w.Order.String()
		switch {
		case f.links == reliableLinks:
			trace.Overflow, trace.Links = model.Error.String(), reports.ReliableLinks
		case f.overflow != "":
			trace.Overflow = f.overflow
		}
	}
	stdout := cmd.OutOrStdout()
	if f.asJSON {
		err = writeRoundsJSON(stdout, plan, f, out)
	} else {
		err = writeRoundsText(stdout, plan, f, out)
	}
	if err != nil {
		return &exitError{code: exitUsage, err: fmt.Errorf("writing the result: %w", err)}
	}
	if f.tracePath != "" && trace != nil {
		if err := writeSimTrace(f.tracePath, trace); err != nil {
			// The outcome stands whatever happens to the file.
			fmt.Fprintf(cmd.ErrOrStderr(), "ringcheck: %v\n", err)
		}
	}
	unknown := res.Stopped || out.bound == 0 && out.notReached > 0
	// On reliable links a run that overflows an enlarged channel left
	// the model's bound: it is left out, not a failure.
	overflowFails := out.overflows > 0 && f.links != reliableLinks
	return verdictExit(out.exceeded > 0 || out.deadlocks > 0 || overflowFails, unknown)
}

// measureRounds runs the rounds search opts describes over plan's system
// (its state invariants judged, the round limit defaulting to ten times
// the spec's bound and at least 100 when opts.MaxRounds is 0) and sums it
// up as rounds reports it; bound, if positive, is the bound in rounds a
// run must stay within, and the outcome counts the runs beyond it.
func measureRounds(ctx context.Context, plan *builtSystem, opts runs.RoundOptions, bound int) (*roundsOutcome, error) {
	sys := plan.sys
	if sys.Legitimate == nil {
		return nil, fmt.Errorf("spec %s declares no legitimacy predicate: rounds measures the time to reach it", sys.Name)
	}
	out := &roundsOutcome{order: opts.Order, maxRounds: opts.MaxRounds, bound: bound}
	if out.maxRounds == 0 {
		specBound := 0
		if plan.spec.RoundsBound != nil {
			specBound = plan.spec.RoundsBound(plan.values)
		}
		out.maxRounds = max(100, 10*specBound)
	}
	opts.MaxRounds, opts.Invariants = out.maxRounds, sys.Invariants
	res, err := runs.SearchRounds(ctx, sys, opts, sys.Legitimate.Holds)
	if err != nil {
		return nil, err
	}
	out.res = res
	out.reached, out.lo, out.hi, out.mean, out.notReached, out.deadlocks = res.Summary()
	out.overflows = res.Overflows()
	for i, inv := range sys.Invariants {
		v := violationJSONRounds{Invariant: inv.Name}
		v.Run, v.Round = res.LatestViolation(i)
		if v.Run >= 0 {
			v.Run += opts.First
		}
		out.latest = append(out.latest, v)
	}
	for _, run := range res.Runs {
		if out.bound > 0 && !run.Overflow && (run.Rounds > out.bound || !run.Reached && !run.Deadlock && run.Rounds >= out.bound) {
			out.exceeded++
		}
	}
	return out, nil
}

// The two readings of --links.
const (
	reliableLinks = "reliable"
	lossyLinks    = "lossy"
)

// parseReliable reads a check's links, as --links or a manifest's links:
// reliable (true), or lossy, the spec's own (false).
func parseReliable(s string) (bool, error) {
	switch s {
	case reliableLinks:
		return true, nil
	case lossyLinks:
		return false, nil
	}
	return false, fmt.Errorf("%q is not reliable or lossy", s)
}

// buildRoundsSystem builds the spec as rounds runs it. On reliable links,
// for a spec that says how (Spec.Links), the channels are enlarged, the
// runs start with at most as many messages a channel as the spec's own
// links hold (unless --fill says otherwise), and a send to a full channel
// ends its run; f.fill is set accordingly, and f.links is left empty for
// a spec without that reading.
func buildRoundsSystem(cmd *cobra.Command, specName string, f *roundsFlags) (*builtSystem, error) {
	if f.links != reliableLinks && f.links != lossyLinks {
		return nil, usageError("--links: %q is not reliable or lossy", f.links)
	}
	spec, params, err := lookupSpec(cmd.Context(), specName, f.params, nil)
	if err != nil {
		return nil, err
	}
	if spec.Links == nil {
		if cmd.Flags().Changed("links") {
			return nil, usageError("--links %s: spec %s has no reliable links to run on or replace; its channels are as it declares them", f.links, spec.Name)
		}
		f.links = ""
		return buildSystem(cmd.Context(), specName, f.params, model.Central.String(), f.overflow)
	}
	if f.links == lossyLinks {
		return buildSystem(cmd.Context(), specName, f.params, model.Central.String(), f.overflow)
	}
	if f.overflow != "" && f.overflow != model.Error.String() {
		return nil, usageError("--overflow %s: on reliable links no send is lost or blocked (use --links lossy)", f.overflow)
	}
	fill := &f.fill
	if cmd.Flags().Changed("fill") {
		fill = nil
	}
	plan, err := reliableRoundsSystem(spec, params, fill)
	if err != nil {
		return nil, requestError(err)
	}
	return plan, nil
}

// reliableRoundsSystem builds spec, which says how to run it on reliable
// links (Spec.Links), with params on those links (ringcheck.Request's
// ReliableLinks): its channels enlarged (a parameter given is raised, not
// lowered) and a send to a full channel an error that ends the run. If
// fill is not nil, *fill is set to the messages a channel may start with
// (as many as the spec's own links hold).
func reliableRoundsSystem(spec *specs.Spec, params map[string]int, fill *int) (*builtSystem, error) {
	req := &ringcheck.Request{Spec: spec, Params: params, ReliableLinks: true}
	values, err := req.Values()
	if err != nil {
		return nil, err
	}
	if fill != nil {
		if *fill, err = req.RandomFill(); err != nil {
			return nil, err
		}
	}
	sys, err := req.System()
	if err != nil {
		return nil, err
	}
	return &builtSystem{spec: spec, values: values, sys: sys, daemon: model.Central}, nil
}

func writeRoundsJSON(w io.Writer, plan *builtSystem, f *roundsFlags, o *roundsOutcome) error {
	out := roundsJSON{
		Spec: plan.sys.Name, Params: plan.values, Order: o.order.String(), Seed: f.seed, RoundLimit: o.maxRounds,
		Runs: len(o.res.Runs), Reached: o.reached, NotReached: o.notReached, Deadlocks: o.deadlocks,
		Overflows: o.overflows, Fill: f.fill, Links: f.links, CSRounds: f.csRounds,
		MinRounds: o.lo, MeanRounds: o.mean, MaxRounds: o.hi, Exceeded: o.exceeded,
		Slowest: -1, Stopped: o.res.Stopped, Latest: o.latest,
	}
	if o.bound > 0 {
		out.Bound = &o.bound
	}
	if o.res.Witness != nil {
		out.Slowest = o.res.Witness.Run
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func writeRoundsText(w io.Writer, plan *builtSystem, f *roundsFlags, o *roundsOutcome) error {
	p := &simPrinter{w: w}
	from := "random configurations"
	if f.fill > 0 {
		from = fmt.Sprintf("random configurations with at most %d message%s per channel", f.fill, plurals(f.fill))
	}
	p.printf("%s  %s  rounds from %s, %s order, seed %d\n", plan.sys.Name, plan.values, from, o.order, f.seed)
	if _, ok := plan.sys.ProcessPredicateByName("inCS"); ok && hasFinite(plan.sys) {
		switch {
		case f.csRounds == 1:
			p.printf("  critical sections of at most 1 round: a process inside leaves at its next action (--cs-rounds)\n")
		case f.csRounds > 1:
			p.printf("  critical sections of at most %d rounds: a process leaves at the %s of its actions in a row to start inside (--cs-rounds)\n", f.csRounds, ordinal(f.csRounds))
		default:
			p.printf("  critical sections of geometric length: finite, but not bounded (--cs-rounds 0)\n")
		}
	}
	switch f.links {
	case reliableLinks:
		p.printf("  reliable links, the paper's once the faults end: no send is lost; a run that overflows the enlarged channels is left out\n")
	case lossyLinks:
		p.printf("  lossy links: a send to a full channel is lost, outside the paper's model (its links are reliable once the faults end)\n")
	}
	if f.run >= 0 {
		p.printf("  run %d alone\n", f.run)
	}
	p.printf("  %d run%s: %d reached L", len(o.res.Runs), plurals(len(o.res.Runs)), o.reached)
	if o.reached > 0 {
		p.printf(" in min %d / mean %.1f / max %d rounds", o.lo, o.mean, o.hi)
	}
	p.printf("; %d did not within %d rounds (%d in a deadlock", o.notReached, o.maxRounds, o.deadlocks)
	if o.overflows > 0 {
		p.printf(", %d at a send that overflowed a channel", o.overflows)
		if f.links == reliableLinks {
			p.printf(", left out")
		}
	}
	p.printf(")\n")
	if o.bound > 0 {
		p.printf("  the paper's bound: %s = %d rounds here; %d run%s exceeded it\n",
			plan.spec.StabilizationBound, o.bound, o.exceeded, plurals(o.exceeded))
	}
	if s := o.res.Slowest; s >= 0 {
		run := o.res.Runs[s]
		s = o.res.Witness.Run
		what := fmt.Sprintf("reached L in round %d", run.Rounds)
		switch {
		case run.Overflow:
			what = fmt.Sprintf("overflowed a channel in round %d", run.Rounds)
		case run.Deadlock:
			what = fmt.Sprintf("deadlocked outside L in round %d", run.Rounds)
		case !run.Reached:
			what = fmt.Sprintf("had not reached L after %d rounds", run.Rounds)
		}
		p.printf("  slowest: run %d %s, %d steps", s, what, run.Steps)
		if f.tracePath != "" {
			p.printf(" (written to %s)", f.tracePath)
		}
		p.printf("\n")
	}
	for _, v := range o.latest {
		if v.Run < 0 {
			p.printf("  invariant %s: never violated at the end of an action\n", v.Invariant)
			continue
		}
		p.printf("  invariant %s: violated as late as the end of round %d (run %d)\n", v.Invariant, v.Round, v.Run)
	}
	if o.res.Stopped {
		p.printf("  stopped after %d of %d runs\n", len(o.res.Runs), f.runs)
	}
	p.printf("  (a lower bound on the worst case from random configurations: evidence, not proof)\n")
	return p.err
}

// hasFinite reports whether some action of sys is a finite environment
// action (leaving a critical section), which --cs-rounds bounds.
func hasFinite(sys *model.System) bool {
	for _, p := range sys.Processes {
		for _, a := range p.Actions {
			if a.Kind == model.Environment && a.Liveness == model.Finite {
				return true
			}
		}
	}
	return false
}

// ordinal writes n as "1st", "2nd", "3rd", "4th".
func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprintf("%d%s", n, suffix)
}
