package reports

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
)

// SweepRow is the result of a sweep for one value of the swept parameter
// (a result whose Skipped is set for a value not checked).
type SweepRow struct {
	Value  int
	Result *CheckResult
}

// WriteSweepJSON writes the results as a JSON array of check results; a
// skipped value's is an object of spec, params and skipped (the note)
// alone.
func WriteSweepJSON(w io.Writer, rows []SweepRow) error {
	type skippedResult struct {
		Spec    string         `json:"spec"`
		Params  map[string]int `json:"params"`
		Skipped string         `json:"skipped"`
	}
	results := make([]any, len(rows))
	for i, r := range rows {
		results[i] = r.Result
		if c := r.Result; c.Skipped != "" {
			results[i] = skippedResult{Spec: c.Spec, Params: c.Params, Skipped: c.Skipped}
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(results)
}

// WriteSweepText writes one table row per value of the swept parameter:
// the verdict of each check, states (the configurations, for the symbolic
// engine), legitimate configurations (when counted), worst-case steps and
// rounds, seconds; a skipped value's row gives its note instead. Then
// every counterexample, headed by its value.
func WriteSweepText(w io.Writer, param string, rows []SweepRow) error {
	i := slices.IndexFunc(rows, func(r SweepRow) bool { return r.Result.Skipped == "" })
	if i < 0 {
		return nil
	}
	first := rows[i].Result
	p := &printer{w: w}
	p.printf("%s, sweeping %s, from %s, %s daemon", first.Spec, param, first.Options.From, first.Options.Daemon)
	if first.Options.Links != "" {
		p.printf(", %s links", first.Options.Links)
	}
	if first.Options.Fairness != "" {
		p.printf(", fairness %s", first.Options.Fairness)
	}
	p.printf("\n\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := []string{param}
	for _, pr := range first.Properties {
		head = append(head, pr.Name)
	}
	head = append(head, "states", "legitimate", "worst steps", "worst rounds", "seconds")
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for _, r := range rows {
		c := r.Result
		cells := []string{fmt.Sprint(r.Value)}
		if c.Skipped != "" {
			// The note is the row's last text, which no column aligns.
			fmt.Fprintln(tw, strings.Join(append(cells, "skipped: "+c.Skipped), "\t"))
			continue
		}
		for _, pr := range c.Properties {
			cells = append(cells, pr.Verdict)
		}
		steps, rounds := "-", "-"
		if st := c.Stabilization; st != nil {
			steps = "unbounded"
			if st.WorstCaseSteps != nil {
				steps = fmt.Sprint(*st.WorstCaseSteps)
			}
			if st.WorstCaseRounds != nil {
				rounds = fmt.Sprint(*st.WorstCaseRounds)
			} else {
				rounds = "n/c"
			}
		}
		states, legitimate := fmt.Sprint(c.Stats.States), "-"
		if l := c.Stats.Legitimate; l != nil {
			legitimate = fmt.Sprint(*l)
		}
		if sym := c.Symbolic; sym != nil {
			states, legitimate = sym.Configurations, sym.Legitimate
		}
		cells = append(cells, states, legitimate, steps, rounds, fmt.Sprintf("%.3f", c.Stats.Seconds))
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if first.Stabilization != nil && first.Stabilization.PaperBound != "" {
		p.printf("\npaper bound: %s\n", first.Stabilization.PaperBound)
	}
	for _, r := range rows {
		for _, pr := range r.Result.Properties {
			if pr.Trace == nil || p.err != nil {
				continue
			}
			p.printf("\n%s=%d: ", param, r.Value)
			p.err = WriteTraceText(w, pr.Trace)
		}
	}
	return p.err
}
