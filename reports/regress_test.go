package reports_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/jstemmer/go-junit-report/v2/junit"

	"github.com/ringcheck/ringcheck/reports"
)

func regressCases() []*reports.RegressCase {
	return []*reports.RegressCase{
		{Name: "passes", Spec: "dijkstra", Expected: [][2]string{{"safety", "holds"}},
			Result:        &reports.CheckResult{Properties: []reports.PropertyResult{{Name: "safety", Verdict: "holds"}}},
			PropertyDiffs: []string{""}, Elapsed: time.Second},
		{Name: "fails", Spec: "kl-naive", Expected: [][2]string{{"deadlock", "holds"}}, HasFigures: true,
			Result:        &reports.CheckResult{Properties: []reports.PropertyResult{{Name: "deadlock", Verdict: "violated"}}},
			PropertyDiffs: []string{"deadlock: expected holds, got violated"},
			FigureDiffs:   []string{"states: expected 1, got 2"}},
		{Name: "broken", Spec: "x", Err: errors.New("boom")},
	}
}

// TestWriteJUnit: the report is well-formed XML that decodes back into the
// JUnit structure, with a testcase per case and property, one per case for
// its figures, failures carrying the mismatch and errors the error.
func TestWriteJUnit(t *testing.T) {
	var b bytes.Buffer
	if err := reports.WriteJUnit(&b, regressCases()); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), xml.Header) {
		t.Fatal("no XML header")
	}
	var suites junit.Testsuites
	if err := xml.Unmarshal(b.Bytes(), &suites); err != nil {
		t.Fatalf("not well-formed: %v", err)
	}
	if len(suites.Suites) != 1 {
		t.Fatalf("%d suites", len(suites.Suites))
	}
	s := suites.Suites[0]
	if len(s.Testcases) != 4 || s.Failures != 2 || s.Errors != 1 {
		t.Fatalf("%d testcases, %d failures, %d errors; want 4, 2, 1", len(s.Testcases), s.Failures, s.Errors)
	}
	if f := s.Testcases[1].Failure; f == nil || !strings.Contains(f.Message, "expected holds, got violated") {
		t.Fatalf("the failure does not carry the mismatch: %+v", f)
	}
}

func TestWriteRegressTable(t *testing.T) {
	var b bytes.Buffer
	failed, err := reports.WriteRegressTable(&b, regressCases())
	if err != nil || failed != 2 {
		t.Fatalf("failed %d, err %v", failed, err)
	}
	for _, want := range []string{
		"FAIL fails: deadlock: expected holds, got violated\n",
		"FAIL fails: states: expected 1, got 2\n",
		"FAIL broken: boom\n",
		"2 of 3 cases failed\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("missing %q in:\n%s", want, b.String())
		}
	}
}

// TestWriteJUnitForbiddenCharacters: a character that XML 1.0 forbids (a
// control character, a byte that is not UTF-8) in a case name, an error, a
// mismatch or a trace becomes U+FFFD everywhere in the report, in the
// failures' text and the system-out as in the attributes, so the report
// stays well-formed.
func TestWriteJUnitForbiddenCharacters(t *testing.T) {
	const name = "ctl \x01 \x1b[31m name"
	trace := &reports.Trace{Spec: "s\x02pec", Params: map[string]int{"n": 1}, Property: "safety", Kind: "path",
		States: []reports.TraceState{{Processes: []reports.TraceProcess{{ID: 0, Vars: reports.Fields{{Name: "v", Value: "a\x0bb\xffc", Quoted: true}}}}}},
		Steps:  []reports.TraceStep{}}
	cases := []*reports.RegressCase{
		{Name: name, Spec: "dijkstra", Expected: [][2]string{{"safety", "holds"}}, HasFigures: true,
			Result:        &reports.CheckResult{Properties: []reports.PropertyResult{{Name: "safety", Verdict: "violated", Trace: trace}}},
			PropertyDiffs: []string{"safety: expected holds, got violated \x1f"},
			FigureDiffs:   []string{"states: expected 1, got 2 \uFFFE"}},
		{Name: name + " broken", Spec: "x", Err: errors.New("boom \x07 \xff")},
	}
	var b bytes.Buffer
	if err := reports.WriteJUnit(&b, cases); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for i, r := range out {
		if !(r == '\t' || r == '\n' || r == '\r' || r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000) ||
			r == utf8.RuneError && !strings.HasPrefix(out[i:], "\uFFFD") {
			t.Errorf("byte %d: %U, which XML 1.0 forbids, in\n%q", i, r, out)
		}
	}
	var suites junit.Testsuites
	if err := xml.Unmarshal(b.Bytes(), &suites); err != nil {
		t.Fatalf("not well-formed: %v\n%q", err, out)
	}
	s := suites.Suites[0]
	if len(s.Testcases) != 3 {
		t.Fatalf("%d testcases, want 3", len(s.Testcases))
	}
	const shown = "ctl \uFFFD \uFFFD[31m name"
	for _, tc := range []struct{ what, got, want string }{
		{"name", s.Testcases[0].Name, shown + ": safety"},
		{"failure message", s.Testcases[0].Failure.Message, "FAIL " + shown + ": safety: expected holds, got violated \uFFFD"},
		{"failure text", s.Testcases[0].Failure.Data, "FAIL " + shown + ": safety: expected holds, got violated \uFFFD"},
		{"figures' failure text", s.Testcases[1].Failure.Data, "FAIL " + shown + ": states: expected 1, got 2 \uFFFD"},
		{"error message", s.Testcases[2].Error.Message, "boom \uFFFD \uFFFD"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %q, want %q", tc.what, tc.got, tc.want)
		}
	}
	if out := s.Testcases[0].SystemOut; out == nil || !strings.HasPrefix(out.Data, "safety counterexample for s\uFFFDpec (n=1)") ||
		!strings.Contains(out.Data, "  p0  v=a\uFFFDb\uFFFDc\n") {
		t.Errorf("system-out: %+v", out)
	}
}

// notRunCases are the cases of an interrupted regression run: one that
// finished, a check case and a rounds case that did not. The unfinished
// check case carries what its stopped search reported (unknown, as a case
// expecting unknown would pass with), which must not show.
func notRunCases() []*reports.RegressCase {
	return []*reports.RegressCase{
		{Name: "finished", Spec: "dijkstra", Expected: [][2]string{{"safety", "holds"}},
			Result:        &reports.CheckResult{Properties: []reports.PropertyResult{{Name: "safety", Verdict: "holds"}}},
			PropertyDiffs: []string{""}, Elapsed: time.Second},
		{Name: "stopped", Spec: "kl-ddhl", Expected: [][2]string{{"safety", "unknown"}, {"deadlock", "unknown"}},
			NotRun: "not finished: regress was interrupted (interrupt signal received)"},
		{Name: "rounds", Spec: "kl-ddhl", Expected: [][2]string{{"rounds", "violated"}},
			NotRun: "not started: regress was interrupted (interrupt signal received)"},
	}
}

// TestRegressNotRun: a case an interruption left without an outcome
// neither passes nor fails: the table says NOT RUN and why, and how many
// cases were not run; the JUnit report skips its testcases with why, and
// counts them in a suite property.
func TestRegressNotRun(t *testing.T) {
	var table bytes.Buffer
	failed, err := reports.WriteRegressTable(&table, notRunCases())
	if err != nil || failed != 0 {
		t.Fatalf("failed %d, err %v; want 0, nil", failed, err)
	}
	lines := strings.Split(table.String(), "\n")
	for i, want := range []string{
		"case      verdicts (expected→got)                           states  worst steps  worst rounds  seconds  result",
		"finished  safety holds→holds                                0       -            -             1.000    PASS",
		"stopped   safety unknown→not run, deadlock unknown→not run  -       -            -             0.000    NOT RUN",
		"rounds    rounds violated→not run                           -       -            -             0.000    NOT RUN",
		"NOT RUN stopped: not finished: regress was interrupted (interrupt signal received)",
		"NOT RUN rounds: not started: regress was interrupted (interrupt signal received)",
		"2 of 3 cases not run",
		"",
	} {
		if i >= len(lines) || lines[i] != want {
			t.Fatalf("table line %d: want\n%s\nin\n%s", i, want, table.String())
		}
	}

	var b bytes.Buffer
	if err := reports.WriteJUnit(&b, notRunCases()); err != nil {
		t.Fatal(err)
	}
	var suites junit.Testsuites
	if err := xml.Unmarshal(b.Bytes(), &suites); err != nil {
		t.Fatalf("not well-formed: %v", err)
	}
	s := suites.Suites[0]
	if len(s.Testcases) != 4 || s.Skipped != 3 || s.Failures != 0 || s.Errors != 0 || s.Properties == nil {
		t.Fatalf("%d testcases, %d skipped, %d failures, %d errors; want 4, 3, 0, 0", len(s.Testcases), s.Skipped, s.Failures, s.Errors)
	}
	for i, want := range []string{"", "NOT RUN stopped: not finished", "NOT RUN stopped: not finished", "NOT RUN rounds: not started"} {
		sk := s.Testcases[i].Skipped
		switch {
		case want == "" && sk != nil:
			t.Errorf("testcase %d skipped: %+v", i, sk)
		case want != "" && (sk == nil || !strings.HasPrefix(sk.Message, want) || !strings.Contains(sk.Message, "regress was interrupted")):
			t.Errorf("testcase %d (%s): skipped %+v, want a message starting %q", i, s.Testcases[i].Name, sk, want)
		}
	}
	found := false
	for _, p := range *s.Properties {
		found = found || p.Name == "interrupted" && p.Value == "2 of 3 cases not run"
	}
	if !found {
		t.Errorf("no property interrupted in %+v", s.Properties)
	}
}
