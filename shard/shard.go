// Package shard splits a check that is a loop of independent runs (the
// values of a sweep, the samples of a check from random configurations)
// into shards, records what one shard found as a partial result, and
// merges the partial results of every shard into the report one run over
// all of them gives.
package shard

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ringcheck/ringcheck/invariants"
)

// IndexVariable is the environment variable in which a Kubernetes Indexed
// Job gives each of its pods its index; a shard given as auto/K reads its
// index from it.
const IndexVariable = "JOB_COMPLETION_INDEX"

// MaxShards is the most shards a run is split into.
const MaxShards = 10000

// Shard is one of Count shards of a run: the values (or samples) whose
// position k in the run has k mod Count == Index. It is the engine's
// selection of random samples (invariants.Shard), which a sweep's values
// follow too.
type Shard = invariants.Shard

// Parse reads a shard given as "i/K" (0 ≤ i < K) or "auto/K", whose index
// getenv(IndexVariable) gives (as in a pod of a Kubernetes Indexed Job).
func Parse(s string, getenv func(string) string) (Shard, error) {
	is, ks, ok := strings.Cut(s, "/")
	if !ok {
		return Shard{}, fmt.Errorf("%q is not of the form i/K or auto/K", s)
	}
	k, err := strconv.Atoi(ks)
	if err != nil || k < 1 || k > MaxShards {
		return Shard{}, fmt.Errorf("%q: the number of shards K must be an integer from 1 to %d", s, MaxShards)
	}
	if is == "auto" {
		env := getenv(IndexVariable)
		if env == "" {
			return Shard{}, fmt.Errorf("%q: auto reads the shard's index from %s, which is not set (it is in the pods of a Kubernetes Indexed Job)", s, IndexVariable)
		}
		i, err := strconv.Atoi(env)
		if err != nil || i < 0 || i >= k {
			return Shard{}, fmt.Errorf("%q: %s=%q is not an index from 0 to %d", s, IndexVariable, env, k-1)
		}
		return Shard{Index: i, Count: k}, nil
	}
	i, err := strconv.Atoi(is)
	if err != nil || i < 0 || i >= k {
		return Shard{}, fmt.Errorf("%q: the index i must be an integer from 0 to %d", s, k-1)
	}
	return Shard{Index: i, Count: k}, nil
}
