package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/spf13/cobra"

	"github.com/ringcheck/ringcheck"
	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/fields"
	"github.com/ringcheck/ringcheck/internal/input"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/reports"
	"github.com/ringcheck/ringcheck/specs"
)

func newRegressCmd() *cobra.Command {
	var (
		junitPath string
		htmlDir   string
		workers   int
		reduce    string
		procs     int
	)
	cmd := &cobra.Command{
		Use:   "regress MANIFEST",
		Short: "Run a manifest of checks and compare every verdict with the expected one",
		Long: `Run every case of MANIFEST, a YAML file, and compare what ringcheck decides
with what the manifest expects: a regression gate.

  cases:
    - name: kl-naive figure 1        # optional; default: spec and params
      spec: kl-naive
      params: {n: 5, L: 5, K: 3}     # optional; the spec's defaults otherwise
      from: init                     # optional: init, all, random, empty-channels or start, as check --from
      start: testdata/config.json    # optional, instead of from: a trace file (relative
                                     #   to the manifest) whose first state starts the check
      samples: 10                    # optional, with from: random (as check --samples,
      seed: 1                        #   --seed)
      daemon: central                # optional: central, distributed, synchronous
      fairness: weak                 # optional: none, weak, strong, weak-action, strong-action
      leads_to: requesting,inCS      # optional, with a leads-to entry in expect
      overflow: block                # optional, as check --overflow
      links: reliable                # optional, as check --links
      max_depth: 0                   # optional bounds, as check's:
      max_states: 0                  #   0 is no bound
      time_limit: 30s
      max_memory: 2GiB               # optional: the heap's bound (default: auto,
                                     #   as check's --max-memory)
      store: fingerprint             # optional, as check --store
      reduce: none                   # optional, as check --reduce (default all)
      engine: symbolic               # optional, as check --engine
      symbolic_rounds: true          # optional, as check --symbolic-rounds
      expect:                        # required: property: holds|violated|unknown
        deadlock: violated           # the properties checked are exactly
        safety: holds                # these keys, in this order
      states: 988727                 # optional: expected number of states
                                     #   stored (under the case's reduction)
      worst_case_steps: 24           # optional (needs convergence in expect)
      worst_case_rounds: 7           # optional (needs convergence in expect)
      cycle_steps: 2                 # optional: the steps of the loop of the
                                     #   convergence counterexample
      budget: 10s                    # optional: fail if the case takes longer
      finding: thiare-deadlock       # optional, together: the finding of
      reading: "Rule 2 as written"   #   docs/findings the case pins, and the
                                     #   reading of the paper it decides

A case with a rounds block runs a rounds search instead of a check (the
same runs as 'ringcheck rounds' with the same arguments and defaults) and
holds it to a bound in rounds; beside it, it takes only name, spec,
params, finding, reading and budget:

    - spec: kl-ddhl
      params: {resend: 1}
      rounds:
        links: lossy                 # optional: reliable (default) or lossy
        cs_rounds: 0                 # optional, as --cs-rounds (default 1)
        order: backward              # optional, as --order
        seed: 1                      # optional, as --seed (default 1)
        run: 163450                  # one run replayed alone (as --run), or
                                     #   runs: 5000, a batch of runs 0..4999
        round_limit: 120             # optional, as --max-rounds
        bound: 4n                    # required: 4n (times the parameter n) or 12
        expect: violated             # required: violated (a run beyond the bound,
                                     #   or not at L) or within-sampled (every run
                                     #   within it: evidence, never holds)
        most_rounds: 14              # optional figures: the most rounds a run
        beyond_bound: 1              #   took to reach L, the runs beyond the
        not_reached: 0               #   bound, the runs that did not reach L

Every case is validated before any runs; then the cases run in parallel,
--workers at a time, each search on one core when several run at once.
A verdict left unknown by a bound is a failure unless the case expects
unknown. The table lists the cases in the manifest's order; a line per
mismatch follows it, as
  FAIL kl-naive n=5 L=5 K=3: deadlock: expected holds, got violated

Anchors, aliases and merge keys (<<: *base) are expanded as YAML defines
them. The manifest is read up to 16 MiB.

Ctrl-C or SIGTERM stops the run: the cases that had not finished are
NOT RUN (neither PASS nor FAIL), and the table says how many.

--html DIR writes, for each failing case with a counterexample, the
first one as DIR/CASE.html (the case's name, its letters and digits
kept and every other run of characters made '-'): one self-contained
page that plays it back, as 'trace --format html' does.

--junit FILE also writes a JUnit XML report: one testcase per case and
property (the counterexample of a violated property in its system-out),
plus one per case for its states, worst-case and budget checks; a case
not run is skipped, with why. A failure to write it is reported after
the table.

Exit status: 0 every case matches the manifest; 1 some case does not;
2 bad usage, a malformed manifest (one line naming its line, column and
field), or a JUnit file that could not be written when every case
matches; 3 the run was interrupted before every case finished, and no
finished case failed.`,
		Example: `  ringcheck regress specs/regress.yaml
  ringcheck regress specs/regress.yaml --junit regress.xml --workers 2`,
		Args: exactArgs(1, "regress needs exactly one MANIFEST file"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRegress(cmd, args[0], junitPath, htmlDir, workers, reduce, procs)
		},
	}
	cmd.Flags().StringVar(&junitPath, "junit", "", "also write a JUnit XML report to this file")
	cmd.Flags().StringVar(&htmlDir, "html", "", "write the counterexample of each failing case to this folder, as an HTML page that plays it back")
	cmd.Flags().StringVar(&reduce, "reduce", "", "run every case with this reduction (none, por, symmetry, all); with por or symmetry, the cases it cannot run on run unreduced, and no case compares its states figure under a reduction")
	cmd.Flags().IntVar(&workers, "workers", runtime.NumCPU(), "cases run at once")
	cmd.Flags().IntVar(&procs, "procs", 0, "run every case of safety and deadlock from init as check --procs N does, one case at a time on N worker processes over an embedded NATS server, unreduced (a case's states figure under its own reduction is not compared); the other cases are skipped (NOT RUN, counted in the summary)")
	return cmd
}

// regressCase is one validated case of a manifest.
type regressCase struct {
	name   string
	spec   string
	req    *ringcheck.Request
	expect []expectation
	states *int64
	steps  *int
	rounds *int
	// cycle is the number of steps of the loop of the convergence
	// counterexample.
	cycle     *int
	budget    time.Duration
	hasFigure bool // states, worst case, rounds figures or budget given
	// errAt places an error at one of the case's keys; keys holds where
	// each key given is.
	errAt errAtFunc
	keys  caseLines
	// search is a rounds case's search (req is then nil).
	search *roundsCase
}

type expectation struct {
	property invariants.Property
	verdict  invariants.Verdict
}

// reduceCase sets c's reduction to red; partial-order or symmetry
// reduction only where it can run, the case running unreduced elsewhere.
// A case whose own reduction red replaces no longer compares its states
// figure, which counts the states its own reduction stores.
func reduceCase(c *regressCase, red ringcheck.Reduce) {
	own := c.req.Reduce
	c.req.Reduce = red
	if (red == ringcheck.ReducePOR || red == ringcheck.ReduceSymmetry) && c.req.Validate() != nil {
		c.req.Reduce = ringcheck.ReduceNone
	}
	if c.req.Reduce != own {
		c.states = nil
	}
}

func runRegress(cmd *cobra.Command, path, junitPath, htmlDir string, workers int, reduce string, procs int) error {
	if workers < 1 {
		return usageError("--workers must be at least 1")
	}
	var red ringcheck.Reduce
	if reduce != "" {
		var err error
		if red, err = ringcheck.ParseReduce(reduce); err != nil {
			return usageError("--reduce: %v", err)
		}
	}
	if junitPath != "" {
		if err := checkTracePath(junitPath); err != nil {
			return usageError("--junit: %v", err)
		}
	}
	data, err := input.ReadFile(path, maxManifestBytes, "a manifest")
	if err != nil {
		return usageError("%v", err)
	}
	ctx := cmd.Context()
	cases, err := parseManifest(ctx, path, data)
	if err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	perCase := min(runtime.NumCPU(), explore.MaxWorkers)
	if workers > 1 && len(cases) > 1 {
		perCase = 1
	}
	for _, c := range cases {
		if c.req != nil {
			c.req.Workers = perCase
			if red != "" {
				reduceCase(c, red)
			}
		}
		if err := c.validate(); err != nil {
			return usageError("%v", err)
		}
	}

	skipped := map[*regressCase]string{}
	if procs > 0 {
		stop, err := startRegressCluster(cmd, procs, cases, skipped)
		if err != nil {
			return err
		}
		defer stop()
		workers = 1
	} else if procs < 0 {
		return usageError("--procs is %d: give a number of worker processes, at least 1", procs)
	}

	// A case that had not finished when the run was interrupted (Ctrl-C,
	// SIGTERM) has no outcome: whatever it reported then, it is not run.
	outcomes := make([]*reports.RegressCase, len(cases))
	sem := make(chan struct{}, workers)
	var wg sync.WaitGroup
	for i, c := range cases {
		if why, skip := skipped[c]; skip {
			outcomes[i] = notRun(c, why)
			continue
		}
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			outcomes[i] = notRun(c, "not started: "+interruption(ctx))
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			var o *reports.RegressCase
			if c.search != nil {
				o = runRoundsCase(ctx, c)
			} else {
				o = runCase(cmd, c)
			}
			if ctx.Err() != nil {
				o = notRun(c, "not finished: "+interruption(ctx))
			}
			outcomes[i] = o
		}()
	}
	wg.Wait()

	failed, err := reports.WriteRegressTable(cmd.OutOrStdout(), outcomes)
	if err != nil {
		return &exitError{code: exitUsage, err: fmt.Errorf("writing the table: %w", err)}
	}
	var status error
	switch {
	case failed > 0:
		status = &exitError{code: exitViolated}
	case ctx.Err() != nil:
		status = &exitError{code: exitUnknown}
	}
	if junitPath != "" {
		// The table and its verdict stand whatever happens to the file: a
		// failure to write it is reported after them, and the exit status
		// is the regression's when it is not 0.
		if err := writeJUnitFile(junitPath, outcomes); err != nil {
			fmt.Fprintf(cmd.ErrOrStderr(), "ringcheck: --junit: %v\n", err)
			if status == nil {
				status = &exitError{code: exitUsage}
			}
		}
	}
	if htmlDir != "" {
		if err := writeHTMLPages(htmlDir, outcomes); err != nil {
			fmt.Fprintf(cmd.ErrOrStderr(), "ringcheck: --html: %v\n", err)
			if status == nil {
				status = &exitError{code: exitUsage}
			}
		}
	}
	return status
}

// notRun is the outcome of a case an interruption left without one: why
// says when the interruption came.
func notRun(c *regressCase, why string) *reports.RegressCase {
	o := &reports.RegressCase{Name: c.name, Spec: c.spec, NotRun: why}
	if c.search != nil {
		o.Expected = [][2]string{{"rounds", c.search.expect}}
	}
	for _, e := range c.expect {
		o.Expected = append(o.Expected, [2]string{string(e.property), string(e.verdict)})
	}
	return o
}

// interruption says what interrupted the run ctx belongs to, as "regress
// was interrupted (terminated signal received)".
func interruption(ctx context.Context) string {
	// A signal's cause is also context.Canceled to errors.Is: compare.
	cause := context.Cause(ctx)
	if cause == nil || cause == context.Canceled {
		return "regress was interrupted"
	}
	return fmt.Sprintf("regress was interrupted (%v)", cause)
}

func writeJUnitFile(path string, cases []*reports.RegressCase) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	err = reports.WriteJUnit(f, cases)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// runCase runs one case, quietly (no progress lines from parallel
// searches), and compares its result with the manifest.
func runCase(cmd *cobra.Command, c *regressCase) *reports.RegressCase {
	quiet := &cobra.Command{}
	quiet.SetContext(cmd.Context())
	quiet.SetErr(io.Discard)
	start := time.Now()
	result, res, err := runPlan(quiet, c.req, &checkFlags{})
	o := &reports.RegressCase{Name: c.name, Spec: c.spec, HasFigures: c.hasFigure, Elapsed: time.Since(start), Err: err, Result: result}
	if res != nil {
		o.Request = res.Key
	}
	for _, e := range c.expect {
		o.Expected = append(o.Expected, [2]string{string(e.property), string(e.verdict)})
	}
	if err != nil {
		return o
	}
	o.PropertyDiffs = make([]string, len(c.expect))
	for i, e := range c.expect {
		got := "missing"
		if i < len(result.Properties) && result.Properties[i].Name == string(e.property) {
			got = result.Properties[i].Verdict
		}
		if got != string(e.verdict) {
			d := fmt.Sprintf("%s: expected %s, got %s", e.property, e.verdict, got)
			if i < len(result.Properties) && result.Properties[i].Reason != "" && got != string(invariants.Holds) {
				d += " (" + result.Properties[i].Reason + ")"
			}
			o.PropertyDiffs[i] = d
		}
	}
	if c.states != nil && result.Options.Engine != "" {
		o.FigureDiffs = append(o.FigureDiffs, fmt.Sprintf("states: the %s engine counts no states", result.Options.Engine))
	} else if c.states != nil && result.Stats.States != *c.states {
		o.FigureDiffs = append(o.FigureDiffs, fmt.Sprintf("states: expected %d, got %d", *c.states, result.Stats.States))
	}
	var steps, rounds *int
	if st := result.Stabilization; st != nil {
		steps, rounds = st.WorstCaseSteps, st.WorstCaseRounds
	}
	if c.steps != nil && (steps == nil || *steps != *c.steps) {
		o.FigureDiffs = append(o.FigureDiffs, fmt.Sprintf("worst_case_steps: expected %d, got %s", *c.steps, intOrNone(steps)))
	}
	if c.rounds != nil && (rounds == nil || *rounds != *c.rounds) {
		o.FigureDiffs = append(o.FigureDiffs, fmt.Sprintf("worst_case_rounds: expected %d, got %s", *c.rounds, intOrNone(rounds)))
	}
	if c.cycle != nil {
		got := "none"
		for _, p := range result.Properties {
			if p.Name == string(invariants.Convergence) && p.Trace != nil && p.Trace.LoopStart != nil {
				got = strconv.Itoa(len(p.Trace.Steps) - *p.Trace.LoopStart)
			}
		}
		if got != strconv.Itoa(*c.cycle) {
			o.FigureDiffs = append(o.FigureDiffs, fmt.Sprintf("cycle_steps: expected %d, got %s", *c.cycle, got))
		}
	}
	if c.budget > 0 && o.Elapsed > c.budget {
		o.FigureDiffs = append(o.FigureDiffs, fmt.Sprintf("budget: expected at most %s, took %s", c.budget, o.Elapsed.Round(time.Millisecond)))
	}
	return o
}

func intOrNone(p *int) string {
	if p == nil {
		return "none"
	}
	return strconv.Itoa(*p)
}

// maxManifestBytes is the largest manifest regress reads: 16 MiB, some two
// hundred times the project's own gate.
const maxManifestBytes = 16 << 20

// maxManifestNodes bounds the nodes of a manifest once its aliases are
// expanded: a few aliases of aliases can otherwise name more nodes than
// memory holds.
const maxManifestNodes = 1 << 20

// pos is where something is in a manifest: its line and column, from 1
// (0: unknown).
type pos struct{ line, col int }

// manifestError is a malformed manifest: the file, the line and column and
// the path of the field at fault.
func manifestError(file string, at pos, field, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if field != "" {
		msg = field + ": " + msg
	}
	if at.line == 0 {
		return fmt.Errorf("%s: %s", file, msg)
	}
	return fmt.Errorf("%s:%d:%d: %s", file, at.line, at.col, msg)
}

// nodePos is where n is written: for a block mapping, its first key.
func nodePos(n ast.Node) pos {
	switch m := n.(type) {
	case nil:
		return pos{}
	case *ast.MappingNode:
		if len(m.Values) > 0 && !m.IsFlowStyle {
			return nodePos(m.Values[0].Key)
		}
	case *ast.MappingValueNode:
		return nodePos(m.Key)
	}
	if tk := n.GetToken(); tk != nil && tk.Position != nil {
		return pos{tk.Position.Line, tk.Position.Column}
	}
	return pos{}
}

// mappingPairs returns the key-value pairs of a mapping node, or false if
// n is not a mapping.
func mappingPairs(n ast.Node) ([]*ast.MappingValueNode, bool) {
	switch m := n.(type) {
	case *ast.MappingNode:
		return m.Values, true
	case *ast.MappingValueNode:
		return []*ast.MappingValueNode{m}, true
	}
	return nil, false
}

// keyName is the name of a mapping's key.
func keyName(kv *ast.MappingValueNode) string {
	return kv.Key.GetToken().Value
}

// resolver expands the anchors, aliases and merge keys (<<) of a
// manifest into a tree that has none, as YAML defines them: an alias
// stands for the node of the last anchor of its name before it, and a
// mapping takes the keys of the mappings its merge keys name that it does
// not give itself.
type resolver struct {
	file string
	// anchors holds the anchors met so far, each with the number of nodes
	// it expands to; an anchor is known once its node is read, so that no
	// node contains an alias of itself.
	anchors map[string]anchor
	// nodes counts the nodes of the expanded tree, against
	// maxManifestNodes.
	nodes int
	// itemPos is where each item of a sequence is written: for an alias,
	// where the alias is, not its anchor.
	itemPos map[*ast.SequenceNode][]pos
}

// anchor is an anchor's node, resolved, and the number of nodes it
// expands to.
type anchor struct {
	node  ast.Node
	nodes int
}

// resolve returns n with every anchor, alias and merge key expanded.
// An alias's expansion is its anchor's node itself, shared, but counted
// in full against maxManifestNodes.
func (r *resolver) resolve(n ast.Node) (ast.Node, error) {
	if r.nodes++; r.nodes > maxManifestNodes {
		return nil, manifestError(r.file, nodePos(n), "", "its aliases expand to more than %d nodes", maxManifestNodes)
	}
	switch v := n.(type) {
	case *ast.AnchorNode:
		before := r.nodes
		res, err := r.resolve(v.Value)
		if err != nil {
			return nil, err
		}
		r.anchors[v.Name.GetToken().Value] = anchor{res, r.nodes - before}
		return res, nil
	case *ast.AliasNode:
		name := v.Value.GetToken().Value
		a, ok := r.anchors[name]
		if !ok {
			return nil, manifestError(r.file, nodePos(v), "", "alias *%s: no anchor &%s before it", name, name)
		}
		if r.nodes += a.nodes; r.nodes > maxManifestNodes {
			return nil, manifestError(r.file, nodePos(n), "", "its aliases expand to more than %d nodes", maxManifestNodes)
		}
		return a.node, nil
	case *ast.TagNode:
		value, err := r.resolve(v.Value)
		if err != nil {
			return nil, err
		}
		return &ast.TagNode{BaseNode: v.BaseNode, Directive: v.Directive, Start: v.Start, Value: value}, nil
	case *ast.SequenceNode:
		out := &ast.SequenceNode{BaseNode: v.BaseNode, Start: v.Start, End: v.End, IsFlowStyle: v.IsFlowStyle}
		for _, item := range v.Values {
			res, err := r.resolve(item)
			if err != nil {
				return nil, err
			}
			out.Values = append(out.Values, res)
			r.itemPos[out] = append(r.itemPos[out], nodePos(item))
		}
		return out, nil
	case *ast.MappingNode:
		values, err := r.pairs(v.Values)
		if err != nil {
			return nil, err
		}
		return &ast.MappingNode{BaseNode: v.BaseNode, Start: v.Start, End: v.End, IsFlowStyle: v.IsFlowStyle, Values: values}, nil
	case *ast.MappingValueNode:
		values, err := r.pairs([]*ast.MappingValueNode{v})
		if err != nil {
			return nil, err
		}
		return &ast.MappingNode{BaseNode: v.BaseNode, Start: v.Key.GetToken(), IsFlowStyle: v.IsFlowStyle, Values: values}, nil
	}
	return n, nil
}

// pairs resolves a mapping's pairs: each value resolved, and each merge
// key replaced by the pairs of the mappings it names whose keys the
// mapping does not give (the first mapping named giving a key wins).
func (r *resolver) pairs(values []*ast.MappingValueNode) ([]*ast.MappingValueNode, error) {
	own := map[string]bool{}
	for _, kv := range values {
		if !kv.Key.IsMergeKey() {
			own[keyName(kv)] = true
		}
	}
	var out []*ast.MappingValueNode
	merged := map[string]bool{}
	for _, kv := range values {
		value, err := r.resolve(kv.Value)
		if err != nil {
			return nil, err
		}
		if !kv.Key.IsMergeKey() {
			out = append(out, &ast.MappingValueNode{BaseNode: kv.BaseNode, Start: kv.Start, CollectEntry: kv.CollectEntry,
				Key: kv.Key, Value: value, IsFlowStyle: kv.IsFlowStyle})
			continue
		}
		sources := []ast.Node{value}
		if seq, ok := value.(*ast.SequenceNode); ok {
			sources = seq.Values
		}
		for _, src := range sources {
			pairs, ok := mappingPairs(src)
			if !ok {
				return nil, manifestError(r.file, nodePos(kv.Key), "<<", "merges a mapping or a list of mappings")
			}
			for _, p := range pairs {
				if k := keyName(p); !own[k] && !merged[k] {
					merged[k] = true
					out = append(out, p)
				}
			}
		}
	}
	return out, nil
}

// parseManifest reads a regression manifest strictly: every field known,
// every spec, parameter, property and verdict valid. Anchors, aliases and
// merge keys are expanded first. The first error names the manifest's
// line and column and the field.
func parseManifest(ctx context.Context, file string, data []byte) ([]*regressCase, error) {
	f, err := parser.ParseBytes(data, 0)
	if err != nil {
		var ye yaml.Error
		if errors.As(err, &ye) {
			at := pos{}
			if tk := ye.GetToken(); tk != nil && tk.Position != nil {
				at = pos{tk.Position.Line, tk.Position.Column}
			}
			return nil, manifestError(file, at, "", "%s", ye.GetMessage())
		}
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	var body ast.Node
	if len(f.Docs) > 1 {
		return nil, manifestError(file, nodePos(f.Docs[1]), "", "one YAML document expected")
	}
	if len(f.Docs) == 1 {
		body = f.Docs[0].Body
	}
	if _, ok := body.(*ast.CommentGroupNode); ok || body == nil {
		return nil, manifestError(file, pos{1, 1}, "", "empty manifest: it needs a cases list")
	}
	r := &resolver{file: file, anchors: map[string]anchor{}, itemPos: map[*ast.SequenceNode][]pos{}}
	bodyPos := nodePos(body)
	if body, err = r.resolve(body); err != nil {
		return nil, err
	}
	top, ok := mappingPairs(body)
	if !ok {
		return nil, manifestError(file, bodyPos, "", "the manifest must be a mapping with a cases list")
	}
	var casesNode ast.Node
	for _, kv := range top {
		key := keyName(kv)
		if key != "cases" {
			return nil, manifestError(file, nodePos(kv.Key), key, "unknown field (the manifest has only cases)")
		}
		if casesNode != nil {
			return nil, manifestError(file, nodePos(kv.Key), key, "given twice")
		}
		casesNode = kv.Value
	}
	if casesNode == nil {
		return nil, manifestError(file, bodyPos, "cases", "missing")
	}
	seq, ok := casesNode.(*ast.SequenceNode)
	if !ok || len(seq.Values) == 0 {
		return nil, manifestError(file, nodePos(casesNode), "cases", "must be a non-empty list of cases")
	}
	reg, err := registryOf(ctx)
	if err != nil {
		return nil, err
	}
	var cases []*regressCase
	for i, n := range seq.Values {
		c, err := parseCase(file, fmt.Sprintf("cases[%d]", i), n, r.itemPos[seq][i], reg)
		if err != nil {
			return nil, err
		}
		cases = append(cases, c...)
	}
	return cases, nil
}

// validate applies a check request's rules to the case, at the manifest's
// line of the first key given that the error names, naming the fields as the
// manifest's keys; a rounds case's, it builds its system.
func (c *regressCase) validate() error {
	if c.search != nil {
		if err := c.search.validate(); err != nil {
			return c.errAt("", "%v", err)
		}
		return nil
	}
	err := c.req.Validate()
	var fe *fields.Error
	if !errors.As(err, &fe) {
		if err != nil {
			return c.errAt("", "%v", err)
		}
		return nil
	}
	key := ""
	for _, f := range fe.Fields() {
		if _, given := c.keys[manifestKeys[f]]; given {
			key = manifestKeys[f]
			break
		}
	}
	return c.errAt(key, "%s", fe.Render(manifestFieldName))
}

// manifestKeys is the manifest's key that sets each field of a
// ringcheck.Request; manifestFieldName names a field in a manifest's
// errors: its key, or what the key must say where the field is one of its
// values.
var manifestKeys = map[string]string{
	"Spec": "spec", "Params": "params", "Properties": "expect", "LeadsTo": "leads_to",
	"From": "from", "Start.Trace": "start", "Start.Index": "start",
	"Random": "samples", "Random.Samples": "samples", "Random.Seed": "seed",
	"Daemon": "daemon", "Overflow": "overflow", "ReliableLinks": "links", "Fairness": "fairness",
	"MaxDepth": "max_depth", "MaxStates": "max_states", "TimeLimit": "time_limit",
	"MaxMemory": "max_memory", "Fingerprints": "store", "TreeStore": "store", "Reduce": "reduce", "Engine": "engine", "SymbolicRounds": "symbolic_rounds",
}

func manifestFieldName(f string) string {
	switch f {
	case "Random":
		return "samples and seed"
	case "ReliableLinks":
		return "links: reliable"
	case "Fingerprints":
		return "store: fingerprint"
	case "Workers":
		return "the workers"
	}
	return manifestKeys[f]
}

// manifestCase is one case of a manifest as written: the fields of a check
// request (as check's flags), what the case expects, and the figures it
// pins. Keys not declared here are an error.
type manifestCase struct {
	Name            string        `yaml:"name"`
	Spec            string        `yaml:"spec"`
	Finding         string        `yaml:"finding"`
	Reading         string        `yaml:"reading"`
	Claims          string        `yaml:"claims"`
	Params          yaml.MapSlice `yaml:"params"`
	From            string        `yaml:"from"`
	Start           string        `yaml:"start"`
	Samples         *int          `yaml:"samples"`
	Seed            *uint64       `yaml:"seed"`
	Daemon          string        `yaml:"daemon"`
	Fairness        string        `yaml:"fairness"`
	LeadsTo         string        `yaml:"leads_to"`
	Overflow        string        `yaml:"overflow"`
	Links           string        `yaml:"links"`
	MaxDepth        int           `yaml:"max_depth"`
	MaxStates       int64         `yaml:"max_states"`
	TimeLimit       string        `yaml:"time_limit"`
	MaxMemory       string        `yaml:"max_memory"`
	Store           string        `yaml:"store"`
	Reduce          string        `yaml:"reduce"`
	Engine          string        `yaml:"engine"`
	SymbolicRounds  bool          `yaml:"symbolic_rounds"`
	Expect          yaml.MapSlice `yaml:"expect"`
	States          *int64        `yaml:"states"`
	WorstCaseSteps  *int          `yaml:"worst_case_steps"`
	WorstCaseRounds *int          `yaml:"worst_case_rounds"`
	CycleSteps      *int          `yaml:"cycle_steps"`
	Budget          string        `yaml:"budget"`
	// Rounds makes the case a rounds case (see manifestRounds).
	Rounds *manifestRounds `yaml:"rounds"`
}

// caseKeys are manifestCase's keys, in declaration order.
var caseKeys = yamlKeys[manifestCase]()

// yamlKeys lists the yaml keys of struct type T's fields, in declaration
// order.
func yamlKeys[T any]() []string {
	t := reflect.TypeFor[T]()
	keys := make([]string, t.NumField())
	for i := range keys {
		keys[i] = t.Field(i).Tag.Get("yaml")
	}
	return keys
}

// checkFinding holds the rule that a case names its finding and the
// reading of the text it decides together, or neither: the findings page
// names a finding's cases, each under a reading.
func (mc *manifestCase) checkFinding(errAt errAtFunc) error {
	switch {
	case mc.Finding == "" && mc.Reading != "":
		return errAt("reading", "needs finding: the finding it is a reading of")
	case mc.Finding != "" && mc.Reading == "":
		return errAt("finding", "needs reading: the reading of the text the case decides")
	}
	return nil
}

// caseLines holds where every key of a case is, and the keys of its
// params, expect and rounds mappings (as "params.n"); "" is where the
// case is.
type caseLines map[string]pos

// integerKeys are the keys of a case (and, as "rounds.run", of its rounds
// block) whose values are integers.
var integerKeys = func() map[string]bool {
	keys := map[string]bool{}
	for _, k := range yamlIntegerKeys[manifestCase]() {
		keys[k] = true
	}
	for _, k := range yamlIntegerKeys[manifestRounds]() {
		keys["rounds."+k] = true
	}
	return keys
}()

// yamlIntegerKeys lists the yaml keys of struct type T's fields of an
// integer type (or a pointer to one).
func yamlIntegerKeys[T any]() []string {
	t := reflect.TypeFor[T]()
	var keys []string
	for i := range t.NumField() {
		ft := t.Field(i).Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		switch ft.Kind() {
		case reflect.Int, reflect.Int64, reflect.Uint64:
			keys = append(keys, t.Field(i).Tag.Get("yaml"))
		}
	}
	return keys
}

// readCaseLines records where each key of case node n (written at
// casePos) is, rejecting unknown keys, keys given twice, and a value that
// is not an integer where the key takes one (1.5 is not truncated to 1).
func readCaseLines(file, at string, n ast.Node, casePos pos) (caseLines, error) {
	pairs, ok := mappingPairs(n)
	if !ok {
		return nil, manifestError(file, casePos, at, "a case must be a mapping")
	}
	lines := caseLines{"": casePos}
	for _, kv := range pairs {
		key := keyName(kv)
		if !slices.Contains(caseKeys, key) {
			return nil, manifestError(file, nodePos(kv.Key), at+"."+key, "unknown field (known: %s)", strings.Join(caseKeys, ", "))
		}
		if err := lines.add(file, at, key, kv); err != nil {
			return nil, err
		}
		inner, ok := mappingPairs(kv.Value)
		if !ok || key != "params" && key != "expect" && key != "rounds" {
			continue
		}
		for _, p := range inner {
			if err := lines.add(file, at, key+"."+keyName(p), p); err != nil {
				return nil, err
			}
		}
	}
	return lines, nil
}

// add records where key is, refusing it if it is given twice or if it
// takes an integer and kv's value is none.
func (l caseLines) add(file, at, key string, kv *ast.MappingValueNode) error {
	if _, dup := l[key]; dup {
		return manifestError(file, nodePos(kv.Key), at+"."+key, "given twice")
	}
	l[key] = nodePos(kv.Key)
	switch v := kv.Value.(type) {
	case *ast.IntegerNode, *ast.NullNode:
	default:
		if integerKeys[key] {
			return manifestError(file, nodePos(kv.Value), at+"."+key, "%s is not an integer", v)
		}
	}
	return nil
}

// parseCase decodes and validates one case, n, written at casePos; at
// names it ("cases[2]").
func parseCase(file, at string, n ast.Node, casePos pos, reg *specs.Registry) ([]*regressCase, error) {
	lines, err := readCaseLines(file, at, n, casePos)
	if err != nil {
		return nil, err
	}
	errAt := func(key, format string, args ...any) error {
		line, given := lines[key]
		if !given {
			line = lines[""] // a missing key: the case's place
		}
		field := at
		if key != "" {
			field += "." + key
		}
		return manifestError(file, line, field, format, args...)
	}
	var mc manifestCase
	if err := yaml.NodeToValue(n, &mc); err != nil {
		return nil, decodeError(file, at, lines, err)
	}
	if mc.Claims != "" {
		return claimCases(file, reg, &mc, lines, errAt)
	}
	if mc.Spec == "" {
		return nil, errAt("spec", "missing")
	}
	spec, err := findSpecIn(reg, mc.Spec, filepath.Dir(file))
	if err != nil {
		var ee *exitError
		if errors.As(err, &ee) && ee.plain {
			return nil, err
		}
		return nil, errAt("spec", "%v", errors.Unwrap(err))
	}
	c := &regressCase{spec: spec.Name, name: mc.Name, errAt: errAt, keys: lines}
	cases := []*regressCase{c}
	params, err := mc.params(spec, errAt)
	if err != nil {
		return nil, err
	}
	if _, given := lines["rounds"]; given {
		return cases, c.roundsCase(file, at, &mc, spec, params, lines, errAt)
	}
	if c.req, err = mc.request(spec, params, filepath.Dir(file), errAt); err != nil {
		return nil, err
	}
	if c.expect, err = mc.expectations(errAt); err != nil {
		return nil, err
	}
	if err := c.pinFigures(&mc, errAt); err != nil {
		return nil, err
	}
	if c.name == "" {
		// The spec and the parameters, in the manifest's order.
		c.name = spec.Name
		for _, kv := range mc.Params {
			c.name += fmt.Sprintf(" %v=%d", kv.Key, params[fmt.Sprint(kv.Key)])
		}
	}
	return cases, nil
}

// claimCases expands a case `claims: SPEC` into one case per claim of the
// spec (a built-in name or a .ring file), expecting the verdict ringcheck
// finds where it differs from the paper's, and the paper's otherwise; a
// claim out of reach of any search is left out.
func claimCases(file string, reg *specs.Registry, mc *manifestCase, lines caseLines, errAt errAtFunc) ([]*regressCase, error) {
	for _, key := range caseKeys {
		if _, given := lines[key]; given && key != "claims" {
			return nil, errAt(key, "a case with claims takes no other key: it is one case per claim of the spec")
		}
	}
	spec, err := findSpecIn(reg, mc.Claims, filepath.Dir(file))
	if err != nil {
		var ee *exitError
		if errors.As(err, &ee) && ee.plain {
			return nil, err
		}
		return nil, errAt("claims", "%v", errors.Unwrap(err))
	}
	if len(spec.Claims) == 0 {
		return nil, errAt("claims", "spec %s declares no claim", spec.Name)
	}
	var cases []*regressCase
	for _, cl := range spec.Claims {
		if cl.Found == specs.OutOfReach {
			continue
		}
		verdict := cl.Verdict
		if cl.Found != "" {
			verdict = cl.Found
		}
		req := &ringcheck.Request{
			Spec: spec, Params: cl.Params, Workers: 1,
			Properties: []invariants.Property{invariants.Property(cl.Property)},
			From:       invariants.From(cl.From),
			Fairness:   invariants.Fairness(cl.Fairness),
		}
		if cl.Start != nil {
			req.From, req.Start = "", &ringcheck.Start{Config: cl.Start}
		}
		cases = append(cases, &regressCase{
			name:   fmt.Sprintf("%s claim: %s %s for %s", spec.Name, cl.Property, cl.Verdict, specs.Values(cl.Params)),
			spec:   spec.Name,
			req:    req,
			expect: []expectation{{property: invariants.Property(cl.Property), verdict: invariants.Verdict(verdict)}},
			errAt:  errAt,
			keys:   lines,
		})
	}
	return cases, nil
}

// decodeError turns a decoding error into a manifest error at the key
// whose value has the wrong type: the last key before the place the
// decoder stopped at, on its line.
func decodeError(file, at string, lines caseLines, err error) error {
	where, key := pos{}, ""
	var ye yaml.Error
	if !errors.As(err, &ye) {
		return manifestError(file, lines[""], at, "%v", err)
	}
	if tk := ye.GetToken(); tk != nil && tk.Position != nil {
		where = pos{tk.Position.Line, tk.Position.Column}
	}
	for k, p := range lines {
		// The last key before where the decoder stopped, on its line.
		if k != "" && p.line == where.line && p.col <= where.col && (key == "" || p.col > lines[key].col) {
			key = k
		}
	}
	if key == "" {
		return manifestError(file, where, at, "%s", strings.TrimSpace(ye.GetMessage()))
	}
	return manifestError(file, lines[key], at+"."+key, "has the wrong type (see 'ringcheck regress --help')")
}

type errAtFunc func(key, format string, args ...any) error

// params checks the case's parameters against the spec's, in the
// manifest's order.
func (mc *manifestCase) params(spec *specs.Spec, errAt errAtFunc) (map[string]int, error) {
	params := map[string]int{}
	for _, kv := range mc.Params {
		name := fmt.Sprint(kv.Key)
		field := "params." + name
		prm, ok := spec.Param(name)
		if !ok {
			return nil, errAt(field, "spec %s has no such parameter", spec.Name)
		}
		var x int64
		switch v := kv.Value.(type) {
		case int64:
			x = v
		case uint64:
			x = int64(min(v, math.MaxInt64))
		default:
			return nil, errAt(field, "must be an integer")
		}
		if x < int64(prm.Min) || x > int64(prm.Max) {
			return nil, errAt(field, "%d is outside %d..%d", x, prm.Min, prm.Max)
		}
		params[name] = int(x)
	}
	return params, nil
}

// request builds the check request the case describes; dir is the
// manifest's folder, which a start trace is relative to.
func (mc *manifestCase) request(spec *specs.Spec, params map[string]int, dir string, errAt errAtFunc) (*ringcheck.Request, error) {
	req := &ringcheck.Request{Spec: spec, Params: params, MaxDepth: mc.MaxDepth, MaxStates: mc.MaxStates, Workers: 1, SymbolicRounds: mc.SymbolicRounds}
	if err := mc.checkFinding(errAt); err != nil {
		return nil, err
	}
	var err error
	parse := []struct {
		key, value string
		set        func(string) error
	}{
		{"from", mc.From, func(s string) (err error) { req.From, err = invariants.ParseFrom(s); return }},
		{"daemon", mc.Daemon, func(s string) (err error) { req.Daemon, err = model.ParseDaemon(s); return }},
		{"fairness", mc.Fairness, func(s string) (err error) { req.Fairness, err = invariants.ParseFairness(s); return }},
		{"overflow", mc.Overflow, func(s string) error {
			o, err := model.ParseOverflow(s)
			req.Overflow = &o
			return err
		}},
		{"links", mc.Links, func(s string) (err error) { req.ReliableLinks, err = parseReliable(s); return }},
		{"leads_to", mc.LeadsTo, func(s string) error {
			a, b, ok := strings.Cut(s, ",")
			if !ok || strings.TrimSpace(a) == "" || strings.TrimSpace(b) == "" {
				return fmt.Errorf("%q is not of the form FROM,TO", s)
			}
			req.LeadsTo = invariants.LeadsTo{From: strings.TrimSpace(a), To: strings.TrimSpace(b)}
			return nil
		}},
		{"time_limit", mc.TimeLimit, func(s string) (err error) { req.TimeLimit, err = parseDuration(s); return }},
		{"store", mc.Store, func(s string) (err error) { req.Fingerprints, req.TreeStore, err = parseStore(s); return }},
		{"reduce", mc.Reduce, func(s string) (err error) { req.Reduce, err = ringcheck.ParseReduce(s); return }},
		{"engine", mc.Engine, func(s string) (err error) { req.Engine, err = ringcheck.ParseEngine(s); return }},
		{"max_memory", cmp.Or(mc.MaxMemory, "auto"), func(s string) (err error) {
			req.MaxMemory, _, err = memoryLimit(s)
			return
		}},
	}
	for _, p := range parse {
		if p.value != "" {
			if err = p.set(p.value); err != nil {
				return nil, errAt(p.key, "%v", err)
			}
		}
	}
	if mc.Start != "" {
		if mc.From != "" {
			return nil, errAt("start", "from and start both say where the check starts: give one")
		}
		req.Start = &ringcheck.Start{Trace: filepath.Join(dir, mc.Start)}
	}
	if mc.Samples != nil || mc.Seed != nil {
		req.Random = &ringcheck.Random{Samples: ringcheck.DefaultSamples, Seed: ringcheck.DefaultSeed}
		if mc.Samples != nil {
			req.Random.Samples = *mc.Samples
		}
		if mc.Seed != nil {
			req.Random.Seed = *mc.Seed
		}
	}
	return req, nil
}

// parseDuration parses a non-negative duration, as 30s or 5m.
func parseDuration(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%q is not a duration, as 30s or 5m", s)
	}
	return d, nil
}

// expectations reads expect: the properties checked, in order, and the
// verdict each must have.
func (mc *manifestCase) expectations(errAt errAtFunc) ([]expectation, error) {
	if len(mc.Expect) == 0 {
		return nil, errAt("expect", "missing: name each property to check and its expected verdict")
	}
	var out []expectation
	for _, kv := range mc.Expect {
		prop := invariants.Property(fmt.Sprint(kv.Key))
		field := "expect." + string(prop)
		if invariants.Implemented(prop) != nil {
			return nil, errAt(field, "unknown property (known: %s)", knownProperties())
		}
		v := invariants.Verdict(fmt.Sprint(kv.Value))
		if v != invariants.Holds && v != invariants.Violated && v != invariants.Unknown {
			return nil, errAt(field, "verdict %q is not one of holds, violated, unknown", kv.Value)
		}
		out = append(out, expectation{prop, v})
	}
	hasLeadsTo := slices.ContainsFunc(out, func(e expectation) bool { return e.property == invariants.LeadsToProperty })
	switch {
	case hasLeadsTo && mc.LeadsTo == "":
		return nil, errAt("expect.leads-to", "needs leads_to: FROM,TO in the case")
	case !hasLeadsTo && mc.LeadsTo != "":
		return nil, errAt("leads_to", "needs a leads-to entry in expect")
	}
	return out, nil
}

// pinFigures records the figures the case pins: states, worst cases (which
// need convergence) and the time budget; and sets the request's
// properties to the expected ones.
func (c *regressCase) pinFigures(mc *manifestCase, errAt errAtFunc) error {
	for _, e := range c.expect {
		c.req.Properties = append(c.req.Properties, e.property)
	}
	c.states, c.steps, c.rounds, c.cycle = mc.States, mc.WorstCaseSteps, mc.WorstCaseRounds, mc.CycleSteps
	converges := slices.Contains(c.req.Properties, invariants.Convergence)
	if !converges && (c.steps != nil || c.rounds != nil || c.cycle != nil) {
		key := "cycle_steps"
		switch {
		case c.steps != nil:
			key = "worst_case_steps"
		case c.rounds != nil:
			key = "worst_case_rounds"
		}
		return errAt(key, "needs convergence in expect")
	}
	if mc.Budget != "" {
		var err error
		if c.budget, err = parseDuration(mc.Budget); err != nil {
			return errAt("budget", "%v", err)
		}
	}
	c.hasFigure = c.states != nil || c.steps != nil || c.rounds != nil || c.cycle != nil || c.budget > 0
	return nil
}

// knownProperties lists the properties this build checks.
func knownProperties() string {
	var names []string
	for _, p := range invariants.KnownProperties() {
		names = append(names, string(p))
	}
	return strings.Join(names, ", ")
}
