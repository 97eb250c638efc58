package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/ringcheck/ringcheck/reports"
)

// writeHTMLPages writes to dir, which it creates if need be, the first
// counterexample of each failing case of outcomes, as an HTML page named
// after the case (pageName; a second case of the same page name gets
// "-2" before ".html", and so on).
func writeHTMLPages(dir string, outcomes []*reports.RegressCase) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	used := map[string]int{}
	for _, o := range outcomes {
		if o == nil || o.NotRun != "" || !o.Failed() || o.Result == nil {
			continue
		}
		for _, p := range o.Result.Properties {
			if p.Trace == nil {
				continue
			}
			name := pageName(o.Name)
			if used[name]++; used[name] > 1 {
				name = strings.TrimSuffix(name, ".html") + fmt.Sprintf("-%d.html", used[name])
			}
			path := filepath.Join(dir, name)
			file, err := os.Create(path)
			if err != nil {
				return err
			}
			err = reports.WriteTraceHTML(file, p.Trace)
			if cerr := file.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return fmt.Errorf("writing %s: %w", path, err)
			}
			break
		}
	}
	return nil
}

// pageName is the file name of a case's page: its letters and digits,
// every other run of characters a '-', and ".html".
func pageName(caseName string) string {
	var b strings.Builder
	dash := false
	for _, r := range caseName {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	name := strings.TrimSuffix(b.String(), "-")
	if name == "" {
		name = "case"
	}
	return name + ".html"
}
