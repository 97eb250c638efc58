package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/ringcheck/ringcheck/reports"
)

func newTraceCmd() *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "trace FILE",
		Short: "Render a counterexample saved by 'check --trace FILE'",
		Long: `Read a trace in ringcheck's JSON format (what 'check --trace FILE' writes)
and render it: as text (one block per step, the acting process and action,
changed variables and channels marked with '*'), as JSON again, as a
Graphviz digraph (dot), as a space-time diagram (svg: one column per
process, one row per step, messages as arrows), or as a Mermaid sequence
diagram (mermaid).`,
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
			if err := write(cmd.OutOrStdout(), t); err != nil {
				return &exitError{code: exitUsage, err: fmt.Errorf("writing the trace: %w", err)}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: "+traceFormatList)
	return cmd
}
