// Package specs is ringcheck's catalogue vocabulary: what a spec declares
// about itself (name, summary, parameters with defaults and ranges, default
// checks, the claims of its paper) and a Registry to look specs up by name.
// Each algorithm lives in a package of its own under specs/, and
// specs/catalog assembles the registry of all of them.
package specs

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/model"
)

// Param declares a spec parameter: an integer with a default and an
// inclusive range.
type Param struct {
	Name     string
	Default  int
	Min, Max int
	Doc      string
}

// Claim is a verdict a paper predicts, for the given parameters and
// options; the regression manifest pins what ringcheck decides.
type Claim struct {
	Property string
	Verdict  string
	Params   map[string]int
	From     string
	// Fairness qualifies liveness claims (starvation, convergence): none,
	// weak or strong; empty means none.
	Fairness string
	Source   string
	// Found is what ringcheck finds when it is not the paper's verdict:
	// the other verdict (a finding, written up in the README with its
	// counterexample), or OutOfReach when the instance's full configuration
	// space is too large to enumerate. Empty: ringcheck agrees.
	Found string
	// Start, for a claim about every configuration that ringcheck refutes
	// although the full space cannot be enumerated, returns the
	// configuration of the built system the refutation starts from: the
	// checker decides the claim from it alone (a fair execution from there
	// that never reaches L violates convergence from every configuration),
	// and Found is the verdict it reaches.
	Start func(sys *model.System) (*model.State, error)
}

// OutOfReach is Claim.Found for a claim about every configuration of an
// instance whose full configuration space ringcheck cannot enumerate (its
// size does not fit in 63 bits) and that no configuration it found refutes:
// evidence (rounds, check --from random) is all it offers there, and that is
// never a "holds".
const OutOfReach = "out-of-reach"

// Spec describes one algorithm and builds its model.
type Spec struct {
	Name    string
	Summary string
	// Source cites the paper and the part of it encoded.
	Source string
	// Communication is "state-reading" or "message-passing".
	Communication string
	Params        []Param
	// Legitimacy describes the legitimacy predicate L, empty if none.
	Legitimacy string
	// Invariants describes the safety invariants.
	Invariants    []string
	DefaultChecks []string
	Claims        []Claim
	// StabilizationBound is the paper's bound on stabilization time, as
	// text ("2n rounds"), printed beside the measured worst case.
	StabilizationBound string
	// RoundsBound, if set, is that bound in rounds for resolved parameters
	// (4n for kl-ddhl), which 'ringcheck rounds' compares with the rounds
	// it measures.
	RoundsBound func(p Values) int
	// Links, if set, is how 'ringcheck rounds' models the paper's links,
	// reliable once the faults end, where the spec's own bounded links
	// lose a send to a full channel (see ReliableLinks).
	Links *ReliableLinks
	// File and FileHash are the path and the SHA-256 (in hex) of the
	// content of the .ring file the spec was read from; both are empty for
	// a spec built into ringcheck.
	File, FileHash string
	// Build returns the model for resolved parameters (see Resolve); it
	// reports parameter combinations that make no sense as errors. The
	// model is under the central daemon and with the channels' own
	// overflow policies; model.System.WithDaemon and WithOverflow apply a
	// check's other choices.
	Build func(p Values) (*model.System, error)
	// Instance returns the intermediate representation of the instance
	// for resolved parameters (guards and effects as expressions), which
	// the symbolic engine encodes; nil for a spec built into ringcheck.
	Instance func(p Values) (*ir.Spec, error)
}

// ReliableLinks says how to run a spec on reliable links: channels
// enlarged by the parameter values Enlarge returns (for the resolved
// values), starting configurations with at most Fill messages a channel
// (the capacity of the spec's own links under those values), and a send
// to a full channel ending its run, which then fell outside the model's
// bound, rather than being lost.
type ReliableLinks struct {
	Enlarge func(p Values) Values
	Fill    func(p Values) int
}

// Values are resolved parameter values by name.
type Values map[string]int

// String renders the values sorted by name, as "K=3 n=5".
func (v Values) String() string {
	names := make([]string, 0, len(v))
	for k := range v {
		names = append(names, k)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, k := range names {
		parts[i] = k + "=" + strconv.Itoa(v[k])
	}
	return strings.Join(parts, " ")
}

// Resolve checks overrides against the spec's parameters and returns every
// parameter's value: the override if given, the default otherwise.
func (s *Spec) Resolve(overrides map[string]int) (Values, error) {
	vals := make(Values, len(s.Params))
	for _, p := range s.Params {
		vals[p.Name] = p.Default
	}
	names := make([]string, 0, len(overrides))
	for k := range overrides {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, name := range names {
		p, ok := s.Param(name)
		if !ok {
			return nil, fmt.Errorf("spec %s has no parameter %q (it has %s)", s.Name, name, s.paramNames())
		}
		v := overrides[name]
		if v < p.Min || v > p.Max {
			return nil, fmt.Errorf("spec %s: parameter %s=%d is outside %d..%d", s.Name, name, v, p.Min, p.Max)
		}
		vals[name] = v
	}
	return vals, nil
}

// Param looks up a parameter by name.
func (s *Spec) Param(name string) (Param, bool) {
	for _, p := range s.Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

func (s *Spec) paramNames() string {
	names := make([]string, len(s.Params))
	for i, p := range s.Params {
		names[i] = p.Name
	}
	return strings.Join(names, ", ")
}

// ParseAssignment parses one "-p name=value" argument.
func ParseAssignment(arg string) (name string, value int, err error) {
	name, val, ok := strings.Cut(arg, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return "", 0, fmt.Errorf("parameter %q is not of the form name=value", arg)
	}
	value, err = strconv.Atoi(strings.TrimSpace(val))
	if err != nil {
		return "", 0, fmt.Errorf("parameter %s: value %q is not an integer", name, val)
	}
	return name, value, nil
}

// Registry holds specs by name.
type Registry struct {
	specs []*Spec
}

// NewRegistry returns a registry of the given specs; names must be unique.
func NewRegistry(specs ...*Spec) (*Registry, error) {
	seen := map[string]bool{}
	for _, s := range specs {
		if seen[s.Name] {
			return nil, fmt.Errorf("two specs are named %s", s.Name)
		}
		seen[s.Name] = true
	}
	return &Registry{specs: specs}, nil
}

// Lookup returns the named spec.
func (r *Registry) Lookup(name string) (*Spec, error) {
	for _, s := range r.specs {
		if s.Name == name {
			return s, nil
		}
	}
	return nil, fmt.Errorf("unknown spec %q (known: %s)", name, strings.Join(r.Names(), ", "))
}

// Names lists the specs' names in registration order.
func (r *Registry) Names() []string {
	out := make([]string, len(r.specs))
	for i, s := range r.specs {
		out[i] = s.Name
	}
	return out
}

// All returns the specs in registration order.
func (r *Registry) All() []*Spec { return append([]*Spec(nil), r.specs...) }
