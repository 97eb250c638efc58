package ringcheck

import (
	"fmt"
	"time"

	"github.com/mitchellh/hashstructure/v2"

	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/specs"
)

// identity is what makes two checks the same check: the spec (and, for a
// spec read from a .ring file, the file's content hash), its resolved
// parameters and every choice that can change a verdict or a figure. The
// number of workers and the progress callback are not part of it: the
// engines' results do not depend on them.
type identity struct {
	Spec       string
	SpecFile   string
	Values     map[string]int
	Properties []invariants.Property
	From       invariants.From
	StartTrace string
	StartIndex int
	Samples    int
	Seed       uint64
	// Fill bounds the messages of a random configuration's channels.
	Fill      int
	Daemon    string
	Overflow  string
	Fairness  invariants.Fairness
	LeadsTo   invariants.LeadsTo
	MaxDepth  int
	MaxStates int64
	TimeLimit time.Duration
	// Fingerprints changes what a verdict of holds means.
	Fingerprints bool
	// SymbolicRounds adds the worst case in rounds to a symbolic check.
	SymbolicRounds bool
}

// key hashes the identity of a resolved request with hashstructure, as 16
// hex digits: the same check gives the same key in every run and on every
// machine. A start built by code (Start.Config) has no identity of its own
// beyond the request's other fields.
func (r *Request) key(values specs.Values, opts invariants.Options) (string, error) {
	id := identity{
		Spec: r.Spec.Name, SpecFile: r.Spec.FileHash, Values: values, Properties: opts.Properties, From: opts.From,
		Samples: opts.Samples, Seed: opts.Seed, Daemon: r.Daemon.String(),
		Fairness: opts.Fairness, LeadsTo: opts.LeadsTo,
		MaxDepth: r.MaxDepth, MaxStates: r.MaxStates, TimeLimit: r.TimeLimit,
		Fingerprints: r.Fingerprints, SymbolicRounds: r.SymbolicRounds,
	}
	if r.Start != nil {
		id.StartTrace, id.StartIndex = r.Start.Trace, r.Start.Index
	}
	id.Overflow = r.OverflowPolicy()
	id.Fill = opts.Fill
	h, err := hashstructure.Hash(id, hashstructure.FormatV2, nil)
	if err != nil {
		return "", fmt.Errorf("hashing the request: %w", err)
	}
	return fmt.Sprintf("%016x", h), nil
}
