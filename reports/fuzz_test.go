package reports

import (
	"bytes"
	"io"
	"reflect"
	"testing"
)

// FuzzReadTrace: ReadTrace never panics, and a trace it accepts survives
// being written as JSON and read again, unchanged, and renders as text.
func FuzzReadTrace(f *testing.F) {
	f.Add([]byte(validTrace))
	for _, tr := range []*Trace{lassoTrace()} {
		var buf bytes.Buffer
		if err := WriteTraceJSON(&buf, tr); err != nil {
			f.Fatal(err)
		}
		f.Add(buf.Bytes())
	}
	for _, s := range []string{
		``,
		`null`,
		`{}`,
		`[]`,
		`{"spec": "x", "property": "p", "kind": "path", "states": [{}], "steps": []}`,
		`{"spec": "x", "property": "p", "kind": "lasso", "loop_start": 0, "states": [{}], "steps": [{"processes": [0], "action": "a"}]}`,
		`{"spec": "x", "property": "p", "kind": "lasso", "loop_start": 5, "states": [{"processes": [{"id": 0}]}], "steps": [{"processes": [0], "action": "a"}]}`,
		`{"spec": "x", "property": "p", "kind": "path", "states": [{"processes": [{"id": 0, "vars": {"a": 1, "b": "s"}}], "channels": [{"from": 0, "to": 0, "messages": [{"type": "T", "fields": {"f": -2}}]}]}, {"processes": [{"id": 0, "vars": {}}], "channels": [{"messages": null}]}], "steps": [{"processes": [0], "action": "a", "overflow": true}]}`,
		`{"spec": "x", "property": "p", "kind": "path", "states": [{"processes": [{"id": 0, "vars": {"a": 1.5}}]}], "steps": []}`,
		`{"spec": "x", "property": "p", "kind": "path", "states": [{"processes": [{"id": 0, "vars": null}]}], "steps": []}`,
		`{"spec": "x", "property": "p", "kind": "path", "states": [{"processes": [{"id": 1}]}], "steps": []}`,
		`{"spec": "x", "property": "p", "kind": "path", "states": [{"processes": [{"id": 0}]}, {"processes": []}], "steps": [{"processes": [0], "action": "a"}]}`,
		`{"spec": "x", "property": "p", "kind": "path", "states": [{"processes": [{"id": 0}]}, {"processes": [{"id": 0}]}], "steps": [{"processes": [3], "action": "a"}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := ReadTrace(bytes.NewReader(data))
		if err != nil {
			if tr != nil {
				t.Fatalf("ReadTrace returned a trace with error %v", err)
			}
			return
		}
		var buf bytes.Buffer
		if err := WriteTraceJSON(&buf, tr); err != nil {
			t.Fatalf("WriteTraceJSON of an accepted trace: %v", err)
		}
		written := buf.String()
		again, err := ReadTrace(&buf)
		if err != nil {
			t.Fatalf("an accepted trace, written, does not read back: %v\n%s", err, written)
		}
		if !reflect.DeepEqual(again, tr) {
			t.Fatalf("round trip changed the trace:\nread  %+v\nagain %+v\nJSON %s", tr, again, written)
		}
		if err := WriteTraceText(io.Discard, tr); err != nil {
			t.Fatalf("WriteTraceText: %v", err)
		}
	})
}
