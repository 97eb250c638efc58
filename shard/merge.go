package shard

import (
	"fmt"
	"io"
	"slices"

	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/reports"
)

// File is a partial result and the name of the file it was read from.
type File struct {
	Name    string
	Partial *Partial
}

// Report is the report one run over every shard gives: a sweep's rows
// (Param set), or the result of a check from random configurations
// (Check set); Violated and Unknown give its exit status.
type Report struct {
	Param             string
	Rows              []reports.SweepRow
	Check             *reports.CheckResult
	Violated, Unknown bool
}

// WriteText writes the report as `check` prints it.
func (r *Report) WriteText(w io.Writer) error {
	if r.Check != nil {
		return reports.WriteCheckText(w, r.Check)
	}
	return reports.WriteSweepText(w, r.Param, r.Rows)
}

// WriteJSON writes the report as `check --json` prints it.
func (r *Report) WriteJSON(w io.Writer) error {
	if r.Check != nil {
		return reports.WriteCheckJSON(w, r.Check)
	}
	return reports.WriteSweepJSON(w, r.Rows)
}

// Merge checks that files are every shard of one run, each once, and
// combines them into the report of the run over all of them. The figures
// that depend on the clock or the machine are defined as one run's would
// be where the run adds them up (a sweep row's seconds are its own, a
// check from random configurations adds up its samples'), and the peak
// heap is the largest of the shards'.
func Merge(files []File) (*Report, error) {
	if len(files) == 0 {
		return nil, fmt.Errorf("no partial result to merge")
	}
	first := files[0]
	byIndex := make([]*File, first.Partial.Shards)
	for i := range files {
		f := &files[i]
		p := f.Partial
		switch {
		case p.Run != first.Partial.Run:
			return nil, fmt.Errorf("%s and %s are shards of different runs (field \"run\": %s and %s): merge the shards of one run", first.Name, f.Name, first.Partial.Run, p.Run)
		case p.Shards != first.Partial.Shards:
			return nil, fmt.Errorf("%s and %s split the run into different numbers of shards (field \"shards\": %d and %d)", first.Name, f.Name, first.Partial.Shards, p.Shards)
		case byIndex[p.Shard] != nil:
			return nil, fmt.Errorf("%s and %s are both shard %d of %d (field \"shard\"): give each shard once", byIndex[p.Shard].Name, f.Name, p.Shard, p.Shards)
		}
		byIndex[p.Shard] = f
	}
	var missing []int
	for i, f := range byIndex {
		if f == nil {
			missing = append(missing, i)
		}
	}
	if len(missing) > 0 {
		verb := "is"
		if len(missing) > 1 {
			verb = "are"
		}
		return nil, fmt.Errorf("shard%s %s of %d %s missing: a merge needs every shard of the run", pluralS(len(missing)), listInts(missing), len(byIndex), verb)
	}
	if first.Partial.Sweep != nil {
		return mergeSweep(byIndex)
	}
	return mergeRandom(byIndex)
}

// mergeSweep puts the rows of every shard in the order of their values.
func mergeSweep(shards []*File) (*Report, error) {
	sw := shards[0].Partial.Sweep
	count := len(shards)
	rows := make([]*Row, sw.Hi-sw.Lo+1)
	for _, f := range shards {
		s := f.Partial.Sweep
		if s == nil || s.Param != sw.Param || s.Lo != sw.Lo || s.Hi != sw.Hi {
			return nil, fmt.Errorf("%s: field \"sweep\" is not the sweep of %s (%s=%d..%d)", f.Name, shards[0].Name, sw.Param, sw.Lo, sw.Hi)
		}
		for i := range s.Rows {
			r := &s.Rows[i]
			k := r.Value - sw.Lo
			switch {
			case r.Value < sw.Lo || r.Value > sw.Hi:
				return nil, fmt.Errorf("%s: field \"sweep\": row %s=%d is outside %d..%d", f.Name, sw.Param, r.Value, sw.Lo, sw.Hi)
			case !(Shard{Index: f.Partial.Shard, Count: count}).Owns(k):
				return nil, fmt.Errorf("%s: field \"sweep\": row %s=%d belongs to shard %d, not %d", f.Name, sw.Param, r.Value, k%count, f.Partial.Shard)
			case rows[k] != nil:
				return nil, fmt.Errorf("%s: field \"sweep\": row %s=%d is given twice", f.Name, sw.Param, r.Value)
			}
			rows[k] = r
		}
	}
	rep := &Report{Param: sw.Param}
	for k, r := range rows {
		if r == nil {
			owner := shards[k%count]
			if owner.Partial.Complete {
				return nil, fmt.Errorf("%s: field \"sweep\": the row of %s=%d is missing although field \"complete\" is true", owner.Name, sw.Param, sw.Lo+k)
			}
			// The shard was stopped before this value, as one run
			// stopped there would have been: its rows end here.
			rep.Unknown = true
			break
		}
		rep.Rows = append(rep.Rows, reports.SweepRow{Value: r.Value, Result: r.Result})
		rep.Violated = rep.Violated || r.Violated
		rep.Unknown = rep.Unknown || r.Unknown
	}
	if !slices.ContainsFunc(rep.Rows, func(r reports.SweepRow) bool { return r.Result.Skipped == "" }) {
		return nil, fmt.Errorf("%s: no value of the sweep was checked", shards[0].Name)
	}
	return rep, nil
}

// mergeRandom folds the samples of every shard in the order of their
// indexes, as one run over them all does.
func mergeRandom(shards []*File) (*Report, error) {
	set := shards[0].Partial.Random.Set
	count := len(shards)
	samples := make([]*invariants.Sample, set.Samples)
	var peak uint64
	for _, f := range shards {
		r := f.Partial.Random
		if r == nil || r.Set != set {
			return nil, fmt.Errorf("%s: field \"random\": its sample set is not the one of %s", f.Name, shards[0].Name)
		}
		peak = max(peak, r.Result.Stats.PeakHeapBytes)
		for i := range r.Samples {
			s := &r.Samples[i]
			switch {
			case s.Index < 0 || s.Index >= set.Samples:
				return nil, fmt.Errorf("%s: field \"random\": sample %d is not one of the %d samples", f.Name, s.Index, set.Samples)
			case !(Shard{Index: f.Partial.Shard, Count: count}).Owns(s.Index):
				return nil, fmt.Errorf("%s: field \"random\": sample %d belongs to shard %d, not %d", f.Name, s.Index, s.Index%count, f.Partial.Shard)
			case samples[s.Index] != nil:
				return nil, fmt.Errorf("%s: field \"random\": sample %d is given twice", f.Name, s.Index)
			}
			samples[s.Index] = s
		}
	}
	var run []invariants.Sample
	for i, s := range samples {
		if s == nil {
			owner := shards[i%count]
			if owner.Partial.Complete {
				return nil, fmt.Errorf("%s: field \"random\": sample %d is missing although field \"complete\" is true", owner.Name, i)
			}
			return nil, fmt.Errorf("%s: field \"random\": the shard stopped before sample %d, which the run needs", owner.Name, i)
		}
		run = append(run, *s)
		if s.Kind == invariants.SampleViolated || s.Kind == invariants.SampleStopped {
			break
		}
	}
	folded, violated := invariants.FoldSamples(set, run)
	if violated {
		// The shard that found the violation reported it as one run does,
		// its counterexample included.
		owner := shards[run[len(run)-1].Index%count]
		result := *owner.Partial.Random.Result
		result.Stats.PeakHeapBytes = peak
		if i := slices.IndexFunc(result.Properties, func(p reports.PropertyResult) bool { return p.Verdict == string(invariants.Violated) }); i < 0 {
			return nil, fmt.Errorf("%s: field \"random\": sample %d is violated, but field \"result\" has no violation", owner.Name, run[len(run)-1].Index)
		}
		return &Report{Check: &result, Violated: true}, nil
	}
	head := shards[0].Partial.Random.Result
	result := reports.NewCheckResult(reports.Run{
		System: &model.System{Name: head.Spec}, Params: head.Params, Options: head.Options,
		Report: folded, PeakHeapBytes: peak,
	})
	return &Report{Check: result, Violated: folded.Violated(), Unknown: folded.Unknown()}, nil
}

func pluralS(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// listInts writes 1, 2 and 3.
func listInts(xs []int) string {
	out := ""
	for i, x := range xs {
		switch {
		case i == 0:
		case i == len(xs)-1:
			out += " and "
		default:
			out += ", "
		}
		out += fmt.Sprint(x)
	}
	return out
}
