package runs

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/ringcheck/ringcheck/model"
)

// SimOptions configures Simulate.
type SimOptions struct {
	// Steps is the most steps a run takes; Runs is the number of runs.
	Steps, Runs int
	// Seed seeds the random choices: run i draws from a PCG seeded with
	// (Seed, i), so the same options give the same runs, and run i can be
	// replayed alone.
	Seed uint64
	// FromAll starts each run from a uniformly random configuration of the
	// full configuration space instead of a random initial one.
	FromAll bool
	// FaultAt, if positive and below Steps, is the step count at which a
	// transient fault replaces the whole configuration by a uniformly random
	// one.
	FaultAt int
}

// RangeFault is the name of the violation of a step that leaves a
// variable's domain, in a system that reports range faults.
const RangeFault = "range"

// ChannelBound is the name of the violation of a step that overflows a
// channel whose policy is "error".
const ChannelBound = "channel-bound"

// SimRun is the outcome of one run.
type SimRun struct {
	// Steps is the number of steps the run took (a fault is not a step).
	Steps int
	// Deadlock: the run ended in a configuration with no enabled step
	// that is not a valid end state.
	Deadlock bool
	// Violation names the invariant the run violated (or ChannelBound);
	// "" if none. A violation ends the run.
	Violation string
	// Faulted: the transient fault happened.
	Faulted bool
	// StepsToLegit is the number of steps from the faulted configuration
	// to the first legitimate one (0 if the fault left a legitimate
	// configuration), or -1 if the run did not reach one, or had no fault,
	// or no legitimacy predicate was given.
	StepsToLegit int
	// RoundsToLegit is the number of asynchronous rounds those steps
	// took, counted as the stabilization analysis counts them (Dolev: a
	// round ends once every process enabled at its start has moved or been
	// disabled; the round in which L is reached counts), or -1 as for
	// StepsToLegit.
	RoundsToLegit int
}

// SimViolation is the first violation or deadlock of a simulation, with
// the path that leads to it. Steps[i] leads from States[i] to States[i+1].
type SimViolation struct {
	// Run is the index of the run.
	Run int
	// Name is the invariant violated, ChannelBound, or "deadlock".
	Name     string
	Deadlock bool
	// AfterFault: the path starts at the configuration the fault left,
	// after Start steps of the run; otherwise it starts at the run's first
	// configuration and Start is 0.
	AfterFault bool
	Start      int
	States     []*model.State
	Steps      []model.Step
}

// MaxSimRuns is the most runs one call of Simulate does: it keeps each
// run's outcome (SimResult.Runs, 56 bytes a run on 64-bit machines, some
// 224 MiB at the maximum), and refuses more with an error rather than
// run until the heap is exhausted. More runs take several simulations
// with different seeds.
const MaxSimRuns = 1 << 22

// simRunsHint is the most outcomes Simulate makes room for at once: the
// slice grows as runs complete, not by the count requested.
const simRunsHint = 1 << 10

// SimResult is the outcome of a simulation.
type SimResult struct {
	// Runs holds one entry per completed run, in order.
	Runs []SimRun
	// Steps is the total number of steps over every run.
	Steps int
	// Deadlocks and Violations count the runs that ended so.
	Deadlocks, Violations int
	// First is the first violation or deadlock, in run order (nil if none).
	First *SimViolation
	// Stopped: the context was cancelled before every run completed.
	Stopped bool
}

// RecoveryRounds summarizes the rounds the runs that reached a legitimate
// configuration after their fault took: minimum, mean and maximum (0 if
// none did).
func (r *SimResult) RecoveryRounds() (min, max int, mean float64) {
	var sp spread
	for _, run := range r.Runs {
		if run.Faulted && run.RoundsToLegit >= 0 {
			sp.add(run.RoundsToLegit)
		}
	}
	return sp.min, sp.max, sp.mean()
}

// spread accumulates the minimum, maximum and sum of n counts.
type spread struct{ n, min, max, sum int }

func (sp *spread) add(x int) {
	if sp.n == 0 || x < sp.min {
		sp.min = x
	}
	if x > sp.max {
		sp.max = x
	}
	sp.sum += x
	sp.n++
}

// mean is the counts' mean (0 for none).
func (sp *spread) mean() float64 {
	if sp.n == 0 {
		return 0
	}
	return float64(sp.sum) / float64(sp.n)
}

// Recovery summarizes the runs that had a fault: how many there were,
// how many reached a legitimate configuration after it, and the minimum,
// mean and maximum number of steps they took to (0 if none did).
func (r *SimResult) Recovery() (faulted, reached, min, max int, mean float64) {
	var sp spread
	for _, run := range r.Runs {
		if !run.Faulted {
			continue
		}
		faulted++
		if run.StepsToLegit >= 0 {
			sp.add(run.StepsToLegit)
		}
	}
	return faulted, sp.n, sp.min, sp.max, sp.mean()
}

// Simulate runs opts.Runs random executions of sys of up to opts.Steps
// steps each. A run starts from a random initial configuration (or, with
// FromAll, a uniformly random configuration of the whole space), and each
// step is drawn uniformly among the successors Expand yields: under the
// central daemon, uniformly over (process, action, alternative). A
// configuration with no successor ends the run, as a deadlock unless
// sys.ValidEnd holds there.
//
// check, which must be a pure function, returns the name of an invariant
// the state violates ("" if none); it is called on every configuration of
// the run, and a violation ends the run. A step that overflows a channel
// whose policy is "error" is a violation named ChannelBound.
//
// At step FaultAt (if 0 < FaultAt < Steps) a transient fault replaces the
// whole configuration by a uniformly random one. The invariants describe
// legitimate executions, which the fault has just broken: from the fault
// on, check is suspended until legit first holds, and the run records the
// steps that took (if legit is nil, check stays suspended for the rest of
// the run). Deadlocks are reported whether or not the run has recovered.
//
// A run uses no memory per step beyond what Expand needs: the successor is
// chosen by reservoir sampling while Expand enumerates them. The path to
// the first violation is rebuilt by replaying its run, which the seeding
// makes deterministic.
//
// Random configurations (FromAll, faults) are drawn uniformly from the full
// space, however large. Simulate returns an error when a spec misbehaves,
// and for more than MaxSimRuns runs. A cancelled ctx stops it between
// steps; the result then holds the completed runs and Stopped.
func Simulate(ctx context.Context, sys *model.System, opts SimOptions, check func(s *model.State) (violated string), legit func(*model.State) bool) (*SimResult, error) {
	if opts.Steps < 0 || opts.Runs < 0 || opts.FaultAt < 0 {
		return nil, errors.New("simulate: steps, runs and fault step must not be negative")
	}
	if opts.Runs > MaxSimRuns {
		return nil, fmt.Errorf("simulate: %d runs are more than the %d a simulation does (it keeps each run's outcome); run several with different seeds", opts.Runs, MaxSimRuns)
	}
	if check == nil {
		check = func(*model.State) string { return "" }
	}
	sm := &simulator{
		sys: sys, exp: sys.NewExpander(), opts: opts, check: check, legit: legit,
		inits: sys.Initial(), cur: sys.NewState(), next: sys.NewState(),
	}
	sm.pickFn = sm.pick
	if !opts.FromAll && len(sm.inits) == 0 {
		return nil, fmt.Errorf("simulate: %s has no initial configuration", sys.Name)
	}
	res := &SimResult{Runs: make([]SimRun, 0, min(opts.Runs, simRunsHint))}
	for i := 0; i < opts.Runs; i++ {
		if ctx.Err() != nil {
			res.Stopped = true
			break
		}
		sm.ctx = ctx
		run, err := sm.run(i, nil)
		if err != nil {
			if errors.Is(err, errStopped) {
				res.Stopped = true
				break
			}
			return res, err
		}
		res.Runs = append(res.Runs, run)
		res.Steps += run.Steps
		if run.Deadlock {
			res.Deadlocks++
		}
		if run.Violation != "" {
			res.Violations++
		}
		if res.First == nil && (run.Deadlock || run.Violation != "") {
			// Replay the run, recording its path this time; the context
			// no longer matters: the run is known to end.
			path := &SimViolation{Run: i}
			sm.ctx = context.Background()
			again, err := sm.run(i, path)
			if err != nil {
				return res, err
			}
			if again != run {
				return res, fmt.Errorf("simulate: run %d is not reproducible (a check or a spec that is not a pure function?)", i)
			}
			path.Deadlock = run.Deadlock
			path.Name = run.Violation
			if run.Deadlock {
				path.Name = "deadlock"
			}
			res.First = path
		}
	}
	return res, nil
}

var errStopped = errors.New("simulation stopped")

// simulator holds what every run reuses.
type simulator struct {
	ctx   context.Context
	sys   *model.System
	exp   *model.Expander
	opts  SimOptions
	check func(*model.State) string
	legit func(*model.State) bool
	inits []*model.State

	// cur is the configuration; next receives the chosen successor, and
	// step the chosen step, while Expand enumerates them.
	cur, next *model.State
	step      model.Step
	rng       *rand.Rand
	runs      runRand
	seen      int
	// enabled collects the processes that have a step in cur while
	// Expand enumerates them.
	enabled uint64
	pickFn  func(*model.Step, *model.State) bool
}

// pick is Expand's callback: the k-th successor replaces the one chosen
// so far with probability 1/k, which leaves each chosen with probability
// 1/n once all n are seen.
func (sm *simulator) pick(st *model.Step, next *model.State) bool {
	sm.seen++
	sm.enabled |= moverMask(st)
	if sm.seen == 1 || sm.rng.IntN(sm.seen) == 0 {
		sm.next.CopyFrom(next)
		sm.step.Moves = append(sm.step.Moves[:0], st.Moves...)
		sm.step.Overflow, sm.step.RangeFault = st.Overflow, st.RangeFault
	}
	return true
}

// runRand is the random source of numbered runs: run i of a search with
// seed s draws from a PCG seeded with (s, i), so that any run can be
// replayed alone. The zero value is ready to use.
type runRand struct {
	pcg *rand.PCG
	rng *rand.Rand
}

// seed reseeds the source for run i and returns it.
func (r *runRand) seed(seed uint64, i int) *rand.Rand {
	if r.pcg == nil {
		r.pcg = rand.NewPCG(0, 0)
		r.rng = rand.New(r.pcg)
	}
	r.pcg.Seed(seed, uint64(i))
	return r.rng
}

// moverMask returns the processes that move in a step, as a bit mask.
func moverMask(st *model.Step) uint64 {
	var m uint64
	for _, mv := range st.Moves {
		m |= 1 << mv.Proc
	}
	return m
}

// random replaces st by a uniformly random configuration.
func (sm *simulator) random(st *model.State) error {
	sm.sys.RandomConfiguration(sm.rng, st)
	return nil
}

// run executes run i; with path non-nil it records the path (from the
// start, or from the fault) into it.
func (sm *simulator) run(i int, path *SimViolation) (SimRun, error) {
	sm.rng = sm.runs.seed(sm.opts.Seed, i)
	r := SimRun{StepsToLegit: -1, RoundsToLegit: -1}
	// The rounds since the fault: the count, and the processes of the
	// current round that have neither moved nor been disabled (newRound:
	// the round starts at the current configuration).
	var (
		rounds   int
		pending  uint64
		newRound bool
	)
	if sm.opts.FromAll {
		if err := sm.random(sm.cur); err != nil {
			return r, err
		}
	} else {
		sm.cur.CopyFrom(sm.inits[sm.rng.IntN(len(sm.inits))])
	}
	if path != nil {
		path.States = append(path.States[:0], sm.cur.Clone())
	}
	checking, recovering := true, false
	for {
		if recovering && sm.legit(sm.cur) {
			r.StepsToLegit = r.Steps - sm.opts.FaultAt
			r.RoundsToLegit = rounds
			recovering, checking = false, true
		}
		if checking {
			if v := sm.check(sm.cur); v != "" {
				r.Violation = v
				return r, nil
			}
		}
		if r.Steps >= sm.opts.Steps {
			return r, nil
		}
		if sm.opts.FaultAt > 0 && r.Steps == sm.opts.FaultAt && !r.Faulted {
			if err := sm.random(sm.cur); err != nil {
				return r, err
			}
			r.Faulted = true
			checking, recovering = false, sm.legit != nil
			rounds, pending, newRound = 0, 0, true
			if path != nil {
				path.AfterFault, path.Start = true, r.Steps
				path.States = append(path.States[:0], sm.cur.Clone())
				path.Steps = path.Steps[:0]
			}
			continue
		}
		if r.Steps&4095 == 4095 && sm.ctx.Err() != nil {
			return r, errStopped
		}
		sm.seen, sm.enabled = 0, 0
		n, err := sm.exp.Expand(sm.cur, sm.pickFn)
		if err != nil {
			return r, err
		}
		if recovering && n > 0 {
			// Processes disabled here are neutralized; an empty pending set
			// ends the round, and the next starts here.
			pending &= sm.enabled
			if newRound || pending == 0 {
				rounds++
				pending, newRound = sm.enabled, false
			}
			pending &^= moverMask(&sm.step)
		}
		if n == 0 {
			r.Deadlock = sm.sys.ValidEnd == nil || !sm.sys.ValidEnd.Holds(sm.cur)
			return r, nil
		}
		sm.cur, sm.next = sm.next, sm.cur
		r.Steps++
		if path != nil {
			path.States = append(path.States, sm.cur.Clone())
			path.Steps = append(path.Steps, sm.step.Clone())
		}
		if sm.step.Overflow && checking {
			r.Violation = ChannelBound
			return r, nil
		}
		if sm.step.RangeFault != "" && checking {
			r.Violation = RangeFault
			return r, nil
		}
	}
}
