package cli

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck"
	"github.com/spf13/cobra"
)

// TestProjectManifestReduced runs the cases of specs/regress.yaml with
// each reduction, as regress --reduce por and --reduce symmetry do, on
// the cases the reduction can run on, up to a size (smaller with
// -short), and checks that every verdict is the manifest's, and that a
// case pinned unreduced stores no more states reduced.
func TestProjectManifestReduced(t *testing.T) {
	const path = "../../../specs/regress.yaml"
	limit := int64(300000)
	if testing.Short() {
		limit = 20000
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, red := range []struct {
		reduce ringcheck.Reduce
		report string
	}{{ringcheck.ReducePOR, "por"}, {ringcheck.ReduceSymmetry, "symmetry"}} {
		t.Run(red.report, func(t *testing.T) {
			cases, err := parseManifest(context.Background(), path, data)
			if err != nil {
				t.Fatal(err)
			}
			cmd := &cobra.Command{}
			cmd.SetContext(context.Background())
			ran := 0
			for _, c := range cases {
				if c.req == nil || c.states == nil || *c.states > limit {
					continue
				}
				var full *int64
				if c.req.Reduce == ringcheck.ReduceNone {
					full = c.states
				}
				c.req.Workers = 1
				reduceCase(c, red.reduce)
				if c.req.Reduce != red.reduce {
					continue
				}
				ran++
				o := runCase(cmd, c)
				if o.Err != nil {
					t.Errorf("%s: %v", c.name, o.Err)
					continue
				}
				if d := strings.Join(o.PropertyDiffs, ""); d != "" {
					t.Errorf("%s with %s reduction: %s", c.name, red.report, strings.Join(o.PropertyDiffs, "; "))
				}
				if o.Result.Options.Reduce != red.report {
					t.Errorf("%s: the report's reduction is %q", c.name, o.Result.Options.Reduce)
				}
				if full != nil && o.Result.Stats.States > *full {
					t.Errorf("%s: %d states with the reduction, %d without", c.name, o.Result.Stats.States, *full)
				}
			}
			if ran == 0 {
				t.Fatalf("no case of the manifest ran with %s reduction", red.report)
			}
			t.Logf("%d cases with %s reduction", ran, red.report)
		})
	}
}
