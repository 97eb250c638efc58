package shard

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/reports"
)

var update = flag.Bool("update", false, "rewrite the golden files from the actual output")

func TestParse(t *testing.T) {
	env := func(v string) func(string) string {
		return func(name string) string {
			if name == IndexVariable {
				return v
			}
			return ""
		}
	}
	for _, tc := range []struct {
		in, env string
		want    Shard
		err     string
	}{
		{in: "0/4", want: Shard{Index: 0, Count: 4}},
		{in: "3/4", want: Shard{Index: 3, Count: 4}},
		{in: "0/1", want: Shard{Index: 0, Count: 1}},
		{in: "auto/4", env: "2", want: Shard{Index: 2, Count: 4}},
		{in: "auto/4", err: `"auto/4": auto reads the shard's index from JOB_COMPLETION_INDEX, which is not set`},
		{in: "auto/4", env: "4", err: `"auto/4": JOB_COMPLETION_INDEX="4" is not an index from 0 to 3`},
		{in: "auto/4", env: "x", err: `JOB_COMPLETION_INDEX="x" is not an index`},
		{in: "4/4", err: `"4/4": the index i must be an integer from 0 to 3`},
		{in: "-1/4", err: `the index i must be an integer from 0 to 3`},
		{in: "1/0", err: `"1/0": the number of shards K must be an integer from 1 to 10000`},
		{in: "1/x", err: `the number of shards K must be an integer`},
		{in: "2", err: `"2" is not of the form i/K or auto/K`},
		{in: "", err: `"" is not of the form i/K or auto/K`},
	} {
		got, err := Parse(tc.in, env(tc.env))
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("Parse(%q) with %q: error %v, want %q", tc.in, tc.env, err, tc.err)
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("Parse(%q) with %q: %v, %v, want %v", tc.in, tc.env, got, err, tc.want)
		}
	}
	if s := (Shard{Index: 1, Count: 4}); !s.Owns(5) || s.Owns(4) || s.String() != "1/4" {
		t.Errorf("shard 1/4: owns 5 %v, owns 4 %v, %s", s.Owns(5), s.Owns(4), s)
	}
}

// result is a check result as a shard records it.
func result(verdict, reason string, states int64) *reports.CheckResult {
	return &reports.CheckResult{
		Spec: "dijkstra", Params: map[string]int{"K": 3, "n": 5},
		Options:  reports.CheckOptions{From: "random", Daemon: "central", Fairness: "none", Workers: 2},
		Complete: true, Stop: "exhausted",
		Stats:      reports.Stats{States: states, Transitions: 2 * states, MaxDepth: 4, Seconds: 0.5, PeakHeapBytes: 1 << 20},
		Properties: []reports.PropertyResult{{Name: "convergence", Verdict: verdict, Reason: reason}},
	}
}

func sample(i int, kind invariants.SampleKind, states int64) invariants.Sample {
	return invariants.Sample{Index: i, Kind: kind, Reason: "from a given configuration, an execution never reaches L",
		States: states, Transitions: 2 * states, DistinctTransitions: 2 * states, MaxDepth: i, Nanoseconds: 1000, StoreBytes: 4096, Stop: explore.Exhausted}
}

func randomPartials(set invariants.SampleSet, count int, kinds map[int]invariants.SampleKind) []File {
	var files []File
	for s := range count {
		p := &Partial{Format: Format, Shard: s, Shards: count, Run: "0123456789abcdef", Complete: true,
			Random: &Random{Set: set, Result: result("unknown", "its own", 1)}}
		for i := s; i < set.Samples; i += count {
			kind := kinds[i]
			if kind == "" {
				kind = invariants.SampleDecided
			}
			p.Random.Samples = append(p.Random.Samples, sample(i, kind, int64(10+i)))
			if kind == invariants.SampleViolated {
				p.Random.Result = result("violated", "from random configuration 5 (seed 7), an execution never reaches L", 15)
				break
			}
		}
		files = append(files, File{Name: "r" + string(rune('0'+s)) + ".json", Partial: p})
	}
	return files
}

func sweepPartials(count int) []File {
	var files []File
	for s := range count {
		p := &Partial{Format: Format, Shard: s, Shards: count, Run: "fedcba9876543210", Complete: true,
			Sweep: &Sweep{Param: "K", Lo: 2, Hi: 6}}
		for v := 2 + s; v <= 6; v += count {
			r := result("holds", "", int64(v*v))
			r.Options.From = "all"
			r.Params = map[string]int{"K": v, "n": 4}
			p.Sweep.Rows = append(p.Sweep.Rows, Row{Value: v, Result: r})
		}
		files = append(files, File{Name: "s" + string(rune('0'+s)) + ".json", Partial: p})
	}
	return files
}

// golden compares got with the file testdata/name (rewritten with -update).
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs:\n%s", name, got)
	}
}

// TestPartialFormat pins the partial result's format with golden files,
// and reads each back to the same bytes.
func TestPartialFormat(t *testing.T) {
	set := invariants.SampleSet{Samples: 6, Seed: 7, Fairness: invariants.NoFairness}
	for name, p := range map[string]*Partial{
		"random.golden.json": randomPartials(set, 2, map[int]invariants.SampleKind{1: invariants.SampleTooLarge, 5: invariants.SampleViolated})[1].Partial,
		"sweep.golden.json":  sweepPartials(2)[0].Partial,
	} {
		var buf bytes.Buffer
		if err := Write(&buf, p); err != nil {
			t.Fatal(err)
		}
		golden(t, name, buf.Bytes())
		back, err := Decode(name, buf.Bytes())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var again bytes.Buffer
		if err := Write(&again, back); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(again.Bytes(), buf.Bytes()) {
			t.Errorf("%s does not read back to the same bytes:\n%s", name, again.Bytes())
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "p.json: empty: not a partial result of 'ringcheck check --shard'"},
		{"{\n  \"shard\": x\n}", "p.json:2:12: invalid character 'x' looking for beginning of value"},
		{"{\n  \"shard\": \"1\"\n}", `p.json:2:15: field "shard": string is not a int`},
		{`{"spec": "dijkstra"}`, `p.json: not a partial result of 'ringcheck check --shard': json: unknown field "spec"`},
		{`{"format": "x"}`, `p.json: field "format" is "x", not "ringcheck-shard/1": not a partial result of 'ringcheck check --shard'`},
		{`{"format": "ringcheck-shard/1", "shards": 0}`, `p.json: field "shards" is 0, not from 1 to 10000`},
		{`{"format": "ringcheck-shard/1", "shards": 2, "shard": 2}`, `p.json: field "shard" is 2, not from 0 to 1 (field "shards" is 2)`},
		{`{"format": "ringcheck-shard/1", "shards": 2, "shard": 1}`, `p.json: field "run" is empty`},
		{`{"format": "ringcheck-shard/1", "shards": 2, "shard": 1, "run": "a"}`, `p.json: fields "sweep" and "random": exactly one must be present`},
		{`{"format": "ringcheck-shard/1", "shards": 2, "shard": 1, "run": "a", "sweep": {"param": "K", "lo": 3, "hi": 2}}`, `p.json: field "sweep": "lo" 3 is above "hi" 2`},
		{`{"format": "ringcheck-shard/1", "shards": 2, "shard": 1, "run": "a", "random": {}}`, `p.json: field "random": "result" is missing`},
	} {
		_, err := Decode("p.json", []byte(tc.in))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q: %v, want %q", tc.in, err, tc.want)
		}
	}
}

func TestMergeRefuses(t *testing.T) {
	files := sweepPartials(4)
	other := sweepPartials(4)[2]
	other.Partial.Run = "0000000000000000"
	three := sweepPartials(3)
	for _, tc := range []struct {
		name  string
		files []File
		want  string
	}{
		{"missing", files[:3], "shard 3 of 4 is missing: a merge needs every shard of the run"},
		{"missing two", []File{files[0], files[2]}, "shards 1 and 3 of 4 are missing"},
		{"duplicated", []File{files[0], files[1], files[1], files[2], files[3]}, "s1.json and s1.json are both shard 1 of 4 (field \"shard\"): give each shard once"},
		{"other run", []File{files[0], files[1], other, files[3]}, "s0.json and s2.json are shards of different runs (field \"run\": fedcba9876543210 and 0000000000000000): merge the shards of one run"},
		{"other count", []File{files[0], three[1]}, "s0.json and s1.json split the run into different numbers of shards (field \"shards\": 4 and 3)"},
		{"none", nil, "no partial result to merge"},
	} {
		_, err := Merge(tc.files)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	// A row in the wrong shard, or a row missing from a complete shard.
	moved := sweepPartials(2)
	moved[0].Partial.Sweep.Rows[0].Value = 3
	if _, err := Merge(moved); err == nil || !strings.Contains(err.Error(), "row K=3 belongs to shard 1, not 0") {
		t.Errorf("a row in the wrong shard: %v", err)
	}
	short := sweepPartials(2)
	short[1].Partial.Sweep.Rows = short[1].Partial.Sweep.Rows[:1]
	if _, err := Merge(short); err == nil || !strings.Contains(err.Error(), `s1.json: field "sweep": the row of K=5 is missing although field "complete" is true`) {
		t.Errorf("a missing row: %v", err)
	}
	// A stopped shard's rows end the sweep, as one stopped run's would.
	short[1].Partial.Complete = false
	rep, err := Merge(short)
	if err != nil || len(rep.Rows) != 3 || !rep.Unknown {
		t.Errorf("a stopped shard: %v, %d rows, unknown %v", err, len(rep.Rows), rep != nil && rep.Unknown)
	}
}

// TestMergeRandom: the samples are folded in the order of their indexes,
// whatever the order of the files: the first violated or stopped sample
// ends the run.
func TestMergeRandom(t *testing.T) {
	set := invariants.SampleSet{Samples: 10, Seed: 7}
	rep, err := Merge(randomPartials(set, 4, nil))
	if err != nil {
		t.Fatal(err)
	}
	states := int64(0)
	for i := range 10 {
		states += int64(10 + i)
	}
	if c := rep.Check; c == nil || rep.Violated || !rep.Unknown || c.Stats.States != states || c.Stats.MaxDepth != 9 ||
		c.Properties[0].Reason != "every execution from each of 10 random configurations (seed 7) reaches L (fairness none, 19 states from the largest); convergence is about every configuration" {
		t.Fatalf("ten decided samples: %+v", rep.Check)
	}
	files := randomPartials(set, 4, map[int]invariants.SampleKind{5: invariants.SampleViolated})
	shuffled := []File{files[3], files[1], files[0], files[2]}
	rep, err = Merge(shuffled)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Violated || rep.Check.Properties[0].Verdict != "violated" || rep.Check.Stats.States != 15 {
		t.Fatalf("sample 5 violated: %+v", rep.Check)
	}
	// A stopped sample before the violated one ends the run first.
	files = randomPartials(set, 4, map[int]invariants.SampleKind{5: invariants.SampleViolated, 3: invariants.SampleStopped})
	rep, err = Merge(files)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Violated || !rep.Unknown || !strings.HasSuffix(rep.Check.Properties[0].Reason, ", at random configuration 3 of 10 (seed 7)") {
		t.Fatalf("sample 3 stopped: %+v", rep.Check.Properties[0])
	}
	// A sample missing from a complete shard.
	files = randomPartials(set, 4, nil)
	files[2].Partial.Random.Samples = files[2].Partial.Random.Samples[1:]
	if _, err := Merge(files); err == nil || err.Error() != `r2.json: field "random": sample 2 is missing although field "complete" is true` {
		t.Errorf("a missing sample: %v", err)
	}
	files = randomPartials(set, 4, nil)
	files[2].Partial.Random.Samples[0].Index = 3
	if _, err := Merge(files); err == nil || err.Error() != `r2.json: field "random": sample 3 belongs to shard 3, not 2` {
		t.Errorf("a sample in the wrong shard: %v", err)
	}
}
