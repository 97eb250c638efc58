package cli

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/ringcheck/ringcheck"
	"github.com/ringcheck/ringcheck/budget"
	"github.com/ringcheck/ringcheck/cluster"
	"github.com/ringcheck/ringcheck/cluster/natsnet"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/lang"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/statespace"
)

// clusterFlags are check's flags that run the search on worker
// processes: --procs, --cluster and --cluster-workers.
type clusterFlags struct {
	procs   int
	url     string
	workers int
}

func (c *clusterFlags) add(fl *pflag.FlagSet) {
	fl.IntVar(&c.procs, "procs", 0, "search on N worker processes on this machine, over an embedded NATS server on loopback: safety and deadlock from init, or closure and convergence from every configuration (--from all; the worst case in rounds is not computed), unreduced (--reduce none; an explicit other --reduce is refused), the exact store; --max-memory applies to each worker (0: one process, no server)")
	fl.StringVar(&c.url, "cluster", "", "search on the workers ('ringcheck worker --cluster URL') waiting at the NATS server URL, as nats://HOST:4222, as --procs does; --cluster-workers says how many")
	fl.IntVar(&c.workers, "cluster-workers", 0, "with --cluster: how many of the workers waiting there the search takes (it fails when fewer answer within 10s)")
}

func (c *clusterFlags) enabled() bool { return c.procs > 0 || c.url != "" }

// prepare refuses what the workers do not run and makes req unreduced.
func (c *clusterFlags) prepare(req *ringcheck.Request, f *checkFlags) error {
	switch {
	case c.procs < 0:
		return usageError("--procs is %d: give a number of worker processes, at least 1", c.procs)
	case c.workers < 0:
		return usageError("--cluster-workers is %d: give a number of workers, at least 1", c.workers)
	case c.procs > 0 && c.url != "":
		return usageError("--procs starts its own workers: not with --cluster")
	case c.url != "" && c.workers == 0:
		return usageError("--cluster needs --cluster-workers N, the number of workers to take")
	case c.workers > 0 && c.url == "":
		return usageError("--cluster-workers needs --cluster URL")
	case !c.enabled():
		return nil
	}
	flag := "--procs"
	if c.url != "" {
		flag = "--cluster"
	}
	switch {
	case f.reduce != "" && f.reduce != string(ringcheck.ReduceNone):
		return usageError("%s searches unreduced: not with --reduce %s (leave it out, or give --reduce none)", flag, f.reduce)
	case f.store != "exact":
		return usageError("%s keeps the exact store on its workers: not with --store %s", flag, f.store)
	case f.sweep != "":
		return usageError("%s runs one check: not with --sweep", flag)
	case f.graphPath != "":
		return usageError("%s keeps no state graph: not with --graph", flag)
	case f.start != "" || f.startSet:
		return usageError("%s searches from init or from every configuration: not with --start", flag)
	case f.engine != "" && f.engine != string(ringcheck.EngineExplicit):
		return usageError("%s runs the explicit engine: not with --engine %s", flag, f.engine)
	}
	req.Reduce = ringcheck.ReduceNone
	return nil
}

// clusterApplies says why the workers cannot run a check of opts: they
// check safety and deadlock from init, or closure and convergence from
// every configuration.
func clusterApplies(opts invariants.Options) error {
	stab, other := false, false
	for _, p := range opts.Properties {
		switch p {
		case invariants.Safety, invariants.Deadlock:
			other = true
		case invariants.Closure, invariants.Convergence:
			stab = true
		default:
			return fmt.Errorf("the workers check safety and deadlock from init, closure and convergence from every configuration, not %s (liveness runs on one process: leave out --procs and --cluster)", p)
		}
	}
	switch {
	case stab && other:
		return fmt.Errorf("the workers check closure and convergence from every configuration apart from safety and deadlock: give them in two checks")
	case stab && opts.From != invariants.FromAll:
		return fmt.Errorf("the workers check closure and convergence from every configuration (--from all), not from %s", opts.From)
	case stab && (opts.Search.MaxStates > 0 || opts.Search.MaxDepth > 0):
		return fmt.Errorf("the workers sweep every configuration: not with --max-states or --max-depth")
	case !stab && (opts.From != invariants.FromInit || opts.Start != nil):
		return fmt.Errorf("the workers search for safety and deadlock from init, not from %s", opts.From)
	}
	return nil
}

// workerSpec is what a worker builds the system from: the spec (a
// built-in's name, or a .ring file's name and text), its parameters and
// the options that change the model, and the properties.
type workerSpec struct {
	Spec       string   `json:"spec"`
	File       string   `json:"file,omitempty"`
	Params     []string `json:"params,omitempty"`
	Daemon     string   `json:"daemon,omitempty"`
	Overflow   string   `json:"overflow,omitempty"`
	Properties []string `json:"properties"`
}

func newWorkerSpec(specName string, f *checkFlags, props []invariants.Property) ([]byte, error) {
	ws := workerSpec{Spec: specName, Params: f.params, Daemon: f.daemon, Overflow: f.overflow}
	if lang.IsPath(specName) {
		text, err := os.ReadFile(specName)
		if err != nil {
			return nil, err
		}
		ws.Spec, ws.File = filepath.Base(specName), string(text)
	}
	for _, p := range props {
		ws.Properties = append(ws.Properties, string(p))
	}
	return json.Marshal(ws)
}

// buildWorkerSpec builds the system a workerSpec describes, as check
// builds it.
func buildWorkerSpec(ctx context.Context, data []byte) (*model.System, []invariants.Property, error) {
	var ws workerSpec
	if err := json.Unmarshal(data, &ws); err != nil {
		return nil, nil, fmt.Errorf("reading the spec of the job: %w", err)
	}
	name := ws.Spec
	if ws.File != "" {
		dir, err := os.MkdirTemp("", "ringcheck-worker-*")
		if err != nil {
			return nil, nil, err
		}
		defer os.RemoveAll(dir)
		name = filepath.Join(dir, filepath.Base(ws.Spec))
		if err := os.WriteFile(name, []byte(ws.File), 0o600); err != nil {
			return nil, nil, err
		}
	}
	f := &checkFlags{params: ws.Params, daemon: ws.Daemon, overflow: ws.Overflow, store: "exact", maxMemory: "none", traceFormat: "json", engine: string(ringcheck.EngineExplicit)}
	req, err := f.request(ctx, name, nil)
	if err != nil {
		return nil, nil, err
	}
	sys, err := req.System()
	if err != nil {
		return nil, nil, err
	}
	var props []invariants.Property
	for _, p := range ws.Properties {
		props = append(props, invariants.Property(p))
	}
	return sys, props, nil
}

// search returns the search that runs a check on the workers: on --procs
// processes started here, over an embedded server, or on those waiting
// at --cluster. It prints a line naming the workers on stderr.
func (c *clusterFlags) search(cmd *cobra.Command, specName string, f *checkFlags, req *ringcheck.Request) func(context.Context, *model.System, invariants.Options) (*invariants.Report, error) {
	if !c.enabled() {
		return nil
	}
	stderr := cmd.ErrOrStderr()
	return func(ctx context.Context, sys *model.System, opts invariants.Options) (*invariants.Report, error) {
		if err := clusterApplies(opts); err != nil {
			return nil, err
		}
		spec, err := newWorkerSpec(specName, f, opts.Properties)
		if err != nil {
			return nil, err
		}
		url, n := c.url, c.workers
		var procs *workerProcs
		if c.procs > 0 {
			srv, u, err := natsnet.StartServer()
			if err != nil {
				return nil, err
			}
			defer srv.Shutdown()
			url, n = u, c.procs
			started, err := startWorkers(url, n, stderr, true)
			if err != nil {
				return nil, err
			}
			defer started.stop()
			procs = started
		}
		nc, err := nats.Connect(url, nats.Name("ringcheck check"), nats.Timeout(5*time.Second))
		if err != nil {
			return nil, fmt.Errorf("connecting to %s: %w", url, err)
		}
		defer nc.Close()
		return searchOnWorkers(ctx, nc, n, procs, sys, opts, spec, req.MaxMemory, stderr)
	}
}

// searchOnWorkers hires n workers on nc and runs the search of sys for
// opts on them; it prints a line naming them on stderr, and with a
// progress callback in opts a line per worker. procs, if not nil, are
// the worker processes started here: one that ends loses its worker at
// once.
func searchOnWorkers(ctx context.Context, nc *nats.Conn, n int, procs *workerProcs, sys *model.System, opts invariants.Options, spec []byte, maxMemory uint64, stderr io.Writer) (*invariants.Report, error) {
	node, names, err := natsnet.Hire(ctx, nc, n, sys, spec, natsnet.HireOptions{MaxMemory: maxMemory})
	if err != nil {
		return nil, err
	}
	defer node.Close()
	if procs != nil {
		done := make(chan struct{})
		defer close(done)
		go reportExits(node, procs, names, done)
	}
	fmt.Fprintf(stderr, "ringcheck: %d workers at %s: %s\n", n, nc.ConnectedUrl(), strings.Join(names, ", "))
	copts := cluster.Options{Properties: opts.Properties, Fairness: opts.Fairness, Search: opts.Search, Names: names}
	// The budget applies to each worker, which got it with its job.
	copts.Search.Memory = nil
	if opts.Search.Progress != nil {
		copts.WorkerProgress = func(ws []cluster.WorkerProgress) {
			for _, w := range ws {
				fmt.Fprintf(stderr, "progress:   worker %d (%s): %d states, store %s, heap %s (peak %s)\n",
					w.Worker, names[w.Worker], w.States, budget.Size(uint64(w.StoreBytes)), budget.Size(uint64(w.Heap)), budget.Size(uint64(w.PeakHeap)))
			}
		}
	}
	return cluster.Check(ctx, sys, node, copts)
}

// startRegressCluster starts an embedded server and procs workers for
// regress --procs, and points every case the workers run at them; the
// others go to skipped, with why. stop ends the workers and the server.
func startRegressCluster(cmd *cobra.Command, procs int, cases []*regressCase, skipped map[*regressCase]string) (stop func(), err error) {
	srv, url, err := natsnet.StartServer()
	if err != nil {
		return nil, err
	}
	started, err := startWorkers(url, procs, cmd.ErrOrStderr(), false)
	if err != nil {
		srv.Shutdown()
		return nil, err
	}
	nc, err := nats.Connect(url, nats.Name("ringcheck regress"), nats.Timeout(5*time.Second))
	if err != nil {
		started.stop()
		srv.Shutdown()
		return nil, fmt.Errorf("connecting to %s: %w", url, err)
	}
	ran := 0
	for _, c := range cases {
		if why := regressOnWorkers(c); why != "" {
			skipped[c] = "skipped by --procs: " + why
			continue
		}
		ran++
		reduceCase(c, ringcheck.ReduceNone)
		c.req.Search = func(ctx context.Context, sys *model.System, opts invariants.Options) (*invariants.Report, error) {
			if err := clusterApplies(opts); err != nil {
				return nil, err
			}
			spec, err := requestSpec(c.req, opts.Properties)
			if err != nil {
				return nil, err
			}
			return searchOnWorkers(ctx, nc, procs, started, sys, opts, spec, c.req.MaxMemory, io.Discard)
		}
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "ringcheck: --procs %d: %d cases on the workers, %d skipped (NOT RUN)\n", procs, ran, len(skipped))
	return func() {
		nc.Close()
		started.stop()
		srv.Shutdown()
	}, nil
}

// regressOnWorkers says why the workers do not run case c, or "".
func regressOnWorkers(c *regressCase) string {
	r := c.req
	if r == nil {
		return "a rounds search"
	}
	props := r.Properties
	if len(props) == 0 {
		for _, p := range r.Spec.DefaultChecks {
			props = append(props, invariants.Property(p))
		}
	}
	stab := false
	for _, p := range props {
		switch p {
		case invariants.Safety, invariants.Deadlock:
		case invariants.Closure, invariants.Convergence:
			stab = true
		default:
			return fmt.Sprintf("the workers check safety and deadlock from init, closure and convergence from every configuration, not %s", p)
		}
	}
	if stab {
		return stabilityOnWorkers(c, props)
	}
	switch {
	case r.From != "" && r.From != invariants.FromInit || r.Start != nil:
		return "the workers search for safety and deadlock from init"
	case r.LeadsTo != (invariants.LeadsTo{}):
		return "the workers check safety and deadlock, not leads-to"
	case r.Fingerprints || r.TreeStore:
		return "the workers keep the exact store"
	case r.Engine != "" && r.Engine != ringcheck.EngineExplicit:
		return "the workers are explicit"
	case r.ReliableLinks:
		return "the workers run the spec's own links"
	}
	return ""
}

// stabilityOnWorkers says why the workers do not run case c of closure
// and convergence (props), or "".
func stabilityOnWorkers(c *regressCase, props []invariants.Property) string {
	r := c.req
	switch {
	case slices.ContainsFunc(props, func(p invariants.Property) bool { return p != invariants.Closure && p != invariants.Convergence }):
		return "the workers check closure and convergence apart from safety and deadlock"
	case r.Start != nil:
		return "the workers check closure and convergence from every configuration, not from given ones"
	case r.From != "" && r.From != invariants.FromAll:
		return fmt.Sprintf("the workers check closure and convergence from every configuration, not from %s", r.From)
	case r.Engine != "" && r.Engine != ringcheck.EngineExplicit:
		return "the workers are explicit"
	case r.ReliableLinks:
		return "the workers run the spec's own links"
	case r.MaxStates > 0 || r.MaxDepth > 0:
		return "the workers sweep every configuration, unbounded"
	case c.rounds != nil:
		return "the workers do not compute the worst case in rounds"
	case c.cycle != nil:
		return "the workers' cycle is not a shortest one (cycle_steps)"
	}
	sys, err := r.System()
	if err != nil {
		return err.Error()
	}
	if size, ok := sys.Configurations(); !ok || size > statespace.MaxSpace {
		return "the full space is too large for the workers (one process decides closure from an enumeration of L)"
	}
	return ""
}

// requestSpec is what a worker builds the system of r from, to check
// props: the spec's .ring file, when it was read from one that still
// has its hash, or its name.
func requestSpec(r *ringcheck.Request, props []invariants.Property) ([]byte, error) {
	ws := workerSpec{Spec: r.Spec.Name, Daemon: r.Daemon.String()}
	if f := r.Spec.File; f != "" {
		if text, err := os.ReadFile(f); err == nil && fmt.Sprintf("%x", sha256.Sum256(text)) == r.Spec.FileHash {
			ws.Spec, ws.File = filepath.Base(f), string(text)
		}
	}
	for _, p := range props {
		ws.Properties = append(ws.Properties, string(p))
	}
	for name, v := range r.Params {
		ws.Params = append(ws.Params, fmt.Sprintf("%s=%d", name, v))
	}
	slices.Sort(ws.Params)
	if r.Overflow != nil {
		ws.Overflow = r.Overflow.String()
	}
	return json.Marshal(ws)
}

// workerProcs are the worker processes started here.
type workerProcs struct {
	// exited receives the pid of each process that ends, and how.
	exited chan workerExit
	stop   func()
}

// workerExit is the end of a worker process.
type workerExit struct {
	pid int
	err error
}

// startWorkers starts n processes of this command as workers at url,
// each serving one search (once) or any number; stop waits a little for
// those serving one to end, and kills those left.
func startWorkers(url string, n int, stderr io.Writer, once bool) (*workerProcs, error) {
	exe, err := selfExecutable()
	if err != nil {
		return nil, err
	}
	var procs []*exec.Cmd
	done := make([]chan struct{}, 0, n)
	wp := &workerProcs{exited: make(chan workerExit, n)}
	wp.stop = func() {
		wait := 3 * time.Second
		if !once {
			wait = 0
		}
		deadline := time.Now().Add(wait)
		for i, p := range procs {
			select {
			case <-done[i]:
			case <-time.After(time.Until(deadline)):
				p.Process.Kill()
				<-done[i]
			}
		}
	}
	for range n {
		args := []string{"worker", "--cluster", url, "--quiet"}
		if once {
			args = append(args, "--once")
		}
		p := exec.Command(exe, args...)
		p.Stderr = stderr
		if err := p.Start(); err != nil {
			wp.stop()
			return nil, fmt.Errorf("starting a worker: %w", err)
		}
		ch := make(chan struct{})
		go func() {
			err := p.Wait()
			wp.exited <- workerExit{pid: p.Process.Pid, err: err}
			close(ch)
		}()
		procs, done = append(procs, p), append(done, ch)
	}
	return wp, nil
}

// reportExits tells the coordinator on node, until done is closed, of
// every worker process of procs that ends: a worker whose process ends
// during the search is lost at once, without waiting for its silence.
// names are the hired workers' names, which end with their pid.
func reportExits(node *natsnet.Node, procs *workerProcs, names []string, done <-chan struct{}) {
	for {
		select {
		case <-done:
			return
		case e := <-procs.exited:
			for k, name := range names {
				if strings.HasSuffix(name, fmt.Sprintf(" pid %d", e.pid)) {
					why := "its process exited"
					if e.err != nil {
						why += " (" + e.err.Error() + ")"
					}
					node.Send(context.Background(), cluster.Coordinator, &cluster.Message{Kind: cluster.KindFailed, From: k, Text: why})
				}
			}
		}
	}
}

// selfExecutable is the program to start workers with: this one, as it
// was started (a test's binary standing for ringcheck is started by the
// name it was run as).
func selfExecutable() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("finding ringcheck's executable: %w", err)
	}
	if filepath.Base(exe) == filepath.Base(os.Args[0]) {
		return exe, nil
	}
	if strings.ContainsRune(os.Args[0], filepath.Separator) {
		return filepath.Abs(os.Args[0])
	}
	return exec.LookPath(os.Args[0])
}

func newWorkerCmd() *cobra.Command {
	var url, name string
	var once, quiet bool
	cmd := &cobra.Command{
		Use:   "worker",
		Short: "Serve partitioned searches of 'check --cluster' as a worker",
		Long: `Connect to the NATS server at --cluster and serve the searches that
'ringcheck check ... --cluster URL --cluster-workers N' (or --procs N, which
starts its own workers) hands out: each one's share of a breadth-first
search for safety and deadlock, or of an analysis of closure and
convergence from every configuration, one at a time. The worker builds
the spec the coordinator names (a built-in, or the text of its .ring
file), and leaves a search whose coordinator has been silent for 3s.
Without --once it then waits for the next search.`,
		Example: `  ringcheck worker --cluster nats://10.0.0.5:4222
  ringcheck check kl-pusher -p n=5 --check safety,deadlock --cluster nats://10.0.0.5:4222 --cluster-workers 8`,
		Args: exactArgs(0, "worker takes no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if url == "" {
				return usageError("worker needs --cluster URL, the NATS server to join")
			}
			if name == "" {
				host, _ := os.Hostname()
				name = fmt.Sprintf("%s pid %d", host, os.Getpid())
			}
			nc, err := nats.Connect(url, nats.Name("ringcheck worker "+name), nats.Timeout(5*time.Second))
			if err != nil {
				return fmt.Errorf("connecting to %s: %w", url, err)
			}
			defer nc.Close()
			ctx := cmd.Context()
			build := func(spec []byte) (*model.System, []invariants.Property, error) { return buildWorkerSpec(ctx, spec) }
			wopts := natsnet.WorkOptions{Name: name, Once: once, Log: cmd.ErrOrStderr()}
			if quiet {
				wopts.Log = nil
			}
			err = natsnet.Work(ctx, nc, build, wopts)
			if err != nil && quiet {
				fmt.Fprintf(cmd.ErrOrStderr(), "ringcheck: worker %s: %v\n", name, err)
			}
			return err
		},
	}
	cmd.Flags().StringVar(&url, "cluster", "", "the NATS server to join, as nats://HOST:4222")
	cmd.Flags().StringVar(&name, "name", "", "the name the worker gives (default: the host's name and the process id)")
	cmd.Flags().BoolVar(&once, "once", false, "serve one search, then exit")
	cmd.Flags().BoolVar(&quiet, "quiet", false, "print nothing but the error that ends the worker (by default a line per search, and each search's error)")
	return cmd
}
