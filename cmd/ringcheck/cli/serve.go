package cli

import (
	"errors"
	"fmt"
	"net"
	"net/http"

	"github.com/spf13/cobra"

	"github.com/ringcheck/ringcheck"
	"github.com/ringcheck/ringcheck/explorer"
	"github.com/ringcheck/ringcheck/replay"
	"github.com/ringcheck/ringcheck/reports"
	"github.com/ringcheck/ringcheck/specs"
)

func newServeCmd() *cobra.Command {
	var (
		params    []string
		tracePath string
		sweepPath string
		addr      string
	)
	cmd := &cobra.Command{
		Use:   "serve [SPEC] [--trace FILE] [--sweep FILE]",
		Short: "Explore a spec, or play a trace back, in the browser",
		Long: `Serve the explorer, a web page that draws the ring (processes with their
variables, channels with their messages, the processes with an enabled
step highlighted, legitimacy), lists the enabled steps of the
configuration shown and the actions whose guards are false, and takes a
step when one is clicked; back and forward go through the steps taken.
It starts from an initial configuration, a random one (from a seed), one
typed as JSON, or the trace given with --trace, played back beside its
space-time diagram.
With --sweep FILE (what 'check --sweep ... --json' writes), it plots the
sweep instead: the worst case in steps and rounds and the states against
the swept parameter, and every verdict.

With --trace and no SPEC, the spec is the one the trace names, with the
trace's parameters; the trace is replayed first, as 'trace' does. The
page and its script are in the binary: nothing is fetched from the
network. The server listens on --addr (127.0.0.1:8080 by default, so
only this machine reaches it), prints its URL, and stops on Ctrl-C.`,
		Example: "  ringcheck serve dijkstra -p n=5\n  ringcheck check kl-pusher --check starvation --fairness weak --trace lasso.json\n  ringcheck serve --trace lasso.json",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usageError("serve takes at most one SPEC")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if sweepPath != "" {
				if len(args) > 0 || tracePath != "" || len(params) > 0 {
					return usageError("--sweep plots a sweep's results alone: no SPEC, -p or --trace")
				}
				sw, err := explorer.ReadSweep(sweepPath)
				if err != nil {
					return usageError("%v", err)
				}
				return listen(cmd, addr, explorer.NewSweep(sw))
			}
			if len(args) == 0 && tracePath == "" {
				return usageError("serve needs a SPEC, a --trace FILE, or both")
			}
			var h *explorer.Handler
			var err error
			if tracePath != "" {
				if len(params) > 0 {
					return usageError("-p sets a spec's parameters; with --trace, the trace's are used")
				}
				h, err = traceExplorer(cmd, tracePath, args)
			} else {
				h, err = specExplorer(cmd, args[0], params)
			}
			if err != nil {
				return err
			}
			return listen(cmd, addr, h)
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVarP(&params, "param", "p", nil, "set a spec parameter, as name=value (repeatable)")
	fl.StringVar(&tracePath, "trace", "", "a trace to play back, as 'check --trace FILE' writes it (JSON)")
	fl.StringVar(&sweepPath, "sweep", "", "a sweep's results to plot, as 'check --sweep ... --json' writes them")
	fl.StringVar(&addr, "addr", "127.0.0.1:8080", "the address to listen on, host:port")
	return cmd
}

// listen serves h on addr, after printing its URL, until the command's
// context ends (Ctrl-C).
func listen(cmd *cobra.Command, addr string, h http.Handler) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return usageError("--addr: %v", err)
	}
	fmt.Fprintf(cmd.OutOrStdout(), "ringcheck explorer: http://%s/ (Ctrl-C stops it)\n", ln.Addr())
	if err := explorer.Serve(cmd.Context(), ln, h); err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	return nil
}

// specExplorer is the explorer over spec name with its parameters set by
// the -p assignments.
func specExplorer(cmd *cobra.Command, name string, params []string) (*explorer.Handler, error) {
	plan, err := buildSystem(cmd.Context(), name, params, "central", "")
	if err != nil {
		return nil, err
	}
	return explorer.New(plan.sys, plan.values.String(), nil)
}

// traceExplorer is the explorer over the system of the trace at path,
// which it plays back; args, when given, names the spec, which must be
// the trace's.
func traceExplorer(cmd *cobra.Command, path string, args []string) (*explorer.Handler, error) {
	t, err := reports.ReadTraceFile(path)
	if err != nil {
		return nil, usageError("%v", err)
	}
	var spec *specs.Spec
	if len(args) > 0 {
		spec, err = findSpec(cmd.Context(), args[0], "")
	} else {
		spec, err = traceSpec(cmd.Context(), t, path)
	}
	if err != nil {
		return nil, err
	}
	if err := ringcheck.Replay(spec, t); err != nil {
		var failure *replay.Failure
		if !errors.As(err, &failure) {
			return nil, usageError("%s: %v", path, err)
		}
		return nil, &exitError{code: exitViolated, err: fmt.Errorf("%s does not replay on %s: %w", path, spec.Name, err)}
	}
	sys, err := ringcheck.TraceSystem(spec, t)
	if err != nil {
		return nil, usageError("%s: %v", path, err)
	}
	values, err := spec.Resolve(t.Params)
	if err != nil {
		return nil, usageError("%s: %v", path, err)
	}
	return explorer.New(sys, values.String(), t)
}
