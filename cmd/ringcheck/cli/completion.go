package cli

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/runs"
	"github.com/ringcheck/ringcheck/specs"
)

// newCompletionCmd returns the completion command, which prints a shell's
// completion script. The completions the script asks for are registered by
// registerCompletions: every command completes its positional arguments
// from the placeholders its Use line names (argCompletions) and its flags'
// values by flag name (flagCompletions, with commandFlagCompletions for a
// flag whose values depend on the command), so a new command with a SPEC
// argument or a --daemon flag completes them with no code of its own.
func newCompletionCmd() *cobra.Command {
	var noDesc bool
	cmd := &cobra.Command{
		Use:   "completion SHELL",
		Short: "Print the shell completion script for bash, zsh, fish or powershell",
		Long: `Print on stdout the script that makes SHELL (bash, zsh, fish or powershell)
complete ringcheck's command lines with Tab: commands and flags, spec names
(with their summaries), the spec's parameters after -p (-p n=, then its
values), the properties of --check one after the other (safety,deadlock),
the values of --daemon, --from, --fairness, --overflow, --order,
--engine, --trace-format and trace --format, the predicates of --leads-to, and file
names where a flag or argument is a file.

The script asks ringcheck itself for the completions, so it stays right
when ringcheck is upgraded; load it once per shell as below.

Bash (the script needs the bash-completion package, version 2: on macOS,
'brew install bash-completion@2' and follow its instructions):

  # this shell only:
  source <(ringcheck completion bash)
  # every new shell, for your user:
  mkdir -p ~/.local/share/bash-completion/completions
  ringcheck completion bash > ~/.local/share/bash-completion/completions/ringcheck
  # every new shell, for every user (Linux):
  ringcheck completion bash | sudo tee /etc/bash_completion.d/ringcheck > /dev/null

Zsh (completion must be on: if it is not, put 'autoload -U compinit; compinit'
in ~/.zshrc first):

  # this shell only:
  source <(ringcheck completion zsh)
  # every new shell: a file named _ringcheck in a folder of $fpath, e.g.
  mkdir -p ~/.zfunc
  ringcheck completion zsh > ~/.zfunc/_ringcheck
  # and, in ~/.zshrc, before compinit:  fpath=(~/.zfunc $fpath)

Fish:

  # this shell only:
  ringcheck completion fish | source
  # every new shell:
  ringcheck completion fish > ~/.config/fish/completions/ringcheck.fish

PowerShell:

  # this shell only:
  ringcheck completion powershell | Out-String | Invoke-Expression
  # every new shell: add the line above to your profile (notepad $PROFILE)

Start a new shell after installing a script for it to take effect. With
--no-descriptions the candidates come without their descriptions.`,
		Example: `  source <(ringcheck completion bash)
  ringcheck completion fish > ~/.config/fish/completions/ringcheck.fish`,
		Args: exactArgs(1, "completion needs exactly one SHELL: bash, zsh, fish or powershell"),
		RunE: func(cmd *cobra.Command, args []string) error {
			out, root := cmd.OutOrStdout(), cmd.Root()
			var err error
			switch args[0] {
			case "bash":
				err = root.GenBashCompletionV2(out, !noDesc)
			case "zsh":
				if noDesc {
					err = root.GenZshCompletionNoDesc(out)
				} else {
					err = root.GenZshCompletion(out)
				}
			case "fish":
				err = root.GenFishCompletion(out, !noDesc)
			case "powershell":
				if noDesc {
					err = root.GenPowerShellCompletion(out)
				} else {
					err = root.GenPowerShellCompletionWithDesc(out)
				}
			default:
				return usageError("completion: shell %q is not one of bash, zsh, fish, powershell", args[0])
			}
			if err != nil {
				return &exitError{code: exitUsage, err: fmt.Errorf("writing the completion script: %w", err)}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&noDesc, "no-descriptions", false, "complete without the candidates' descriptions")
	return cmd
}

// registerCompletions walks the command tree under root and, for every
// command, completes its positional arguments from the placeholders of its
// Use line and every flag that argCompletions, flagCompletions or
// commandFlagCompletions names. A completion a command registered itself
// is kept.
func registerCompletions(root *cobra.Command) {
	var walk func(*cobra.Command)
	walk = func(cmd *cobra.Command) {
		if cmd.ValidArgsFunction == nil && len(cmd.ValidArgs) == 0 && !cmd.HasSubCommands() {
			cmd.ValidArgsFunction = completeArgs
		}
		cmd.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if _, ok := cmd.GetFlagCompletionFunc(f.Name); ok {
				return
			}
			complete, ok := commandFlagCompletions[cmd.Name()+" --"+f.Name]
			if !ok {
				complete, ok = flagCompletions[f.Name]
			}
			if ok {
				// The flag exists and has no completion yet: this cannot fail.
				_ = cmd.RegisterFlagCompletionFunc(f.Name, complete)
			}
		})
		for _, sub := range cmd.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// usePlaceholders returns the positional placeholders of a command's Use
// line: "SPEC" for "check SPEC".
func usePlaceholders(cmd *cobra.Command) []string {
	words := strings.Fields(cmd.Use)
	var out []string
	for _, w := range words[min(1, len(words)):] {
		w = strings.Trim(w, "[].")
		if w != "" && w == strings.ToUpper(w) {
			out = append(out, w)
		}
	}
	return out
}

// completeArgs completes the positional argument being typed with the
// completion of the placeholder at its position in the command's Use
// line, and offers nothing (not even files) past the last placeholder.
func completeArgs(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	ph := usePlaceholders(cmd)
	if len(args) >= len(ph) {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	if complete, ok := argCompletions[ph[len(args)]]; ok {
		return complete(cmd, args, toComplete)
	}
	return nil, cobra.ShellCompDirectiveDefault
}

// argCompletions completes a positional argument by the placeholder that
// names it in a command's Use line.
var argCompletions = map[string]cobra.CompletionFunc{
	"SPEC": completeSpecs,
	// FILE: a trace in ringcheck's JSON format ('trace FILE').
	"FILE":     completeFiles("json"),
	"MANIFEST": completeFiles("yaml", "yml"),
	"SHELL": completeFixed(
		cobra.CompletionWithDesc("bash", "Bash, with the bash-completion package"),
		cobra.CompletionWithDesc("zsh", "Zsh"),
		cobra.CompletionWithDesc("fish", "fish"),
		cobra.CompletionWithDesc("powershell", "PowerShell"),
	),
}

// flagCompletions completes a flag's value by the flag's name, in every
// command that has the flag (unless commandFlagCompletions has an entry
// for that command and flag).
var flagCompletions = map[string]cobra.CompletionFunc{
	"param":    completeParams,
	"check":    completeProperties,
	"leads-to": completeLeadsTo,
	"sweep":    completeSweep,
	"daemon":   completeFixed(daemonValues...),
	"fairness": completeFixed(fairnessValues...),
	"from":     completeFixed(fromValues...),
	"overflow": completeFixed(overflowValues...),
	"order":    completeFixed(orderValues...),
	"links": completeFixed(
		cobra.CompletionWithDesc(reliableLinks, "the paper's: no send lost, channels enlarged"),
		cobra.CompletionWithDesc(lossyLinks, "the spec's bounded links: a send to a full channel is lost"),
	),
	"trace-format": completeFixed(traceFormatValues...),
	// Files ringcheck writes, in whatever format.
	"trace": completeFiles(),
	"junit": completeFiles(),
	// The folder regress writes its HTML pages to.
	"html":  completeDirs,
	"graph": completeFiles("dot", "gv"),
	// A trace ringcheck wrote, read as JSON.
	"start": completeFiles("json"),
	// Directories: where gen writes, and ringcheck's source.
	"out":       completeDirs,
	"ringcheck": completeDirs,
	// Numbers and durations: nothing to offer, and no file names.
	"fault-at":    completeNothing,
	"fill":        completeNothing,
	"cs-rounds":   completeNothing,
	"max-depth":   completeNothing,
	"max-rounds":  completeNothing,
	"max-states":  completeNothing,
	"max-memory":  completeNothing,
	"store":       completeFixed("exact", "tree", "fingerprint"),
	"reduce":      completeFixed("all", "none", "por", "symmetry"),
	"engine":      completeFixed("explicit", "symbolic", "auto"),
	"run":         completeNothing,
	"runs":        completeNothing,
	"samples":     completeNothing,
	"seed":        completeNothing,
	"start-state": completeNothing,
	"shard":       completeNothing,
	"steps":       completeNothing,
	"time-limit":  completeNothing,
	"workers":     completeNothing,
	// serve's address, host:port.
	"addr": completeNothing,
	// The worker processes: how many, the NATS server's URL, a worker's
	// name.
	"procs":           completeNothing,
	"cluster":         completeNothing,
	"cluster-workers": completeNothing,
	"name":            completeNothing,

	// The file check writes its result to (-o).
	"output": completeFiles("json", "txt"),
}

// commandFlagCompletions completes the value of one command's flag, keyed
// by "command --flag", where the values differ from flagCompletions'.
var commandFlagCompletions = map[string]cobra.CompletionFunc{
	"simulate --from": completeFixed(
		cobra.CompletionWithDesc(string(invariants.FromInit), "runs start from a random initial configuration of the spec"),
		cobra.CompletionWithDesc(string(invariants.FromAll), "runs start from a uniformly random configuration"),
	),
	"trace --format": completeFixed(traceFormatValues...),
	// serve reads a sweep's results, as JSON.
	"serve --sweep": completeFiles("json"),
}

// The enumerated values of the flags, in the order the help gives them.
var (
	daemonValues = []cobra.Completion{
		cobra.CompletionWithDesc(model.Central.String(), "one enabled process moves per step"),
		cobra.CompletionWithDesc(model.Distributed.String(), "any non-empty subset of the enabled processes moves (state-reading specs)"),
		cobra.CompletionWithDesc(model.Synchronous.String(), "every enabled process moves (state-reading specs)"),
	}
	fairnessValues = []cobra.Completion{
		cobra.CompletionWithDesc(string(invariants.NoFairness), "every execution counts"),
		cobra.CompletionWithDesc(string(invariants.WeakFairness), "no process continuously enabled without moving"),
		cobra.CompletionWithDesc(string(invariants.StrongFairness), "no process infinitely often enabled without moving"),
		cobra.CompletionWithDesc(string(invariants.WeakActionFairness), "no action continuously enabled without being taken (every message at a channel's head is received)"),
		cobra.CompletionWithDesc(string(invariants.StrongActionFairness), "no action infinitely often enabled without being taken"),
	}
	fromValues = []cobra.Completion{
		cobra.CompletionWithDesc(string(invariants.FromInit), "the spec's initial configurations"),
		cobra.CompletionWithDesc(string(invariants.FromAll), "every configuration, channel contents included"),
		cobra.CompletionWithDesc(string(invariants.FromRandom), "--samples random configurations, convergence alone"),
		cobra.CompletionWithDesc(string(invariants.FromEmptyChannels), "every configuration with empty channels, convergence alone"),
		cobra.CompletionWithDesc(string(invariants.FromStart), "every configuration where the .ring file's start predicate holds"),
	}
	overflowValues = []cobra.Completion{
		cobra.CompletionWithDesc(model.Block.String(), "a send to a full channel waits"),
		cobra.CompletionWithDesc(model.Drop.String(), "a send to a full channel loses the message"),
		cobra.CompletionWithDesc(model.Error.String(), "a send to a full channel is a violation"),
	}
	orderValues = []cobra.Completion{
		cobra.CompletionWithDesc(runs.Backward.String(), "process n-1 first, down to 0"),
		cobra.CompletionWithDesc(runs.Shuffled.String(), "a random order every round"),
	}
	traceFormatValues = []cobra.Completion{
		cobra.CompletionWithDesc("json", "ringcheck's trace format, for trace and check --start"),
		cobra.CompletionWithDesc("text", "one block per step, changes marked with *"),
		cobra.CompletionWithDesc("dot", "a Graphviz digraph"),
		cobra.CompletionWithDesc("svg", "a space-time diagram"),
		cobra.CompletionWithDesc("mermaid", "a Mermaid sequence diagram"),
		cobra.CompletionWithDesc("html", "a page that plays the trace back, self-contained"),
	}
	// propertyValues are the properties of --check.
	propertyValues = []cobra.Completion{
		cobra.CompletionWithDesc(string(invariants.Safety), "every state invariant holds in every reachable state"),
		cobra.CompletionWithDesc(string(invariants.Deadlock), "every reachable state has an enabled step"),
		cobra.CompletionWithDesc(string(invariants.Starvation), "no requesting process is kept out of its critical section forever"),
		cobra.CompletionWithDesc(string(invariants.LeadsToProperty), "with --leads-to FROM,TO: FROM is always followed by TO"),
		cobra.CompletionWithDesc(string(invariants.Closure), "no step leaves the legitimate configurations L"),
		cobra.CompletionWithDesc(string(invariants.Convergence), "every execution reaches L"),
	}
)

// choice returns the value a completion offers, without its description.
func choice(c cobra.Completion) string {
	v, _, _ := strings.Cut(c, "\t")
	return v
}

// withPrefix returns the completions whose value starts with prefix.
func withPrefix(cs []cobra.Completion, prefix string) []cobra.Completion {
	var out []cobra.Completion
	for _, c := range cs {
		if strings.HasPrefix(choice(c), prefix) {
			out = append(out, c)
		}
	}
	return out
}

// completeFixed offers the values that start with what was typed, in the
// order given.
func completeFixed(values ...cobra.Completion) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return withPrefix(values, toComplete), cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
	}
}

// completeFiles completes file names: those with one of the extensions
// (without the dot) and folders, or any file if none is given.
func completeFiles(exts ...string) cobra.CompletionFunc {
	return func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(exts) == 0 {
			return nil, cobra.ShellCompDirectiveDefault
		}
		return exts, cobra.ShellCompDirectiveFilterFileExt
	}
}

// completeDirs completes directory names.
func completeDirs(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	return nil, cobra.ShellCompDirectiveFilterDirs
}

// completeNothing offers nothing, not even file names: for numbers.
func completeNothing(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	return nil, cobra.ShellCompDirectiveNoFileComp
}

// completeSpecs offers the names of the specs, described by their
// summaries, in the order 'list' shows them.
func completeSpecs(cmd *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	reg, err := registryOf(cmd.Context())
	if err != nil {
		return nil, cobra.ShellCompDirectiveError
	}
	var out []cobra.Completion
	for _, s := range reg.All() {
		if strings.HasPrefix(s.Name, toComplete) {
			out = append(out, cobra.CompletionWithDesc(s.Name, s.Summary))
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
}

// commandSpec returns the spec named by the command's first argument, or
// nil, with the parameters its -p flags set (those that parse) and, valued
// at its lower bound, the one --sweep sweeps.
func commandSpec(cmd *cobra.Command, args []string) (*specs.Spec, map[string]int) {
	if len(args) == 0 {
		return nil, nil
	}
	reg, err := registryOf(cmd.Context())
	if err != nil {
		return nil, nil
	}
	spec, err := reg.Lookup(args[0])
	if err != nil {
		return nil, nil
	}
	params := map[string]int{}
	given, _ := cmd.Flags().GetStringArray("param")
	for _, a := range given {
		if name, val, err := specs.ParseAssignment(a); err == nil {
			params[name] = val
		}
	}
	if sweep, err := cmd.Flags().GetString("sweep"); err == nil && sweep != "" {
		if name, lo, _, err := parseSweep(sweep); err == nil {
			params[name] = lo
		}
	}
	return spec, params
}

// paramDesc describes a parameter for a completion: its doc, default and
// range.
func paramDesc(p specs.Param) string {
	return fmt.Sprintf("%s (default %d, range %d..%d)", p.Doc, p.Default, p.Min, p.Max)
}

// maxListedValues is the largest range of a parameter whose values -p
// offers one by one.
const maxListedValues = 100

// completeParams completes -p for the spec given as the first argument:
// "name=" for each of its parameters not set yet (no space follows, for
// the value), and once the name is typed, "name=v" for each value in the
// parameter's range.
func completeParams(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	spec, given := commandSpec(cmd, args)
	if spec == nil {
		return cobra.AppendActiveHelp(nil, "-p sets a parameter of the SPEC given first"), cobra.ShellCompDirectiveNoFileComp
	}
	if name, _, ok := strings.Cut(toComplete, "="); ok {
		p, ok := spec.Param(name)
		if !ok || p.Max-p.Min >= maxListedValues {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var out []cobra.Completion
		for v := p.Min; v <= p.Max; v++ {
			c := name + "=" + strconv.Itoa(v)
			if !strings.HasPrefix(c, toComplete) {
				continue
			}
			desc := p.Doc
			if v == p.Default {
				desc = "default: " + desc
			}
			out = append(out, cobra.CompletionWithDesc(c, desc))
		}
		return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
	}
	return paramNames(spec, given, toComplete), cobra.ShellCompDirectiveNoSpace | cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
}

// paramNames offers "name=" for each parameter of spec that starts with
// toComplete and is not among those given.
func paramNames(spec *specs.Spec, given map[string]int, toComplete string) []cobra.Completion {
	var out []cobra.Completion
	for _, p := range spec.Params {
		if _, set := given[p.Name]; set || !strings.HasPrefix(p.Name, toComplete) {
			continue
		}
		out = append(out, cobra.CompletionWithDesc(p.Name+"=", paramDesc(p)))
	}
	return out
}

// completeSweep completes --sweep for the spec given as the first
// argument: "name=" for each parameter not set with -p, then the
// parameter's whole range, "name=lo..hi", with no space after it so that
// the bounds can be narrowed.
func completeSweep(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	spec, given := commandSpec(cmd, args)
	if spec == nil {
		return cobra.AppendActiveHelp(nil, "--sweep sweeps a parameter of the SPEC given first"), cobra.ShellCompDirectiveNoFileComp
	}
	if name, _, ok := strings.Cut(toComplete, "="); ok {
		p, ok := spec.Param(name)
		if !ok {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		c := fmt.Sprintf("%s=%d..%d", name, p.Min, p.Max)
		return withPrefix([]cobra.Completion{cobra.CompletionWithDesc(c, p.Doc)}, toComplete), cobra.ShellCompDirectiveNoSpace | cobra.ShellCompDirectiveNoFileComp
	}
	return paramNames(spec, given, toComplete), cobra.ShellCompDirectiveNoSpace | cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
}

// completeProperties completes --check, a comma-separated list of
// properties: see completeCommaList.
func completeProperties(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	return completeCommaList(toComplete, propertyValues), cobra.ShellCompDirectiveNoSpace | cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
}

// undescribed returns the completions without their descriptions. Bash's
// printf %q escapes commas, and cobra's bash script compares a described
// candidate, so escaped, with the word typed: a described candidate with a
// comma would never match. Undescribed ones take another path that works.
func undescribed(cs []cobra.Completion) []cobra.Completion {
	out := make([]cobra.Completion, len(cs))
	for i, c := range cs {
		out[i] = choice(c)
	}
	return out
}

// completeCommaList completes the last item of toComplete, a
// comma-separated list, from items: it offers the list as typed up to its
// last comma followed by each item that starts with the last, partly typed
// one and is not in the list already. Once a comma is typed the
// candidates have no descriptions (see undescribed).
func completeCommaList(toComplete string, items []cobra.Completion) []cobra.Completion {
	done, last := "", toComplete
	if i := strings.LastIndex(toComplete, ","); i >= 0 {
		done, last = toComplete[:i+1], toComplete[i+1:]
	}
	typed := map[string]bool{}
	for _, t := range strings.Split(done, ",") {
		typed[strings.TrimSpace(t)] = true
	}
	var out []cobra.Completion
	for _, c := range withPrefix(items, last) {
		if typed[choice(c)] {
			continue
		}
		if done == "" {
			out = append(out, c)
		} else {
			out = append(out, done+choice(c))
		}
	}
	return out
}

// completeLeadsTo completes --leads-to FROM,TO from the per-process
// predicates of the spec given as the first argument, built with the
// parameters of -p (or its defaults if they do not build): "FROM," first,
// with no space after it, then "FROM,TO" for each predicate TO other than
// FROM. The candidates, which have commas, have no descriptions (see
// undescribed).
func completeLeadsTo(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	spec, given := commandSpec(cmd, args)
	if spec == nil {
		return cobra.AppendActiveHelp(nil, "--leads-to names predicates of the SPEC given first"), cobra.ShellCompDirectiveNoFileComp
	}
	vals, err := spec.Resolve(given)
	if err != nil {
		if vals, err = spec.Resolve(nil); err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
	}
	sys, err := spec.Build(vals)
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	from, to, second := strings.Cut(toComplete, ",")
	var out []cobra.Completion
	for _, pp := range sys.ProcessPredicates {
		switch {
		case !second && strings.HasPrefix(pp.Name, from):
			out = append(out, pp.Name+",")
		case second && pp.Name != from && strings.HasPrefix(pp.Name, to):
			out = append(out, from+","+pp.Name)
		}
	}
	directive := cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
	if !second {
		directive |= cobra.ShellCompDirectiveNoSpace
	}
	return out, directive
}
