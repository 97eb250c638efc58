package ringcheck_test

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
)

// findingRow is a row of the table "Every claim" of the findings page.
type findingRow struct {
	line     int
	property string
	verdict  string
	finding  string
}

// findingRows reads the table "Every claim" of a findings page.
func findingRows(t *testing.T, path string) []findingRow {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rows []findingRow
	in := false
	for i, line := range strings.Split(string(src), "\n") {
		switch {
		case strings.HasPrefix(line, "## "):
			in = line == "## Every claim"
		case in && strings.HasPrefix(line, "|") && !strings.HasPrefix(line, "| paper, spec") && !strings.HasPrefix(line, "| ---"):
			cells := strings.Split(strings.Trim(line, "|"), " | ")
			if len(cells) != 5 {
				t.Fatalf("%s:%d: %d cells, want 5 (paper, claim, property, ringcheck, finding)", path, i+1, len(cells))
			}
			rows = append(rows, findingRow{line: i + 1, property: strings.TrimSpace(cells[2]), verdict: cells[3], finding: strings.TrimSpace(cells[4])})
		}
	}
	if len(rows) == 0 {
		t.Fatalf("%s: no table \"Every claim\"", path)
	}
	return rows
}

// TestFindingsHoldUnderTheirReadings checks the findings page against the
// regression manifest: a row that says **fails** has its property
// violated in every case of its finding (every reading of the text), a
// row that says "fails under" has a case where it is violated, one that
// says "holds under" a case where it holds, and no row says "fails"
// without one of those forms; every finding of the manifest is on the
// page and every finding of the page in the manifest.
//
// The rounds cases of a finding (a bound in rounds, measured by rounds
// searches) count as cases of its row's property: "violated" where a run
// went beyond the bound, "within-sampled" where every sampled run stayed
// within it, which is never "holds". So a **fails** row needs every
// rounds case violated too, and a row that says "in every sampled run"
// needs a within-sampled one.
func TestFindingsHoldUnderTheirReadings(t *testing.T) {
	const page, manifest = "docs/findings/README.md", "specs/regress.yaml"
	src, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Cases []struct {
			Name    string            `yaml:"name"`
			Finding string            `yaml:"finding"`
			Reading string            `yaml:"reading"`
			Expect  map[string]string `yaml:"expect"`
			Rounds  *struct {
				Expect string `yaml:"expect"`
			} `yaml:"rounds"`
		} `yaml:"cases"`
	}
	if err := yaml.Unmarshal(src, &m); err != nil {
		t.Fatal(err)
	}
	// verdicts[finding][property] lists the expected verdicts, one per
	// case (reading); rounds[finding] those of its rounds cases.
	verdicts := map[string]map[string][]string{}
	rounds := map[string][]string{}
	for _, c := range m.Cases {
		if c.Finding == "" {
			continue
		}
		if c.Reading == "" {
			t.Errorf("%s: case %q of finding %s names no reading", manifest, c.Name, c.Finding)
		}
		if verdicts[c.Finding] == nil {
			verdicts[c.Finding] = map[string][]string{}
		}
		for prop, v := range c.Expect {
			verdicts[c.Finding][prop] = append(verdicts[c.Finding][prop], v)
		}
		if c.Rounds != nil {
			rounds[c.Finding] = append(rounds[c.Finding], c.Rounds.Expect)
		}
	}
	bold := regexp.MustCompile(`\*\*[^*]*\*\*`)
	onPage := map[string]bool{}
	for _, r := range findingRows(t, page) {
		at := func(format string, args ...any) {
			t.Errorf("%s:%d: "+format, append([]any{page, r.line}, args...)...)
		}
		boldFails := false
		for _, b := range bold.FindAllString(r.verdict, -1) {
			boldFails = boldFails || strings.Contains(b, "fail") || strings.Contains(b, "unsafe")
		}
		qualified := strings.Contains(r.verdict, "fails under") || strings.Contains(r.verdict, "holds under")
		unbolded := bold.ReplaceAllString(r.verdict, "")
		if strings.Contains(strings.ReplaceAll(unbolded, "fails under", ""), "fail") {
			at("says \"fail\" outside bold and outside \"fails under\"")
		}
		if r.finding == "-" {
			if boldFails || qualified {
				at("a verdict against the paper with no finding in %s", manifest)
			}
			continue
		}
		onPage[r.finding] = true
		got := append(slices.Clone(verdicts[r.finding][r.property]), rounds[r.finding]...)
		if len(got) == 0 {
			at("finding %s has no case expecting %s (nor a rounds case) in %s", r.finding, r.property, manifest)
			continue
		}
		count := func(v string) int {
			n := 0
			for _, g := range got {
				if g == v {
					n++
				}
			}
			return n
		}
		switch {
		case boldFails && count("violated") != len(got):
			at("says **fails**, but a reading of finding %s expects %s %v", r.finding, r.property, got)
		case strings.Contains(r.verdict, "fails under") && count("violated") == 0:
			at("says \"fails under\", but no case of finding %s expects %s violated", r.finding, r.property)
		case strings.Contains(r.verdict, "holds under") && count("holds") == 0:
			at("says \"holds under\", but no case of finding %s expects %s to hold", r.finding, r.property)
		case strings.Contains(r.verdict, "in every sampled run") && !slices.Contains(rounds[r.finding], "within-sampled"):
			at("says \"in every sampled run\", but no rounds case of finding %s expects within-sampled", r.finding)
		case !boldFails && !qualified:
			at("finding %s is neither **fails** nor \"fails under\"/\"holds under\"", r.finding)
		}
	}
	for f := range verdicts {
		if !onPage[f] {
			t.Errorf("%s: finding %s is not on %s", manifest, f, page)
		}
	}
}
