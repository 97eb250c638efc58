package reports

import (
	"bytes"
	"encoding/json"
	"io"
	"reflect"
	"testing"

	"github.com/ringcheck/ringcheck/model"
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
		`{"spec": "x", "property": "safety", "kind": "path", "states": [{}], "steps": []}`,
		`{"spec": "x", "property": "safety", "kind": "lasso", "loop_start": 0, "states": [{}], "steps": [{"processes": [0], "action": "a"}]}`,
		`{"spec": "x", "property": "safety", "kind": "lasso", "loop_start": 5, "states": [{"processes": [{"id": 0}]}], "steps": [{"processes": [0], "action": "a"}]}`,
		`{"spec": "x", "property": "safety", "kind": "path", "states": [{"processes": [{"id": 0, "vars": {"a": 1, "b": "s"}}], "channels": [{"from": 0, "to": 0, "messages": [{"type": "T", "fields": {"f": -2}}]}]}, {"processes": [{"id": 0, "vars": {}}], "channels": [{"messages": null}]}], "steps": [{"processes": [0], "action": "a", "overflow": true}]}`,
		`{"spec": "x", "property": "safety", "kind": "path", "states": [{"processes": [{"id": 0, "vars": {"a": 1.5}}]}], "steps": []}`,
		`{"spec": "x", "property": "safety", "kind": "path", "states": [{"processes": [{"id": 0, "vars": null}]}], "steps": []}`,
		`{"spec": "x", "property": "safety", "kind": "path", "states": [{"processes": [{"id": 1}]}], "steps": []}`,
		`{"spec": "x", "property": "safety", "kind": "path", "states": [{"processes": [{"id": 0}]}, {"processes": []}], "steps": [{"processes": [0], "action": "a"}]}`,
		`{"spec": "x", "property": "safety", "kind": "path", "states": [{"processes": [{"id": 0}]}, {"processes": [{"id": 0}]}], "steps": [{"processes": [3], "action": "a"}]}`,
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

// FuzzStartConfiguration: what 'check --start' does with a file, reading a
// trace and encoding one of its states for a system (here a two-process
// ring with an enumeration, a bounded integer and a channel of two-field
// messages), never panics; a state it encodes, written back as a trace
// state, encodes to the same configuration.
func FuzzStartConfiguration(f *testing.F) {
	sys := startSystem(f)
	st := sys.NewState()
	st.Set(1, 0, 1)
	st.Push(0, sys.Msg(0, 2, 0))
	f.Add([]byte(`{"spec": "tiny", "property": "safety", "kind": "path", "round_ends": [0], "states": [` + stateJSON(f, sys, st) + `], "steps": []}`))
	f.Add([]byte(`{"spec": "tiny", "property": "safety", "kind": "path", "states": [{"processes": [{"id": 0, "vars": {"mode": "busy", "x": 9}}, {"id": 1, "vars": {"mode": 0, "x": 0}}], "channels": [{"from": 0, "to": 1, "messages": [{"type": "Tok", "fields": {"c": 1, "d": 0}}]}, {"from": 1, "to": 0, "messages": []}]}], "steps": []}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := ReadTrace(bytes.NewReader(data))
		if err != nil {
			return
		}
		for _, ts := range tr.States {
			snap, err := ts.Snapshot()
			if err != nil {
				continue
			}
			st, err := sys.Encode(snap)
			if err != nil {
				continue
			}
			// Written back, the state reads as the same configuration
			// (an enumeration given by its number comes back as its label).
			back := traceState(sys.Decode(st))
			snap2, err := back.Snapshot()
			if err != nil {
				t.Fatalf("the decoded state %+v: %v", back, err)
			}
			again, err := sys.Encode(snap2)
			if err != nil || !again.Equal(st) {
				t.Fatalf("encoded %+v, decoded as %+v, encoded again: %v", ts, back, err)
			}
		}
	})
}

func startSystem(tb testing.TB) *model.System {
	b := model.NewBuilder("tiny", model.UniRing, 2)
	b.Var("mode", model.Enum("idle", "busy"))
	b.Var("x", model.IntRange(-1, 1))
	tok := b.Message("Tok", model.Var{Name: "c", Domain: model.IntRange(0, 2)}, model.Var{Name: "d", Domain: model.IntRange(0, 1)})
	b.LinkChannels(2, model.Drop, tok)
	b.Action(model.Action{Name: "noop", Guard: func(*model.Ctx) bool { return false }, Effect: func(*model.Ctx, int) {}})
	b.Initial(func(*model.System, *model.State) {})
	sys, err := b.Build()
	if err != nil {
		tb.Fatal(err)
	}
	return sys
}

func stateJSON(tb testing.TB, sys *model.System, st *model.State) string {
	data, err := json.Marshal(traceState(sys.Decode(st)))
	if err != nil {
		tb.Fatal(err)
	}
	return string(data)
}
