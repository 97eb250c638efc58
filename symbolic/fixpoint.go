package symbolic

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/ringcheck/ringcheck/internal/rudd"
)

// Result is what Analyse decided over every configuration.
type Result struct {
	// Configurations and Legitimate count the configurations and those in
	// L.
	Configurations, Legitimate *big.Int
	// Closure: no step leads from L out of L. ClosureWitness is a
	// configuration of L and a step out of L when it fails.
	Closure        bool
	ClosureWitness []Configuration
	// Convergence: from every configuration every execution (every fair
	// one, under fairness) reaches L.
	Convergence bool
	// Deadlocks counts the configurations outside L with no step.
	Deadlocks *big.Int
	// Faulty counts the configurations outside L with a step that
	// overflows a channel whose policy is error: the step happens (its
	// message is lost), as in the explicit model, and leaves the model.
	Faulty *big.Int
	// Stuck counts the configurations from which some execution (some
	// fair one) never reaches L: zero when Convergence holds.
	Stuck *big.Int
	// Violation, when Convergence fails, is a configuration outside L
	// with no step (Cycle false), or a cycle of configurations outside L,
	// fair under the fairness asked for (Cycle true), the last leading
	// back to the first.
	Violation []Configuration
	Cycle     bool
	// Stem, with Options.Start, is a shortest path from a start
	// configuration to Violation's first configuration, that one
	// excluded (empty when it is a start configuration).
	Stem []Configuration
	// Layers[h] counts the configurations outside L whose longest
	// execution to L takes h+1 steps, among those from which every
	// execution reaches L (under no fairness). When Convergence holds and
	// Unbounded is false, the worst case in steps is len(Layers).
	Layers []*big.Int
	// Unbounded: every fair execution reaches L, but cycles outside L
	// that are not fair let executions take arbitrarily many steps.
	Unbounded bool
	// Worst, when Convergence holds and Unbounded is false, is an
	// execution of len(Layers) steps from a configuration to L.
	Worst []Configuration
	// Iterations counts the iterations of every fixpoint computed;
	// PeakNodes is the largest BDD met between them.
	Iterations int
	PeakNodes  int
}

// Analyse decides closure and convergence over every configuration.
//
// Under no fairness, convergence is the least fixpoint W = L ∪ {c ∉ L
// with a step, every step of which leads into W}: its iterations add the
// configurations whose longest execution to L takes one step more each
// time, so their number is the worst case in steps, and convergence holds
// when W is every configuration. Under weak fairness, the configurations
// with a fair execution that stays outside L for ever are the greatest
// fixpoint of Emerson and Lei, Z = νZ. outside ∩ pre(Z) ∩ ⋂_j
// pre(E[outside U (Z ∩ J_j(Z))]), where J_j(Z) holds in a configuration
// where constraint j's actions (a process's scheduled actions, and under
// every fairness its finite and timeout ones) are disabled or one of them
// leads into Z; under strong fairness, they are those that reach a fair
// component of that set (see strongFairCycles). Convergence holds when
// that set is empty and no configuration outside L is dead. ctx and the
// memory budget bound it: when ctx ends or the budget is reached, it ends
// within about a second with a *Stopped error and the result decided
// before the fixpoints (the counts, Closure and its witness; Convergence
// false, not decided; Iterations and PeakNodes so far), or a nil result
// if it stopped before those were. It returns a nil result if the BDD
// failed.
func (e *Encoding) Analyse(ctx context.Context) (*Result, error) {
	var res *Result
	a, err := e.watched(ctx, nil, func(a *analysis) (err error) {
		res, err = a.run()
		if err == nil {
			err = a.stem(res)
		}
		return err
	})
	if stopped := (*Stopped)(nil); errors.As(err, &stopped) && a != nil {
		a.w.mu.Lock()
		defer a.w.mu.Unlock()
		return a.w.partial, err
	}
	if err != nil {
		return nil, err
	}
	return res, nil
}

// watched runs f, an analysis of e with result res so far, on the worker
// of a watch over ctx and the memory budget (see watch). A BDD failure is
// its error; a computation abandoned inside a BDD operation spends the
// encoding, whose later computations return that error at once (and a
// nil analysis, as when it was already spent).
func (e *Encoding) watched(ctx context.Context, res *Result, f func(*analysis) error) (*analysis, error) {
	if e.spent != nil {
		return nil, e.spent
	}
	w := newWatch(ctx, e.opts.Memory, e.opts.Progress)
	e.b.w = w
	a := &analysis{e: e, b: e.b, w: w, res: res}
	err := w.run(func() error {
		err := f(a)
		if e.b.Errored() {
			return e.bddError()
		}
		return err
	})
	var stopped *Stopped
	if errors.As(err, &stopped) && stopped.Abandoned {
		e.spent = stopped
	} else {
		e.b.w = nil
	}
	return a, err
}

// analysis is one run of Analyse (or of WorstRounds).
type analysis struct {
	e *Encoding
	b *kernel
	w *watch
	// res is the result so far; decided is set once its counts and
	// closure are, from when it is published at every iteration.
	res     *Result
	decided bool
}

func (a *analysis) run() (*Result, error) {
	e, b := a.e, a.b
	a.res = &Result{}
	if err := a.fromStart(); err != nil {
		return nil, err
	}
	a.w.report(Progress{Phase: "counting the configurations"})
	res := &Result{Configurations: e.count(e.valid), Legitimate: e.count(e.legitimate)}
	a.res = res
	outside := b.And(e.valid, b.Not(e.legitimate))
	// Closure: no configuration of L has a step out of L.
	a.w.report(Progress{Phase: "closure"})
	leaving := b.And(e.closureFrom, e.pre(outside))
	res.Closure = b.Equal(leaving, b.False())
	if !res.Closure {
		from := e.pick(leaving)
		to := e.pick(b.And(e.post(e.point(from)), outside))
		res.ClosureWitness = []Configuration{from, to}
	}
	a.w.report(Progress{Phase: "deadlocks outside L"})
	enabled := e.pre(e.valid)
	dead := b.And(outside, b.Not(enabled))
	res.Deadlocks = e.count(dead)
	res.Faulty = e.count(b.And(outside, e.faulty))
	a.decided = true
	a.w.publish(res)

	// The least fixpoint, layer by layer.
	won, layers := e.legitimate, []rudd.Node{}
	for {
		if err := a.tick("convergence", won); err != nil {
			return nil, err
		}
		// The configurations outside won with a step, none of whose steps
		// leaves won.
		escape := e.pre(b.And(e.valid, b.Not(won)))
		layer := b.And(b.And(outside, b.Not(won)), b.And(enabled, b.Not(escape)))
		if b.Equal(layer, b.False()) {
			break
		}
		layers = append(layers, layer)
		res.Layers = append(res.Layers, e.count(layer))
		won = b.Or(won, layer)
	}
	unfair := b.And(e.valid, b.Not(won))
	if b.Equal(unfair, b.False()) {
		res.Convergence, res.Stuck = true, new(big.Int)
		res.Worst = a.worst(layers)
		return res, nil
	}
	hasDead := !b.Equal(dead, b.False())
	if hasDead && len(e.constraints()) == 0 {
		// A dead configuration outside L violates convergence under every
		// fairness; under none, with no finite or timeout action to
		// oblige, what does not converge is what the least fixpoint left
		// out, cycles or not.
		res.Violation, res.Stuck = []Configuration{e.pick(dead)}, e.count(unfair)
		return res, nil
	}
	var cycles rudd.Node
	var err error
	if e.opts.strong() {
		cycles, err = a.strongFairCycles(outside)
	} else {
		cycles, err = a.fairCycles(outside)
	}
	if err != nil {
		return nil, err
	}
	if !hasDead && b.Equal(cycles, b.False()) {
		// Only unfair cycles stay outside L.
		res.Convergence, res.Unbounded, res.Stuck = true, true, new(big.Int)
		return res, nil
	}
	// Some fair execution never reaches L from the configurations that
	// can stay outside L until a dead one or a fair cycle.
	stuck, err := a.until("configurations that do not converge", outside, b.Or(dead, cycles))
	if err != nil {
		return nil, err
	}
	res.Stuck = e.count(stuck)
	if hasDead {
		res.Violation = []Configuration{e.pick(dead)}
		return res, nil
	}
	res.Cycle = true
	res.Violation, err = a.lasso(cycles)
	return res, err
}

// tick checks every bound between iterations (errHalted once one is
// crossed), counts the iteration, and reports progress.
func (a *analysis) tick(phase string, set rudd.Node) error {
	if err := a.b.check(); err != nil {
		return err
	}
	if a.b.Errored() {
		return a.e.bddError()
	}
	a.res.Iterations++
	nodes := a.e.nodes(set)
	a.res.PeakNodes = max(a.res.PeakNodes, nodes)
	a.w.report(Progress{Phase: phase, Iteration: a.res.Iterations, Nodes: nodes})
	if a.decided {
		a.w.publish(a.res)
	}
	return nil
}

// poll checks every bound inside an inner fixpoint (errHalted once one is
// crossed), and reports its progress as phase at its iteration; it counts
// no iteration of the result.
func (a *analysis) poll(phase string, iteration int, set rudd.Node) error {
	if err := a.b.check(); err != nil {
		return err
	}
	if a.b.Errored() {
		return a.e.bddError()
	}
	nodes := 0
	if a.e.opts.Progress != nil {
		nodes = a.e.nodes(set)
		a.res.PeakNodes = max(a.res.PeakNodes, nodes)
	}
	a.w.report(Progress{Phase: phase, Iteration: iteration, Nodes: nodes})
	return nil
}

// until is E[within U target]: the configurations from which some path
// through within reaches target. Its iterations are polled under phase.
func (a *analysis) until(phase string, within, target rudd.Node) (rudd.Node, error) {
	b := a.b
	y := target
	for i := 1; ; i++ {
		if err := a.poll(phase, i, y); err != nil {
			return nil, err
		}
		next := b.Or(y, b.And(within, a.e.pre(y)))
		if b.Equal(next, y) {
			return y, nil
		}
		y = next
	}
}

// infinite is νZ. within ∩ pre(Z): the configurations with an execution
// that stays in within for ever.
func (a *analysis) infinite(within rudd.Node) (rudd.Node, error) {
	b := a.b
	z := within
	for {
		if err := a.tick("cycles outside L", z); err != nil {
			return nil, err
		}
		next := b.And(z, a.e.pre(z))
		if b.Equal(next, z) {
			return z, nil
		}
		z = next
	}
}

// justice is a fairness constraint on one of process p's obligations
// (obligation i: its actions of a class, or under per-action fairness one
// action): weakly, an execution that keeps it enabled for ever takes one
// of its steps infinitely often; strongly, one that enables it infinitely
// often does. Finite and timeout actions always carry one (as in the
// explicit engine); scheduled actions under weak and strong fairness.
type justice struct {
	p, i int
	// strong: the constraint is compassion, not justice: an execution
	// that enables one of the steps infinitely often takes one infinitely
	// often (strong fairness, on scheduled and finite actions).
	strong bool
}

// constraints lists the fairness constraints of the options, over the
// obligations each process has.
func (e *Encoding) constraints() []justice {
	var out []justice
	for p, l := range e.procs {
		for i, o := range l.obligations {
			if o.class == scheduled && !e.opts.fair() || e.b.Equal(o.moves, e.b.False()) {
				continue
			}
			out = append(out, justice{p: p, i: i, strong: e.opts.strong() && o.protocol})
		}
	}
	return out
}

// fairCycles is the Emerson–Lei fixpoint (see Analyse) of the fairness
// constraints: the configurations with an execution that stays in within
// for ever and meets every constraint. With none, every execution is
// fair.
func (a *analysis) fairCycles(within rudd.Node) (rudd.Node, error) {
	b, e := a.b, a.e
	constraints := e.constraints()
	if len(constraints) == 0 {
		return a.infinite(within)
	}
	z := within
	for {
		if err := a.tick("fair cycles outside L", z); err != nil {
			return nil, err
		}
		next := b.And(z, e.pre(z))
		for _, j := range constraints {
			reach, err := a.until("fair cycles outside L: reaching a constraint", within, e.met(j, z))
			if err != nil {
				return nil, err
			}
			next = b.And(next, e.pre(reach))
		}
		if b.Equal(next, z) {
			return z, nil
		}
		z = next
	}
}

// strongFairCycles is the configurations of within that lie on a cycle
// inside within that meets every constraint, weak and strong: the union of
// the fair components of Emerson and Lei's refinement, as the explicit
// engine finds them. Every such cycle meets the constraints read weakly,
// so the search starts from the weak fixpoint; it splits that set into
// strongly connected components (forward and backward reachability from a
// configuration), and a component with a cycle is fair unless a weak
// constraint is enabled in every configuration of it and never taken
// inside (the component is dropped) or a strong one is enabled somewhere
// in it and never taken inside (the configurations that enable it are
// removed, and the rest is split again).
func (a *analysis) strongFairCycles(within rudd.Node) (rudd.Node, error) {
	b, e := a.b, a.e
	weak, err := a.fairCycles(within)
	if err != nil || b.Equal(weak, b.False()) {
		return weak, err
	}
	constraints := e.constraints()
	fair := b.False()
	pending := []rudd.Node{weak}
	for i := 1; len(pending) > 0; i++ {
		s := pending[len(pending)-1]
		pending = pending[:len(pending)-1]
		if err := a.poll("strongly fair cycles outside L", i, s); err != nil {
			return nil, err
		}
		// Only configurations with a predecessor and a successor in s
		// can lie on a cycle inside s: trimming the rest first spares a
		// component search for each of them.
		const phase = "strongly fair cycles outside L"
		if s, err = a.trim(phase, s); err != nil {
			return nil, err
		}
		if b.Equal(s, b.False()) {
			continue
		}
		at := e.point(e.pick(s))
		forward, err := a.reach(phase, at, s, true)
		if err != nil {
			return nil, err
		}
		backward, err := a.reach(phase, at, s, false)
		if err != nil {
			return nil, err
		}
		comp := b.And(forward, backward)
		// The rest of s, and the rest of what the configuration reaches,
		// are unions of components of s.
		pending = append(pending, b.And(s, b.Not(forward)), b.And(forward, b.Not(comp)))
		if b.Equal(b.And(comp, e.pre(comp)), b.False()) {
			continue // a configuration on no cycle
		}
		ok := true
		for _, j := range constraints {
			o := e.procs[j.p].obligations[j.i]
			if !b.Equal(b.And(comp, e.preOf(o.moves, j.p, comp)), b.False()) {
				continue // taken inside the component
			}
			if j.strong {
				if !b.Equal(b.And(comp, o.enabled), b.False()) {
					pending = append(pending, b.And(comp, b.Not(o.enabled)))
					ok = false
					break
				}
				continue
			}
			if b.Equal(b.And(comp, b.Not(o.enabled)), b.False()) {
				ok = false
				break
			}
		}
		if ok {
			fair = b.Or(fair, comp)
		}
	}
	return fair, nil
}

// trim is νY. s ∩ pre(Y) ∩ post(Y): the configurations of s with a
// predecessor and a successor in what remains, which holds every cycle
// inside s. Its iterations are polled under phase.
func (a *analysis) trim(phase string, s rudd.Node) (rudd.Node, error) {
	b, e := a.b, a.e
	for i := 1; ; i++ {
		if err := a.poll(phase, i, s); err != nil {
			return nil, err
		}
		next := b.And(s, e.pre(s), e.post(s))
		if b.Equal(next, s) {
			return s, nil
		}
		s = next
	}
}

// met is the configurations of z where constraint j is met: its actions
// are disabled, or one of them leads into z.
func (e *Encoding) met(j justice, z rudd.Node) rudd.Node {
	b, o := e.b, e.procs[j.p].obligations[j.i]
	return b.And(z, b.Or(b.Not(o.enabled), e.preOf(o.moves, j.p, z)))
}

// bddError is the error of a BDD operation that failed.
func (e *Encoding) bddError() error {
	return fmt.Errorf("the BDD: %s", e.b.Error())
}

// count is the number of configurations of s, a set over the current
// bits.
func (e *Encoding) count(s rudd.Node) *big.Int {
	n := e.b.Satcount(s)
	// The next bits, and the pending bits and their next values, are free
	// in s.
	return n.Rsh(n, uint(len(e.next)+2*len(e.pending)))
}

// nodes is the number of BDD nodes of the given roots.
func (e *Encoding) nodes(roots ...rudd.Node) int {
	count := 0
	_ = e.b.Allnodes(func(_, _, _, _ int) error { count++; return nil }, roots...)
	return count
}
