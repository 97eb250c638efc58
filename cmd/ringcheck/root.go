package main

import (
	"io"

	"github.com/spf13/cobra"
)

func newRootCmd(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "ringcheck",
		Short: "Model checker for distributed algorithms on small rings",
		Long: `ringcheck explores every state of a distributed algorithm on a small ring,
breadth-first, and decides safety and deadlock freedom, with shortest
counterexamples.

Algorithms (specs) are built in; 'ringcheck list' shows them with their
parameters and the claims of their papers. A check starts from the spec's
initial configurations (--from init) or from every configuration of the
full configuration space, channel contents included (--from all).

Exit status: 0 every checked property holds and the search was complete;
1 a property is violated; 2 bad usage, unknown spec or bad parameter;
3 a bound (--max-depth, --max-states, --time-limit, Ctrl-C) stopped the
search before any violation was found: the verdicts are "unknown".`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return &exitError{code: exitUsage, err: err}
	})
	root.AddCommand(newListCmd(), newCheckCmd(), newTraceCmd(), newRegressCmd(), newSimulateCmd(), newRoundsCmd())
	root.CompletionOptions.DisableDefaultCmd = true
	return root
}
