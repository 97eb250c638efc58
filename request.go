// Package ringcheck is the front door of the checker: a Request names a
// spec, its parameters and everything a check may choose (properties,
// starting point, daemon, overflow policy, fairness, leads-to, bounds);
// Validate holds every rule on what may be combined, System builds the
// spec's model with the daemon and the overflow policy applied, and Run
// checks it.
//
// Errors about a request are *fields.Error values that name the Request's
// fields ({From}, {Start.Trace}, ...): a caller renders them in its own
// words, as the command line does with its flag names.
package ringcheck

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/ringcheck/ringcheck/budget"
	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/fields"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/reports"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/symbolic"
)

// DefaultSamples and DefaultSeed are the sample of a request that starts
// from random configurations and gives no Random.
const (
	DefaultSamples = 10
	DefaultSeed    = 1
)

// Request is one check of one spec. The zero value of every field but Spec
// and Workers is a default, given with the field.
type Request struct {
	// Spec is the algorithm; Params override its parameters' defaults.
	Spec   *specs.Spec
	Params map[string]int
	// Properties are checked in this order (none: the spec's default
	// checks).
	Properties []invariants.Property
	// LeadsTo names the two per-process predicates of FROM ~> TO; when
	// set, leads-to is checked even if Properties does not name it.
	LeadsTo invariants.LeadsTo
	// From is where the check starts. Empty: every configuration (all)
	// when closure or convergence is checked, the configurations of Start
	// (given) when it is set, the spec's initial configurations (init)
	// otherwise.
	From invariants.From
	// Start, if set, is the one configuration the check starts from.
	Start *Start
	// Random is the sample of From random (nil: DefaultSamples
	// configurations, seed DefaultSeed).
	Random *Random
	// Daemon schedules the processes (central by default).
	Daemon model.Daemon
	// Overflow, if set, replaces every channel's overflow policy.
	Overflow *model.Overflow
	// ReliableLinks runs a spec whose paper makes its links reliable once
	// the faults end (Spec.Links) on such links: the parameters as
	// Spec.Links.Enlarge enlarges them, every channel's overflow policy
	// error, and each channel of a random configuration holding at most
	// Spec.Links.Fill messages. A configuration from which a send can
	// overflow an enlarged channel decides nothing, as its executions
	// leave the model. It goes with From random, From empty-channels or
	// Start, not with Overflow.
	ReliableLinks bool
	// Fairness restricts starvation, leads-to and convergence (empty: none;
	// naming it for another property is an error).
	Fairness invariants.Fairness
	// MaxDepth, MaxStates and TimeLimit bound the search (0: no bound);
	// a bounded search never says holds.
	MaxDepth  int
	MaxStates int64
	TimeLimit time.Duration
	// MaxMemory bounds the heap, in bytes (0: no bound): every engine and
	// analysis stops with what it has, unknown, rather than pass it. A
	// caller running on a machine of its own should set one (the command
	// line's default is budget.Default).
	MaxMemory uint64
	// Fingerprints keeps a 64-bit fingerprint of each state instead of
	// the state, for a search from init that checks safety and deadlock
	// only: about a third of the memory, at a collision probability the
	// report gives (explore.Options.Fingerprints).
	Fingerprints bool
	// TreeStore keeps each state of a search from init tree-compressed
	// (explore.Options.Tree): the same states, ids and verdicts as the
	// exact store, in less memory and more time.
	TreeStore bool
	// Workers is the number of goroutines expanding states (at least 1,
	// at most explore.MaxWorkers).
	Workers int
	// Progress, if set, is called every 2 s or so during a long search.
	Progress func(explore.Progress)
	// Engine decides closure and convergence from every configuration
	// (empty: EngineExplicit); SymbolicProgress, if set, is called after
	// every iteration of the symbolic engine's fixpoints.
	Engine           Engine
	SymbolicProgress func(symbolic.Progress)
	// SymbolicRounds makes the symbolic engine also compute the worst case
	// in asynchronous rounds (under the central daemon), which costs far
	// more than the worst case in steps; the explicit engine always
	// computes it. It needs Engine symbolic or auto.
	SymbolicRounds bool
	// Reduce chooses the state-space reductions (empty: DefaultReduce).
	Reduce Reduce
	// Shard, for From random, runs only the samples of one shard
	// (invariants.Shard), and the report holds each one's record.
	Shard invariants.Shard
	// Search, if set, runs the explicit check of the system in place of
	// invariants.Check, with the options the request resolved to: the
	// command line's partitioned search on worker processes.
	Search func(ctx context.Context, sys *model.System, opts invariants.Options) (*invariants.Report, error)
}

// Start is a configuration a check starts from: state Index (negative:
// counted from the end) of the trace file Trace, written by ringcheck for
// the same spec and parameters, or the configuration Config builds for the
// system (as a spec's claims give one).
type Start struct {
	Trace  string
	Index  int
	Config func(sys *model.System) (*model.State, error)
}

// Random is the sample of a check from random configurations: Samples
// configurations drawn uniformly from the full space, the i-th from a PCG
// seeded with (Seed, i).
type Random struct {
	Samples int
	Seed    uint64
}

// Result is what Run decided, with what it ran.
type Result struct {
	// System is the model checked; Values its resolved parameters.
	System *model.System
	Values specs.Values
	// Options are the checker's options the request resolved to.
	Options invariants.Options
	Report  *invariants.Report
	// PeakHeapBytes is the largest heap sampled during the check.
	PeakHeapBytes uint64
	// Key identifies the check: two requests that resolve to the same
	// spec, parameters and choices (whatever their number of workers and
	// engine) have the same key.
	Key string
	// Engine is the engine that runs the check (the request's, with auto
	// resolved); Symbolic is what the symbolic engine computed, when it
	// ran and decided.
	Engine   Engine
	Symbolic *symbolic.Result
	// Reduction says which reduction the check runs, or why none.
	Reduction Reduction
}

// Values resolves the request's parameters against the spec's, enlarged
// as the spec's reliable links need when ReliableLinks is set.
func (r *Request) Values() (specs.Values, error) {
	v, _, err := r.values()
	return v, err
}

// RandomFill is the most messages a channel of a random configuration
// holds: Spec.Links.Fill on reliable links, 0 (no bound but the channel's
// capacity) on the spec's own.
func (r *Request) RandomFill() (int, error) {
	_, fill, err := r.values()
	return fill, err
}

// values resolves the parameters, and returns the most messages a channel
// of a random configuration may hold (0: no bound other than its
// capacity).
func (r *Request) values() (specs.Values, int, error) {
	if r.Spec == nil {
		return nil, 0, fields.Errorf("{Spec}: no spec to check")
	}
	v, err := r.Spec.Resolve(r.Params)
	if err != nil {
		return nil, 0, fields.Errorf("%v", err)
	}
	if !r.ReliableLinks {
		return v, 0, nil
	}
	links := r.Spec.Links
	if links == nil {
		return nil, 0, fields.Errorf("{ReliableLinks}: spec %s has no reliable links to run on; its channels are as it declares them", r.Spec.Name)
	}
	fill := links.Fill(v)
	params := maps.Clone(r.Params)
	if params == nil {
		params = map[string]int{}
	}
	for name, enlarged := range links.Enlarge(v) {
		params[name] = max(v[name], enlarged)
	}
	if v, err = r.Spec.Resolve(params); err != nil {
		return nil, 0, fields.Errorf("{ReliableLinks}: the enlarged parameters: %v", err)
	}
	return v, fill, nil
}

// System builds the spec's model for the request's parameters and applies
// the daemon and the overflow policy.
func (r *Request) System() (*model.System, error) {
	values, err := r.Values()
	if err != nil {
		return nil, err
	}
	return r.build(values)
}

func (r *Request) build(values specs.Values) (*model.System, error) {
	sys, err := r.Spec.Build(values)
	if err != nil {
		return nil, fields.Errorf("%v", err)
	}
	if sys, err = sys.WithDaemon(r.Daemon); err != nil {
		return nil, fields.Errorf("%v", err)
	}
	if o := r.overflow(); o != nil {
		if sys, err = sys.WithOverflow(*o); err != nil {
			return nil, fields.Errorf("{Overflow}: %v", err)
		}
	}
	return sys, nil
}

// overflow is the policy that replaces every channel's (nil: none): the
// request's, or error on reliable links.
func (r *Request) overflow() *model.Overflow {
	if r.ReliableLinks && r.Overflow == nil {
		o := model.Error
		return &o
	}
	return r.Overflow
}

// OverflowPolicy is the policy that replaced every channel's, by name
// ("error" on reliable links), or "" if none did: the one a trace of the
// check replays under.
func (r *Request) OverflowPolicy() string {
	if o := r.overflow(); o != nil {
		return o.String()
	}
	return ""
}

// Validate reports the first rule the request breaks, as a *fields.Error,
// without running anything; Run reports the same.
func (r *Request) Validate() error {
	_, err := r.plan()
	return err
}

// Run validates the request, checks the properties and returns the result.
// A cancelled ctx stops the check: what was decided stays decided, the rest
// is unknown.
func (r *Request) Run(ctx context.Context) (*Result, error) {
	res, err := r.plan()
	if err != nil {
		return nil, err
	}
	heap := explore.StartHeapSampler(20 * time.Millisecond)
	if res.Engine == EngineSymbolic {
		err = r.runSymbolic(ctx, res)
	} else if r.Search != nil {
		res.Report, err = r.Search(ctx, res.System, res.Options)
	} else {
		res.Report, err = invariants.Check(ctx, res.System, res.Options)
	}
	res.PeakHeapBytes = heap.Stop()
	if err != nil {
		return nil, err
	}
	return res, nil
}

// optionFields maps the fields of invariants.Options onto the request's.
var optionFields = map[string]string{
	"Samples":             "Random.Samples",
	"Seed":                "Random.Seed",
	"Search.MaxDepth":     "MaxDepth",
	"Search.MaxStates":    "MaxStates",
	"Search.TimeLimit":    "TimeLimit",
	"Search.Workers":      "Workers",
	"Search.Fingerprints": "Fingerprints",
	"Start":               "Start.Trace",
}

// plan validates the request and resolves it into a system and the
// checker's options; nothing runs.
func (r *Request) plan() (*Result, error) {
	values, fill, err := r.values()
	if err != nil {
		return nil, err
	}
	opts := invariants.Options{
		Properties: slices.Clone(r.Properties),
		From:       r.From,
		Fairness:   r.Fairness,
		LeadsTo:    r.LeadsTo,
		Search: explore.Options{
			MaxDepth: r.MaxDepth, MaxStates: r.MaxStates, TimeLimit: r.TimeLimit,
			Workers: r.Workers, Progress: r.Progress, Fingerprints: r.Fingerprints, Tree: r.TreeStore,
		},
		Shard: r.Shard,
	}
	if r.MaxMemory > 0 {
		opts.Search.Memory = budget.New(r.MaxMemory)
	}
	if len(opts.Properties) == 0 {
		for _, c := range r.Spec.DefaultChecks {
			opts.Properties = append(opts.Properties, invariants.Property(c))
		}
	}
	if r.LeadsTo != (invariants.LeadsTo{}) && !slices.Contains(opts.Properties, invariants.LeadsToProperty) {
		opts.Properties = append(opts.Properties, invariants.LeadsToProperty)
	}
	if err := r.resolveFrom(&opts); err != nil {
		return nil, err
	}
	if r.ReliableLinks {
		switch {
		case r.Overflow != nil:
			return nil, fields.Errorf("{ReliableLinks} sets every channel's overflow policy to error: not with {Overflow}")
		case opts.From != invariants.FromRandom && opts.From != invariants.FromGiven && opts.From != invariants.FromEmptyChannels:
			return nil, fields.Errorf("{ReliableLinks} decides convergence from random configurations ({From} random), those with empty channels ({From} empty-channels) or a given one ({Start.Trace}), not {From} %s", opts.From)
		}
		if opts.From == invariants.FromRandom {
			opts.Fill = fill
		}
	}
	if r.Fairness != "" && !fairnessApplies(opts.Properties) {
		return nil, fields.Errorf("{Fairness} applies to starvation, leads-to and convergence, which {Properties} does not name")
	}
	if r.Workers < 1 {
		return nil, fields.Errorf("{Workers} must be at least 1")
	}
	sys, err := r.build(values)
	if err != nil {
		return nil, err
	}
	if r.Start != nil {
		// A placeholder until the configuration is read, so that the
		// rules on what goes with a given start apply first.
		opts.Start = []*model.State{nil}
	}
	if err := opts.Validate(sys); err != nil {
		if fe, ok := err.(*fields.Error); ok {
			return nil, fe.Rename(func(f string) string { return optionFields[f] })
		}
		return nil, err
	}
	if r.Start != nil {
		st, err := r.readStart(sys, values)
		if err != nil {
			return nil, err
		}
		opts.Start = []*model.State{st}
	}
	red, err := r.resolveReduce(sys, &opts)
	if err != nil {
		return nil, err
	}
	res := &Result{System: sys, Values: values, Options: opts, Reduction: red}
	if res.Engine, err = r.chooseEngine(res); err != nil {
		return nil, err
	}
	if res.Engine == EngineSymbolic {
		if err := r.symbolicReduce(res); err != nil {
			return nil, err
		}
		opts = res.Options
	}
	if res.Engine == EngineExplicit {
		if err := sweepable(sys, values, r.Spec.Name, opts); err != nil {
			return nil, err
		}
	}
	if res.Key, err = r.key(values, opts); err != nil {
		return nil, err
	}
	return res, nil
}

// fairnessApplies reports whether a fairness assumption qualifies any of
// props: it does for the liveness properties only.
func fairnessApplies(props []invariants.Property) bool {
	for _, p := range props {
		switch p {
		case invariants.Starvation, invariants.LeadsToProperty, invariants.Convergence:
			return true
		}
	}
	return false
}

// resolveFrom sets opts.From (the request's, or its default) and the
// sample of a random start, and checks that the starting point is given
// once.
func (r *Request) resolveFrom(opts *invariants.Options) error {
	if r.Start != nil {
		switch {
		case r.From != "" && r.From != invariants.FromGiven:
			return fields.Errorf("{Start.Trace} and {From} both say where the check starts: give one")
		case r.Start.Trace == "" && r.Start.Config == nil:
			return fields.Errorf("{Start.Index} needs {Start.Trace} FILE")
		case r.Start.Trace != "" && r.Start.Config != nil:
			return fields.Errorf("{Start.Trace} and {Start.Config} both give the start: give one")
		}
		opts.From = invariants.FromGiven
	}
	if opts.From == "" {
		opts.From = invariants.FromInit
		if slices.Contains(opts.Properties, invariants.Closure) || slices.Contains(opts.Properties, invariants.Convergence) {
			opts.From = invariants.FromAll
		}
	}
	if opts.From == invariants.FromGiven && r.Start == nil {
		return fields.Errorf("{From} given needs {Start.Trace}")
	}
	if opts.From == invariants.FromRandom {
		opts.Samples, opts.Seed = DefaultSamples, DefaultSeed
		if r.Random != nil {
			opts.Samples, opts.Seed = r.Random.Samples, r.Random.Seed
		}
	} else if r.Random != nil {
		return fields.Errorf("{Random} choose the configurations of {From} random")
	}
	return nil
}

// readStart builds or reads the configuration the check starts from.
func (r *Request) readStart(sys *model.System, values specs.Values) (*model.State, error) {
	if r.Start.Config != nil {
		st, err := r.Start.Config(sys)
		if err != nil {
			return nil, fields.Errorf("{Start.Config}: %v", err)
		}
		if err := sys.Validate(st); err != nil {
			return nil, fields.Errorf("{Start.Config}: %v", err)
		}
		return st, nil
	}
	path := r.Start.Trace
	t, err := reports.ReadTraceFile(path)
	if err != nil {
		return nil, fields.Errorf("{Start.Trace}: %v", err)
	}
	if t.Spec != r.Spec.Name {
		return nil, fields.Errorf("{Start.Trace}: %s is a trace of %s, not of %s", path, t.Spec, r.Spec.Name)
	}
	if t.Links == reports.ReliableLinks && !r.ReliableLinks {
		return nil, fields.Errorf("{Start.Trace}: %s ran on the spec's reliable links: a check from it runs on them too (give {ReliableLinks})", path)
	}
	// A parameter the trace does not name (one added to the spec since)
	// has its default.
	got, err := r.Spec.Resolve(t.Params)
	if err != nil {
		return nil, fields.Errorf("{Start.Trace}: %s: %v", path, err)
	}
	if !maps.Equal(got, values) {
		return nil, fields.Errorf("{Start.Trace}: %s has parameters %s, but this check has %s (give the same with {Params})", path, got, values)
	}
	// A configuration is taken from a trace only if the whole trace is an
	// execution of the spec.
	if err := Replay(r.Spec, t); err != nil {
		return nil, fields.Errorf("{Start.Trace}: %s does not replay: %v", path, err)
	}
	st, err := t.Configuration(sys, r.Start.Index)
	if err != nil {
		return nil, fields.Errorf("{Start.Trace}: %s: %v", path, err)
	}
	return st, nil
}

// sweepable reports a check from every configuration of a space too large
// to sweep, and says what can be done instead.
func sweepable(sys *model.System, values specs.Values, name string, opts invariants.Options) error {
	closureOnly := len(opts.Properties) == 1 && opts.Properties[0] == invariants.Closure && sys.EnumeratesLegitimate()
	if opts.From != invariants.FromAll || closureOnly {
		return nil
	}
	if _, ok := sys.Configurations(); ok {
		return nil
	}
	also := ""
	if sys.EnumeratesLegitimate() {
		also = " (closure alone is decided from the spec's enumeration of L: {Properties} closure)"
	}
	return fields.Errorf("spec %s (%s): the full configuration space has about 10^%.0f configurations, too many to sweep"+also+"; {From} random decides convergence from sampled configurations (a configuration that does not converge decides it; samples never decide that it holds), 'ringcheck rounds %s' measures recovery from random configurations, and check {Start.Trace} FILE decides convergence from one of them",
		name, values, sys.ConfigurationsLog10(), name)
}

// String renders the request's spec and parameters, as "dijkstra K=5 n=5".
func (r *Request) String() string {
	if r.Spec == nil {
		return "(no spec)"
	}
	v, err := r.Values()
	if err != nil {
		return fmt.Sprintf("%s %v", r.Spec.Name, r.Params)
	}
	return r.Spec.Name + " " + v.String()
}
