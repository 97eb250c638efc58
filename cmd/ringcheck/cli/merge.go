package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/reports"
	"github.com/ringcheck/ringcheck/shard"
	"github.com/ringcheck/ringcheck/specs"
)

func newMergeCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "merge FILE...",
		Short: "Merge the partial results of the shards of a check into its report",
		Long: `Merge the partial results that 'ringcheck check ... --shard i/K --json'
wrote, one per shard, into the report the check run without --shard
prints (text, or JSON with --json): the same rows, verdicts, figures and
counterexamples. --shard splits a sweep (--sweep: value number k of the
range, counted from 0, belongs to shard k mod K) or the samples of
--from random (sample j belongs to shard j mod K, drawn from the same
PCG seeded with (seed, j) as without --shard).

merge refuses files that are not shards of one run (the same spec,
parameters and options: each partial result holds a fingerprint of
them), a shard given twice and a missing shard. The time of a sweep's
row is its shard's; a check from random configurations adds up its
samples' times, as one run does; the peak heap is the largest of the
shards'.

Exit status: as the check run without --shard: 0 every property holds,
1 a property is violated, 3 a bound left one unknown; 2 when the files
cannot be merged.`,
		Example: `  for i in 0 1 2 3; do
    ringcheck check dijkstra -p n=5 --sweep K=2..9 --check closure,convergence --shard $i/4 --json -o part-$i.json
  done
  ringcheck merge part-*.json`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageError("merge needs the partial result of every shard: ringcheck merge FILE...")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMerge(cmd, args, asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the merged report as JSON, as check --json does")
	return cmd
}

func runMerge(cmd *cobra.Command, paths []string, asJSON bool) error {
	files := make([]shard.File, 0, len(paths))
	for _, p := range paths {
		part, err := shard.ReadFile(p)
		if err != nil {
			return usageError("%v", err)
		}
		files = append(files, shard.File{Name: p, Partial: part})
	}
	rep, err := shard.Merge(files)
	if err != nil {
		return usageError("%v", err)
	}
	out := cmd.OutOrStdout()
	if asJSON {
		err = rep.WriteJSON(out)
	} else {
		err = rep.WriteText(out)
	}
	if err != nil {
		return &exitError{code: exitUsage, err: fmt.Errorf("writing the result: %w", err)}
	}
	return verdictExit(rep.Violated, rep.Unknown)
}

// shardFlagsIgnored are the flags of check that change where or how its
// result is written, not what it is: they are left out of a shard run's
// fingerprint.
var shardFlagsIgnored = []string{"shard", "output", "json", "progress", "help"}

// parseShard reads --shard and checks what it goes with; nothing runs.
func parseShard(f *checkFlags) (shard.Shard, error) {
	sh, err := shard.Parse(f.shard, os.Getenv)
	if err != nil {
		return sh, usageError("--shard: %v", err)
	}
	switch {
	case !f.asJSON:
		return sh, usageError("--shard writes a partial result as JSON for 'ringcheck merge': give --json (and -o FILE)")
	case f.tracePath != "":
		return sh, usageError("--trace writes one counterexample and does not combine with --shard; the counterexamples are in the partial result")
	case f.graphPath != "":
		return sh, usageError("--graph draws one instance's state graph; not with --shard")
	case f.sweep == "" && (f.start != "" || f.from != string(invariants.FromRandom)):
		what := "this check is one search"
		switch {
		case f.start != "":
			what = "a check from --start is one search"
		case f.fromSet:
			what = "a check from " + f.from + " is one search"
		}
		return sh, usageError("--shard splits a sweep (--sweep) or the samples of --from random into independent runs; %s, which does not split", what)
	}
	return sh, nil
}

// runFingerprint identifies the run a shard is part of: the spec (its
// name, and the hash of its .ring file) and the value of every flag of
// cmd that can change the result, so that merge refuses shards of
// different runs.
func runFingerprint(cmd *cobra.Command, spec *specs.Spec, params []string) string {
	h := sha256.New()
	fmt.Fprintf(h, "spec=%s\nfile=%s\n", spec.Name, spec.FileHash)
	cmd.Flags().VisitAll(func(fl *pflag.Flag) {
		if slices.Contains(shardFlagsIgnored, fl.Name) {
			return
		}
		value := fl.Value.String()
		if fl.Name == "param" {
			value = strings.Join(slices.Sorted(slices.Values(params)), ",")
		}
		fmt.Fprintf(h, "%s=%s\n", fl.Name, value)
	})
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// writePartial writes a shard's partial result to out; a shard that ran
// all of its part exits 0 (merge gives the verdicts), one that a signal or
// a bound stopped before the end of its part exits 3.
func writePartial(out io.Writer, closeOut func() error, p *shard.Partial) error {
	err := shard.Write(out, p)
	if err == nil {
		err = closeOut()
	}
	if err != nil {
		return &exitError{code: exitUsage, err: fmt.Errorf("writing the partial result: %w", err)}
	}
	if !p.Complete {
		return &exitError{code: exitUnknown}
	}
	return nil
}

// randomPartial is the partial result of a shard of a check from random
// configurations.
func randomPartial(sh shard.Shard, run string, opts invariants.Options, rep *invariants.Report, result *reports.CheckResult, complete bool) *shard.Partial {
	return &shard.Partial{
		Format: shard.Format, Shard: sh.Index, Shards: sh.Count, Run: run, Complete: complete,
		Random: &shard.Random{Set: invariants.SampleSetOf(opts), Samples: rep.Samples, Result: result},
	}
}

// openOutput is where check writes its result: -o FILE, or stdout; close
// closes the file.
func openOutput(cmd *cobra.Command, path string) (io.Writer, func() error, error) {
	if path == "" {
		return cmd.OutOrStdout(), func() error { return nil }, nil
	}
	file, err := os.Create(path)
	if err != nil {
		return nil, nil, usageError("-o: %v", err)
	}
	return file, file.Close, nil
}
