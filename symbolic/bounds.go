package symbolic

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ringcheck/ringcheck/budget"
	"github.com/ringcheck/ringcheck/internal/rudd"
)

// A BDD operation of rudd (And, AndExist, Replace, ...) is one recursive
// call that takes no context and has no hook: on a large instance one can
// run for tens of seconds. The engine therefore runs every computation
// (Encode, Analyse, WorstRounds) on a goroutine of its own, the worker,
// while the caller's goroutine watches the bounds:
//
//   - the worker polls a flag before every BDD operation that may take
//     long (through kernel, which wraps rudd's BDD), and checks the
//     context and the memory budget itself at every fixpoint iteration;
//   - the caller wakes every watchEvery to check the memory budget (the
//     heap, plus what the kernel's next growth will allocate) and reacts
//     at once to the context's end (Ctrl-C, a deadline); when a bound is
//     crossed it raises the flag, and the worker's next poll unwinds the
//     computation (a panic of type halt, recovered by the worker);
//   - if the worker does not unwind within grace (it is inside one long
//     operation), the caller returns without it: the operation goes on
//     until it returns, the worker then unwinds at its next poll, and the
//     encoding refuses any further computation.
//
// So a computation ends within watchEvery + grace of its bound, whatever
// operation is under way.

// watchEvery is how often the caller's goroutine checks the memory
// budget and the progress heartbeat while the worker computes.
const watchEvery = 100 * time.Millisecond

// grace is how long the worker has, once a bound is crossed, to reach its
// next poll before the caller returns without it.
const grace = time.Second

// heartbeat is how long the caller's goroutine lets pass without a
// progress report before it repeats the worker's last one (during one
// long BDD operation).
const heartbeat = 2 * time.Second

// measureEvery is how often the worker reads the size of the kernel's
// node table, for the budget and the progress reports.
const measureEvery = 50 * time.Millisecond

// The kernel's node table grows, when it is full, by doubling, at most by
// maxNodeIncrease nodes at a time (the value newBDD gives the kernel). A
// growth allocates the new table (nodeBytes a node) and the new operation
// caches (cacheBytes a node of the table: five caches of cacheRatio
// entries per 100 nodes, at most 32 bytes an entry) while the old ones are
// still held.
const (
	maxNodeIncrease = 1 << 20
	nodeBytes       = 24
	cacheBytes      = 5 * 32 * cacheRatio / 100
)

// growthBytes is what the kernel allocates when its node table of nodes
// nodes grows next.
func growthBytes(nodes int) uint64 {
	if nodes <= 0 {
		return 0
	}
	next := nodes + min(nodes, maxNodeIncrease)
	return uint64(next) * (nodeBytes + cacheBytes)
}

// Stopped is the error of a computation that a bound stopped: its
// context ended (cancelled, or past its deadline) or the memory budget
// was reached. It wraps the bound's error: the context's, or the
// budget's *budget.Exceeded.
type Stopped struct {
	// At is where the computation stood: the last progress it reported,
	// with the size of the kernel's node table.
	At Progress
	// Abandoned: the BDD operation under way had not returned within a
	// second of the bound (an operation of the kernel cannot be
	// interrupted). It goes on, on a goroutine of its own, until it
	// returns and the computation unwinds; the encoding refuses any
	// further computation.
	Abandoned bool
	// Err is the bound's error.
	Err error
}

// Error says where the computation stopped and why.
func (s *Stopped) Error() string {
	where := "at its start"
	if s.At.Phase != "" {
		where = "in " + s.At.Phase
	}
	if s.At.Iteration > 0 {
		where += fmt.Sprintf(", iteration %d", s.At.Iteration)
	}
	return fmt.Sprintf("the symbolic engine stopped %s: %v", where, s.Err)
}

// Unwrap returns the bound's error.
func (s *Stopped) Unwrap() error { return s.Err }

// errHalted is what the worker's code returns once a bound is crossed;
// the watch turns it into a *Stopped.
var errHalted = errors.New("halted by a bound")

// halt is the panic with which a poll unwinds the worker's computation
// from inside a sequence of BDD operations; watch.run recovers it.
type halt struct{}

// watch is the bounds of one computation, and where it stands. Its
// fields are shared by the worker and the caller's goroutine.
type watch struct {
	ctx      context.Context
	memory   *budget.Memory
	progress func(Progress)

	// halted is raised once a bound is crossed.
	halted atomic.Bool
	// need is what the kernel's next growth allocates, as the worker
	// last measured it.
	need atomic.Uint64

	mu sync.Mutex
	// cause is the bound's error.
	cause error
	// at is where the computation stands; said is when progress was
	// last reported.
	at   Progress
	said time.Time
	// closed: the caller has returned, and progress is no longer
	// reported.
	closed bool
	// partial is the part of an analysis' result decided so far (nil
	// until the counts and closure are).
	partial *Result
}

// newWatch watches ctx and memory, and reports progress (if not nil).
func newWatch(ctx context.Context, memory *budget.Memory, progress func(Progress)) *watch {
	return &watch{ctx: ctx, memory: memory, progress: progress, said: time.Now()}
}

// stop records err as the bound crossed (the first one stays) and raises
// the flag.
func (w *watch) stop(err error) {
	w.mu.Lock()
	if w.cause == nil {
		w.cause = err
	}
	w.mu.Unlock()
	w.halted.Store(true)
}

// check is the worker's check of every bound: errHalted if one is
// crossed.
func (w *watch) check() error {
	if w.halted.Load() {
		return errHalted
	}
	if err := w.ctx.Err(); err != nil {
		w.stop(err)
		return errHalted
	}
	if err := w.memory.Grow(w.need.Load()); err != nil {
		w.stop(err)
		return errHalted
	}
	return nil
}

// report records p as where the computation stands, and passes it on to
// the progress function.
func (w *watch) report(p Progress) {
	w.mu.Lock()
	defer w.mu.Unlock()
	p.Table = w.at.Table
	w.at = p
	if w.progress != nil && !w.closed {
		w.progress(p)
		w.said = time.Now()
	}
}

// table records the size of the kernel's node table, and what its next
// growth allocates.
func (w *watch) table(nodes int) {
	w.need.Store(growthBytes(nodes))
	w.mu.Lock()
	w.at.Table = nodes
	w.mu.Unlock()
}

// beat repeats the last progress report if none was made for heartbeat.
func (w *watch) beat() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.progress != nil && !w.closed && time.Since(w.said) >= heartbeat {
		w.progress(w.at)
		w.said = time.Now()
	}
}

// publish records a copy of res as what the analysis has decided so far.
func (w *watch) publish(res *Result) {
	c := *res
	c.Layers = append([]*big.Int(nil), res.Layers...)
	w.mu.Lock()
	w.partial = &c
	w.mu.Unlock()
}

// stopped closes the watch and returns its *Stopped error.
func (w *watch) stopped(abandoned bool) *Stopped {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.closed = true
	return &Stopped{At: w.at, Abandoned: abandoned, Err: w.cause}
}

// run runs f on a worker goroutine and returns its error, or a *Stopped
// once a bound is crossed: when f unwinds, or after grace if it does not.
// A computation that completes (f returns nil) is kept even if a bound
// was crossed meanwhile.
func (w *watch) run(f func() error) error {
	if err := w.check(); err != nil {
		return w.stopped(false)
	}
	done := make(chan error, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(halt); !ok {
					panic(r)
				}
				done <- errHalted
			}
		}()
		done <- f()
	}()
	tick := time.NewTicker(watchEvery)
	defer tick.Stop()
	ctxDone := w.ctx.Done()
	var expired <-chan time.Time
	trip := func(err error) {
		w.stop(err)
		if expired == nil {
			expired = time.After(grace)
		}
	}
	for {
		select {
		case err := <-done:
			if err == nil || !w.halted.Load() && !errors.Is(err, errHalted) {
				w.mu.Lock()
				w.closed = true
				w.mu.Unlock()
				return err
			}
			if !errors.Is(err, errHalted) {
				// A failure of its own, met as the bound was crossed.
				w.stopped(false)
				return err
			}
			return w.stopped(false)
		case <-ctxDone:
			ctxDone = nil
			trip(w.ctx.Err())
		case <-tick.C:
			if expired == nil && !w.halted.Load() {
				if err := w.memory.Grow(w.need.Load()); err != nil {
					trip(err)
				}
			} else if expired == nil {
				// The worker crossed a bound itself.
				expired = time.After(grace)
			}
			w.beat()
		case <-expired:
			return w.stopped(true)
		}
	}
}

// kernel is the BDD of package rudd (internal/rudd), whose operations
// that may take long first poll the bounds of the computation under way
// (w, nil outside one).
type kernel struct {
	*rudd.BDD
	w *watch
	// measured is when the worker last read the node table's size.
	measured time.Time
}

// newKernel makes the kernel of nvars variables, watched by w.
func newKernel(nvars int, w *watch) (*kernel, error) {
	b, err := newBDD(nvars)
	if err != nil {
		return nil, err
	}
	return &kernel{BDD: b, w: w}, nil
}

// poll unwinds the computation (a halt panic) if a bound is crossed, and
// measures the node table now and then.
func (k *kernel) poll() {
	if k.w == nil {
		return
	}
	if k.w.halted.Load() {
		panic(halt{})
	}
	if now := time.Now(); now.Sub(k.measured) >= measureEvery {
		k.measured = now
		k.w.table(k.tableNodes())
	}
}

// check is the worker's check of every bound at a fixpoint iteration, the
// node table measured first: errHalted if one is crossed.
func (k *kernel) check() error {
	if k.w == nil {
		return nil
	}
	k.measured = time.Now()
	k.w.table(k.tableNodes())
	return k.w.check()
}

// tableNodes is the number of nodes the kernel's table holds room for, as
// its statistics give it ("Allocated: N"), or 0 if they do not.
func (k *kernel) tableNodes() int {
	s := k.BDD.Stats()
	i := strings.Index(s, "Allocated:")
	if i < 0 {
		return 0
	}
	f := strings.Fields(s[i+len("Allocated:"):])
	if len(f) == 0 {
		return 0
	}
	n, err := strconv.Atoi(f[0])
	if err != nil {
		return 0
	}
	return n
}

// And is rudd's And, polled.
func (k *kernel) And(n ...rudd.Node) rudd.Node { k.poll(); return k.BDD.And(n...) }

// Or is rudd's Or, polled.
func (k *kernel) Or(n ...rudd.Node) rudd.Node { k.poll(); return k.BDD.Or(n...) }

// Not is rudd's Not, polled.
func (k *kernel) Not(n rudd.Node) rudd.Node { k.poll(); return k.BDD.Not(n) }

// Imp is rudd's Imp, polled.
func (k *kernel) Imp(n1, n2 rudd.Node) rudd.Node { k.poll(); return k.BDD.Imp(n1, n2) }

// Equiv is rudd's Equiv, polled.
func (k *kernel) Equiv(n1, n2 rudd.Node) rudd.Node { k.poll(); return k.BDD.Equiv(n1, n2) }

// Ite is rudd's Ite, polled.
func (k *kernel) Ite(f, g, h rudd.Node) rudd.Node { k.poll(); return k.BDD.Ite(f, g, h) }

// AndExist is rudd's AndExist (the relational product), polled. An empty
// varset (the constant true, as Makeset builds it from no variable: a
// process that declares no variable and touches no channel) quantifies
// nothing, which rudd refuses: the product is then the conjunction.
func (k *kernel) AndExist(varset, n1, n2 rudd.Node) rudd.Node {
	k.poll()
	if k.BDD.Equal(varset, k.BDD.True()) {
		return k.BDD.And(n1, n2)
	}
	return k.BDD.AndExist(varset, n1, n2)
}

// Exist is rudd's Exist, polled; over an empty varset (see AndExist) it
// returns n.
func (k *kernel) Exist(n, varset rudd.Node) rudd.Node {
	k.poll()
	if k.BDD.Equal(varset, k.BDD.True()) {
		return n
	}
	return k.BDD.Exist(n, varset)
}

// Replace is rudd's Replace, polled.
func (k *kernel) Replace(n rudd.Node, r rudd.Replacer) rudd.Node {
	k.poll()
	return k.BDD.Replace(n, r)
}

// Satcount is rudd's Satcount, polled.
func (k *kernel) Satcount(n rudd.Node) *big.Int { k.poll(); return k.BDD.Satcount(n) }

// Allnodes is rudd's Allnodes, polled.
func (k *kernel) Allnodes(f func(id, level, low, high int) error, n ...rudd.Node) error {
	k.poll()
	return k.BDD.Allnodes(f, n...)
}
