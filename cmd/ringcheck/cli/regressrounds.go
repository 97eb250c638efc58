package cli

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/reports"
	"github.com/ringcheck/ringcheck/runs"
	"github.com/ringcheck/ringcheck/specs"
)

// The verdicts of a rounds case. A sampled batch with no run beyond the
// bound is evidence, not proof, so it is never "holds".
const (
	// roundsViolated: some run took more rounds than the bound to reach
	// L, or never reached it: a decided fact about that run.
	roundsViolated = "violated"
	// roundsWithinSampled: every run measured reached L within the bound.
	roundsWithinSampled = "within-sampled"
	// roundsUnknown: no run was measured (stopped, or every run left out
	// at an overflow of the enlarged channels).
	roundsUnknown = "unknown"
)

// manifestRounds is a case's rounds block as written: a search of
// `ringcheck rounds` (the same defaults) and what it must find. Keys not
// declared here are an error.
type manifestRounds struct {
	Links      string  `yaml:"links"`
	CSRounds   *int    `yaml:"cs_rounds"`
	Order      string  `yaml:"order"`
	Seed       *uint64 `yaml:"seed"`
	Runs       *int    `yaml:"runs"`
	Run        *int    `yaml:"run"`
	RoundLimit *int    `yaml:"round_limit"`
	Bound      any     `yaml:"bound"`
	Expect     string  `yaml:"expect"`
	// The figures pinned, each optional.
	MostRounds  *int `yaml:"most_rounds"`
	BeyondBound *int `yaml:"beyond_bound"`
	NotReached  *int `yaml:"not_reached"`
}

// roundsKeys are manifestRounds's keys, in declaration order.
var roundsKeys = yamlKeys[manifestRounds]()

// roundsCaseKeys are the keys of a case that a case with a rounds block
// takes besides it; the others configure a check.
var roundsCaseKeys = []string{"name", "spec", "params", "finding", "reading", "budget", "rounds"}

// roundsCase is a validated rounds case: the search and what it must find.
type roundsCase struct {
	spec   *specs.Spec
	params map[string]int
	// links is reliableLinks or lossyLinks for a spec with reliable links
	// to run on (Spec.Links), "" for the others.
	links string
	opts  runs.RoundOptions
	// boundFactor times n is the bound (boundFactor 0: boundRounds as
	// given); boundText is the bound as written.
	boundFactor, boundRounds int
	boundText                string
	expect                   string
	mostRounds, beyond, not  *int
	// plan is the system the search runs, built by validate.
	plan *builtSystem
}

var boundPattern = regexp.MustCompile(`^([1-9][0-9]*)n$`)

// validate checks a case's rounds block, naming the field at fault: no
// check key beside it, no unknown key inside, runs (a batch) or run (one
// run replayed) but not both, links, order, a bound of the form 4n or 12,
// and an expected verdict of violated or within-sampled.
func (mr *manifestRounds) validate(spec *specs.Spec, params map[string]int, lines caseLines, errAt errAtFunc) (*roundsCase, error) {
	for _, key := range caseKeys {
		if _, given := lines[key]; given && !slices.Contains(roundsCaseKeys, key) {
			return nil, errAt(key, "a case with rounds measures rounds, it runs no check: it takes only %s", strings.Join(roundsCaseKeys, ", "))
		}
	}
	for key := range lines {
		if k, ok := strings.CutPrefix(key, "rounds."); ok && !slices.Contains(roundsKeys, k) {
			return nil, errAt(key, "unknown field (known: %s)", strings.Join(roundsKeys, ", "))
		}
	}
	rc := &roundsCase{spec: spec, params: params, opts: runs.RoundOptions{Seed: 1, CSRounds: 1}}
	switch {
	case mr.Run != nil && mr.Runs != nil:
		return nil, errAt("rounds.run", "runs and run both given: a case measures a batch of runs or replays one run")
	case mr.Run == nil && mr.Runs == nil:
		return nil, errAt("rounds", "needs runs (a batch of runs 0..runs-1) or run (the one run to replay)")
	case mr.Runs != nil && *mr.Runs < 1:
		return nil, errAt("rounds.runs", "must be at least 1")
	case mr.Run != nil && *mr.Run < 0:
		return nil, errAt("rounds.run", "must not be negative (runs are numbered from 0)")
	case mr.Runs != nil:
		rc.opts.Runs = *mr.Runs
	default:
		rc.opts.Runs, rc.opts.First = 1, *mr.Run
	}
	if mr.Seed != nil {
		rc.opts.Seed = *mr.Seed
	}
	if mr.CSRounds != nil {
		if *mr.CSRounds < 0 {
			return nil, errAt("rounds.cs_rounds", "must not be negative")
		}
		rc.opts.CSRounds = *mr.CSRounds
	}
	if mr.RoundLimit != nil {
		if *mr.RoundLimit < 1 {
			return nil, errAt("rounds.round_limit", "must be at least 1")
		}
		rc.opts.MaxRounds = *mr.RoundLimit
	}
	if mr.Order != "" {
		var err error
		if rc.opts.Order, err = runs.ParseSweepOrder(mr.Order); err != nil {
			return nil, errAt("rounds.order", "%v", err)
		}
	}
	switch mr.Links {
	case "":
		if spec.Links != nil {
			rc.links = reliableLinks
		}
	case reliableLinks, lossyLinks:
		if spec.Links == nil {
			return nil, errAt("rounds.links", "spec %s has no reliable links to run on or replace; its channels are as it declares them", spec.Name)
		}
		rc.links = mr.Links
	default:
		return nil, errAt("rounds.links", "%q is not reliable or lossy", mr.Links)
	}
	if err := rc.parseBound(mr.Bound, spec); err != nil {
		return nil, errAt("rounds.bound", "%v", err)
	}
	switch mr.Expect {
	case roundsViolated, roundsWithinSampled:
		rc.expect = mr.Expect
	case "":
		return nil, errAt("rounds.expect", "missing: violated (a run beyond the bound) or within-sampled (every run within it)")
	default:
		return nil, errAt("rounds.expect", "verdict %q is not one of violated, within-sampled", mr.Expect)
	}
	for _, f := range []struct {
		key string
		v   *int
	}{{"most_rounds", mr.MostRounds}, {"beyond_bound", mr.BeyondBound}, {"not_reached", mr.NotReached}} {
		if f.v != nil && *f.v < 0 {
			return nil, errAt("rounds."+f.key, "must not be negative")
		}
	}
	rc.mostRounds, rc.beyond, rc.not = mr.MostRounds, mr.BeyondBound, mr.NotReached
	return rc, nil
}

// parseBound reads a bound: a positive integer, or a positive multiple of
// the parameter n written as 4n.
func (rc *roundsCase) parseBound(v any, spec *specs.Spec) error {
	var s string
	switch b := v.(type) {
	case nil:
		return errors.New("missing: the bound in rounds the runs are held to, as 4n or 12")
	case uint64:
		s = strconv.FormatUint(b, 10)
	case int64:
		s = strconv.FormatInt(b, 10)
	case string:
		s = strings.TrimSpace(b)
	default:
		return fmt.Errorf("%v is not a bound in rounds, as 4n or 12", v)
	}
	rc.boundText = s
	if m := boundPattern.FindStringSubmatch(s); m != nil {
		if _, ok := spec.Param("n"); !ok {
			return fmt.Errorf("%s: spec %s has no parameter n", s, spec.Name)
		}
		k, err := strconv.Atoi(m[1])
		if err != nil {
			return fmt.Errorf("%q is not a bound in rounds, as 4n or 12", s)
		}
		rc.boundFactor = k
		return nil
	}
	r, err := strconv.Atoi(s)
	if err != nil || r < 1 {
		return fmt.Errorf("%q is not a bound in rounds, as 4n or 12", s)
	}
	rc.boundRounds = r
	return nil
}

// validate builds the system the search runs, as rounds builds it: on
// reliable links its channels enlarged and the runs starting with at most
// as many messages a channel as the spec's own links hold.
func (rc *roundsCase) validate() error {
	params := maps.Clone(rc.params)
	var err error
	if rc.links == reliableLinks {
		rc.plan, err = reliableRoundsSystem(rc.spec, params, &rc.opts.Fill)
	} else {
		rc.plan, err = buildSpecSystem(rc.spec, params, model.Central, nil)
	}
	if err != nil {
		return fmt.Errorf("rounds: %w", err)
	}
	if rc.plan.sys.Legitimate == nil {
		return fmt.Errorf("rounds: spec %s declares no legitimacy predicate: rounds measures the time to reach it", rc.spec.Name)
	}
	return nil
}

// bound is the bound in rounds for the case's parameters.
func (rc *roundsCase) bound() int {
	if rc.boundFactor > 0 {
		return rc.boundFactor * rc.plan.values["n"]
	}
	return rc.boundRounds
}

// runRoundsCase runs a validated rounds case and compares what it measures
// with what the case expects.
func runRoundsCase(ctx context.Context, c *regressCase) *reports.RegressCase {
	rc := c.search
	start := time.Now()
	bound := rc.bound()
	out, err := measureRounds(ctx, rc.plan, rc.opts, bound)
	o := &reports.RegressCase{
		Name: c.name, Spec: c.spec, HasFigures: c.hasFigure, Elapsed: time.Since(start),
		Expected: [][2]string{{"rounds", rc.expect}},
	}
	if err != nil {
		o.Err = fmt.Errorf("rounds: %w", err)
		return o
	}
	r := &reports.RegressRounds{
		Bound: rc.boundText, BoundRounds: bound, Run: -1, MostRounds: -1, Slowest: -1,
		Runs: len(out.res.Runs), Overflows: out.overflows, Beyond: out.exceeded,
		NotReached: out.notReached - out.overflows, Deadlocks: out.deadlocks,
	}
	if rc.opts.Runs == 1 {
		r.Run = rc.opts.First
	}
	if out.reached > 0 {
		r.MostRounds = out.hi
	}
	if w := out.res.Witness; w != nil {
		r.Slowest, r.SlowestRounds = w.Run, out.res.Runs[out.res.Slowest].Rounds
		r.SlowestReached = out.res.Runs[out.res.Slowest].Reached
	}
	switch {
	case out.exceeded > 0 || out.deadlocks > 0:
		r.Verdict = roundsViolated
	case out.res.Stopped || len(out.res.Runs) == out.overflows:
		r.Verdict = roundsUnknown
	default:
		r.Verdict = roundsWithinSampled
	}
	o.Rounds = r
	o.PropertyDiffs = []string{""}
	if r.Verdict != rc.expect {
		o.PropertyDiffs[0] = fmt.Sprintf("rounds: expected %s, got %s (%s)", rc.expect, r.Verdict, r.Summary())
	}
	pins := []struct {
		key  string
		want *int
		got  int
		none bool // no figure was measured
	}{
		{"most_rounds", rc.mostRounds, r.MostRounds, r.MostRounds < 0},
		{"beyond_bound", rc.beyond, r.Beyond, false},
		{"not_reached", rc.not, r.NotReached, false},
	}
	for _, p := range pins {
		if p.want == nil {
			continue
		}
		switch {
		case p.none:
			o.FigureDiffs = append(o.FigureDiffs, fmt.Sprintf("%s: expected %d, got none (no run reached L)", p.key, *p.want))
		case p.got != *p.want:
			o.FigureDiffs = append(o.FigureDiffs, fmt.Sprintf("%s: expected %d, got %d", p.key, *p.want, p.got))
		}
	}
	if c.budget > 0 && o.Elapsed > c.budget {
		o.FigureDiffs = append(o.FigureDiffs, fmt.Sprintf("budget: expected at most %s, took %s", c.budget, o.Elapsed.Round(time.Millisecond)))
	}
	return o
}

// roundsCase makes c the rounds case mc describes (at names it, in the
// manifest file): its search, its finding, budget and name (by default
// the spec, the parameters and the search).
func (c *regressCase) roundsCase(file, at string, mc *manifestCase, spec *specs.Spec, params map[string]int, lines caseLines, errAt errAtFunc) error {
	caseErrAt := errAt
	errAt = func(key, format string, args ...any) error {
		if _, given := lines[key]; !given && strings.HasPrefix(key, "rounds.") {
			// A key missing from the block: the block's line.
			return manifestError(file, lines["rounds"], at+"."+key, format, args...)
		}
		return caseErrAt(key, format, args...)
	}
	if mc.Rounds == nil {
		return errAt("rounds", "must be a mapping: links, cs_rounds, order, seed, runs or run, bound, expect and the figures")
	}
	if err := mc.checkFinding(errAt); err != nil {
		return err
	}
	rc, err := mc.Rounds.validate(spec, params, lines, errAt)
	if err != nil {
		return err
	}
	c.search = rc
	if mc.Budget != "" {
		if c.budget, err = parseDuration(mc.Budget); err != nil {
			return errAt("budget", "%v", err)
		}
	}
	c.hasFigure = rc.mostRounds != nil || rc.beyond != nil || rc.not != nil || c.budget > 0
	if c.name == "" {
		c.name = spec.Name
		for _, kv := range mc.Params {
			c.name += fmt.Sprintf(" %v=%d", kv.Key, params[fmt.Sprint(kv.Key)])
		}
		what := fmt.Sprintf("%d runs", rc.opts.Runs)
		if rc.opts.Runs == 1 {
			what = fmt.Sprintf("run %d", rc.opts.First)
		}
		c.name += fmt.Sprintf(" rounds, %s", what)
	}
	return nil
}
