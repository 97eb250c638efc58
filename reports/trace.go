// Package reports renders what ringcheck found: check results as text and
// as the JSON object of the CLI contract, and counterexample traces in the
// contract's JSON format (which it also reads back) and as text a person can
// follow. It decides nothing.
package reports

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/ringcheck/ringcheck/internal/input"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
)

// Trace is a counterexample in the contract's JSON format. Steps[i] leads
// from States[i] to States[i+1]; a lasso has one more step, from the last
// state back to States[LoopStart].
type Trace struct {
	Spec      string         `json:"spec"`
	Params    map[string]int `json:"params"`
	Property  string         `json:"property"`
	Kind      string         `json:"kind"`
	LoopStart *int           `json:"loop_start,omitempty"`
	// Process is the process the violation is about: the one that starves.
	Process *int `json:"process,omitempty"`
	// Start says what the first state is when it is not an initial
	// configuration: "fault" for the configuration a transient fault left
	// (simulate --fault-at), "random" for a uniformly random configuration
	// ('ringcheck rounds'), "given" for one given to start from ('check
	// --start'), "all" for any configuration of the full space ('check
	// --from all'), "empty-channels" for one whose channels are empty
	// ('check --from empty-channels'), "start" for one where the spec's
	// start predicate holds ('check --from start').
	Start string `json:"start,omitempty"`
	// Daemon is the scheduler the execution ran under, when it is not the
	// central daemon; Overflow the overflow policy that replaced every
	// channel's, if one did. Replaying the trace needs both.
	Daemon   string `json:"daemon,omitempty"`
	Overflow string `json:"overflow,omitempty"`
	// Links is ReliableLinks when the execution ran on the reliable links
	// of a spec whose paper makes them so (its parameters enlarged, every
	// channel's policy error): a check that starts from it runs on them
	// too.
	Links string `json:"links,omitempty"`
	// RoundEnds, for an execution measured in rounds ('ringcheck rounds'),
	// is the number of steps taken by the end of each round: round r+1
	// ends after step RoundEnds[r].
	RoundEnds []int `json:"round_ends,omitempty"`
	// Order, for such an execution, is the order in which the processes
	// act within a round: "backward" or "shuffled".
	Order string `json:"order,omitempty"`
	// Request, in a trace file written by 'check --trace', is the key of
	// the check request that found it (16 hex digits): the same key means
	// the same spec, parameters and choices.
	Request string `json:"request,omitempty"`
	// Fairness, in a trace of starvation, leads-to or convergence, is the
	// fairness assumption the check ran under (as invariants.Fairness
	// names it; empty: none): a lasso's loop is fair under it.
	Fairness string `json:"fairness,omitempty"`
	// Invariant, in a trace of safety, names the invariant that is false
	// in its last state (empty when the violation is its last step's: an
	// overflow of a channel whose policy is error, or a value leaving its
	// domain).
	Invariant string `json:"invariant,omitempty"`
	// SpecFile, for a spec read from a .ring file, is that file's path and
	// the SHA-256 of its content: what the trace is a trace of.
	SpecFile *SpecFile    `json:"spec_file,omitempty"`
	States   []TraceState `json:"states"`
	Steps    []TraceStep  `json:"steps"`
}

// ReliableLinks is a trace's Links when its execution ran on a spec's
// reliable links.
const ReliableLinks = "reliable"

// TraceState is one configuration of a trace.
type TraceState struct {
	Processes []TraceProcess `json:"processes"`
	Channels  []TraceChannel `json:"channels"`
}

// TraceProcess is one process's variables, in declaration order.
type TraceProcess struct {
	ID   int    `json:"id"`
	Vars Fields `json:"vars"`
}

// TraceChannel is one channel's contents, head first.
type TraceChannel struct {
	From     int            `json:"from"`
	To       int            `json:"to"`
	Messages []TraceMessage `json:"messages"`
}

// TraceMessage is one message.
type TraceMessage struct {
	Type   string `json:"type"`
	Fields Fields `json:"fields"`
}

// TraceStep names what moved: the processes (several under the distributed
// daemon) and the action.
type TraceStep struct {
	Processes []int  `json:"processes"`
	Action    string `json:"action"`
	Overflow  bool   `json:"overflow,omitempty"`
	// RangeFault says which assignment of the step left its variable's
	// domain (a violation of safety), for a spec that reports them.
	RangeFault string `json:"range_fault,omitempty"`
}

// Field is a named value: a number for integer domains, a string for
// enumerations.
type Field struct {
	Name  string
	Value string
	// Quoted is true when the value is a string (an enumeration label).
	Quoted bool
}

// Fields is an ordered set of named values, written as a JSON object whose
// keys keep their order (declaration order), and read back in the order
// they appear.
type Fields []Field

// MarshalJSON writes the fields as an object, in order.
func (fs Fields) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range fs {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(f.Name)
		b.Write(k)
		b.WriteByte(':')
		if f.Quoted {
			v, _ := json.Marshal(f.Value)
			b.Write(v)
		} else {
			b.WriteString(f.Value)
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads an object of numbers and strings, keeping key order.
func (fs *Fields) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return errors.New("expected an object of named values")
	}
	*fs = (*fs)[:0]
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		name, _ := tok.(string)
		tok, err = dec.Token()
		if err != nil {
			return err
		}
		switch v := tok.(type) {
		case json.Number:
			if _, err := strconv.ParseInt(string(v), 10, 64); err != nil {
				return fmt.Errorf("value of %s: %q is not an integer", name, v)
			}
			*fs = append(*fs, Field{Name: name, Value: string(v)})
		case string:
			*fs = append(*fs, Field{Name: name, Value: v, Quoted: true})
		default:
			return fmt.Errorf("value of %s must be an integer or a string", name)
		}
	}
	_, err = dec.Token()
	return err
}

// SpecFile names the .ring file a trace's spec was read from.
type SpecFile struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// NewTrace converts a counterexample of sys into a trace.
func NewTrace(sys *model.System, params map[string]int, property string, ce *invariants.Counterexample) *Trace {
	t := &Trace{Spec: sys.Name, Params: params, Property: property, Kind: string(ce.Kind), Process: ce.Process}
	if sys.Daemon != model.Central {
		t.Daemon = sys.Daemon.String()
	}
	if ce.Kind == invariants.Lasso {
		ls := ce.LoopStart
		t.LoopStart = &ls
	}
	for _, st := range ce.States {
		t.States = append(t.States, traceState(sys.Decode(st)))
	}
	t.Steps = make([]TraceStep, 0, len(ce.Steps))
	for i := range ce.Steps {
		s := &ce.Steps[i]
		t.Steps = append(t.Steps, TraceStep{Processes: s.Procs(), Action: sys.Label(s), Overflow: s.Overflow, RangeFault: s.RangeFault})
	}
	return t
}

// Snapshot returns the configuration ts describes, with names, for
// model.System.Encode.
func (ts TraceState) Snapshot() (model.Snapshot, error) {
	snap := model.Snapshot{Processes: make([]model.ProcessView, len(ts.Processes)), Channels: make([]model.ChannelView, len(ts.Channels))}
	for i, p := range ts.Processes {
		vals, err := p.Vars.values()
		if err != nil {
			return snap, fmt.Errorf("process %d: %w", p.ID, err)
		}
		snap.Processes[i] = model.ProcessView{ID: p.ID, Vars: vals}
	}
	for i, c := range ts.Channels {
		cv := model.ChannelView{From: c.From, To: c.To, Messages: make([]model.MessageView, len(c.Messages))}
		for j, m := range c.Messages {
			vals, err := m.Fields.values()
			if err != nil {
				return snap, fmt.Errorf("channel %d→%d, message %d: %w", c.From, c.To, j, err)
			}
			cv.Messages[j] = model.MessageView{Type: m.Type, Fields: vals}
		}
		snap.Channels[i] = cv
	}
	return snap, nil
}

// values converts the fields back to decoded values: a quoted value is an
// enumeration's label, any other an integer.
func (fs Fields) values() ([]model.Value, error) {
	vs := make([]model.Value, len(fs))
	for i, f := range fs {
		if f.Quoted {
			vs[i] = model.Value{Name: f.Name, Text: f.Value, Enum: true}
			continue
		}
		x, err := strconv.Atoi(f.Value)
		if err != nil {
			return nil, fmt.Errorf("%s = %s is not an integer", f.Name, f.Value)
		}
		vs[i] = model.Value{Name: f.Name, Int: x}
	}
	return vs, nil
}

func traceState(snap model.Snapshot) TraceState {
	ts := TraceState{Processes: make([]TraceProcess, len(snap.Processes)), Channels: make([]TraceChannel, len(snap.Channels))}
	for i, p := range snap.Processes {
		ts.Processes[i] = TraceProcess{ID: p.ID, Vars: fields(p.Vars)}
	}
	for i, c := range snap.Channels {
		tc := TraceChannel{From: c.From, To: c.To, Messages: make([]TraceMessage, len(c.Messages))}
		for j, m := range c.Messages {
			tc.Messages[j] = TraceMessage{Type: m.Type, Fields: fields(m.Fields)}
		}
		ts.Channels[i] = tc
	}
	return ts
}

// fields converts decoded values; no values is nil Fields, which is also
// what reading "{}" back gives, so a trace survives a JSON round trip.
func fields(vs []model.Value) Fields {
	if len(vs) == 0 {
		return nil
	}
	fs := make(Fields, len(vs))
	for i, v := range vs {
		if v.Enum {
			fs[i] = Field{Name: v.Name, Value: v.Text, Quoted: true}
		} else {
			fs[i] = Field{Name: v.Name, Value: strconv.Itoa(v.Int)}
		}
	}
	return fs
}

// WriteTraceJSON writes t as indented JSON.
func WriteTraceJSON(w io.Writer, t *Trace) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(t)
}

// MaxTraceBytes is the largest trace ReadTrace and ReadTraceFile read:
// 256 MiB, about fifty times a trace of 1000 steps (simulate's default)
// on the largest instances, at about 5 KiB a step.
const MaxTraceBytes = 256 << 20

// ReadTrace parses a trace and checks that it is one: a spec, a property,
// a kind of path or lasso, at least one state, and as many steps as the kind
// requires. A JSON error says at which line and column; more than
// MaxTraceBytes is an error.
func ReadTrace(r io.Reader) (*Trace, error) {
	data, err := input.ReadAll(r, "the trace", MaxTraceBytes, "a trace")
	if err != nil {
		return nil, err
	}
	t, line, col, err := readTrace(bytes.NewReader(data))
	if err != nil && line > 0 {
		return nil, fmt.Errorf("not a ringcheck trace: line %d, column %d: %w", line, col, err)
	}
	if err != nil {
		return nil, fmt.Errorf("not a ringcheck trace: %w", err)
	}
	return t, nil
}

// ReadTraceFile is ReadTrace on the file at path; its errors name the
// file, and a JSON error its line and column (path:line:col).
func ReadTraceFile(path string) (*Trace, error) {
	data, err := input.ReadFile(path, MaxTraceBytes, "a trace")
	if err != nil {
		return nil, err
	}
	t, line, col, err := readTrace(bytes.NewReader(data))
	if err != nil && line > 0 {
		return nil, fmt.Errorf("%s:%d:%d: not a ringcheck trace: %w", path, line, col, err)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: not a ringcheck trace: %w", path, err)
	}
	return t, nil
}

// readTrace decodes and validates a trace; for an error in the JSON, it
// also gives the line and column (from 1) where the decoder stopped.
func readTrace(r io.Reader) (t *Trace, line, col int, err error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, 0, 0, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	// The schema allows no other field (additionalProperties false).
	dec.DisallowUnknownFields()
	t = &Trace{}
	if err := dec.Decode(t); err != nil {
		var (
			syntax   *json.SyntaxError
			mismatch *json.UnmarshalTypeError
		)
		switch {
		case errors.Is(err, io.EOF):
			return nil, 0, 0, errors.New("the file is empty")
		case errors.As(err, &syntax):
			// The decoder read the offending byte.
			line, col = position(data, syntax.Offset-1)
			return nil, line, col, errors.New(syntax.Error())
		case errors.As(err, &mismatch):
			line, col = position(data, mismatch.Offset)
			what := "the trace"
			if mismatch.Field != "" {
				what = strconv.Quote(mismatch.Field)
			}
			return nil, line, col, fmt.Errorf("%s holds %s where %s is wanted", what, jsonValueKind(mismatch.Value), jsonKind(mismatch.Type))
		case errors.Is(err, io.ErrUnexpectedEOF):
			line, col = position(data, int64(len(data)))
			return nil, line, col, errors.New("the JSON ends before the trace does")
		}
		if strings.HasPrefix(err.Error(), "json: unknown field ") {
			if name, at, found := unknownField(data); found {
				line, col = position(data, at)
				return nil, line, col, fmt.Errorf("unknown field %q (the trace format has no such field)", name)
			}
		}
		return nil, 0, 0, err
	}
	if dec.More() {
		line, col = position(data, dec.InputOffset())
		return nil, line, col, errors.New("more data after the trace object")
	}
	// The decoder takes "Spec" for "spec"; the format does not.
	if name, at, found := unknownField(data); found {
		line, col = position(data, at)
		return nil, line, col, fmt.Errorf("unknown field %q (the trace format has no such field)", name)
	}
	if err := t.Validate(); err != nil {
		return nil, 0, 0, err
	}
	return t, 0, 0, nil
}

// unknownField returns the first key of an object of the trace format in
// data, a JSON document the decoder has read, that is not one of the
// object's fields as the format spells them (encoding/json also takes
// "Spec" for "spec"), and its offset. The keys of "params", "vars" and
// "fields" are the spec's names, and any will do.
func unknownField(data []byte) (name string, at int64, found bool) {
	type frame struct {
		object, wantKey bool
		// fields: the fields of the format's object (nil for names);
		// elem: the element type of an array of the format's objects.
		fields map[string]reflect.Type
		elem   reflect.Type
		key    string
	}
	// objectOf is the format's object a value of type t is, if it is one.
	objectOf := func(t reflect.Type) map[string]reflect.Type {
		for t != nil && t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t == nil || t.Kind() != reflect.Struct {
			return nil
		}
		fs := map[string]reflect.Type{}
		for i := range t.NumField() {
			if tag, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); tag != "" && tag != "-" {
				fs[tag] = t.Field(i).Type
			}
		}
		return fs
	}
	var stack []frame
	valueDone := func() {
		if n := len(stack); n > 0 && stack[n-1].object {
			stack[n-1].wantKey = true
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := dec.Token()
		if err != nil {
			return "", 0, false
		}
		var top *frame
		// value is the type of the value tok starts, when known.
		var value reflect.Type
		if n := len(stack); n > 0 {
			top = &stack[n-1]
			if top.object {
				value = top.fields[top.key]
			} else {
				value = top.elem
			}
		} else {
			value = reflect.TypeFor[Trace]()
		}
		if key, ok := tok.(string); ok && top != nil && top.object && top.wantKey {
			if _, known := top.fields[key]; !known && top.fields != nil {
				quoted, _ := json.Marshal(key)
				return key, max(dec.InputOffset()-int64(len(quoted)), 0), true
			}
			top.key, top.wantKey = key, false
			continue
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, frame{object: true, wantKey: true, fields: objectOf(value)})
		case json.Delim('['):
			var elem reflect.Type
			if value != nil && value.Kind() == reflect.Slice {
				elem = value.Elem()
			}
			stack = append(stack, frame{elem: elem})
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
			valueDone()
		default:
			valueDone()
		}
	}
}

// position is the line and column (from 1, in bytes) of offset in data.
func position(data []byte, offset int64) (line, col int) {
	offset = min(max(offset, 0), int64(len(data)))
	before := data[:offset]
	line = 1 + bytes.Count(before, []byte("\n"))
	return line, int(offset) - (bytes.LastIndexByte(before, '\n') + 1) + 1
}

// jsonKind names the JSON value a Go type decodes from.
func jsonKind(t reflect.Type) string {
	if t == nil {
		return "another value"
	}
	switch t.Kind() {
	case reflect.Pointer:
		return jsonKind(t.Elem())
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return "another value"
}

// jsonValueKind names the kind of JSON value the decoder met, as
// json.UnmarshalTypeError's Value has it ("number 1.5" names a number).
func jsonValueKind(v string) string {
	switch v {
	case "string":
		return "a string"
	case "bool":
		return "true or false"
	case "array", "object":
		return "an " + v
	}
	if strings.HasPrefix(v, "number") {
		return "a number"
	}
	return v
}

// Configuration returns state index of the trace (negative counts from
// the end: -1 is the last) as a configuration of sys, which must have the
// variables, messages and domains the trace names.
func (t *Trace) Configuration(sys *model.System, index int) (*model.State, error) {
	i := index
	if i < 0 {
		i += len(t.States)
	}
	if i < 0 || i >= len(t.States) {
		return nil, fmt.Errorf("the trace has states 0..%d; %d is not one of them", len(t.States)-1, index)
	}
	snap, err := t.States[i].Snapshot()
	if err != nil {
		return nil, fmt.Errorf("state %d: %w", i, err)
	}
	st, err := sys.Encode(snap)
	if err != nil {
		return nil, fmt.Errorf("state %d: %w", i, err)
	}
	return st, nil
}

// TraceProperties lists the properties a trace may be about: those of
// the CLI contract, and "stabilization" for a witness that violates
// nothing (the worst case of convergence, or a run in rounds).
func TraceProperties() []string {
	var ps []string
	for _, p := range invariants.KnownProperties() {
		ps = append(ps, string(p))
	}
	return append(ps, witnessProperty)
}

// fairnessQualifies reports whether a trace of property p is about
// executions that a fairness assumption restricts.
func fairnessQualifies(p string) bool {
	switch invariants.Property(p) {
	case invariants.Starvation, invariants.LeadsToProperty, invariants.Convergence:
		return true
	}
	return false
}

// Validate checks the trace's shape and the values of its fields.
func (t *Trace) Validate() error {
	switch {
	case t.Spec == "":
		return errors.New(`no "spec"`)
	case t.Property == "":
		return errors.New(`no "property"`)
	case len(t.States) == 0:
		return errors.New(`no "states"`)
	}
	if t.Links != "" && t.Links != ReliableLinks {
		return fmt.Errorf(`"links" %q is not %q`, t.Links, ReliableLinks)
	}
	if !slices.Contains(TraceProperties(), t.Property) {
		return fmt.Errorf(`"property" %q is not one of %s`, t.Property, strings.Join(TraceProperties(), ", "))
	}
	if t.Fairness != "" {
		if _, err := invariants.ParseFairness(t.Fairness); err != nil {
			return fmt.Errorf(`"fairness": %w`, err)
		}
		if !fairnessQualifies(t.Property) {
			return fmt.Errorf(`"fairness" qualifies a trace of starvation, leads-to or convergence, not of %s`, t.Property)
		}
	}
	if t.Invariant != "" && t.Property != string(invariants.Safety) {
		return fmt.Errorf(`"invariant" names what a trace of safety violates; this is a trace of %s`, t.Property)
	}
	want := len(t.States) - 1
	switch t.Kind {
	case string(invariants.Path):
		if t.LoopStart != nil {
			return errors.New(`a path has no "loop_start"`)
		}
	case string(invariants.Lasso):
		if t.LoopStart == nil || *t.LoopStart < 0 || *t.LoopStart >= len(t.States) {
			return errors.New(`a lasso needs a "loop_start" that indexes its states`)
		}
		want++
	default:
		return fmt.Errorf(`"kind" %q is not path or lasso`, t.Kind)
	}
	if len(t.Steps) != want {
		return fmt.Errorf("a %s of %d states has %d steps, not %d", t.Kind, len(t.States), len(t.Steps), want)
	}
	shape := t.States[0]
	for i, s := range t.States {
		if len(s.Processes) != len(shape.Processes) || len(s.Channels) != len(shape.Channels) {
			return fmt.Errorf("state %d has a different number of processes or channels than state 0", i)
		}
		for j, p := range s.Processes {
			if p.ID != j {
				return fmt.Errorf("state %d: process %d has id %d", i, j, p.ID)
			}
		}
	}
	switch t.Start {
	case "", "fault", "random", "given", "all", "empty-channels", "start":
	default:
		return fmt.Errorf(`"start" %q is not fault, random, given, all, empty-channels or start`, t.Start)
	}
	if t.Process != nil && (*t.Process < 0 || *t.Process >= len(shape.Processes)) {
		return fmt.Errorf(`"process" %d does not exist`, *t.Process)
	}
	for i, s := range t.Steps {
		if len(s.Processes) == 0 || s.Action == "" {
			return fmt.Errorf("step %d names no process or no action", i)
		}
		for _, p := range s.Processes {
			if p < 0 || p >= len(shape.Processes) {
				return fmt.Errorf("step %d names process %d, which does not exist", i, p)
			}
		}
	}
	for r, end := range t.RoundEnds {
		if end < 0 || end > len(t.Steps) || r > 0 && end < t.RoundEnds[r-1] {
			return fmt.Errorf(`"round_ends": round %d ends after step %d, out of order or beyond the %d steps`, r+1, end, len(t.Steps))
		}
	}
	if t.Order != "" && len(t.RoundEnds) == 0 {
		return errors.New(`"order" belongs to an execution in rounds, with "round_ends"`)
	}
	if n := len(t.RoundEnds); n > 0 && (t.Kind != string(invariants.Path) || t.RoundEnds[n-1] != len(t.Steps)) {
		return errors.New(`"round_ends" belong to a path, and the last round ends after its last step`)
	}
	return nil
}
