package reports

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the actual output")

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o666); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (go test -update rewrites it)\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// checkResult runs a small deterministic check (one worker) and returns its
// result with the measurements zeroed.
func checkResult(t *testing.T, spec string, props ...invariants.Property) *CheckResult {
	t.Helper()
	var (
		sys    *model.System
		params specs.Values
		err    error
	)
	switch spec {
	case "kl-naive":
		params = specs.Values{"n": 3, "L": 3, "K": 2, "Cmax": 0}
		sys, err = KLNaiveFixture(3, 3, 2, 0)
	case "dijkstra":
		params = specs.Values{"n": 3, "K": 3}
		sys, err = DijkstraFixture(3, 3)
	default:
		t.Fatalf("no such spec %s", spec)
	}
	if err != nil {
		t.Fatal(err)
	}
	rep, err := invariants.Check(context.Background(), sys, invariants.Options{
		Properties: props,
		From:       invariants.FromInit,
		Search:     explore.Options{Workers: 1},
	})
	if err != nil {
		t.Fatal(err)
	}
	res := NewCheckResult(Run{
		System: sys, Params: params, Report: rep, PeakHeapBytes: 12345,
		Options: CheckOptions{From: "init", Daemon: "central", Workers: 1},
	})
	// Timing and memory vary from run to run (the store's size with the
	// engine's allocation policy): zero them so the goldens are stable.
	res.Stats.Seconds, res.Stats.StatesPerSecond, res.Stats.PeakHeapBytes, res.Stats.StoreBytes = 0, 0, 0, 0
	return res
}

// klTrace is the deadlock counterexample of kl-naive n=3 L=3 K=2: each
// process requests 2, takes the token on its link, and waits.
func klTrace(t *testing.T) *Trace {
	t.Helper()
	res := checkResult(t, "kl-naive", invariants.Deadlock)
	if len(res.Properties) != 1 || res.Properties[0].Trace == nil {
		t.Fatalf("expected one property with a trace, got %+v", res.Properties)
	}
	return res.Properties[0].Trace
}

// lassoTrace is a hand-made lasso with what the specs above do not have:
// enumeration values, message fields, a step of several processes, an
// overflowing step.
func lassoTrace() *Trace {
	one := 1
	state := func(mode string, x int, msgs ...TraceMessage) TraceState {
		if msgs == nil {
			msgs = []TraceMessage{}
		}
		return TraceState{
			Processes: []TraceProcess{
				{ID: 0, Vars: Fields{{Name: "mode", Value: mode, Quoted: true}, {Name: "x", Value: "0"}}},
				{ID: 1, Vars: Fields{{Name: "mode", Value: "idle", Quoted: true}, {Name: "x", Value: itoa(x)}}},
			},
			Channels: []TraceChannel{
				{From: 0, To: 1, Messages: msgs},
				{From: 1, To: 0, Messages: []TraceMessage{}},
			},
		}
	}
	ask := TraceMessage{Type: "Ask", Fields: Fields{{Name: "round", Value: "-3"}, {Name: "who", Value: "p \"0\"", Quoted: true}}}
	ping := TraceMessage{Type: "Ping"} // no fields: nil, as NewTrace makes them
	return &Trace{
		Spec:      "toy",
		Params:    map[string]int{"n": 2, "K": 3},
		Property:  "starvation",
		Kind:      "lasso",
		LoopStart: &one,
		States: []TraceState{
			state("idle", 0),
			state("wait", 1, ask),
			state("wait", 2, ask, ping),
		},
		Steps: []TraceStep{
			{Processes: []int{0, 1}, Action: "start"},
			{Processes: []int{1}, Action: "ping", Overflow: true},
			{Processes: []int{1}, Action: "reset"},
		},
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestWriteCheck(t *testing.T) {
	for _, tc := range []struct {
		name  string
		spec  string
		props []invariants.Property
	}{
		{"check_klnaive_deadlock", "kl-naive", []invariants.Property{invariants.Deadlock}},
		{"check_dijkstra", "dijkstra", []invariants.Property{invariants.Safety, invariants.Deadlock}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := checkResult(t, tc.spec, tc.props...)
			var text, js bytes.Buffer
			if err := WriteCheckText(&text, res); err != nil {
				t.Fatal(err)
			}
			if err := WriteCheckJSON(&js, res); err != nil {
				t.Fatal(err)
			}
			golden(t, tc.name+".txt.golden", text.Bytes())
			golden(t, tc.name+".json.golden", js.Bytes())
			for i, line := range strings.Split(text.String(), "\n") {
				if strings.TrimRight(line, " ") != line {
					t.Errorf("text line %d has trailing blanks: %q", i+1, line)
				}
			}
		})
	}
}

func TestCheckResultVerdicts(t *testing.T) {
	res := checkResult(t, "kl-naive", invariants.Deadlock)
	if res.Complete || res.Stop != "decided" {
		t.Errorf("complete=%v stop=%q, want false, decided", res.Complete, res.Stop)
	}
	p := res.Properties[0]
	if p.Name != "deadlock" || p.Verdict != "violated" || p.Trace == nil {
		t.Fatalf("got %+v", p)
	}
	if got := len(p.Trace.Steps); got != 6 {
		t.Errorf("deadlock trace has %d steps, want 6 (3 requests, 3 collects)", got)
	}
	last := p.Trace.States[len(p.Trace.States)-1]
	for _, proc := range last.Processes {
		if got := fieldsString(proc.Vars, nil, false); got != "need=2 cnt=1" {
			t.Errorf("last state: p%d has %s, want need=2 cnt=1", proc.ID, got)
		}
	}
	for _, ch := range last.Channels {
		if len(ch.Messages) != 0 {
			t.Errorf("last state: channel %d→%d holds %d messages", ch.From, ch.To, len(ch.Messages))
		}
	}

	res = checkResult(t, "dijkstra", invariants.Safety, invariants.Deadlock)
	if !res.Complete || res.Stop != "exhausted" || res.Stats.States != 9 {
		t.Errorf("dijkstra n=3 K=3: complete=%v stop=%q states=%d, want true, exhausted, 9", res.Complete, res.Stop, res.Stats.States)
	}
	for _, p := range res.Properties {
		if p.Verdict != "holds" || p.Trace != nil {
			t.Errorf("%s: %s, trace %v; want holds, no trace", p.Name, p.Verdict, p.Trace != nil)
		}
	}
	if got := res.Properties[0].Invariants; !reflect.DeepEqual(got, []string{"one-privilege"}) {
		t.Errorf("safety covered %v, want [one-privilege]", got)
	}
}

func TestWriteTrace(t *testing.T) {
	for _, tc := range []struct {
		name  string
		trace *Trace
	}{
		{"trace_klnaive", klTrace(t)},
		{"trace_lasso", lassoTrace()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var text, js bytes.Buffer
			if err := WriteTraceText(&text, tc.trace); err != nil {
				t.Fatal(err)
			}
			if err := WriteTraceJSON(&js, tc.trace); err != nil {
				t.Fatal(err)
			}
			golden(t, tc.name+".txt.golden", text.Bytes())
			golden(t, tc.name+".json.golden", js.Bytes())
		})
	}
}

func TestTraceRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name  string
		trace *Trace
	}{
		{"klnaive", klTrace(t)},
		{"lasso", lassoTrace()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.trace.Validate(); err != nil {
				t.Fatalf("the trace is not valid: %v", err)
			}
			var buf bytes.Buffer
			if err := WriteTraceJSON(&buf, tc.trace); err != nil {
				t.Fatal(err)
			}
			first := buf.String()
			got, err := ReadTrace(&buf)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.trace) {
				t.Errorf("read back\n%+v\nwant\n%+v", got, tc.trace)
			}
			var again bytes.Buffer
			if err := WriteTraceJSON(&again, got); err != nil {
				t.Fatal(err)
			}
			if again.String() != first {
				t.Errorf("written again, the JSON differs:\n%s\nfirst:\n%s", again.String(), first)
			}
		})
	}
}

func TestFieldsJSON(t *testing.T) {
	var fs Fields
	in := `{"z": 1, "a": "two", "m": -3, "a": 4}`
	if err := fs.UnmarshalJSON([]byte(in)); err != nil {
		t.Fatal(err)
	}
	want := Fields{{Name: "z", Value: "1"}, {Name: "a", Value: "two", Quoted: true}, {Name: "m", Value: "-3"}, {Name: "a", Value: "4"}}
	if !reflect.DeepEqual(fs, want) {
		t.Errorf("got %+v, want %+v (keys in order, duplicates kept)", fs, want)
	}
	out, err := fs.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if got := string(out); got != `{"z":1,"a":"two","m":-3,"a":4}` {
		t.Errorf("marshalled %s", got)
	}
	for _, bad := range []string{`[1]`, `{"x": 1.5}`, `{"x": 1e3}`, `{"x": true}`, `{"x": null}`, `{"x": {}}`, `{"x": []}`, `{"x": 99999999999999999999}`, `null`, `{"x": 1`} {
		var fs Fields
		if err := fs.UnmarshalJSON([]byte(bad)); err == nil {
			t.Errorf("%s: read as %+v, want an error", bad, fs)
		}
	}
}

// validTrace is a small valid path: two states of two processes, one step.
const validTrace = `{"spec": "dijkstra", "params": {"n": 2, "K": 2}, "property": "safety", "kind": "path",
 "states": [{"processes": [{"id": 0, "vars": {"x": 0}}, {"id": 1, "vars": {"x": 0}}], "channels": []},
            {"processes": [{"id": 0, "vars": {"x": 1}}, {"id": 1, "vars": {"x": 0}}], "channels": []}],
 "steps": [{"processes": [0], "action": "A"}]}`

func TestReadTrace(t *testing.T) {
	tr, err := ReadTrace(strings.NewReader(validTrace))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Spec != "dijkstra" || len(tr.States) != 2 || len(tr.Steps) != 1 || tr.LoopStart != nil {
		t.Errorf("read %+v", tr)
	}
	for _, tc := range []struct{ bad, want string }{
		{"", "not a ringcheck trace: the file is empty"},
		{"not json", "not a ringcheck trace: line 1, column 2: invalid character 'o' in literal null (expecting 'u')"},
		{`{"spec": 1}`, `not a ringcheck trace: line 1, column 11: "spec" holds a number where a string is wanted`},
		{"{\n \"params\": {\"n\": \"two\"}}", `not a ringcheck trace: line 2, column 23: "params" holds a string where an integer is wanted`},
		{`[]`, "not a ringcheck trace: line 1, column 2: the trace holds an array where an object is wanted"},
		{"{\n\"spec\": \"x\",", "not a ringcheck trace: line 2, column 13: the JSON ends before the trace does"},
		{`{} {}`, "not a ringcheck trace: line 1, column 4: more data after the trace object"},
		{`{}`, `not a ringcheck trace: no "spec"`},
		{`{"spec": "x", "bogus": 1}`, `not a ringcheck trace: line 1, column 15: unknown field "bogus" (the trace format has no such field)`},
		{`{"spec": "x", "property": "safety", "kind": "path", "states": [{"Processes": []}], "steps": []}`,
			`not a ringcheck trace: line 1, column 65: unknown field "Processes" (the trace format has no such field)`},
		{"{\"spec\": \"x\", \"params\": {\"bogus\": 1}, \"states\": [{\"processes\": [\n  {\"id\": 0, \"vars\": {\"bogus\": 1}, \"bogus\": 2}]}]}",
			`not a ringcheck trace: line 2, column 35: unknown field "bogus" (the trace format has no such field)`},
		{`{"spec": "x", "property": "liveness", "kind": "path", "states": [{"processes": []}], "steps": []}`,
			`not a ringcheck trace: "property" "liveness" is not one of safety, deadlock, starvation, leads-to, closure, convergence, stabilization`},
	} {
		if _, err := ReadTrace(strings.NewReader(tc.bad)); err == nil || err.Error() != tc.want {
			t.Errorf("%q: err = %v, want %s", tc.bad, err, tc.want)
		}
	}
}

func TestValidate(t *testing.T) {
	intp := func(i int) *int { return &i }
	for _, tc := range []struct {
		name   string
		modify func(*Trace)
		want   string // a substring of the error; "" for a valid trace
	}{
		{"valid path", func(*Trace) {}, ""},
		{"valid lasso", func(t *Trace) {
			t.Kind, t.LoopStart = "lasso", intp(0)
			t.Steps = append(t.Steps, TraceStep{Processes: []int{1}, Action: "A"})
		}, ""},
		{"lasso looping on its last state", func(t *Trace) {
			t.Kind, t.LoopStart = "lasso", intp(1)
			t.Steps = append(t.Steps, TraceStep{Processes: []int{1}, Action: "A"})
		}, ""},
		{"one state, no step", func(t *Trace) { t.States, t.Steps = t.States[:1], []TraceStep{} }, ""},
		{"no spec", func(t *Trace) { t.Spec = "" }, `no "spec"`},
		{"no property", func(t *Trace) { t.Property = "" }, `no "property"`},
		{"empty states", func(t *Trace) { t.States = []TraceState{} }, `no "states"`},
		{"nil states", func(t *Trace) { t.States = nil }, `no "states"`},
		{"too few steps", func(t *Trace) { t.Steps = nil }, "a path of 2 states has 0 steps, not 1"},
		{"too many steps", func(t *Trace) { t.Steps = append(t.Steps, t.Steps[0]) }, "a path of 2 states has 2 steps, not 1"},
		{"lasso short of its closing step", func(t *Trace) { t.Kind, t.LoopStart = "lasso", intp(0) }, "a lasso of 2 states has 1 steps, not 2"},
		{"bad kind", func(t *Trace) { t.Kind = "cycle" }, `"kind" "cycle" is not path or lasso`},
		{"no kind", func(t *Trace) { t.Kind = "" }, `"kind" "" is not path or lasso`},
		{"lasso without loop_start", func(t *Trace) {
			t.Kind = "lasso"
			t.Steps = append(t.Steps, t.Steps[0])
		}, `a lasso needs a "loop_start"`},
		{"loop_start past the states", func(t *Trace) {
			t.Kind, t.LoopStart = "lasso", intp(2)
			t.Steps = append(t.Steps, t.Steps[0])
		}, `a lasso needs a "loop_start"`},
		{"negative loop_start", func(t *Trace) {
			t.Kind, t.LoopStart = "lasso", intp(-1)
			t.Steps = append(t.Steps, t.Steps[0])
		}, `a lasso needs a "loop_start"`},
		{"path with loop_start", func(t *Trace) { t.LoopStart = intp(0) }, `a path has no "loop_start"`},
		{"step process out of range", func(t *Trace) { t.Steps[0].Processes = []int{2} }, "step 0 names process 2, which does not exist"},
		{"step process negative", func(t *Trace) { t.Steps[0].Processes = []int{0, -1} }, "step 0 names process -1, which does not exist"},
		{"step of no process", func(t *Trace) { t.Steps[0].Processes = nil }, "step 0 names no process or no action"},
		{"step of no action", func(t *Trace) { t.Steps[0].Action = "" }, "step 0 names no process or no action"},
		{"process id out of order", func(t *Trace) { t.States[1].Processes[1].ID = 0 }, "state 1: process 1 has id 0"},
		{"process id out of range", func(t *Trace) { t.States[0].Processes[1].ID = 7 }, "state 0: process 1 has id 7"},
		{"a state with fewer processes", func(t *Trace) { t.States[1].Processes = t.States[1].Processes[:1] }, "state 1 has a different number of processes or channels"},
		{"a state with more channels", func(t *Trace) {
			t.States[1].Channels = append(t.States[1].Channels, TraceChannel{From: 0, To: 1})
		}, "state 1 has a different number of processes or channels"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := ReadTrace(strings.NewReader(validTrace))
			if err != nil {
				t.Fatal(err)
			}
			tc.modify(tr)
			err = tr.Validate()
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("rejected: %v", err)
			case tc.want != "" && err == nil:
				t.Errorf("accepted, want an error with %q", tc.want)
			case tc.want != "" && !strings.Contains(err.Error(), tc.want):
				t.Errorf("err = %q, want one with %q", err, tc.want)
			}
			if err == nil {
				// A valid trace renders.
				if werr := WriteTraceText(&bytes.Buffer{}, tr); werr != nil {
					t.Errorf("WriteTraceText: %v", werr)
				}
			}
		})
	}
}

// failWriter fails after n bytes.
type failWriter struct{ n int }

func (w *failWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		k := w.n
		w.n = 0
		return k, errors.New("disk full")
	}
	w.n -= len(p)
	return len(p), nil
}

func TestWriteErrors(t *testing.T) {
	tr := lassoTrace()
	res := checkResult(t, "kl-naive", invariants.Deadlock)
	for _, n := range []int{0, 10, 200} {
		if err := WriteTraceText(&failWriter{n: n}, tr); err == nil {
			t.Errorf("WriteTraceText after %d bytes: no error", n)
		}
		if err := WriteTraceJSON(&failWriter{n: n}, tr); err == nil {
			t.Errorf("WriteTraceJSON after %d bytes: no error", n)
		}
		if err := WriteCheckText(&failWriter{n: n}, res); err == nil {
			t.Errorf("WriteCheckText after %d bytes: no error", n)
		}
		if err := WriteCheckJSON(&failWriter{n: n}, res); err == nil {
			t.Errorf("WriteCheckJSON after %d bytes: no error", n)
		}
	}
	// The error comes from the trace part of a check's text, too.
	var full bytes.Buffer
	if err := WriteCheckText(&full, res); err != nil {
		t.Fatal(err)
	}
	if err := WriteCheckText(&failWriter{n: full.Len() - 5}, res); err == nil {
		t.Error("WriteCheckText failing in its trace: no error")
	}
}
