package reports

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
)

// CheckResult is the JSON object `check --json` prints (the CLI contract).
type CheckResult struct {
	Spec       string           `json:"spec"`
	Params     map[string]int   `json:"params"`
	Options    CheckOptions     `json:"options"`
	Complete   bool             `json:"complete"`
	Stop       string           `json:"stop"`
	Stats      Stats            `json:"stats"`
	Properties []PropertyResult `json:"properties"`
	// Stabilization is present when convergence was checked and holds.
	Stabilization *StabilizationResult `json:"stabilization,omitempty"`
	// Memory is present when the memory budget stopped the check.
	Memory *MemoryStop `json:"memory,omitempty"`
	// Phases, for a stabilization analysis that stopped before it decided,
	// say how far each phase got.
	Phases []PhaseResult `json:"phases,omitempty"`
	// Symbolic is present when the symbolic engine ran the check and
	// counted the configurations.
	Symbolic *SymbolicStats `json:"symbolic,omitempty"`
	// Skipped, in a sweep, says why this value of the swept parameter was
	// not checked (the spec's requirement fails for it); only spec and
	// params are then set.
	Skipped string `json:"skipped,omitempty"`
}

// MemoryStop is the request the memory budget refused, in bytes: the
// heap held HeapBytes and the next step needed NeedBytes more, over
// LimitBytes.
type MemoryStop struct {
	LimitBytes uint64 `json:"limit_bytes"`
	HeapBytes  uint64 `json:"heap_bytes"`
	NeedBytes  uint64 `json:"need_bytes"`
}

// PhaseResult is how far one phase of an analysis got: Done of Total.
type PhaseResult struct {
	Name  string `json:"name"`
	Done  uint64 `json:"done"`
	Total uint64 `json:"total"`
}

// StabilizationResult is the measured worst case of a converging spec.
// WorstCaseSteps is null when Unbounded: unfair cycles outside L let
// executions take arbitrarily many steps, although every fair one
// converges. WorstCaseMoves is the worst case in moves (one process
// executing one action; a step of the distributed or synchronous daemon
// may make several), absent when it was not computed (unbounded, or the
// symbolic engine under another daemon than the central one).
// WorstCaseRounds is null when it was not computed, and RoundsNote then
// says why.
type StabilizationResult struct {
	Configurations  uint64 `json:"configurations"`
	Legitimate      uint64 `json:"legitimate"`
	WorstCaseSteps  *int   `json:"worst_case_steps"`
	WorstCaseMoves  *int   `json:"worst_case_moves,omitempty"`
	Unbounded       bool   `json:"unbounded,omitempty"`
	WorstCaseRounds *int   `json:"worst_case_rounds"`
	RoundsNote      string `json:"rounds_note,omitempty"`
	PaperBound      string `json:"paper_bound,omitempty"`
	Witness         *Trace `json:"witness,omitempty"`
}

// CheckOptions records how the check was run.
type CheckOptions struct {
	From string `json:"from"`
	// StartPredicate, from start, says what the spec's start predicate
	// is: its doc, or "the start predicate" (NewCheckResult sets it).
	StartPredicate string `json:"start_predicate,omitempty"`
	Daemon         string `json:"daemon"`
	// Links is "reliable" when the spec ran on its paper's reliable
	// links (channels enlarged; a configuration from which a send can
	// overflow one decides nothing), empty on its own links.
	Links     string `json:"links,omitempty"`
	Fairness  string `json:"fairness,omitempty"`
	MaxDepth  int    `json:"max_depth,omitempty"`
	MaxStates int64  `json:"max_states,omitempty"`
	TimeLimit string `json:"time_limit,omitempty"`
	MaxMemory uint64 `json:"max_memory_bytes,omitempty"`
	Workers   int    `json:"workers"`
	// Engine is "symbolic" when the symbolic engine decided the check
	// (empty: the explicit one).
	Engine string `json:"engine,omitempty"`
	// Reduce is the state-space reduction the check ran: "por"
	// (partial-order reduction: Stats.States counts the states stored,
	// and a counterexample may not be shortest), "symmetry" (symmetry
	// reduction: Stats.States counts the orbits stored, one
	// representative each; counterexamples are concrete and shortest),
	// "none" where one was
	// asked for and none ran, empty where none was asked for and none
	// ran; ReduceNote says why none ran, or why partial-order reduction
	// stopped.
	Reduce     string `json:"reduce,omitempty"`
	ReduceNote string `json:"reduce_note,omitempty"`
	// Code is "generated Go" when the explicit engine ran on Go generated
	// from the instance (ringcheck gen), empty on the compiled closures or
	// a spec declared in Go.
	Code string `json:"code,omitempty"`
}

// SymbolicStats are the symbolic engine's figures. The counts are exact
// decimal strings: they may pass 2^64. Layers[h] counts the
// configurations whose longest execution to L takes h+1 steps (under no
// fairness); Stuck counts those from which some execution (some fair one)
// never reaches L (empty when a limit stopped the engine before it
// decided convergence); Faulty those outside L with a step that overflows
// a channel whose policy is error.
type SymbolicStats struct {
	Configurations string   `json:"configurations"`
	Legitimate     string   `json:"legitimate"`
	Stuck          string   `json:"stuck,omitempty"`
	Faulty         string   `json:"faulty"`
	Iterations     int      `json:"iterations"`
	PeakNodes      int      `json:"peak_bdd_nodes"`
	Layers         []string `json:"layers,omitempty"`
}

// Stats are the search's figures. Transitions counts the steps taken from
// the states expanded, one per action (and choice, and set of moving
// processes) enabled; DistinctTransitions counts the distinct pairs of a
// state and its successor among them, less when two steps from a state
// lead to the same successor (nil where the search did not count them: a
// sweep of every configuration for safety and deadlock). Legitimate counts the configurations of L
// when an analysis of every configuration (closure or convergence from
// all, with the explicit engine) swept them all. StoreBytes is the
// memory held by the state store and visited set (0 for a full-space
// sweep, which keeps none).
type Stats struct {
	// CollisionProbability, for a search that kept fingerprints, bounds
	// the probability that a state was missed.
	CollisionProbability float64 `json:"fingerprint_collision_probability,omitempty"`
	States               int64   `json:"states"`
	Transitions          int64   `json:"transitions"`
	DistinctTransitions  *int64  `json:"distinct_transitions,omitempty"`
	Legitimate           *uint64 `json:"legitimate,omitempty"`
	// Orbits counts the orbits an analysis of every configuration with
	// symmetry reduction stored, one representative each (States is
	// then the configurations they stand for).
	Orbits          uint64  `json:"orbits,omitempty"`
	MaxDepth        int     `json:"max_depth"`
	Seconds         float64 `json:"seconds"`
	StatesPerSecond float64 `json:"states_per_second"`
	PeakHeapBytes   uint64  `json:"peak_heap_bytes"`
	StoreBytes      int64   `json:"store_bytes"`
}

// PropertyResult is the verdict on one property.
type PropertyResult struct {
	Name    string `json:"name"`
	Verdict string `json:"verdict"`
	Reason  string `json:"reason,omitempty"`
	// Stuck, for convergence violated over every configuration, counts
	// the configurations from which some execution (some fair one) never
	// reaches L, in decimal, with either engine.
	Stuck      string   `json:"stuck,omitempty"`
	Invariants []string `json:"invariants,omitempty"`
	Trace      *Trace   `json:"trace,omitempty"`
	// TraceFile is where --trace wrote the trace (text summary only).
	TraceFile string `json:"-"`
}

// Run is what a check produced, with the context a report needs.
type Run struct {
	System        *model.System
	Params        map[string]int
	Options       CheckOptions
	Report        *invariants.Report
	PeakHeapBytes uint64
	// PaperBound is the stabilization bound the spec's paper states, if any.
	PaperBound string
	// Symbolic is the symbolic engine's figures, when it ran and counted
	// the configurations.
	Symbolic *SymbolicStats
}

// NewCheckResult assembles the contract's object from a finished run.
func NewCheckResult(r Run) *CheckResult {
	res := r.Report.Search
	secs := res.Elapsed.Seconds()
	out := &CheckResult{
		Spec:     r.System.Name,
		Params:   r.Params,
		Options:  r.Options,
		Complete: res.Complete(),
		Stop:     res.Stop.String(),
		Symbolic: r.Symbolic,
		Stats: Stats{
			States:              res.States,
			Transitions:         res.Transitions,
			DistinctTransitions: distinctPairs(res.DistinctTransitions),
			Legitimate:          r.Report.Legitimate,
			Orbits:              r.Report.Orbits,
			MaxDepth:            res.MaxDepth,
			Seconds:             roundTo(secs, 6),
			PeakHeapBytes:       r.PeakHeapBytes,
			StoreBytes:          res.StoreBytes,
		},
	}
	if secs > 0 {
		out.Stats.StatesPerSecond = roundTo(float64(res.States)/secs, 0)
	}
	if out.Options.From == "start" && r.System.Start != nil {
		out.Options.StartPredicate = r.System.Start.Doc
		if out.Options.StartPredicate == "" {
			out.Options.StartPredicate = "the start predicate"
		}
	}
	if res.Fingerprints {
		// Never 0, so that the field says the search kept fingerprints.
		out.Stats.CollisionProbability = max(res.CollisionProbability, 1e-300)
	}
	if ex := res.Exceeded; ex != nil {
		out.Memory = &MemoryStop{LimitBytes: ex.Limit, HeapBytes: ex.Heap, NeedBytes: ex.Need}
	}
	for _, ph := range r.Report.Phases {
		out.Phases = append(out.Phases, PhaseResult{Name: ph.Name, Done: ph.Done, Total: ph.Total})
	}
	for _, o := range r.Report.Outcomes {
		pr := PropertyResult{Name: string(o.Property), Verdict: string(o.Verdict), Reason: o.Reason, Stuck: o.Stuck, Invariants: o.Invariants}
		if o.Counterexample != nil {
			pr.Trace = NewTrace(r.System, r.Params, string(o.Property), o.Counterexample)
			pr.Trace.Invariant = o.Invariant
			if fairnessQualifies(string(o.Property)) {
				pr.Trace.Fairness = r.Options.Fairness
			}
			switch r.Options.From {
			case "given", "random", "all", "empty-channels", "start":
				pr.Trace.Start = r.Options.From
			}
		}
		out.Properties = append(out.Properties, pr)
	}
	if st := r.Report.Stabilization; st != nil {
		sr := &StabilizationResult{Configurations: st.Configurations, Legitimate: st.Legitimate, Unbounded: st.Unbounded, PaperBound: r.PaperBound}
		if !st.Unbounded {
			steps := st.WorstSteps
			sr.WorstCaseSteps = &steps
		}
		if st.MovesComputed {
			moves := st.WorstMoves
			sr.WorstCaseMoves = &moves
		}
		if st.RoundsComputed {
			rounds := st.WorstRounds
			sr.WorstCaseRounds = &rounds
		} else {
			sr.RoundsNote = st.RoundsNote
		}
		if st.Witness != nil {
			sr.Witness = NewTrace(r.System, r.Params, witnessProperty, st.Witness)
			// The worst case starts from a configuration of the full space.
			sr.Witness.Start = "all"
		}
		out.Stabilization = sr
	}
	return out
}

func roundTo(x float64, digits int) float64 {
	p := 1.0
	for range digits {
		p *= 10
	}
	return float64(int64(x*p+0.5)) / p
}

// WriteCheckJSON writes the result as indented JSON.
func WriteCheckJSON(w io.Writer, c *CheckResult) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(c)
}

// WriteCheckText writes the result for a person: what was run, the
// search's figures, a verdict per property, then every counterexample.
func WriteCheckText(w io.Writer, c *CheckResult) error {
	p := &printer{w: w}
	links := ""
	if c.Options.Links != "" {
		links = ", " + c.Options.Links + " links"
	}
	from := c.Options.From
	if c.Options.StartPredicate != "" {
		from += " (" + c.Options.StartPredicate + ")"
	}
	code := ""
	if c.Options.Code != "" {
		code = ", " + c.Options.Code
	}
	p.printf("%s  %s  from %s, %s daemon%s%s\n", c.Spec, paramString(c.Params), from, c.Options.Daemon, links, code)
	search := "complete"
	switch {
	case c.Complete:
	case c.Stop == "decided":
		search = "stopped once every property was decided"
	default:
		search = "INCOMPLETE, " + c.Stop
	}
	switch sym := c.Symbolic; {
	case sym != nil:
		p.printf("  symbolic engine: %s configurations, %d fixpoint iterations, peak %d BDD nodes: %s\n", sym.Configurations, sym.Iterations, sym.PeakNodes, search)
		p.printf("  %s, peak heap %s\n", durationString(c.Stats.Seconds), bytesString(c.Stats.PeakHeapBytes))
	case c.Options.Engine != "":
		p.printf("  %s engine: %s\n", c.Options.Engine, search)
		p.printf("  %s, peak heap %s\n", durationString(c.Stats.Seconds), bytesString(c.Stats.PeakHeapBytes))
	default:
		p.printf("  %d states, %d transitions%s, depth %d: %s\n", c.Stats.States, c.Stats.Transitions, distinctText(c.Stats), c.Stats.MaxDepth, search)
		p.printf("  %s, %.0f states/s, peak heap %s\n", durationString(c.Stats.Seconds), c.Stats.StatesPerSecond, bytesString(c.Stats.PeakHeapBytes))
	}
	if c.Options.Reduce == "por" {
		p.printf("  partial-order reduction: %d states stored; a counterexample may not be shortest\n", c.Stats.States)
	}
	switch {
	case c.Options.Reduce == "symmetry" && c.Stats.Orbits > 0:
		p.printf("  symmetry reduction: %d orbits stored for the %d configurations, one representative each; counterexamples are concrete\n", c.Stats.Orbits, c.Stats.States)
	case c.Options.Reduce == "symmetry":
		p.printf("  symmetry reduction: %d orbits stored, one representative each; counterexamples are concrete\n", c.Stats.States)
	}
	if c.Options.ReduceNote != "" {
		p.printf("  %s\n", c.Options.ReduceNote)
	}
	if pr := c.Stats.CollisionProbability; pr > 0 {
		p.printf("  fingerprints: the probability that a state was missed is at most %.1e\n", pr)
	}
	if m := c.Memory; m != nil {
		p.printf("  the memory budget of %s stopped it: the heap held %s, the next step needed %s more\n", bytesString(m.LimitBytes), bytesString(m.HeapBytes), bytesString(m.NeedBytes))
	}
	for _, ph := range c.Phases {
		p.printf("  %s: %d of %d done\n", ph.Name, ph.Done, ph.Total)
	}
	p.printf("\n")
	for _, pr := range c.Properties {
		detail := pr.Reason
		if pr.Verdict == string(invariants.Holds) && len(pr.Invariants) > 0 {
			detail = "invariants: " + strings.Join(pr.Invariants, ", ")
		}
		switch {
		case pr.Trace == nil:
		case len(pr.Trace.Steps) == 0:
			detail += " (in the starting configuration below)"
		default:
			detail += fmt.Sprintf(" (%s of %d step%s below)", pr.Trace.Kind, len(pr.Trace.Steps), plural(len(pr.Trace.Steps)))
		}
		if pr.TraceFile != "" {
			detail += "; trace written to " + pr.TraceFile
		}
		// No trailing blanks when there is no detail (a plain "holds").
		p.printf("%s\n", strings.TrimRight(fmt.Sprintf("  %-12s %-9s %s", pr.Name, pr.Verdict, detail), " "))
	}
	if st := c.Stabilization; st != nil {
		if sym := c.Symbolic; sym != nil {
			p.printf("\n  stabilization from %s configurations (%s legitimate):\n", sym.Configurations, sym.Legitimate)
		} else {
			p.printf("\n  stabilization from %d configurations (%d legitimate):\n", st.Configurations, st.Legitimate)
		}
		switch {
		case st.WorstCaseSteps != nil:
			p.printf("    worst case  %d steps", *st.WorstCaseSteps)
			if st.WorstCaseMoves != nil && c.Options.Daemon != "central" {
				p.printf(" (%d moves)", *st.WorstCaseMoves)
			}
		default:
			p.printf("    worst case  unbounded steps (unfair cycles outside L; every fair execution converges)")
		}
		if st.WorstCaseRounds != nil {
			p.printf(", %d rounds", *st.WorstCaseRounds)
		} else if st.RoundsNote != "" {
			p.printf(", rounds not computed: %s", st.RoundsNote)
		}
		p.printf("\n")
		if st.PaperBound != "" {
			p.printf("    paper bound %s\n", st.PaperBound)
		}
	}
	for _, pr := range c.Properties {
		if pr.Trace == nil || p.err != nil {
			continue
		}
		p.printf("\n")
		p.err = WriteTraceText(w, pr.Trace)
	}
	if st := c.Stabilization; st != nil && st.Witness != nil && p.err == nil {
		p.printf("\nworst-case witness: ")
		p.err = WriteTraceText(w, st.Witness)
	}
	return p.err
}

// distinctPairs is a search's count of distinct pairs for Stats: nil
// where it was not counted (-1).
func distinctPairs(n int64) *int64 {
	if n < 0 {
		return nil
	}
	return &n
}

// distinctText is what the summary adds to the transitions when some
// steps from a state lead to the same successor: " (N distinct pairs)".
func distinctText(s Stats) string {
	if s.DistinctTransitions == nil || *s.DistinctTransitions == s.Transitions {
		return ""
	}
	return fmt.Sprintf(" (%d distinct pairs)", *s.DistinctTransitions)
}

func durationString(seconds float64) string {
	d := time.Duration(seconds * float64(time.Second))
	switch {
	case d >= time.Second:
		return d.Round(time.Millisecond).String()
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond).String()
	}
	return d.Round(time.Microsecond).String()
}

func bytesString(b uint64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(b)/(1<<10))
	}
	return fmt.Sprintf("%d B", b)
}
