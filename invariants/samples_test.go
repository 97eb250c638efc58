package invariants_test

import (
	"context"
	"slices"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
)

// TestShardedSamples: the samples of a check from random configurations,
// run in K shards (sample i in shard i mod K) and folded in the order of
// their indexes, give the report of one run over them all: the same
// verdict, reason and figures (the time aside), for violated, unknown and
// bounded checks.
func TestShardedSamples(t *testing.T) {
	check := func(sys *model.System, opts invariants.Options) *invariants.Report {
		t.Helper()
		rep, err := invariants.Check(context.Background(), sys, opts)
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	compare := func(name string, sys *model.System, opts invariants.Options) {
		t.Helper()
		whole := check(sys, opts)
		if whole.Samples != nil {
			t.Fatalf("%s: a run that is no shard records its samples", name)
		}
		for _, count := range []int{1, 3, 4} {
			var samples []invariants.Sample
			for i := range count {
				one := opts
				one.Shard = invariants.Shard{Index: i, Count: count}
				part := check(sys, one)
				for _, s := range part.Samples {
					if s.Index%count != i {
						t.Fatalf("%s: shard %d of %d ran sample %d", name, i, count, s.Index)
					}
				}
				samples = append(samples, part.Samples...)
			}
			slices.SortFunc(samples, func(a, b invariants.Sample) int { return a.Index - b.Index })
			var run []invariants.Sample
			for k, s := range samples {
				if s.Index != k {
					t.Fatalf("%s, %d shards: sample %d is missing", name, count, k)
				}
				run = append(run, s)
				if s.Kind == invariants.SampleViolated || s.Kind == invariants.SampleStopped {
					break
				}
			}
			got, violated := invariants.FoldSamples(invariants.SampleSetOf(opts), run)
			if violated != whole.Violated() {
				t.Fatalf("%s, %d shards: violated %v, one run %v", name, count, violated, whole.Violated())
			}
			g, w := got.Search, whole.Search
			if g.States != w.States || g.Transitions != w.Transitions || g.DistinctTransitions != w.DistinctTransitions ||
				g.MaxDepth != w.MaxDepth || g.Stop != w.Stop || g.StoreBytes != w.StoreBytes {
				t.Errorf("%s, %d shards: figures %+v, one run %+v", name, count, *g, *w)
			}
			if go_, wo := got.Outcomes[0], whole.Outcomes[0]; go_.Verdict != wo.Verdict || go_.Reason != wo.Reason {
				t.Errorf("%s, %d shards: %s (%s), one run %s (%s)", name, count, go_.Verdict, go_.Reason, wo.Verdict, wo.Reason)
			}
		}
	}
	forEachSpinner(t, func(sys *model.System, guarded bool, fairness invariants.Fairness, _ *invariants.Report) {
		compare("spinner", sys, invariants.Options{
			Properties: []invariants.Property{invariants.Convergence}, From: invariants.FromRandom,
			Samples: 9, Seed: 5, Fairness: fairness,
		})
	})
	compare("bounded", spinner(t, false), invariants.Options{
		Properties: []invariants.Property{invariants.Convergence}, From: invariants.FromRandom,
		Samples: 7, Seed: 3, Fairness: invariants.WeakFairness, Search: explore.Options{MaxStates: 1},
	})
}

// TestShardOptions: a shard applies to a check from random configurations
// only, and is one of its count.
func TestShardOptions(t *testing.T) {
	sys := spinner(t, false)
	for _, tc := range []struct {
		opts invariants.Options
		want string
	}{
		{invariants.Options{Properties: []invariants.Property{invariants.Convergence}, From: invariants.FromAll, Shard: invariants.Shard{Index: 0, Count: 2}},
			"Shard splits the samples of From random, not a check From all"},
		{invariants.Options{Properties: []invariants.Property{invariants.Convergence}, From: invariants.FromRandom, Samples: 3, Shard: invariants.Shard{Index: 2, Count: 2}},
			"Shard.Index 2 is not one of 0..1"},
		{invariants.Options{Properties: []invariants.Property{invariants.Convergence}, From: invariants.FromRandom, Samples: 3, Shard: invariants.Shard{Index: 1}},
			"Shard.Index needs Shard.Count"},
	} {
		err := tc.opts.Validate(sys)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%+v: %v, want %q", tc.opts.Shard, err, tc.want)
		}
	}
}
