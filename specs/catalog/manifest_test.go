package catalog_test

import (
	"maps"
	"os"
	"testing"

	"github.com/goccy/go-yaml"

	"github.com/ringcheck/ringcheck/specs"
)

// manifestCase is what a case of the regression manifest says about the
// check it runs: enough to tell whether it is a claim's check as it is.
type manifestCase struct {
	Name     string            `yaml:"name"`
	Spec     string            `yaml:"spec"`
	Params   map[string]int    `yaml:"params"`
	From     string            `yaml:"from"`
	Fairness string            `yaml:"fairness"`
	Expect   map[string]string `yaml:"expect"`
	// Keys holds every key of the case, to tell whether it sets anything
	// that changes the check (see ignored).
	Keys map[string]any `yaml:",inline"`
}

// manifest is the regression manifest's cases.
type manifest struct {
	Cases []manifestCase `yaml:"cases"`
}

// readManifest reads specs/regress.yaml.
func readManifest(t *testing.T) *manifest {
	t.Helper()
	data, err := os.ReadFile("../regress.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var m manifest
	if err := yaml.Unmarshal(data, &m); err != nil {
		t.Fatalf("specs/regress.yaml: %v", err)
	}
	if len(m.Cases) == 0 {
		t.Fatal("specs/regress.yaml has no case")
	}
	return &m
}

// ignored are the keys of a case that do not change its check: those read
// above, what it is filed under, and the figures it pins. Every other key
// (start, daemon, links, overflow, bounds, store, engine, samples, a
// rounds block, ...) does.
var ignored = map[string]bool{
	"name": true, "spec": true, "params": true, "from": true, "fairness": true, "expect": true,
	"finding": true, "reading": true, "budget": true,
	"states": true, "worst_case_steps": true, "worst_case_rounds": true, "cycle_steps": true,
}

// decides returns the first case of m that checks claim c of spec s as the
// claim says (same instance once defaults are filled, same start, same
// fairness for a liveness property, nothing else set), with the verdict it
// expects for the claim's property.
func (m *manifest) decides(s *specs.Spec, c specs.Claim) (name, verdict string, ok bool) {
	if c.Start != nil {
		return "", "", false
	}
	want, err := s.Resolve(c.Params)
	if err != nil {
		return "", "", false
	}
	for _, mc := range m.Cases {
		v, expects := mc.Expect[c.Property]
		if mc.Spec != s.Name || !expects || from(mc.From) != from(c.From) || (live[c.Property] && mc.Fairness != c.Fairness) {
			continue
		}
		plain := true
		for k := range mc.Keys {
			plain = plain && ignored[k]
		}
		if !plain {
			continue
		}
		got, err := s.Resolve(mc.Params)
		if err != nil || !maps.Equal(got, want) {
			continue
		}
		return mc.Name, v, true
	}
	return "", "", false
}

// live are the properties fairness qualifies; it changes no other.
var live = map[string]bool{"starvation": true, "convergence": true, "leads-to": true}

// from is a case's or claim's start, "init" when unsaid.
func from(f string) string {
	if f == "" {
		return "init"
	}
	return f
}
