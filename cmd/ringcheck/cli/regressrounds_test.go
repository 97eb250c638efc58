package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/runs"
)

// TestParseRoundsCase: a case with a rounds block becomes the search
// rounds would run with the same flags (its defaults included), held to
// the bound it gives.
func TestParseRoundsCase(t *testing.T) {
	tests := []struct {
		name, manifest string
		caseName       string
		links          string
		opts           runs.RoundOptions // Fill, Invariants and MaxRounds as validate sets them
		bound          int
		expect         string
		figures        bool
	}{
		{
			name: "replayed run on lossy links",
			manifest: `cases:
  - spec: kl-ddhl
    rounds:
      links: lossy
      cs_rounds: 0
      order: shuffled
      seed: 3
      run: 71469
      bound: 4n
      expect: violated
      most_rounds: 18
`,
			caseName: "kl-ddhl rounds, run 71469",
			links:    lossyLinks,
			opts:     runs.RoundOptions{Runs: 1, First: 71469, Seed: 3, Order: runs.Shuffled},
			bound:    12, expect: "violated", figures: true,
		},
		{
			name: "batch with rounds' defaults, a number as bound",
			manifest: `cases:
  - name: a batch
    spec: kl-ddhl
    params: {n: 4}
    rounds:
      runs: 500
      bound: 20
      expect: within-sampled
`,
			caseName: "a batch",
			links:    reliableLinks,
			opts:     runs.RoundOptions{Runs: 500, Seed: 1, CSRounds: 1, Fill: 5},
			bound:    20, expect: "within-sampled",
		},
		{
			name: "a spec without reliable links, round limit given",
			manifest: `cases:
  - spec: counterflush
    params: {n: 3, Cmax: 1}
    budget: 10s
    rounds:
      runs: 10
      round_limit: 7
      bound: 2n
      expect: violated
`,
			caseName: "counterflush n=3 Cmax=1 rounds, 10 runs",
			opts:     runs.RoundOptions{Runs: 10, Seed: 1, CSRounds: 1, MaxRounds: 7},
			bound:    6, expect: "violated", figures: true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cases, err := parseManifest(context.Background(), "m.yaml", []byte(tc.manifest))
			if err != nil {
				t.Fatal(err)
			}
			if len(cases) != 1 {
				t.Fatalf("%d cases", len(cases))
			}
			c := cases[0]
			if c.search == nil || c.req != nil {
				t.Fatalf("not a rounds case: %+v", c)
			}
			if err := c.validate(); err != nil {
				t.Fatal(err)
			}
			rc := c.search
			got := rc.opts
			got.Invariants = nil
			if c.name != tc.caseName || rc.links != tc.links || rc.bound() != tc.bound || rc.expect != tc.expect || c.hasFigure != tc.figures {
				t.Errorf("name %q links %q bound %d expect %q figures %v; want %q %q %d %q %v",
					c.name, rc.links, rc.bound(), rc.expect, c.hasFigure, tc.caseName, tc.links, tc.bound, tc.expect, tc.figures)
			}
			if got.Runs != tc.opts.Runs || got.First != tc.opts.First || got.Seed != tc.opts.Seed || got.Order != tc.opts.Order ||
				got.CSRounds != tc.opts.CSRounds || got.Fill != tc.opts.Fill || got.MaxRounds != tc.opts.MaxRounds {
				t.Errorf("options %+v, want %+v", got, tc.opts)
			}
		})
	}
}

// TestRoundsCaseErrors: a malformed rounds case is one line naming the
// manifest's line and column and the field at fault.
func TestRoundsCaseErrors(t *testing.T) {
	const head = "cases:\n  - spec: kl-ddhl\n"
	tests := []struct{ name, body, want string }{
		{"unknown key", "    rounds:\n      runs: 10\n      bound: 4n\n      expect: violated\n      sead: 3\n",
			"m.yaml:7:7: cases[0].rounds.sead: unknown field (known: links, cs_rounds, order, seed, runs, run, round_limit, bound, expect, most_rounds, beyond_bound, not_reached)"},
		{"run and runs", "    rounds:\n      runs: 10\n      run: 4\n      bound: 4n\n      expect: violated\n",
			"m.yaml:5:7: cases[0].rounds.run: runs and run both given: a case measures a batch of runs or replays one run"},
		{"neither run nor runs", "    rounds:\n      bound: 4n\n      expect: violated\n",
			"m.yaml:3:5: cases[0].rounds: needs runs (a batch of runs 0..runs-1) or run (the one run to replay)"},
		{"bound not parsing", "    rounds:\n      runs: 10\n      bound: 4m\n      expect: violated\n",
			`m.yaml:5:7: cases[0].rounds.bound: "4m" is not a bound in rounds, as 4n or 12`},
		{"bound zero", "    rounds:\n      runs: 10\n      bound: 0\n      expect: violated\n",
			`m.yaml:5:7: cases[0].rounds.bound: "0" is not a bound in rounds, as 4n or 12`},
		{"bound missing", "    rounds:\n      runs: 10\n      expect: violated\n",
			"m.yaml:3:5: cases[0].rounds.bound: missing: the bound in rounds the runs are held to, as 4n or 12"},
		{"holds is not a rounds verdict", "    rounds:\n      runs: 10\n      bound: 4n\n      expect: holds\n",
			`m.yaml:6:7: cases[0].rounds.expect: verdict "holds" is not one of violated, within-sampled`},
		{"expect missing", "    rounds:\n      runs: 10\n      bound: 4n\n",
			"m.yaml:3:5: cases[0].rounds.expect: missing: violated (a run beyond the bound) or within-sampled (every run within it)"},
		{"links", "    rounds:\n      links: flaky\n      runs: 10\n      bound: 4n\n      expect: violated\n",
			`m.yaml:4:7: cases[0].rounds.links: "flaky" is not reliable or lossy`},
		{"order", "    rounds:\n      order: sideways\n      runs: 10\n      bound: 4n\n      expect: violated\n",
			`m.yaml:4:7: cases[0].rounds.order: unknown sweep order "sideways" (want backward or shuffled)`},
		{"negative run", "    rounds:\n      run: -1\n      bound: 4n\n      expect: violated\n",
			"m.yaml:4:7: cases[0].rounds.run: must not be negative (runs are numbered from 0)"},
		{"a check key beside rounds", "    from: all\n    rounds:\n      runs: 10\n      bound: 4n\n      expect: violated\n",
			"m.yaml:3:5: cases[0].from: a case with rounds measures rounds, it runs no check: it takes only name, spec, params, finding, reading, budget, rounds"},
		{"wrong type", "    rounds:\n      runs: many\n      bound: 4n\n      expect: violated\n",
			"m.yaml:4:13: cases[0].rounds.runs: many is not an integer"},
		{"finding without reading", "    finding: f\n    rounds:\n      runs: 10\n      bound: 4n\n      expect: violated\n",
			"m.yaml:3:5: cases[0].finding: needs reading: the reading of the text the case decides"},
		{"not a mapping", "    rounds:\n",
			"m.yaml:3:5: cases[0].rounds: must be a mapping: links, cs_rounds, order, seed, runs or run, bound, expect and the figures"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseManifest(context.Background(), "m.yaml", []byte(head+tc.body))
			if err == nil {
				t.Fatal("accepted")
			}
			if err.Error() != tc.want {
				t.Errorf("error\n  %s\nwant\n  %s", err, tc.want)
			}
		})
	}
	// A bound in n on a spec without n, and links on a spec without
	// reliable ones.
	for _, tc := range []struct{ manifest, want string }{
		{"cases:\n  - spec: dijkstra\n    rounds:\n      links: lossy\n      runs: 1\n      bound: 3\n      expect: violated\n",
			"m.yaml:4:7: cases[0].rounds.links: spec dijkstra has no reliable links to run on or replace; its channels are as it declares them"},
	} {
		_, err := parseManifest(context.Background(), "m.yaml", []byte(tc.manifest))
		if err == nil || err.Error() != tc.want {
			t.Errorf("error %v, want %s", err, tc.want)
		}
	}
	// A parameter combination the spec refuses fails validate, before
	// anything runs.
	cases, err := parseManifest(context.Background(), "m.yaml", []byte(head+"    params: {notimeout: 1}\n    rounds:\n      runs: 1\n      bound: 4n\n      expect: violated\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := cases[0].validate(); err == nil || !strings.Contains(err.Error(), "notimeout=1 needs resend=1 or 2") {
		t.Errorf("validate: %v, want notimeout=1 refused", err)
	}
}
