package natsnet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"strings"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/ringcheck/ringcheck/budget"
	"github.com/ringcheck/ringcheck/cluster"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
)

// JobsSubject is where a coordinator asks idle workers for a job; they
// listen in the queue group jobsQueue, so that one of them takes it.
const (
	JobsSubject = "ringcheck.jobs"
	jobsQueue   = "ringcheck-workers"
)

// Job is what a coordinator asks a worker to do: be worker Worker of
// Workers in run Run, on the system Spec describes (the worker's Builder
// reads it), which must have the fingerprint System.
type Job struct {
	Run       string          `json:"run"`
	Worker    int             `json:"worker"`
	Workers   int             `json:"workers"`
	Spec      json.RawMessage `json:"spec"`
	System    string          `json:"system"`
	Batch     int             `json:"batch,omitempty"`
	Credit    int             `json:"credit,omitempty"`
	MaxMemory uint64          `json:"max_memory,omitempty"`
}

type jobReply struct {
	Name  string `json:"name"`
	Error string `json:"error,omitempty"`
}

// Fingerprint identifies sys for a worker to check that it built the
// coordinator's system: its name, its words per state and its initial
// configurations.
func Fingerprint(sys *model.System) string {
	h := fnv.New64a()
	packed := make([]uint64, sys.Words())
	for _, st := range sys.Initial() {
		sys.Pack(st, packed)
		for _, w := range packed {
			fmt.Fprintf(h, "%x,", w)
		}
	}
	return fmt.Sprintf("%s/%d/%d/%x", sys.Name, sys.N(), sys.Words(), h.Sum64())
}

// HireOptions say how a coordinator hires its workers.
type HireOptions struct {
	// Wait is how long to wait for the workers to answer (0: 10 s).
	Wait time.Duration
	// Batch, Credit and MaxMemory go to each worker (WorkerOptions).
	Batch, Credit int
	MaxMemory     uint64
}

// Hire asks n idle workers on nc for the jobs of a run of the system sys,
// which spec describes to them, and returns the coordinator's node and
// the names of the workers, in order. It fails when fewer than n
// answer within opts.Wait, or one cannot build the system.
func Hire(ctx context.Context, nc *nats.Conn, n int, sys *model.System, spec []byte, opts HireOptions) (*Node, []string, error) {
	if opts.Wait <= 0 {
		opts.Wait = 10 * time.Second
	}
	run := strings.TrimPrefix(nc.NewRespInbox(), nats.InboxPrefix)
	run = strings.ReplaceAll(run, ".", "")
	watch := make([]int, n)
	for k := range watch {
		watch[k] = k
	}
	node, err := newNode(nc, run, cluster.Coordinator, n, watch, LostAfter)
	if err != nil {
		return nil, nil, err
	}
	names := make([]string, 0, n)
	fail := func(err error) (*Node, []string, error) {
		for k := range names {
			node.Send(ctx, k, &cluster.Message{Kind: cluster.KindStop, From: cluster.Coordinator})
		}
		node.Close()
		return nil, nil, err
	}
	deadline := time.Now().Add(opts.Wait)
	fp := Fingerprint(sys)
	for k := range n {
		job, err := json.Marshal(Job{Run: run, Worker: k, Workers: n, Spec: spec, System: fp, Batch: opts.Batch, Credit: opts.Credit, MaxMemory: opts.MaxMemory})
		if err != nil {
			return fail(err)
		}
		for {
			wait, cancel := context.WithTimeout(ctx, min(2*time.Second, max(time.Until(deadline), time.Millisecond)))
			msg, err := nc.RequestWithContext(wait, JobsSubject, job)
			cancel()
			if err == nil {
				var r jobReply
				if err := json.Unmarshal(msg.Data, &r); err != nil {
					return fail(fmt.Errorf("worker %d's answer: %w", k, err))
				}
				if r.Error != "" {
					return fail(fmt.Errorf("worker %s: %s", r.Name, r.Error))
				}
				names = append(names, r.Name)
				break
			}
			if ctx.Err() != nil {
				return fail(ctx.Err())
			}
			if !errors.Is(err, nats.ErrNoResponders) && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, nats.ErrTimeout) {
				return fail(fmt.Errorf("asking for worker %d: %w", k, err))
			}
			if time.Now().After(deadline) {
				return fail(fmt.Errorf("%d of %d workers answered at %s within %s", k, n, nc.ConnectedUrl(), opts.Wait))
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	node.mu.Lock()
	now := time.Now()
	for k := range n {
		node.lastSeen[k] = now
	}
	node.mu.Unlock()
	return node, names, nil
}

// Builder builds the system a job's Spec describes, and says which
// properties the run checks.
type Builder func(spec []byte) (*model.System, []invariants.Property, error)

// WorkOptions shape a worker's wait for jobs.
type WorkOptions struct {
	// Name is the name the worker gives the coordinator.
	Name string
	// Once: serve one job, then return.
	Once bool
	// Log, if set, receives a line per job.
	Log io.Writer
}

// Work serves jobs from nc, one at a time, until ctx is done or the
// connection closes (or after one job with opts.Once): each job's system
// is built by build and searched with cluster.Serve.
func Work(ctx context.Context, nc *nats.Conn, build Builder, opts WorkOptions) error {
	logf := func(format string, args ...any) {
		if opts.Log != nil {
			fmt.Fprintf(opts.Log, "worker %s: "+format+"\n", append([]any{opts.Name}, args...)...)
		}
	}
	for {
		sub, err := nc.QueueSubscribeSync(JobsSubject, jobsQueue)
		if err != nil {
			return fmt.Errorf("waiting for jobs: %w", err)
		}
		msg, err := sub.NextMsgWithContext(ctx)
		sub.Unsubscribe()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("waiting for jobs: %w", err)
		}
		err = serveJob(ctx, nc, msg, build, opts, logf)
		if err != nil {
			logf("%v", err)
		}
		if opts.Once {
			return err
		}
	}
}

func serveJob(ctx context.Context, nc *nats.Conn, msg *nats.Msg, build Builder, opts WorkOptions, logf func(string, ...any)) error {
	refuse := func(err error) error {
		r, _ := json.Marshal(jobReply{Name: opts.Name, Error: err.Error()})
		msg.Respond(r)
		return err
	}
	var job Job
	if err := json.Unmarshal(msg.Data, &job); err != nil {
		return refuse(fmt.Errorf("reading the job: %w", err))
	}
	if job.Workers < 1 || job.Worker < 0 || job.Worker >= job.Workers {
		return refuse(fmt.Errorf("job: worker %d of %d", job.Worker, job.Workers))
	}
	sys, props, err := build(job.Spec)
	if err != nil {
		return refuse(err)
	}
	if fp := Fingerprint(sys); fp != job.System {
		return refuse(fmt.Errorf("the system built is %s, the coordinator's %s", fp, job.System))
	}
	node, err := newNode(nc, job.Run, job.Worker, job.Workers, []int{cluster.Coordinator}, LostAfter)
	if err != nil {
		return refuse(err)
	}
	defer node.Close()
	if err := nc.Flush(); err != nil {
		return refuse(err)
	}
	r, _ := json.Marshal(jobReply{Name: opts.Name})
	if err := msg.Respond(r); err != nil {
		return err
	}
	logf("worker %d of %d in run %s, %s", job.Worker, job.Workers, job.Run, sys.Name)
	wopts := cluster.WorkerOptions{Batch: job.Batch, Credit: job.Credit}
	if job.MaxMemory > 0 {
		wopts.Memory = budget.New(job.MaxMemory)
	}
	return cluster.Serve(ctx, sys, props, job.Worker, node, wopts)
}
