package cli

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/ringcheck/ringcheck/lang"
	"github.com/ringcheck/ringcheck/lang/syntax"
)

func newVetCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "vet FILE.ring...",
		Short: "Check .ring files for errors without running a search",
		Long: `Check each .ring file as a check would before it searches: parse it,
resolve and type every name and expression, and build the model (its
initial configuration included) for the default parameters and for the
parameters of each of the file's claims; read and replay the start file
of each claim decided from one (from "FILE").

Each problem is printed as file:line:col: message (up to ten per
instance), the form editors jump to. A file with no problem prints
"FILE: ok".

Exit status: 0 every file is well formed; 2 a file has problems or
cannot be read.`,
		Example: `  ringcheck vet specs/ring/dijkstra.ring
  ringcheck vet specs/ring/*.ring`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageError("vet needs at least one FILE.ring")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			var errs []error
			for _, path := range args {
				if err := lang.Vet(path); err != nil {
					if _, inFile := syntax.AsError(err); !inFile {
						err = fmt.Errorf("ringcheck: %w", err)
					}
					errs = append(errs, err)
					continue
				}
				fmt.Fprintf(cmd.OutOrStdout(), "%s: ok\n", path)
			}
			if len(errs) > 0 {
				return sourceError(errors.Join(errs...))
			}
			return nil
		},
	}
}
