package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/ringcheck/ringcheck"
	"github.com/ringcheck/ringcheck/replay"
	"github.com/ringcheck/ringcheck/reports"
	"github.com/ringcheck/ringcheck/specs"
)

// traceSpec finds the spec a trace read from path is a trace of: the .ring
// file it records (relative to the current folder, or else to the
// trace's), or the spec of that name.
func traceSpec(ctx context.Context, t *reports.Trace, path string) (*specs.Spec, error) {
	if f := t.SpecFile; f != nil {
		file := f.Path
		if _, err := os.Stat(file); errors.Is(err, os.ErrNotExist) && !filepath.IsAbs(file) {
			file = filepath.Join(filepath.Dir(path), f.Path)
		}
		return findSpec(ctx, file, "")
	}
	return findSpec(ctx, t.Spec, "")
}

func newTraceCmd() *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "trace FILE",
		Short: "Render a counterexample saved by 'check --trace FILE'",
		Long: `Read a trace in ringcheck's JSON format (what 'check --trace FILE' writes),
check it, and render it: as text (one block per step, the acting process
and action, changed variables and channels marked with '*'), as JSON
again, as a Graphviz digraph (dot), as a space-time diagram (svg: one
column per process, one row per step, messages as arrows), as a
Mermaid sequence diagram (mermaid), or as one self-contained HTML page
that plays the trace back beside the ring (html).

The trace is replayed against the spec it names (a built-in spec, or the
.ring file it records, relative to the current folder or to the trace's)
with its parameters: every value in its domain, the first state initial
unless the trace says it starts elsewhere, every step an enabled action
of the processes it names leading to the next state, a lasso closing
where it says. The first state or step that fails is reported, and
nothing is rendered. Then the execution must show what the trace claims:
for safety, the invariant it names (or some invariant) false in its last
state, or a last step that overflows a channel whose policy is error;
for a deadlock, no step enabled in its last state; for a lasso
(starvation, leads-to, convergence), a loop fair under the trace's
fairness; for convergence, no legitimate state; for a witness of
stabilization, a path that ends in L. A trace that does not is refused,
with what it claims and what is wrong.

Exit status: 0 the trace replays and shows what it claims; 1 it does
not replay; 2 the file is not a trace, its spec cannot be found, or it
does not show what it claims.`,
		Example: "  ringcheck check kl-naive --check deadlock --trace t.json\n  ringcheck trace t.json\n  ringcheck trace t.json --format svg > t.svg",
		Args:    exactArgs(1, "trace needs exactly one FILE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			write := traceWriters[format]
			if write == nil {
				return usageError("--format %q is not one of %s", format, traceFormatList)
			}
			t, err := reports.ReadTraceFile(args[0])
			if err != nil {
				return usageError("%v", err)
			}
			spec, err := traceSpec(cmd.Context(), t, args[0])
			if err != nil {
				return usageError("%s: %v", args[0], err)
			}
			if err := ringcheck.Replay(spec, t); err != nil {
				var failure *replay.Failure
				if !errors.As(err, &failure) {
					return usageError("%s: %v", args[0], err)
				}
				return &exitError{code: exitViolated, err: fmt.Errorf("%s does not replay on %s: %w", args[0], spec.Name, err)}
			}
			if err := write(cmd.OutOrStdout(), t); err != nil {
				return &exitError{code: exitUsage, err: fmt.Errorf("writing the trace: %w", err)}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: "+traceFormatList)
	return cmd
}
