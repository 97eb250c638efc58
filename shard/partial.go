package shard

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/ringcheck/ringcheck/internal/input"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/reports"
)

// Format names the partial result's format, in its "format" field.
const Format = "ringcheck-shard/1"

// MaxPartialBytes is the most Read reads of a partial result.
const MaxPartialBytes = 1 << 30

// Partial is what one shard of a run found: the shard, the run it is a
// shard of (Run, a fingerprint of the spec, its parameters and every
// option, the same in every shard of one run), whether it ran everything
// it owns (Complete: false when a bound or a signal ended it early), and
// its part of either a sweep or a check from random configurations.
type Partial struct {
	Format   string  `json:"format"`
	Shard    int     `json:"shard"`
	Shards   int     `json:"shards"`
	Run      string  `json:"run"`
	Complete bool    `json:"complete"`
	Sweep    *Sweep  `json:"sweep,omitempty"`
	Random   *Random `json:"random,omitempty"`
}

// Sweep is a shard's part of a sweep of Param over Lo..Hi: the rows of
// the values it owns (value v is at position v-Lo), in order.
type Sweep struct {
	Param string `json:"param"`
	Lo    int    `json:"lo"`
	Hi    int    `json:"hi"`
	Rows  []Row  `json:"rows"`
}

// Row is the check of one value of a sweep: its result as `check --json`
// prints it, and whether it violated a property or left one unknown
// (which the exit status reads).
type Row struct {
	Value    int                  `json:"value"`
	Violated bool                 `json:"violated,omitempty"`
	Unknown  bool                 `json:"unknown,omitempty"`
	Result   *reports.CheckResult `json:"result"`
}

// Random is a shard's part of a check from random configurations: the
// sample set, what each of the shard's samples found (in order, up to the
// first that ended the shard's run), and the shard's own report, whose
// options are the run's and whose counterexample is the one of a violated
// sample.
type Random struct {
	Set     invariants.SampleSet `json:"set"`
	Samples []invariants.Sample  `json:"samples"`
	Result  *reports.CheckResult `json:"result"`
}

// Write writes p as indented JSON.
func Write(w io.Writer, p *Partial) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(p)
}

// ReadFile reads the partial result in the file at path (at most
// MaxPartialBytes) and checks its fields; errors name the file, and the
// field or the line and column at fault.
func ReadFile(path string) (*Partial, error) {
	data, err := input.ReadFile(path, MaxPartialBytes, "a partial result")
	if err != nil {
		return nil, err
	}
	return Decode(path, data)
}

// Decode reads a partial result from data, read from the file name, and
// checks its fields.
func Decode(name string, data []byte) (*Partial, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var p Partial
	if err := dec.Decode(&p); err != nil {
		var syn *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syn):
			// Offset counts the bytes read, the one at fault included.
			line, col := position(data, syn.Offset-1)
			return nil, fmt.Errorf("%s:%d:%d: %v", name, line, col, syn)
		case errors.As(err, &typ):
			// Offset is just past the value at fault.
			line, col := position(data, typ.Offset)
			return nil, fmt.Errorf("%s:%d:%d: field %q: %s is not a %s", name, line, col, typ.Field, typ.Value, typ.Type)
		case errors.Is(err, io.EOF):
			return nil, fmt.Errorf("%s: empty: not a partial result of 'ringcheck check --shard'", name)
		}
		return nil, fmt.Errorf("%s: not a partial result of 'ringcheck check --shard': %w", name, err)
	}
	if err := p.validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &p, nil
}

// validate checks the fields a merge relies on.
func (p *Partial) validate() error {
	switch {
	case p.Format != Format:
		return fmt.Errorf("field \"format\" is %q, not %q: not a partial result of 'ringcheck check --shard'", p.Format, Format)
	case p.Shards < 1 || p.Shards > MaxShards:
		return fmt.Errorf("field \"shards\" is %d, not from 1 to %d", p.Shards, MaxShards)
	case p.Shard < 0 || p.Shard >= p.Shards:
		return fmt.Errorf("field \"shard\" is %d, not from 0 to %d (field \"shards\" is %d)", p.Shard, p.Shards-1, p.Shards)
	case p.Run == "":
		return fmt.Errorf("field \"run\" is empty")
	case (p.Sweep == nil) == (p.Random == nil):
		return fmt.Errorf("fields \"sweep\" and \"random\": exactly one must be present")
	case p.Sweep != nil && p.Sweep.Lo > p.Sweep.Hi:
		return fmt.Errorf("field \"sweep\": \"lo\" %d is above \"hi\" %d", p.Sweep.Lo, p.Sweep.Hi)
	case p.Random != nil && p.Random.Result == nil:
		return fmt.Errorf("field \"random\": \"result\" is missing")
	}
	if p.Sweep != nil {
		for i, r := range p.Sweep.Rows {
			if r.Result == nil {
				return fmt.Errorf("field \"sweep\": row %d has no \"result\"", i)
			}
		}
	}
	return nil
}

// position is the line and column (from 1, in bytes) of offset in data.
func position(data []byte, offset int64) (int, int) {
	offset = min(max(offset, 0), int64(len(data)))
	before := data[:offset]
	line := bytes.Count(before, []byte("\n")) + 1
	col := len(before) - bytes.LastIndexByte(before, '\n')
	return line, col
}
