package explorer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"

	"github.com/ringcheck/ringcheck/internal/input"
)

// maxSweepBytes bounds a sweep file: a thousand instances (the most a
// sweep checks) of a few KiB each, traces included.
const maxSweepBytes = 256 << 20

// Sweep is what the explorer plots of a sweep ('check --sweep ...
// --json'): the spec, the swept parameter and one point per value.
type Sweep struct {
	Spec   string       `json:"spec"`
	Param  string       `json:"param"`
	Points []SweepPoint `json:"points"`
}

// SweepPoint is one instance of a sweep: the swept parameter's value, the
// states explored (the configurations, for the symbolic engine: 0 when
// it does not fit), the worst case of stabilization in steps and rounds
// (nil where not computed or unbounded), each property's verdict in the
// order checked, or why the value was skipped.
type SweepPoint struct {
	Value       int       `json:"value"`
	Skipped     string    `json:"skipped,omitempty"`
	States      int64     `json:"states"`
	WorstSteps  *int      `json:"worst_steps"`
	WorstRounds *int      `json:"worst_rounds"`
	Verdicts    []Verdict `json:"verdicts"`
}

// Verdict is a property's name and verdict.
type Verdict struct {
	Property string `json:"property"`
	Verdict  string `json:"verdict"`
}

// sweepResult is what ReadSweep reads of each check result.
type sweepResult struct {
	Spec    string         `json:"spec"`
	Params  map[string]int `json:"params"`
	Skipped string         `json:"skipped"`
	Stats   struct {
		States int64 `json:"states"`
	} `json:"stats"`
	Properties []struct {
		Name    string `json:"name"`
		Verdict string `json:"verdict"`
	} `json:"properties"`
	Stabilization *struct {
		WorstCaseSteps  *int `json:"worst_case_steps"`
		WorstCaseRounds *int `json:"worst_case_rounds"`
	} `json:"stabilization"`
}

// ReadSweep reads the file at path, a JSON array of check results of one
// spec as 'check --sweep ... --json' writes it, and finds the parameter
// swept: the one whose value differs between results. Its errors name the
// file, and a JSON error its line and column (path:line:col).
func ReadSweep(path string) (*Sweep, error) {
	data, err := input.ReadFile(path, maxSweepBytes, "a sweep")
	if err != nil {
		return nil, err
	}
	var results []sweepResult
	if err := json.Unmarshal(data, &results); err != nil {
		var syntax *json.SyntaxError
		var mismatch *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syntax):
			line, col := position(data, syntax.Offset-1)
			return nil, fmt.Errorf("%s:%d:%d: not a sweep: %v", path, line, col, syntax)
		case errors.As(err, &mismatch):
			line, col := position(data, mismatch.Offset-1)
			if mismatch.Field == "" {
				return nil, fmt.Errorf("%s:%d:%d: not a sweep: the file holds a JSON %s, not an array of check results", path, line, col, mismatch.Value)
			}
			return nil, fmt.Errorf("%s:%d:%d: not a sweep: %q holds a JSON %s", path, line, col, mismatch.Field, mismatch.Value)
		}
		return nil, fmt.Errorf("%s: not a sweep: %w", path, err)
	}
	if len(results) < 2 {
		return nil, fmt.Errorf("%s: not a sweep: %d results, a sweep has two or more", path, len(results))
	}
	first := results[0]
	if first.Spec == "" {
		return nil, fmt.Errorf("%s: not a sweep: result 0 names no spec", path)
	}
	var swept []string
	for _, name := range slices.Sorted(maps.Keys(first.Params)) {
		for _, r := range results[1:] {
			if r.Params[name] != first.Params[name] {
				swept = append(swept, name)
				break
			}
		}
	}
	if len(swept) != 1 {
		return nil, fmt.Errorf("%s: not a sweep: %d parameters vary between its results (%v), a sweep varies one", path, len(swept), swept)
	}
	s := &Sweep{Spec: first.Spec, Param: swept[0]}
	for i, r := range results {
		if r.Spec != first.Spec {
			return nil, fmt.Errorf("%s: not a sweep: result %d is of %s, result 0 of %s", path, i, r.Spec, first.Spec)
		}
		v, ok := r.Params[s.Param]
		if !ok {
			return nil, fmt.Errorf("%s: not a sweep: result %d has no parameter %s", path, i, s.Param)
		}
		p := SweepPoint{Value: v, Skipped: r.Skipped, States: r.Stats.States, Verdicts: []Verdict{}}
		if st := r.Stabilization; st != nil {
			p.WorstSteps, p.WorstRounds = st.WorstCaseSteps, st.WorstCaseRounds
		}
		for _, pr := range r.Properties {
			p.Verdicts = append(p.Verdicts, Verdict{Property: pr.Name, Verdict: pr.Verdict})
		}
		s.Points = append(s.Points, p)
	}
	sort.SliceStable(s.Points, func(i, j int) bool { return s.Points[i].Value < s.Points[j].Value })
	return s, nil
}

// position is the line and column (from 1, in bytes) of offset in data.
func position(data []byte, offset int64) (line, col int) {
	offset = min(max(offset, 0), int64(len(data)))
	before := data[:offset]
	line = 1 + bytes.Count(before, []byte("\n"))
	return line, int(offset) - (bytes.LastIndexByte(before, '\n') + 1) + 1
}

// NewSweep returns the handler that serves the page and, under
// /api/model, sweep alone: the page plots it.
func NewSweep(sweep *Sweep) *Handler {
	return &Handler{sweep: sweep}
}
