package invariants

import (
	"fmt"
	"strings"
	"time"

	"github.com/ringcheck/ringcheck/budget"
	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/fields"
)

// Shard selects the random samples one of several runs decides (FromRandom
// only): sample i belongs to shard i mod Count, and this run is shard
// Index. The zero value (Count 0) is every sample.
type Shard struct {
	Index, Count int
}

// Owns reports whether sample (or sweep value) i belongs to the shard.
func (s Shard) Owns(i int) bool { return s.Count == 0 || i%s.Count == s.Index }

// String is the shard as "i/K", as `check --shard` reads it.
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// validate checks that the shard is one of its Count.
func (s Shard) validate() error {
	switch {
	case s.Count < 0:
		return fields.Errorf("{Shard.Count} must not be negative")
	case s.Count > 0 && (s.Index < 0 || s.Index >= s.Count):
		return fields.Errorf("{Shard.Index} %d is not one of 0..%d", s.Index, s.Count-1)
	case s.Count == 0 && s.Index != 0:
		return fields.Errorf("{Shard.Index} needs {Shard.Count}")
	}
	return nil
}

// SampleKind is what the search from one random configuration decided, as
// the fold over the samples reads it.
type SampleKind string

// The kinds of samples.
const (
	// SampleViolated: convergence is violated from the sample; the check
	// ends there.
	SampleViolated SampleKind = "violated"
	// SampleTooLarge: more states are reachable than the bound on states.
	SampleTooLarge SampleKind = "too-large"
	// SampleStopped: a bound (time, memory, Ctrl-C) stopped the search or
	// its analysis; the check ends there.
	SampleStopped SampleKind = "stopped"
	// SampleLeftModel: a faulty step is reachable from the sample.
	SampleLeftModel SampleKind = "left-model"
	// SampleDecided: every execution from the sample reaches L.
	SampleDecided SampleKind = "decided"
)

// Sample is what the search from random configuration Index found: its
// figures, its kind, and the reason of its verdict. It is all FoldSamples
// needs, so the samples of a check run in several shards can be combined
// into the report of one run over them all.
type Sample struct {
	Index               int                `json:"index"`
	Kind                SampleKind         `json:"kind"`
	Reason              string             `json:"reason"`
	States              int64              `json:"states"`
	Transitions         int64              `json:"transitions"`
	DistinctTransitions int64              `json:"distinct_transitions"`
	MaxDepth            int                `json:"max_depth"`
	Nanoseconds         int64              `json:"nanoseconds"`
	StoreBytes          int64              `json:"store_bytes"`
	Stop                explore.StopReason `json:"stop"`
	Exceeded            *budget.Exceeded   `json:"exceeded,omitempty"`
}

// ends reports whether the check over the samples ends at this one.
func (s Sample) ends() bool { return s.Kind == SampleViolated || s.Kind == SampleStopped }

// newSample records the report of the search from sample i.
func newSample(i int, rep *Report) Sample {
	res := rep.Search
	o := rep.Outcomes[0]
	s := Sample{
		Index: i, Reason: o.Reason,
		States: res.States, Transitions: res.Transitions, DistinctTransitions: res.DistinctTransitions,
		MaxDepth: res.MaxDepth, Nanoseconds: int64(res.Elapsed), StoreBytes: res.StoreBytes,
		Stop: res.Stop, Exceeded: res.Exceeded,
	}
	switch {
	case o.Verdict == Violated:
		s.Kind = SampleViolated
	case res.Stop == explore.StateBound:
		s.Kind = SampleTooLarge
	case !res.Complete():
		s.Kind = SampleStopped
	case rep.leftModel:
		s.Kind = SampleLeftModel
	default:
		s.Kind = SampleDecided
	}
	return s
}

// SampleSet is what the report over random samples says of them: how
// many, the seed, the bound on a channel's messages (0: none) and the
// fairness.
type SampleSet struct {
	Samples  int      `json:"samples"`
	Seed     uint64   `json:"seed"`
	Fill     int      `json:"fill,omitempty"`
	Fairness Fairness `json:"fairness,omitempty"`
}

// SampleSetOf is the sample set of opts (FromRandom).
func SampleSetOf(opts Options) SampleSet {
	return SampleSet{Samples: opts.Samples, Seed: opts.Seed, Fill: opts.Fill, Fairness: opts.Fairness}
}

// violationReason is the reason of the verdict of a check from random
// configurations that sample s violates.
func (set SampleSet) violationReason(s Sample) string {
	return fmt.Sprintf("from random configuration %d (seed %d), %s", s.Index, set.Seed, strings.TrimPrefix(s.Reason, "from a given configuration, "))
}

// FoldSamples combines samples, the searches from random configurations in
// the order of their indexes, into the report of a check from set: the
// first violated sample decides convergence, and the report is then that
// sample's figures and its outcome (without its counterexample, which the
// sample's own report holds), with true; the first stopped one ends the
// check unknown; otherwise the verdict is unknown, with the samples that
// decided nothing counted. The figures add up the samples' (the largest
// depth and store).
func FoldSamples(set SampleSet, samples []Sample) (*Report, bool) {
	total := &explore.Result{Stop: explore.Exhausted}
	largest, tooLarge, leftModel := int64(0), 0, 0
	for _, s := range samples {
		if s.Kind == SampleViolated {
			res := &explore.Result{States: s.States, Transitions: s.Transitions, DistinctTransitions: s.DistinctTransitions,
				MaxDepth: s.MaxDepth, Elapsed: time.Duration(s.Nanoseconds), StoreBytes: s.StoreBytes, Stop: s.Stop, Exceeded: s.Exceeded}
			o := Outcome{Property: Convergence, Verdict: Violated, Reason: set.violationReason(s)}
			return &Report{Search: res, Outcomes: []Outcome{o}}, true
		}
		total.States += s.States
		total.Transitions += s.Transitions
		if total.DistinctTransitions >= 0 && s.DistinctTransitions >= 0 {
			total.DistinctTransitions += s.DistinctTransitions
		} else {
			total.DistinctTransitions = -1
		}
		total.Elapsed += time.Duration(s.Nanoseconds)
		total.MaxDepth = max(total.MaxDepth, s.MaxDepth)
		total.StoreBytes = max(total.StoreBytes, s.StoreBytes)
		switch s.Kind {
		case SampleTooLarge:
			tooLarge++
		case SampleStopped:
			total.Stop, total.Exceeded = s.Stop, s.Exceeded
			o := Outcome{Property: Convergence, Verdict: Unknown,
				Reason: fmt.Sprintf("%s, at random configuration %d of %d (seed %d)", s.Reason, s.Index, set.Samples, set.Seed)}
			return &Report{Search: total, Outcomes: []Outcome{o}}, false
		case SampleLeftModel:
			leftModel++
		default:
			largest = max(largest, s.States)
		}
	}
	fairness := set.Fairness
	if fairness == "" {
		fairness = NoFairness
	}
	decided := set.Samples - tooLarge - leftModel
	drawn := "random configurations"
	if set.Fill > 0 {
		drawn = fmt.Sprintf("random configurations of at most %d message%s a channel", set.Fill, plural(set.Fill))
	}
	reasons := make([]string, 0, 3)
	if decided > 0 {
		reasons = append(reasons, fmt.Sprintf("every execution from each of %d %s (seed %d) reaches L (fairness %s, %d states from the largest); convergence is about every configuration",
			decided, drawn, set.Seed, fairness, largest))
	} else {
		reasons = append(reasons, fmt.Sprintf("none of %d %s (seed %d) decided anything", set.Samples, drawn, set.Seed))
	}
	more := ""
	if decided > 0 {
		more = " more"
	}
	if tooLarge > 0 {
		reasons = append(reasons, fmt.Sprintf("from %d%s, more states are reachable than the bound on states allows", tooLarge, more))
		total.Stop = explore.StateBound
	}
	if leftModel > 0 {
		reasons = append(reasons, fmt.Sprintf("from %d%s, a step %s, so they decide nothing", leftModel, more, faultyStep))
	}
	o := Outcome{Property: Convergence, Verdict: Unknown, Reason: strings.Join(reasons, "; ")}
	return &Report{Search: total, Outcomes: []Outcome{o}}, false
}
