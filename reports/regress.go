package reports

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/jstemmer/go-junit-report/v2/junit"
)

// RegressCase is one case of a regression run as the reports render it:
// what the manifest expected, what the check produced, and the mismatches
// the command found between the two.
type RegressCase struct {
	Name string
	Spec string
	// Request is the key of the case's check request (see Trace.Request):
	// cases with the same key run the same check.
	Request string
	// Expected lists, per property in the manifest's order, its name and
	// expected verdict.
	Expected [][2]string
	// HasFigures says the manifest gave states, a worst case, a rounds
	// figure or a budget.
	HasFigures bool
	Result     *CheckResult
	Elapsed    time.Duration
	Err        error
	// PropertyDiffs[i] is the mismatch of Expected[i], "" if it matches;
	// FigureDiffs are the mismatches of states, worst case, rounds
	// figures and budget.
	PropertyDiffs []string
	FigureDiffs   []string
	// Rounds is what a rounds case measured (nil for a check case, and
	// for a rounds case whose search failed); its Expected is then
	// {"rounds", the expected verdict}.
	Rounds *RegressRounds
	// NotRun, when not empty, says why the case has no outcome, as "not
	// finished: regress was interrupted": the run was interrupted before
	// the case finished. Such a case neither passes nor fails; its other
	// fields but Name, Spec and Expected are not looked at.
	NotRun string
}

// RegressRounds is what a rounds case of a regression run measured: runs
// of `ringcheck rounds` held to a bound in rounds.
type RegressRounds struct {
	// Bound is the bound as the manifest gives it ("4n", "12"), and
	// BoundRounds its value for the case's parameters.
	Bound       string
	BoundRounds int
	// Run is the run replayed alone, -1 for a batch; Runs is the number
	// of runs completed, Overflows those left out at a send that
	// overflowed a channel.
	Run, Runs, Overflows int
	// MostRounds is the most rounds a run took to reach L (-1 if none
	// did); Beyond counts the runs beyond the bound, NotReached the runs
	// that did not reach L (overflows apart), Deadlocks those of them
	// that ended in a deadlock.
	MostRounds, Beyond, NotReached, Deadlocks int
	// Slowest is the number of the slowest run (-1 if none completed),
	// SlowestRounds its rounds and SlowestReached whether it reached L.
	Slowest, SlowestRounds int
	SlowestReached         bool
	// Verdict is violated (a run beyond the bound, or in a deadlock),
	// within-sampled (every run measured within it: evidence, not proof)
	// or unknown (no run measured).
	Verdict string
}

// Summary says in a few words what the runs measured: the replayed run's
// rounds, or the batch's size, most rounds, runs beyond the bound and
// slowest run.
func (r *RegressRounds) Summary() string {
	slowest := "no run completed"
	switch {
	case r.Slowest < 0:
	case r.Deadlocks > 0 && !r.SlowestReached:
		slowest = fmt.Sprintf("run %d: in a deadlock outside L after %d rounds", r.Slowest, r.SlowestRounds)
	case !r.SlowestReached:
		slowest = fmt.Sprintf("run %d: not at L after %d rounds", r.Slowest, r.SlowestRounds)
	default:
		slowest = fmt.Sprintf("run %d: %d rounds to L", r.Slowest, r.SlowestRounds)
	}
	if r.Run >= 0 {
		return slowest
	}
	s := fmt.Sprintf("%d runs: max %d rounds to L, %d beyond", r.Runs, r.MostRounds, r.Beyond)
	if r.MostRounds < 0 {
		s = fmt.Sprintf("%d runs: none reached L, %d beyond", r.Runs, r.Beyond)
	}
	if r.NotReached > 0 {
		s += fmt.Sprintf(", %d not at L (%d in a deadlock)", r.NotReached, r.Deadlocks)
	}
	if r.Overflows > 0 {
		s += fmt.Sprintf(", %d left out at an overflow", r.Overflows)
	}
	return s + "; slowest " + slowest
}

// Failed reports whether the case failed: an error or any mismatch (a
// case not run has not failed).
func (c *RegressCase) Failed() bool {
	if c.NotRun != "" {
		return false
	}
	if c.Err != nil || len(c.FigureDiffs) > 0 {
		return true
	}
	for _, d := range c.PropertyDiffs {
		if d != "" {
			return true
		}
	}
	return false
}

// WriteRegressTable prints one row per case (expected→got per property,
// or for a rounds case its bound, expected→got verdict and what the runs
// measured; states, worst case, seconds, PASS/FAIL, or NOT RUN for a case
// not run (an interruption left it without an outcome, or the run skipped it)), then one line per mismatch and
// per case not run, a count of the failed cases if any, and of the cases
// not run if any. It returns how many failed.
func WriteRegressTable(w io.Writer, cases []*RegressCase) (int, error) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "case\tverdicts (expected→got)\tstates\tworst steps\tworst rounds\tseconds\tresult")
	failed, notRun := 0, 0
	for _, c := range cases {
		var verdicts []string
		states, steps, rounds := "-", "-", "-"
		switch {
		case c.NotRun != "":
			for _, e := range c.Expected {
				verdicts = append(verdicts, fmt.Sprintf("%s %s→not run", e[0], e[1]))
			}
		case c.Rounds != nil:
			r := c.Rounds
			bound := r.Bound
			if bound != strconv.Itoa(r.BoundRounds) {
				bound += fmt.Sprintf(" (%d)", r.BoundRounds)
			}
			for _, e := range c.Expected {
				verdicts = append(verdicts, fmt.Sprintf("%s ≤ %s %s→%s: %s", e[0], bound, e[1], r.Verdict, r.Summary()))
			}
		case c.Result != nil:
			for j, e := range c.Expected {
				got := "missing"
				if j < len(c.Result.Properties) {
					got = c.Result.Properties[j].Verdict
				}
				verdicts = append(verdicts, fmt.Sprintf("%s %s→%s", e[0], e[1], got))
			}
			states = strconv.FormatInt(c.Result.Stats.States, 10)
			if c.Result.Options.Engine != "" {
				states = "-" // the symbolic engine counts no states
			}
			if st := c.Result.Stabilization; st != nil {
				steps, rounds = intOrDash(st.WorstCaseSteps), intOrDash(st.WorstCaseRounds)
			}
		default:
			verdicts = append(verdicts, "error")
		}
		status := "PASS"
		switch {
		case c.NotRun != "":
			status = "NOT RUN"
			notRun++
		case c.Failed():
			status = "FAIL"
			failed++
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%.3f\t%s\n", c.Name, strings.Join(verdicts, ", "), states, steps, rounds, c.Elapsed.Seconds(), status)
	}
	if err := tw.Flush(); err != nil {
		return failed, err
	}
	p := &printer{w: w}
	for _, c := range cases {
		if c.Err != nil {
			p.printf("FAIL %s: %v\n", c.Name, c.Err)
		}
		for _, d := range c.PropertyDiffs {
			if d != "" {
				p.printf("FAIL %s: %s\n", c.Name, d)
			}
		}
		for _, d := range c.FigureDiffs {
			p.printf("FAIL %s: %s\n", c.Name, d)
		}
		if c.NotRun != "" {
			p.printf("NOT RUN %s: %s\n", c.Name, c.NotRun)
		}
	}
	if failed > 0 {
		p.printf("%d of %d cases failed\n", failed, len(cases))
	}
	if notRun > 0 {
		p.printf("%d of %d cases not run\n", notRun, len(cases))
	}
	return failed, p.err
}

func intOrDash(p *int) string {
	if p == nil {
		return "-"
	}
	return strconv.Itoa(*p)
}

// WriteJUnit writes a JUnit XML report of a regression run: one testsuite,
// one testcase per case and property (a violated property's counterexample
// in its system-out), one per case for its figures, failures carrying the
// mismatch. A case not run has one skipped testcase per property, with
// why it was not run as the message, and the suite a property
// "interrupted" counting those cases. The report is well-formed XML whatever the case names, errors
// and traces hold: a character XML 1.0 forbids becomes U+FFFD, in the
// attributes (encoding/xml) and in the text (xmlCharData).
func WriteJUnit(w io.Writer, cases []*RegressCase) error {
	suite := junit.Testsuite{Name: "ringcheck regress"}
	var total time.Duration
	notRun := 0
	for _, c := range cases {
		total += c.Elapsed
		secs := fmt.Sprintf("%.3f", c.Elapsed.Seconds())
		if c.Request != "" {
			suite.AddProperty("request: "+c.Name, c.Request)
		}
		if c.NotRun != "" {
			notRun++
			for _, e := range c.Expected {
				suite.AddTestcase(junit.Testcase{
					Name: c.Name + ": " + e[0], Classname: c.Spec, Time: secs,
					Skipped: &junit.Result{Message: "NOT RUN " + c.Name + ": " + c.NotRun},
				})
			}
			continue
		}
		if c.Err != nil {
			suite.AddTestcase(junit.Testcase{
				Name: c.Name, Classname: c.Spec, Time: secs,
				Error: &junit.Result{Message: c.Err.Error(), Type: "error"},
			})
			continue
		}
		for j, e := range c.Expected {
			tc := junit.Testcase{Name: c.Name + ": " + e[0], Classname: c.Spec, Time: secs}
			if j < len(c.PropertyDiffs) && c.PropertyDiffs[j] != "" {
				msg := "FAIL " + c.Name + ": " + c.PropertyDiffs[j]
				tc.Failure = &junit.Result{Message: msg, Type: "mismatch", Data: msg}
			}
			if c.Result != nil && j < len(c.Result.Properties) {
				if tr := c.Result.Properties[j].Trace; tr != nil {
					var b strings.Builder
					if err := WriteTraceText(&b, tr); err != nil {
						return err
					}
					tc.SystemOut = &junit.Output{Data: b.String()}
				}
			}
			suite.AddTestcase(tc)
		}
		if c.HasFigures {
			what := ": states and worst case"
			if c.Rounds != nil {
				what = ": rounds figures"
			}
			tc := junit.Testcase{Name: c.Name + what, Classname: c.Spec, Time: secs}
			if len(c.FigureDiffs) > 0 {
				lines := make([]string, len(c.FigureDiffs))
				for i, d := range c.FigureDiffs {
					lines[i] = "FAIL " + c.Name + ": " + d
				}
				tc.Failure = &junit.Result{Message: lines[0], Type: "mismatch", Data: strings.Join(lines, "\n")}
			}
			suite.AddTestcase(tc)
		}
	}
	if notRun > 0 {
		suite.AddProperty("interrupted", fmt.Sprintf("%d of %d cases not run", notRun, len(cases)))
	}
	suite.Time = fmt.Sprintf("%.3f", total.Seconds())
	xmlCharData(&suite)
	var suites junit.Testsuites
	suites.AddSuite(suite)
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "\t")
	if err := enc.Encode(suites); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// xmlCharData replaces, in all the text of suite that is written as
// character data (CDATA sections, which encoding/xml writes as they are),
// every character that XML 1.0 forbids and every byte that is not UTF-8
// with U+FFFD, as encoding/xml does in attribute values: a case name or
// an error with a control character in it (\x01, \x1b) would otherwise
// make the report not well-formed.
func xmlCharData(suite *junit.Testsuite) {
	outputs := []*junit.Output{suite.SystemOut, suite.SystemErr}
	for i := range suite.Testcases {
		tc := &suite.Testcases[i]
		for _, r := range []*junit.Result{tc.Skipped, tc.Error, tc.Failure} {
			if r != nil {
				r.Data = xmlChars(r.Data)
			}
		}
		outputs = append(outputs, tc.SystemOut, tc.SystemErr)
	}
	for _, o := range outputs {
		if o != nil {
			o.Data = xmlChars(o.Data)
		}
	}
}

// xmlChars is s with every character XML 1.0 forbids (the control
// characters other than tab, line feed and carriage return, the
// surrogates, U+FFFE and U+FFFF) and every byte that is not UTF-8
// replaced by U+FFFD.
func xmlChars(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r',
			r >= 0x20 && r <= 0xD7FF,
			r >= 0xE000 && r <= 0xFFFD,
			r >= 0x10000 && r <= utf8.MaxRune:
			return r
		}
		return utf8.RuneError
	}, s)
}
