package catalog_test

import (
	"context"
	"testing"

	"github.com/ringcheck/ringcheck"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/replay"
	"github.com/ringcheck/ringcheck/reports"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/catalog"
)

// TestEverySpecIsWellDeclared: unique names, defaults in range, a model
// that builds with the defaults and with every claim's parameters, default
// checks and claims that name known properties and verdicts.
func TestEverySpecIsWellDeclared(t *testing.T) {
	reg, err := catalog.Registry()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range reg.All() {
		t.Run(s.Name, func(t *testing.T) {
			if s.Summary == "" || s.Source == "" || s.Build == nil {
				t.Fatal("summary, source and Build are required")
			}
			for _, p := range s.Params {
				if p.Default < p.Min || p.Default > p.Max || p.Doc == "" {
					t.Errorf("parameter %s: default %d outside %d..%d, or undocumented", p.Name, p.Default, p.Min, p.Max)
				}
			}
			vals, err := s.Resolve(nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Build(vals); err != nil {
				t.Fatalf("defaults do not build: %v", err)
			}
			for _, c := range s.DefaultChecks {
				if err := invariants.Implemented(invariants.Property(c)); err != nil {
					t.Errorf("default check: %v", err)
				}
			}
			for _, c := range s.Claims {
				vals, err := s.Resolve(c.Params)
				if err != nil {
					t.Fatalf("claim %s: %v", c.Property, err)
				}
				if _, err := s.Build(vals); err != nil {
					t.Fatalf("claim %s: %v", c.Property, err)
				}
				switch invariants.Verdict(c.Verdict) {
				case invariants.Holds, invariants.Violated:
				default:
					t.Errorf("claim %s: verdict %q", c.Property, c.Verdict)
				}
				if _, err := invariants.ParseFrom(c.From); err != nil {
					t.Errorf("claim %s: %v", c.Property, err)
				}
			}
		})
	}
}

// TestClaimsAgreeWithTheChecker decides every claim of every paper with a
// complete search. A claim the checker refutes is a finding: it is marked
// in the claim (Found), written up in the README's findings, and kept in a
// test of its own; here the checker must reach exactly the verdict Found
// records (from the claim's start configuration when it has one: a claim
// about every configuration is refuted by one). A claim marked out of
// reach must really be: its full space does not fit in 63 bits. A claim
// that holds and that a case of the regression manifest checks as it is
// (same spec, instance and start, same fairness for liveness, nothing
// else set) is left to that case, which CI runs: the manifest must expect
// the claim's verdict.
func TestClaimsAgreeWithTheChecker(t *testing.T) {
	reg, err := catalog.Registry()
	if err != nil {
		t.Fatal(err)
	}
	manifest := readManifest(t)
	for _, s := range reg.All() {
		for _, c := range s.Claims {
			t.Run(s.Name+"/"+c.Property, func(t *testing.T) {
				vals, _ := s.Resolve(c.Params)
				sys, err := s.Build(vals)
				if err != nil {
					t.Fatal(err)
				}
				want := c.Verdict
				switch c.Found {
				case "":
				case specs.OutOfReach:
					if _, ok := sys.Configurations(); ok || c.From != string(invariants.FromAll) {
						t.Fatalf("claim marked out of reach, but its space is countable or it is not about every configuration")
					}
					return
				default:
					if c.Found == c.Verdict {
						t.Fatalf("Found %q repeats the paper's verdict", c.Found)
					}
					want = c.Found
				}
				if name, verdict, ok := manifest.decides(s, c); ok {
					if verdict != want {
						t.Fatalf("the manifest's case %q expects %s %s, the claim %s", name, c.Property, verdict, want)
					}
					if want == string(invariants.Holds) {
						t.Logf("decided by the manifest's case %q", name)
						return
					}
				}
				// Each claim is checked through the request a user's check
				// would make.
				req := &ringcheck.Request{
					Spec: s, Params: c.Params,
					Properties: []invariants.Property{invariants.Property(c.Property)},
					From:       invariants.From(c.From),
					Fairness:   invariants.Fairness(c.Fairness),
					Workers:    2,
				}
				if c.Start != nil {
					// Refuted from one configuration: the checker decides
					// the claim from it alone.
					if c.Found != string(invariants.Violated) || c.From != string(invariants.FromAll) {
						t.Fatalf("a claim with a start configuration must be about every configuration and found violated")
					}
					req.From, req.Start = "", &ringcheck.Start{Config: c.Start}
				}
				res, err := req.Run(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				rep := res.Report
				if got := rep.Outcomes[0].Verdict; string(got) != want {
					t.Fatalf("%s for %s from %s (fairness %q): checker says %s, want %s (the paper: %s)", c.Property, vals, c.From, c.Fairness, got, want, c.Verdict)
				}
				// Every counterexample replays, independently of the engine
				// that found it.
				if ce := rep.Outcomes[0].Counterexample; ce != nil {
					tr := reports.NewTrace(res.System, res.Values, c.Property, ce)
					tr.Invariant, tr.Fairness = rep.Outcomes[0].Invariant, c.Fairness
					switch res.Options.From {
					case invariants.FromAll, invariants.FromGiven:
						tr.Start = string(res.Options.From)
					}
					if err := replay.Check(res.System, tr); err != nil {
						t.Fatalf("the counterexample does not replay: %v", err)
					}
				}
			})
		}
	}
}
