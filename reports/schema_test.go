package reports

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

func compileTraceSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(TraceSchema()))
	if err != nil {
		t.Fatalf("the schema is not JSON: %v", err)
	}
	c := jsonschema.NewCompiler()
	const url = "trace.schema.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		t.Fatalf("the schema does not compile: %v", err)
	}
	return sch
}

// TestTraceSchema validates every trace in the golden files against the
// schema: the trace goldens themselves, and the traces inside the check
// result goldens; then invalid traces, which must fail.
func TestTraceSchema(t *testing.T) {
	sch := compileTraceSchema(t)
	var files []string
	for _, pattern := range []string{"testdata/*.json*", "../cmd/ringcheck/cli/testdata/*.json"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	traces := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var docs []json.RawMessage
		if strings.HasPrefix(filepath.Base(file), "check_") {
			var res struct {
				Properties []struct {
					Trace json.RawMessage `json:"trace"`
				} `json:"properties"`
			}
			if err := json.Unmarshal(data, &res); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			for _, p := range res.Properties {
				if p.Trace != nil {
					docs = append(docs, p.Trace)
				}
			}
		} else {
			docs = append(docs, data)
		}
		for _, d := range docs {
			inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(d))
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			if err := sch.Validate(inst); err != nil {
				t.Errorf("%s does not validate: %v", file, err)
			}
			traces++
		}
	}
	if traces < 3 {
		t.Errorf("validated %d traces, want at least 3 (%v)", traces, files)
	}

	var good bytes.Buffer
	if err := WriteTraceJSON(&good, lassoTrace()); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []struct{ name, old, new string }{
		{"unknown kind", `"kind": "lasso"`, `"kind": "cycle"`},
		{"lasso without loop_start", `"loop_start": 1,`, ``},
		{"fractional value", `"x": 0`, `"x": 0.5`},
		{"step of no process", `"processes": [
        1
      ]`, `"processes": []`},
		{"unknown field", `"spec": "toy"`, `"spec": "toy", "extra": true`},
		{"unknown field of a step", `"action": "start"`, `"action": "start", "extra": true`},
		{"unknown field of a process", `"id": 0,`, `"id": 0, "extra": 1,`},
		{"unknown field of a channel", `"from": 0,`, `"from": 0, "extra": 1,`},
		{"rounds of a lasso", `"spec": "toy"`, `"spec": "toy", "round_ends": [1]`},
		{"unknown start", `"spec": "toy"`, `"spec": "toy", "start": "somewhere"`},
		{"unknown property", `"property": "starvation"`, `"property": "liveliness"`},
		{"unknown fairness", `"spec": "toy"`, `"spec": "toy", "fairness": "fair"`},
		{"fairness of safety", `"property": "starvation"`, `"property": "safety", "fairness": "weak"`},
		{"invariant of starvation", `"spec": "toy"`, `"spec": "toy", "invariant": "mutex"`},
	} {
		doc := strings.Replace(good.String(), bad.old, bad.new, 1)
		if doc == good.String() {
			t.Fatalf("%s: %q is not in the trace", bad.name, bad.old)
		}
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
		if err != nil {
			t.Fatalf("%s: %v", bad.name, err)
		}
		if err := sch.Validate(inst); err == nil {
			t.Errorf("%s: the schema accepts it", bad.name)
		}
		// The reader refuses what the schema refuses.
		if _, err := ReadTrace(strings.NewReader(doc)); err == nil {
			t.Errorf("%s: the reader accepts it", bad.name)
		}
	}
	// What a trace of starvation, leads-to or convergence says of its
	// fairness, and one of safety of its invariant, both accept.
	for _, ok := range []struct{ old, new string }{
		{`"spec": "toy"`, `"spec": "toy", "fairness": "weak-action"`},
		{`"property": "starvation"`, `"property": "convergence", "fairness": "none"`},
		{`"property": "starvation"`, `"property": "leads-to", "fairness": "strong"`},
		{`"property": "starvation"`, `"property": "safety", "invariant": "mutex"`},
	} {
		doc := strings.Replace(good.String(), ok.old, ok.new, 1)
		if doc == good.String() {
			t.Fatalf("%q is not in the trace", ok.old)
		}
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(inst); err != nil {
			t.Errorf("%s: %v", ok.new, err)
		}
		if _, err := ReadTrace(strings.NewReader(doc)); err != nil {
			t.Errorf("%s: the reader refuses it: %v", ok.new, err)
		}
	}
	// The values of a process are an object, never null (the reader
	// refuses null).
	nullVars := regexp.MustCompile(`"vars": \{[^}]*\}`).ReplaceAllString(good.String(), `"vars": null`)
	if nullVars == good.String() {
		t.Fatal("no vars in the trace")
	}
	if inst, err := jsonschema.UnmarshalJSON(strings.NewReader(nullVars)); err != nil {
		t.Fatal(err)
	} else if err := sch.Validate(inst); err == nil {
		t.Error("null values: the schema accepts them")
	}
	if _, err := ReadTrace(strings.NewReader(nullVars)); err == nil {
		t.Error("null values: the reader accepts them")
	}
	// Every start a trace may have is one the schema knows.
	for _, start := range []string{"fault", "random", "given", "all", "empty-channels"} {
		doc := strings.Replace(good.String(), `"spec": "toy"`, `"spec": "toy", "start": "`+start+`"`, 1)
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(inst); err != nil {
			t.Errorf("start %s: %v", start, err)
		}
	}
}
