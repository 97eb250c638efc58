package cli

import (
	"fmt"
	"io"
	"runtime/debug"

	"github.com/spf13/cobra"
)

func newRootCmd(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "ringcheck",
		Short: "Model checker for distributed algorithms on small rings",
		Long: `ringcheck explores every state of a distributed algorithm on a small ring
and decides safety and deadlock freedom (with shortest counterexamples),
starvation freedom and leads-to properties under a fairness assumption,
and self-stabilization: closure and convergence of a legitimacy
predicate, with the worst-case stabilization time.

An algorithm (a spec) is one of the built-in ones, which 'ringcheck list'
shows with their parameters and the claims of their papers, or a file
written in the ring language (FILE.ring; 'ringcheck vet FILE.ring' checks
it, docs/language.md teaches it). A check starts from the spec's initial
configurations (--from init) or from every configuration of the full
configuration space, channel contents included (--from all).

Exit status: 0 every checked property holds and the search was complete;
1 a property is violated; 2 bad usage, unknown spec or bad parameter;
3 a bound (--max-depth, --max-states, --time-limit, the memory budget,
Ctrl-C or SIGTERM) stopped the search, or an analysis after it, before
any violation was found: the verdicts it did not decide are "unknown".`,
		SilenceUsage:      true,
		SilenceErrors:     true,
		Version:           buildVersion(debug.ReadBuildInfo()),
		PersistentPreRunE: refuseEmptyFiles,
	}
	root.SetVersionTemplate("{{.Name}} {{.Version}}\n")
	root.Flags().BoolP("version", "v", false, "print the version of ringcheck and the revision it was built from")
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return &exitError{code: exitUsage, err: err}
	})
	root.AddCommand(newListCmd(), newCheckCmd(), newTraceCmd(), newRegressCmd(), newSimulateCmd(), newRoundsCmd(),
		newCompletionCmd(), newVersionCmd(), newVetCmd(), newGenCmd(), newServeCmd(), newMergeCmd(), newWorkerCmd())
	// newCompletionCmd replaces cobra's own completion command.
	root.CompletionOptions.DisableDefaultCmd = true
	registerCompletions(root)
	return root
}

// refuseEmptyFiles refuses a flag that names a file to read or write
// given an empty name (--trace ""), which would otherwise read or write
// nothing and say nothing.
func refuseEmptyFiles(cmd *cobra.Command, _ []string) error {
	for _, name := range []string{"trace", "graph", "junit", "start"} {
		if f := cmd.Flags().Lookup(name); f != nil && f.Changed && f.Value.String() == "" {
			return usageError("--%s needs a file name, not an empty one", name)
		}
	}
	return nil
}

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print ringcheck's version, as --version does",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			root := cmd.Root()
			_, err := fmt.Fprintf(cmd.OutOrStdout(), "%s %s\n", root.Name(), root.Version)
			return err
		},
	}
}

// buildVersion describes the build from its build info (ok false: none):
// the main module's version ("(devel)" when built from a work tree) and,
// when the build recorded its version control state, the revision's first
// 12 digits, its commit time and "modified" if the work tree had changes.
func buildVersion(info *debug.BuildInfo, ok bool) string {
	if !ok || info == nil {
		return "(devel)"
	}
	version := info.Main.Version
	if version == "" {
		version = "(devel)"
	}
	var revision, time string
	modified := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.time":
			time = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if revision == "" {
		return version
	}
	version += " " + revision[:min(12, len(revision))]
	if time != "" {
		version += " " + time
	}
	if modified {
		version += " modified"
	}
	return version
}
