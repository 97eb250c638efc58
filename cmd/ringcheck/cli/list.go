package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/catalog"
)

type listedParam struct {
	Name    string `json:"name"`
	Default int    `json:"default"`
	Min     int    `json:"min"`
	Max     int    `json:"max"`
	Doc     string `json:"doc"`
}

type listedClaim struct {
	Property string         `json:"property"`
	Verdict  string         `json:"verdict"`
	Params   map[string]int `json:"params"`
	From     string         `json:"from"`
	Fairness string         `json:"fairness,omitempty"`
	Source   string         `json:"source"`
	// Found is ringcheck's verdict where it differs from the paper's, or
	// "out-of-reach".
	Found string `json:"found,omitempty"`
	// FoundFromOneConfiguration: Found was decided from one configuration
	// kept with the spec (a claim about every configuration refuted there).
	FoundFromOneConfiguration bool `json:"found_from_one_configuration,omitempty"`
}

// listedAction is an action's name, kind and role under fairness.
type listedAction struct {
	Name     string `json:"name"`
	Kind     string `json:"kind"`
	Liveness string `json:"liveness"`
}

type listedPredicate struct {
	Name string `json:"name"`
	Doc  string `json:"doc,omitempty"`
}

type listedSpec struct {
	Name          string        `json:"name"`
	Summary       string        `json:"summary"`
	Source        string        `json:"source"`
	Communication string        `json:"communication"`
	Params        []listedParam `json:"params"`
	Legitimacy    string        `json:"legitimacy,omitempty"`
	Invariants    []string      `json:"invariants"`
	DefaultChecks []string      `json:"default_checks"`
	Claims        []listedClaim `json:"claims"`
	// Actions lists the actions of the model built with the defaults, with
	// their liveness roles: "scheduled" actions follow --fairness,
	// "finite" ones (leaving a critical section) are always weakly fair,
	// "optional" ones (requesting) are never obliged.
	Actions           []listedAction    `json:"actions"`
	ProcessPredicates []listedPredicate `json:"process_predicates,omitempty"`
}

func newListCmd() *cobra.Command {
	var asJSON, source bool
	cmd := &cobra.Command{
		Use:   "list [SPEC...]",
		Short: "List the specs, their parameters and the claims of their papers",
		Long: `List the built-in specs, or the specs given (built-in names or .ring
files): each spec's name, summary, source, parameters (with their
defaults and ranges), legitimacy predicate, invariants, default checks,
the liveness roles of its actions, and the claims of its paper with what
ringcheck finds.

With --source, print instead the .ring file of each built-in spec named
(every spec ringcheck ships is one file of the ring language): a start
for an algorithm of one's own.`,
		Example: `  ringcheck list
  ringcheck list --json dijkstra
  ringcheck list --source dijkstra > mine.ring`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if source {
				return printSources(cmd, args)
			}
			all, err := listedSpecs(cmd.Context(), args)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if asJSON {
				var entries []listedSpec
				for _, s := range all {
					l, err := listed(s)
					if err != nil {
						return err
					}
					entries = append(entries, l)
				}
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return enc.Encode(entries)
			}
			for i, s := range all {
				if i > 0 {
					fmt.Fprintln(out)
				}
				fmt.Fprintf(out, "%s — %s\n", s.Name, s.Summary)
				fmt.Fprintf(out, "  source:     %s\n", s.Source)
				fmt.Fprintf(out, "  model:      %s\n", s.Communication)
				for _, p := range s.Params {
					fmt.Fprintf(out, "  -p %-8s default %d, range %d..%d: %s\n", p.Name+"=", p.Default, p.Min, p.Max, p.Doc)
				}
				if s.Legitimacy != "" {
					fmt.Fprintf(out, "  legitimacy: %s\n", s.Legitimacy)
				}
				for _, inv := range s.Invariants {
					fmt.Fprintf(out, "  invariant:  %s\n", inv)
				}
				fmt.Fprintf(out, "  checks:     %s (default)\n", strings.Join(s.DefaultChecks, ","))
				l, err := listed(s)
				if err != nil {
					return err
				}
				var roles []string
				for _, a := range l.Actions {
					if a.Liveness != model.Scheduled.String() {
						roles = append(roles, a.Name+" "+a.Liveness)
					}
				}
				if len(roles) > 0 {
					fmt.Fprintf(out, "  liveness:   %s (finite: always weakly fair; optional: never obliged)\n", strings.Join(roles, ", "))
				}
				for _, c := range s.Claims {
					under := ""
					if c.Fairness != "" {
						under = ", " + c.Fairness + " fairness"
					}
					fmt.Fprintf(out, "  claim:      %s %s for %s from %s%s: %s\n", c.Property, c.Verdict, specs.Values(c.Params), c.From, under, c.Source)
					switch c.Found {
					case "":
					case specs.OutOfReach:
						fmt.Fprintf(out, "              ringcheck: out of reach (the full configuration space is too large; see 'rounds' and 'check --from random')\n")
					default:
						if c.Start != nil {
							fmt.Fprintf(out, "              ringcheck: %s, from a configuration kept with the spec (a finding, under the readings docs/findings names)\n", c.Found)
							break
						}
						fmt.Fprintf(out, "              ringcheck: %s (a finding, under the readings docs/findings names)\n", c.Found)
					}
				}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the specs as a JSON array")
	cmd.Flags().BoolVar(&source, "source", false, "print the .ring file of each built-in spec named")
	cmd.MarkFlagsMutuallyExclusive("json", "source")
	return cmd
}

// printSources prints the .ring file of each built-in spec named.
func printSources(cmd *cobra.Command, names []string) error {
	if len(names) == 0 {
		return usageError("--source needs the names of built-in specs (ringcheck list shows them)")
	}
	reg, err := registryOf(cmd.Context())
	if err != nil {
		return err
	}
	for _, name := range names {
		if _, err := reg.Lookup(name); err != nil {
			return usageError("%v", err)
		}
		src, ok := catalog.Source(name)
		if !ok {
			return usageError("spec %s is written in Go: it has no .ring file", name)
		}
		if _, err := cmd.OutOrStdout().Write(src); err != nil {
			return err
		}
	}
	return nil
}

// listedSpecs loads the .ring files given, or returns every spec of the
// registry ctx carries.
func listedSpecs(ctx context.Context, paths []string) ([]*specs.Spec, error) {
	if len(paths) == 0 {
		reg, err := registryOf(ctx)
		if err != nil {
			return nil, err
		}
		return reg.All(), nil
	}
	var out []*specs.Spec
	for _, p := range paths {
		s, err := findSpec(ctx, p, "")
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func listed(s *specs.Spec) (listedSpec, error) {
	l := listedSpec{
		Name: s.Name, Summary: s.Summary, Source: s.Source, Communication: s.Communication,
		Legitimacy: s.Legitimacy, Invariants: s.Invariants, DefaultChecks: s.DefaultChecks,
	}
	for _, p := range s.Params {
		l.Params = append(l.Params, listedParam{Name: p.Name, Default: p.Default, Min: p.Min, Max: p.Max, Doc: p.Doc})
	}
	for _, c := range s.Claims {
		l.Claims = append(l.Claims, listedClaim{Property: c.Property, Verdict: c.Verdict, Params: c.Params, From: c.From, Fairness: c.Fairness, Source: c.Source, Found: c.Found, FoundFromOneConfiguration: c.Start != nil})
	}
	vals, err := s.Resolve(nil)
	if err != nil {
		return l, err
	}
	sys, err := s.Build(vals)
	if err != nil {
		return l, fmt.Errorf("spec %s with its defaults: %w", s.Name, err)
	}
	seen := map[string]bool{}
	for _, p := range sys.Processes {
		for _, a := range p.Actions {
			if !seen[a.Name] {
				seen[a.Name] = true
				l.Actions = append(l.Actions, listedAction{Name: a.Name, Kind: a.Kind.String(), Liveness: a.Liveness.String()})
			}
		}
	}
	for _, pp := range sys.ProcessPredicates {
		l.ProcessPredicates = append(l.ProcessPredicates, listedPredicate{Name: pp.Name, Doc: pp.Doc})
	}
	return l, nil
}
