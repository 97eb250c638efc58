package ring_test

import (
	"fmt"
	"maps"
	"testing"

	"github.com/ringcheck/ringcheck/lang"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/counterflush"
	"github.com/ringcheck/ringcheck/specs/klddhl"
	"github.com/ringcheck/ringcheck/specs/kldhv"
)

// TestTwinsDeclareTheGoSpecsMetadata compares what a .ring file declares
// about itself with its Go twin's catalogue entry, as list and rounds use
// it: summary, source, model, legitimacy, default checks, the paper's
// bound (text, and in rounds for several instances), the reliable links
// (parameters enlarged and fill for several instances) and the claims,
// out of reach or decided from a configuration kept with the spec
// included.
func TestTwinsDeclareTheGoSpecsMetadata(t *testing.T) {
	for _, tc := range []struct {
		file string
		spec *specs.Spec
		// values are instances to evaluate the bound and the links for.
		values []specs.Values
		// missing are the Go spec's claims the file does not have yet, by
		// property: if the file has one, it must equal the Go spec's.
		missing map[string]bool
	}{
		{"counterflush.ring", counterflush.Spec(), []specs.Values{{"n": 3, "Cmax": 1}, {"n": 5, "Cmax": 2}}, nil},
		{"kl-ddhl.ring", klddhl.Spec(), []specs.Values{{"n": 3, "L": 2, "K": 2, "Cmax": 0}, {"n": 5, "L": 3, "K": 1, "Cmax": 0}, {"n": 4, "L": 2, "K": 2, "Cmax": 9}}, nil},
		// kl-dhv.ring's closure is decided over the enumeration of L,
		// which a file does not give yet (docs/language.md).
		{"kl-dhv.ring", kldhv.Spec(), []specs.Values{{"n": 3, "L": 2, "K": 2, "Cmax": 0}, {"n": 5, "L": 4, "K": 1, "Cmax": 0}, {"n": 2, "L": 1, "K": 1, "Cmax": 5}}, map[string]bool{"closure": true}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			file, _, err := lang.Load(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			g := tc.spec
			for _, f := range []struct{ what, file, goSpec string }{
				{"summary", file.Summary, g.Summary},
				{"source", file.Source, g.Source},
				{"model", file.Communication, g.Communication},
				{"legitimacy", file.Legitimacy, g.Legitimacy},
				{"default checks", fmt.Sprint(file.DefaultChecks), fmt.Sprint(g.DefaultChecks)},
				{"bound", file.StabilizationBound, g.StabilizationBound},
				{"bound in rounds", fmt.Sprint(file.RoundsBound != nil), fmt.Sprint(g.RoundsBound != nil)},
				{"links", fmt.Sprint(file.Links != nil), fmt.Sprint(g.Links != nil)},
			} {
				if f.file != f.goSpec {
					t.Errorf("%s: the file's %q, the Go spec's %q", f.what, f.file, f.goSpec)
				}
			}
			for _, v := range tc.values {
				full, err := file.Resolve(v)
				if err != nil {
					t.Fatal(err)
				}
				goFull, err := g.Resolve(v)
				if err != nil {
					t.Fatal(err)
				}
				if file.RoundsBound != nil && g.RoundsBound != nil {
					if a, b := file.RoundsBound(full), g.RoundsBound(goFull); a != b {
						t.Errorf("%s: bound in rounds %d, the Go spec's %d", v, a, b)
					}
				}
				if file.Links != nil && g.Links != nil {
					if a, b := file.Links.Fill(full), g.Links.Fill(goFull); a != b {
						t.Errorf("%s: fill %d, the Go spec's %d", v, a, b)
					}
					if a, b := file.Links.Enlarge(full), g.Links.Enlarge(goFull); !maps.Equal(a, b) {
						t.Errorf("%s: enlarged %s, the Go spec's %s", v, a, b)
					}
				}
			}
			claims := map[string]specs.Claim{}
			for _, c := range file.Claims {
				claims[c.Property] = c
			}
			for _, want := range g.Claims {
				got, ok := claims[want.Property]
				delete(claims, want.Property)
				if !ok {
					if !tc.missing[want.Property] {
						t.Errorf("no %s claim; the Go spec has %+v", want.Property, want)
					}
					continue
				}
				if describe(got) != describe(want) {
					t.Errorf("claim %s:\n the file's    %s\n the Go spec's %s", want.Property, describe(got), describe(want))
				}
			}
			for _, c := range claims {
				t.Errorf("a claim the Go spec does not have: %s", describe(c))
			}
		})
	}
}

// describe renders what list shows of a claim.
func describe(c specs.Claim) string {
	return fmt.Sprintf("%s %s for %s from %s fairness %q found %q from one configuration %v: %s",
		c.Property, c.Verdict, specs.Values(c.Params), c.From, c.Fairness, c.Found, c.Start != nil, c.Source)
}
