package cli

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/ringcheck/ringcheck/budget"
	"github.com/ringcheck/ringcheck/reports"
)

// memoryFlagHelp is the help of --max-memory.
const memoryFlagHelp = "bound the heap, as 16GiB or 512MiB: the search stops with what it found, unknown, exit 3, instead of being killed by the kernel (auto: 70% of the machine's or the cgroup's memory; none: no bound)"

// memoryLimit resolves a memory budget as --max-memory and a manifest's
// max_memory give it: auto, none, or a size other than 0 (a budget of
// nothing is refused: none says no bound). source says where the limit
// comes from ("--max-memory" for a size given).
func memoryLimit(flag string) (limit uint64, source string, err error) {
	switch strings.ToLower(strings.TrimSpace(flag)) {
	case "", "auto":
		limit, source, ok := budget.Default()
		if !ok {
			return 0, "no bound: neither /proc/meminfo nor a cgroup limit is readable", nil
		}
		return limit, fmt.Sprintf("%.0f%% of %s", budget.DefaultFraction*100, source), nil
	case "none":
		return 0, "no bound (--max-memory none)", nil
	}
	limit, err = budget.ParseSize(flag)
	if err != nil {
		return 0, "", err
	}
	if limit == 0 {
		return 0, "", fmt.Errorf("%q is no memory at all: give a size, or none for no bound", flag)
	}
	return limit, "--max-memory", nil
}

// applyMemoryLimit makes the Go runtime keep its memory near the budget
// (the heap the engines count, and the garbage the collector has not yet
// freed): without it, a heap close to the budget could double before a
// collection. The process is the command line's, so the setting is its.
func applyMemoryLimit(limit uint64) {
	if limit > 0 {
		debug.SetMemoryLimit(int64(limit))
	}
}

// describeMemoryLimit is the line --progress prints at the start.
func describeMemoryLimit(w io.Writer, limit uint64, source string) {
	if limit == 0 {
		fmt.Fprintf(w, "memory budget: %s\n", source)
		return
	}
	fmt.Fprintf(w, "memory budget: %s (%s)\n", budget.Size(limit), source)
}

// memoryHint says what to do about a check the budget stopped.
func memoryHint(w io.Writer, c *reports.CheckResult) {
	if c.Memory == nil {
		return
	}
	// What else may decide: a bound on the search, where the check
	// searches from its initial configurations; where it needs every
	// configuration, a bound on states or depth decides nothing.
	advice := []string{"Raise it with --max-memory if the machine has more to give,"}
	switch {
	case c.Options.Engine == "symbolic":
	case c.Options.From == "all":
		advice = append(advice, "decide convergence from sampled configurations (--from random) or, for a .ring spec, with --engine symbolic,")
	default:
		advice = append(advice, "bound the search with --max-states or --max-depth,")
	}
	advice = append(advice, "or check a smaller instance (the report says how many states fitted).")
	fmt.Fprintf(w, "ringcheck: the memory budget of %s stopped the check before it could decide; every verdict not violated is unknown.\n", budget.Size(c.Memory.LimitBytes))
	for _, line := range advice {
		fmt.Fprintf(w, "  %s\n", line)
	}
	if c.Stats.CollisionProbability == 0 && c.Options.From == "init" && safetyOnly(c) {
		fmt.Fprintf(w, "  --store fingerprint keeps about a third of the bytes a state for safety and deadlock.\n")
	}
}

// safetyOnly reports whether the check's properties are safety and
// deadlock only.
func safetyOnly(c *reports.CheckResult) bool {
	for _, p := range c.Properties {
		if p.Name != "safety" && p.Name != "deadlock" {
			return false
		}
	}
	return true
}

// parseStore reads --store and a manifest's store: exact, tree or
// fingerprint.
func parseStore(s string) (fingerprints, tree bool, err error) {
	switch s {
	case "", "exact":
		return false, false, nil
	case "tree":
		return false, true, nil
	case "fingerprint":
		return true, false, nil
	}
	return false, false, fmt.Errorf("%q is not exact, tree or fingerprint", s)
}
