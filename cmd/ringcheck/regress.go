package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
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

	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/reports"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/catalog"
)

func newRegressCmd() *cobra.Command {
	var (
		junitPath string
		workers   int
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
      from: init                     # optional: init or all, as check --from
      start: testdata/config.json    # optional, instead of from: a trace file (relative
                                     #   to the manifest) whose first state starts the check
      samples: 10                    # optional, with from: random (as check --samples,
      seed: 1                        #   --seed)
      daemon: central                # optional: central, distributed, synchronous
      fairness: weak                 # optional: none, weak, strong
      leads_to: requesting,inCS      # optional, with a leads-to entry in expect
      overflow: block                # optional, as check --overflow
      max_depth: 0                   # optional bounds, as check's:
      max_states: 0                  #   0 is no bound
      time_limit: 30s
      expect:                        # required: property: holds|violated|unknown
        deadlock: violated           # the properties checked are exactly
        safety: holds                # these keys, in this order
      states: 988727                 # optional: expected number of states
      worst_case_steps: 24           # optional (needs convergence in expect)
      worst_case_rounds: 7           # optional (needs convergence in expect)
      budget: 10s                    # optional: fail if the case takes longer

Every case is validated before any runs; then the cases run in parallel,
--workers at a time, each search on one core when several run at once.
A verdict left unknown by a bound is a failure unless the case expects
unknown. The table lists the cases in the manifest's order; a line per
mismatch follows it, as
  FAIL kl-naive n=5 L=5 K=3: deadlock: expected holds, got violated

--junit FILE also writes a JUnit XML report: one testcase per case and
property (the counterexample of a violated property in its system-out),
plus one per case for its states, worst-case and budget checks.

Exit status: 0 every case matches the manifest; 1 some case does not;
2 bad usage or a malformed manifest (one line naming its line and field).`,
		Example: `  ringcheck regress specs/regress.yaml
  ringcheck regress specs/regress.yaml --junit regress.xml --workers 2`,
		Args: exactArgs(1, "regress needs exactly one MANIFEST file"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRegress(cmd, args[0], junitPath, workers)
		},
	}
	cmd.Flags().StringVar(&junitPath, "junit", "", "also write a JUnit XML report to this file")
	cmd.Flags().IntVar(&workers, "workers", runtime.NumCPU(), "cases run at once")
	return cmd
}

// regressCase is one validated case of a manifest.
type regressCase struct {
	name      string
	spec      string
	flags     checkFlags
	expect    []expectation
	states    *int64
	steps     *int
	rounds    *int
	budget    time.Duration
	line      int
	plan      *checkPlan
	hasFigure bool // states, worst case or budget given
}

type expectation struct {
	property invariants.Property
	verdict  invariants.Verdict
}

func runRegress(cmd *cobra.Command, path, junitPath string, workers int) error {
	if workers < 1 {
		return usageError("--workers must be at least 1")
	}
	if junitPath != "" {
		if err := checkTracePath(junitPath); err != nil {
			return usageError("--junit: %v", err)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return usageError("%v", err)
	}
	cases, err := parseManifest(path, data)
	if err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	perCase := runtime.NumCPU()
	if workers > 1 && len(cases) > 1 {
		perCase = 1
	}
	for i, c := range cases {
		c.flags.workers = perCase
		plan, err := planCheck(c.spec, &c.flags, nil)
		if err != nil {
			var ee *exitError
			if errors.As(err, &ee) && ee.err != nil {
				err = ee.err
			}
			return usageError("%s:%d: cases[%d]: %v", path, c.line, i, err)
		}
		c.plan = plan
	}

	outcomes := make([]*reports.RegressCase, len(cases))
	sem := make(chan struct{}, workers)
	var wg sync.WaitGroup
	for i, c := range cases {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			outcomes[i] = runCase(cmd, c)
		}()
	}
	wg.Wait()

	failed, err := reports.WriteRegressTable(cmd.OutOrStdout(), outcomes)
	if err != nil {
		return &exitError{code: exitUsage, err: fmt.Errorf("writing the table: %w", err)}
	}
	if junitPath != "" {
		if err := writeJUnitFile(junitPath, outcomes); err != nil {
			return &exitError{code: exitUsage, err: fmt.Errorf("--junit: %w", err)}
		}
	}
	if failed > 0 {
		return &exitError{code: exitViolated}
	}
	return nil
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
	result, _, err := runPlan(quiet, c.plan, &c.flags)
	o := &reports.RegressCase{Name: c.name, Spec: c.spec, HasFigures: c.hasFigure, Elapsed: time.Since(start), Err: err, Result: result}
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
	if c.states != nil && result.Stats.States != *c.states {
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

// manifestError is a malformed manifest: the file, the line and the path of
// the field at fault.
func manifestError(file string, line int, field, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if field != "" {
		msg = field + ": " + msg
	}
	return fmt.Errorf("%s:%d: %s", file, line, msg)
}

func nodeLine(n ast.Node) int {
	if n == nil {
		return 0
	}
	if tk := n.GetToken(); tk != nil && tk.Position != nil {
		return tk.Position.Line
	}
	return 0
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

// scalar returns the text of a scalar node, or false for a mapping, a
// sequence or a null.
func scalar(n ast.Node) (string, bool) {
	switch s := n.(type) {
	case *ast.StringNode:
		return s.Value, true
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode:
		return s.GetToken().Value, true
	}
	return "", false
}

func integer(n ast.Node) (int64, bool) {
	if _, ok := n.(*ast.IntegerNode); !ok {
		return 0, false
	}
	v, err := strconv.ParseInt(n.GetToken().Value, 0, 64)
	return v, err == nil
}

// parseManifest reads a regression manifest strictly: every field known,
// every spec, parameter, property and verdict valid. The first error
// names the manifest's line and the field.
func parseManifest(file string, data []byte) ([]*regressCase, error) {
	f, err := parser.ParseBytes(data, 0)
	if err != nil {
		var ye yaml.Error
		if errors.As(err, &ye) {
			line := 0
			if tk := ye.GetToken(); tk != nil && tk.Position != nil {
				line = tk.Position.Line
			}
			return nil, manifestError(file, line, "", "%s", ye.GetMessage())
		}
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	var body ast.Node
	if len(f.Docs) > 1 {
		return nil, manifestError(file, nodeLine(f.Docs[1]), "", "one YAML document expected")
	}
	if len(f.Docs) == 1 {
		body = f.Docs[0].Body
	}
	if _, ok := body.(*ast.CommentGroupNode); ok || body == nil {
		return nil, manifestError(file, 1, "", "empty manifest: it needs a cases list")
	}
	top, ok := mappingPairs(body)
	if !ok {
		return nil, manifestError(file, nodeLine(body), "", "the manifest must be a mapping with a cases list")
	}
	var casesNode ast.Node
	for _, kv := range top {
		key := kv.Key.GetToken().Value
		if key != "cases" {
			return nil, manifestError(file, nodeLine(kv.Key), key, "unknown field (the manifest has only cases)")
		}
		if casesNode != nil {
			return nil, manifestError(file, nodeLine(kv.Key), key, "given twice")
		}
		casesNode = kv.Value
	}
	if casesNode == nil {
		return nil, manifestError(file, nodeLine(body), "cases", "missing")
	}
	seq, ok := casesNode.(*ast.SequenceNode)
	if !ok || len(seq.Values) == 0 {
		return nil, manifestError(file, nodeLine(casesNode), "cases", "must be a non-empty list of cases")
	}
	reg, err := catalog.Registry()
	if err != nil {
		return nil, err
	}
	var cases []*regressCase
	for i, n := range seq.Values {
		c, err := parseCase(file, fmt.Sprintf("cases[%d]", i), n, reg)
		if err != nil {
			return nil, err
		}
		cases = append(cases, c)
	}
	return cases, nil
}

var caseFields = []string{"name", "spec", "params", "from", "start", "samples", "seed", "daemon", "fairness", "leads_to", "overflow",
	"max_depth", "max_states", "time_limit", "expect", "states", "worst_case_steps", "worst_case_rounds", "budget"}

func parseCase(file, at string, n ast.Node, reg *specs.Registry) (*regressCase, error) {
	pairs, ok := mappingPairs(n)
	if !ok {
		return nil, manifestError(file, nodeLine(n), at, "a case must be a mapping")
	}
	c := &regressCase{line: nodeLine(n), flags: checkFlags{daemon: "central", fairness: "none", from: "init", traceFormat: "json"}}
	fields := map[string]*ast.MappingValueNode{}
	for _, kv := range pairs {
		key := kv.Key.GetToken().Value
		field := at + "." + key
		if !slices.Contains(caseFields, key) {
			return nil, manifestError(file, nodeLine(kv.Key), field, "unknown field (known: %s)", strings.Join(caseFields, ", "))
		}
		if _, dup := fields[key]; dup {
			return nil, manifestError(file, nodeLine(kv.Key), field, "given twice")
		}
		fields[key] = kv
	}
	errAt := func(n ast.Node, key, format string, args ...any) error {
		return manifestError(file, nodeLine(n), at+"."+key, format, args...)
	}
	str := func(key string) (string, *ast.MappingValueNode, error) {
		kv := fields[key]
		if kv == nil {
			return "", nil, nil
		}
		s, ok := scalar(kv.Value)
		if !ok || s == "" {
			return "", nil, errAt(kv.Value, key, "must be a non-empty string")
		}
		return s, kv, nil
	}
	num := func(key string) (*int64, error) {
		kv := fields[key]
		if kv == nil {
			return nil, nil
		}
		v, ok := integer(kv.Value)
		if !ok || v < 0 {
			return nil, errAt(kv.Value, key, "must be a non-negative integer")
		}
		return &v, nil
	}
	dur := func(key string) (time.Duration, error) {
		s, kv, err := str(key)
		if err != nil || kv == nil {
			return 0, err
		}
		d, err := time.ParseDuration(s)
		if err != nil || d < 0 {
			return 0, errAt(kv.Value, key, "%q is not a duration, as 30s or 5m", s)
		}
		return d, nil
	}

	// spec
	specName, kv, err := str("spec")
	if err != nil {
		return nil, err
	}
	if kv == nil {
		return nil, manifestError(file, c.line, at+".spec", "missing")
	}
	spec, err := reg.Lookup(specName)
	if err != nil {
		return nil, errAt(kv.Value, "spec", "%v", err)
	}
	c.spec = specName

	// params, in the manifest's order
	var paramText []string
	if kv := fields["params"]; kv != nil {
		ps, ok := mappingPairs(kv.Value)
		if !ok {
			if _, null := kv.Value.(*ast.NullNode); !null {
				return nil, errAt(kv.Value, "params", "must be a mapping of parameter names to integers")
			}
		}
		seen := map[string]bool{}
		for _, p := range ps {
			name := p.Key.GetToken().Value
			field := "params." + name
			prm, ok := spec.Param(name)
			if !ok {
				return nil, errAt(p.Key, field, "spec %s has no such parameter", spec.Name)
			}
			if seen[name] {
				return nil, errAt(p.Key, field, "given twice")
			}
			seen[name] = true
			v, ok := integer(p.Value)
			if !ok {
				return nil, errAt(p.Value, field, "must be an integer")
			}
			if v < int64(prm.Min) || v > int64(prm.Max) {
				return nil, errAt(p.Value, field, "%d is outside %d..%d", v, prm.Min, prm.Max)
			}
			c.flags.params = append(c.flags.params, fmt.Sprintf("%s=%d", name, v))
			paramText = append(paramText, fmt.Sprintf("%s=%d", name, v))
		}
	}

	// options
	if s, kv, err := str("from"); err != nil {
		return nil, err
	} else if kv != nil {
		if _, err := invariants.ParseFrom(s); err != nil {
			return nil, errAt(kv.Value, "from", "%q is not one of init, all, random", s)
		}
		c.flags.from, c.flags.fromSet = s, true
	}
	// samples and seed: from random's, as check --samples and --seed.
	c.flags.samples, c.flags.seed = 10, 1
	if v, err := num("samples"); err != nil {
		return nil, err
	} else if v != nil {
		c.flags.samples, c.flags.samplesSet = int(*v), true
	}
	if v, err := num("seed"); err != nil {
		return nil, err
	} else if v != nil {
		c.flags.seed, c.flags.seedSet = uint64(*v), true
	}
	if s, kv, err := str("start"); err != nil {
		return nil, err
	} else if kv != nil {
		if c.flags.fromSet {
			return nil, errAt(kv.Value, "start", "from and start both say where the check starts: give one")
		}
		// A trace file, relative to the manifest; its first configuration
		// is where the check starts.
		c.flags.start = filepath.Join(filepath.Dir(file), s)
	}
	if s, kv, err := str("daemon"); err != nil {
		return nil, err
	} else if kv != nil {
		if _, err := model.ParseDaemon(s); err != nil {
			return nil, errAt(kv.Value, "daemon", "%v", err)
		}
		c.flags.daemon = s
	}
	if s, kv, err := str("fairness"); err != nil {
		return nil, err
	} else if kv != nil {
		if _, err := invariants.ParseFairness(s); err != nil {
			return nil, errAt(kv.Value, "fairness", "%v", err)
		}
		c.flags.fairness, c.flags.fairnessSet = s, true
	}
	if s, kv, err := str("overflow"); err != nil {
		return nil, err
	} else if kv != nil {
		if _, err := model.ParseOverflow(s); err != nil {
			return nil, errAt(kv.Value, "overflow", "%v", err)
		}
		c.flags.overflow = s
	}
	leadsTo, leadsKV, err := str("leads_to")
	if err != nil {
		return nil, err
	}
	if leadsKV != nil {
		a, b, ok := strings.Cut(leadsTo, ",")
		if !ok || strings.TrimSpace(a) == "" || strings.TrimSpace(b) == "" {
			return nil, errAt(leadsKV.Value, "leads_to", "%q is not of the form FROM,TO", leadsTo)
		}
		c.flags.leadsTo = leadsTo
	}
	if v, err := num("max_depth"); err != nil {
		return nil, err
	} else if v != nil {
		c.flags.maxDepth = int(*v)
	}
	if v, err := num("max_states"); err != nil {
		return nil, err
	} else if v != nil {
		c.flags.maxStates = *v
	}
	if c.flags.timeLimit, err = dur("time_limit"); err != nil {
		return nil, err
	}

	// expect
	ekv := fields["expect"]
	if ekv == nil {
		return nil, manifestError(file, c.line, at+".expect", "missing: name each property to check and its expected verdict")
	}
	eps, ok := mappingPairs(ekv.Value)
	if !ok || len(eps) == 0 {
		return nil, errAt(ekv.Value, "expect", "must be a mapping of properties to holds, violated or unknown")
	}
	var checks []string
	for _, p := range eps {
		prop := invariants.Property(p.Key.GetToken().Value)
		field := "expect." + string(prop)
		if invariants.Implemented(prop) != nil {
			return nil, errAt(p.Key, field, "unknown property (known: safety, deadlock, starvation, leads-to, closure, convergence)")
		}
		if slices.ContainsFunc(c.expect, func(e expectation) bool { return e.property == prop }) {
			return nil, errAt(p.Key, field, "given twice")
		}
		word, _ := scalar(p.Value)
		v := invariants.Verdict(word)
		if v != invariants.Holds && v != invariants.Violated && v != invariants.Unknown {
			return nil, errAt(p.Value, field, "verdict %q is not one of holds, violated, unknown", word)
		}
		c.expect = append(c.expect, expectation{prop, v})
		checks = append(checks, string(prop))
	}
	hasLeadsTo := slices.Contains(checks, string(invariants.LeadsToProperty))
	if hasLeadsTo && leadsKV == nil {
		return nil, errAt(ekv.Value, "expect.leads-to", "needs leads_to: FROM,TO in the case")
	}
	if !hasLeadsTo && leadsKV != nil {
		return nil, errAt(leadsKV.Key, "leads_to", "needs a leads-to entry in expect")
	}
	c.flags.checks = strings.Join(checks, ",")

	// figures
	if v, err := num("states"); err != nil {
		return nil, err
	} else {
		c.states = v
	}
	for _, key := range []string{"worst_case_steps", "worst_case_rounds"} {
		v, err := num(key)
		if err != nil {
			return nil, err
		}
		if v == nil {
			continue
		}
		if !slices.Contains(checks, string(invariants.Convergence)) {
			return nil, errAt(fields[key].Key, key, "needs convergence in expect")
		}
		iv := int(*v)
		if key == "worst_case_steps" {
			c.steps = &iv
		} else {
			c.rounds = &iv
		}
	}
	if c.budget, err = dur("budget"); err != nil {
		return nil, err
	}
	c.hasFigure = c.states != nil || c.steps != nil || c.rounds != nil || c.budget > 0

	// name
	if s, _, err := str("name"); err != nil {
		return nil, err
	} else if s != "" {
		c.name = s
	} else {
		c.name = strings.Join(append([]string{spec.Name}, paramText...), " ")
	}
	return c, nil
}
