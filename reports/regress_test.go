package reports_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"strings"
	"testing"
	"time"

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
