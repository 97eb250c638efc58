package runs

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/ringcheck/ringcheck/model"
)

// SweepOrder is the order in which the processes act within a round of
// SearchRounds.
type SweepOrder int

// The orders of a sweep.
const (
	// Backward: process n-1 first, then n-2, down to 0. On a unidirectional
	// ring this is against the direction of the messages, so a message moves
	// one hop per round: the slowest schedule the round model allows for a
	// token's tour.
	Backward SweepOrder = iota
	// Shuffled: a uniformly random order, drawn anew every round.
	Shuffled
)

// String names the order as the CLI does.
func (o SweepOrder) String() string {
	switch o {
	case Backward:
		return "backward"
	case Shuffled:
		return "shuffled"
	}
	return fmt.Sprintf("order(%d)", int(o))
}

// ParseSweepOrder parses "backward" or "shuffled".
func ParseSweepOrder(s string) (SweepOrder, error) {
	switch s {
	case "backward":
		return Backward, nil
	case "shuffled":
		return Shuffled, nil
	}
	return 0, fmt.Errorf("unknown sweep order %q (want backward or shuffled)", s)
}

// RoundOptions configures SearchRounds.
type RoundOptions struct {
	// Runs is the number of runs, each from its own random configuration;
	// they are runs First, First+1, ..., so that one run of a larger search
	// can be replayed alone.
	Runs, First int
	// Seed seeds the random choices: run i draws from a PCG seeded with
	// (Seed, i), so the same options give the same runs.
	Seed uint64
	// MaxRounds ends a run that has not reached L after this many rounds.
	MaxRounds int
	// Order is the order of the processes within a round.
	Order SweepOrder
	// Invariants are evaluated at the end of every action, and
	// RoundRun.LastViolated records, for each, the last round in which it
	// failed: a state invariant failing after a paper's bound shows the
	// run still misbehaving then, whatever the legitimacy predicate says.
	Invariants []model.Predicate
	// Fill, if positive, bounds the messages in each channel of the random
	// configurations a run starts from (uniform among those; 0: the
	// channel's capacity, the full space).
	Fill int
	// CSRounds, if positive, bounds critical sections: a process whose
	// action is the CSRounds-th in a row to start in its critical section
	// (the spec's inCS predicate) takes one of its finite environment
	// steps (leaving) first, if it has one. 0 leaves it to the coin of
	// every action (critical sections finite, of geometric length).
	CSRounds int
}

// RoundRun is the outcome of one run of SearchRounds.
type RoundRun struct {
	// Rounds is the number of rounds until L held (0: the random
	// configuration was legitimate; the round in which L is reached
	// counts), or the rounds run if L was not reached.
	Rounds int
	// Reached: L held at the end of round Rounds.
	Reached bool
	// Deadlock: the run ended outside L in a configuration with no
	// enabled step that is not a valid end state.
	Deadlock bool
	// Overflow: the run ended at a step that sent to a full channel whose
	// policy is "error" (reported, as a violation of the channel bound, by
	// a run of a spec that must lose no message).
	Overflow bool
	// Steps is the number of model steps the run took.
	Steps int
	// LastViolated[i] is the last round at whose action's end
	// Invariants[i] failed (0: in the first configuration only), or -1 if
	// it never did. The run goes on until L holds, so this is at most
	// Rounds.
	LastViolated []int
}

// RoundWitness is the execution of the slowest run, step by step.
// Steps[i] leads from States[i] to States[i+1]; RoundEnds[r] is the
// number of steps taken by the end of round r+1. Run is the run's number
// (First plus its index).
type RoundWitness struct {
	Run       int
	Order     SweepOrder
	States    []*model.State
	Steps     []model.Step
	RoundEnds []int
}

// RoundResult is the outcome of SearchRounds.
type RoundResult struct {
	// Runs holds one entry per completed run, in order: Runs[i] is run
	// First+i.
	Runs []RoundRun
	// Slowest is the index in Runs of the slowest run: one that did not
	// reach L if any (the first such), else the first to take the most
	// rounds; -1 if no run completed.
	Slowest int
	// Witness replays the slowest run (nil if no run completed).
	Witness *RoundWitness
	// Stopped: the context was cancelled before every run completed.
	Stopped bool
}

// Summary returns how many runs reached L and the minimum, mean and
// maximum rounds they took (zeros if none did), and how many did not
// reach L and how many of those ended in a deadlock (runs that ended at
// an overflow count as not reaching L; Overflows counts them).
func (r *RoundResult) Summary() (reached, min, max int, mean float64, notReached, deadlocks int) {
	var sp spread
	for _, run := range r.Runs {
		switch {
		case run.Reached:
			sp.add(run.Rounds)
		case run.Deadlock:
			notReached++
			deadlocks++
		default:
			notReached++
		}
	}
	return sp.n, sp.min, sp.max, sp.mean(), notReached, deadlocks
}

// actionLimit bounds the steps of one process action: a process whose
// protocol steps keep reaching new configurations after this many steps
// with no other process moving is a spec fault.
const actionLimit = 1 << 16

// SearchRounds measures stabilization in the round model of the papers on
// self-stabilizing message passing (Datta, Devismes, Horn and Larmore,
// AlgoTel 2008: "a round is the time the slowest processor takes to act;
// an action receives the messages present in the channels, changes the
// processor's state, and sends"). Each run starts from a uniformly random
// configuration of the full space and runs rounds until legit holds or
// MaxRounds rounds have passed. In a round every process acts once, in the
// order opts.Order; a process with nothing to do acts trivially. So a
// round of a run is exactly a round in the papers' sense.
//
// An action of process p is a sequence of model steps of p alone:
// with probability 1/2 one of its enabled environment steps (the
// application requesting or leaving, drawn uniformly), then its first
// enabled protocol or timeout action (in declared order, an alternative
// drawn uniformly), again and again until p has none enabled or the next
// would lead back to a configuration of this action; a timeout action
// fires at most once per action (a timer expires once). As no other process
// moves meanwhile, p receives every message that was in its channels, as
// the papers' action does; an action is atomic, so legit is
// tested between actions only. Every run is an execution of the model
// under the central daemon, and its witness replays step by step.
//
// The most rounds found is a lower bound on the worst case, not the worst
// case: that needs every configuration and every schedule.
//
// SearchRounds needs the central daemon. It returns an error when a spec
// misbehaves; a cancelled ctx stops it between actions, and the result
// then holds the completed runs and Stopped.
func SearchRounds(ctx context.Context, sys *model.System, opts RoundOptions, legit func(*model.State) bool) (*RoundResult, error) {
	if sys.Daemon != model.Central {
		return nil, fmt.Errorf("rounds: %s runs under the %s daemon; the round model needs the central daemon", sys.Name, sys.Daemon)
	}
	if legit == nil {
		return nil, fmt.Errorf("rounds: %s declares no legitimacy predicate to stabilize to", sys.Name)
	}
	if opts.Runs < 0 || opts.First < 0 || opts.MaxRounds < 1 {
		return nil, errors.New("rounds: runs and the first run must not be negative, and the round limit must be at least 1")
	}
	rs := &roundSearcher{
		ctx: ctx, sys: sys, exp: sys.NewExpander(), opts: opts, legit: legit,
		cur: sys.NewState(), env: sampled{state: sys.NewState()}, proto: sampled{state: sys.NewState()},
		leave: sampled{state: sys.NewState()}, inside: make([]int, sys.N()),
		order: make([]int, sys.N()),
	}
	if pp, ok := sys.ProcessPredicateByName("inCS"); ok && opts.CSRounds > 0 {
		rs.inCS = pp.Holds
	}
	res := &RoundResult{Slowest: -1}
	for i := 0; i < opts.Runs; i++ {
		run, err := rs.run(opts.First+i, nil)
		if errors.Is(err, errStopped) {
			res.Stopped = true
			break
		}
		if err != nil {
			return res, err
		}
		res.Runs = append(res.Runs, run)
		if res.Slowest < 0 || slower(run, res.Runs[res.Slowest]) {
			res.Slowest = i
		}
	}
	if res.Slowest >= 0 {
		w := &RoundWitness{Run: opts.First + res.Slowest, Order: opts.Order}
		rs.ctx = context.Background()
		again, err := rs.run(w.Run, w)
		if err != nil {
			return res, err
		}
		if !again.same(res.Runs[res.Slowest]) {
			return res, fmt.Errorf("rounds: run %d is not reproducible (a spec that is not a pure function?)", w.Run)
		}
		res.Witness = w
	}
	return res, nil
}

// LatestViolation returns, for invariant i of the options, the run (its
// index in Runs) that violated it latest and the round it last did so;
// -1, -1 if no run violated it.
func (r *RoundResult) LatestViolation(i int) (run, round int) {
	run, round = -1, -1
	for k, x := range r.Runs {
		if x.LastViolated[i] > round {
			run, round = k, x.LastViolated[i]
		}
	}
	return run, round
}

// Overflows is the number of runs that ended at a step overflowing a
// channel whose policy is "error".
func (r *RoundResult) Overflows() int {
	n := 0
	for _, run := range r.Runs {
		if run.Overflow {
			n++
		}
	}
	return n
}

// same reports whether two runs had the same outcome.
func (a RoundRun) same(b RoundRun) bool {
	return a.Rounds == b.Rounds && a.Reached == b.Reached && a.Deadlock == b.Deadlock &&
		a.Overflow == b.Overflow && a.Steps == b.Steps && slices.Equal(a.LastViolated, b.LastViolated)
}

// slower reports whether run a is slower than b: a did not reach L and b
// did, or both did and a took more rounds. A run that ended at an overflow
// is never slower than one that did not.
func slower(a, b RoundRun) bool {
	if a.Overflow != b.Overflow {
		return b.Overflow
	}
	if a.Reached != b.Reached {
		return !a.Reached
	}
	return a.Reached && a.Rounds > b.Rounds
}

// roundSearcher holds what every run reuses.
type roundSearcher struct {
	ctx   context.Context
	sys   *model.System
	exp   *model.Expander
	opts  RoundOptions
	legit func(*model.State) bool
	rng   *rand.Rand
	runs  runRand
	order []int

	// cur is the configuration. While Expand enumerates cur's successors,
	// env draws an environment step of the acting process, and proto a
	// step of its first enabled protocol or timeout action, protoAction.
	cur         *model.State
	env, proto  sampled
	protoAction int32
	// leave draws a finite environment step of the acting process (with
	// CSRounds), inCS is the spec's predicate and inside[p] counts p's
	// actions in a row that started in its critical section.
	leave  sampled
	inCS   func(*model.State, int) bool
	inside []int
	actor  int32
	// visited holds the configurations of the current action; timedOut
	// is set once the action has taken a timeout step.
	visited  []*model.State
	timedOut bool
	// overflowed is set when a step taken overflowed a channel bound.
	overflowed bool
}

// run executes run i; with w non-nil it records the run into w.
func (rs *roundSearcher) run(i int, w *RoundWitness) (RoundRun, error) {
	rs.rng = rs.runs.seed(rs.opts.Seed, i)
	rs.overflowed = false
	clear(rs.inside)
	r := RoundRun{LastViolated: make([]int, len(rs.opts.Invariants))}
	for i := range r.LastViolated {
		r.LastViolated[i] = -1
	}
	if rs.opts.Fill > 0 {
		rs.sys.RandomConfigurationUpTo(rs.rng, rs.cur, rs.opts.Fill)
	} else {
		rs.sys.RandomConfiguration(rs.rng, rs.cur)
	}
	if w != nil {
		w.States = append(w.States[:0], rs.cur.Clone())
	}
	rs.judge(&r)
	if rs.legit(rs.cur) {
		r.Reached = true
		return r, nil
	}
	for r.Rounds < rs.opts.MaxRounds {
		r.Rounds++
		rs.arrange()
		moved := false
		for _, p := range rs.order {
			if rs.ctx.Err() != nil {
				return r, errStopped
			}
			steps, err := rs.act(p, w)
			if err != nil {
				return r, err
			}
			r.Steps += steps
			moved = moved || steps > 0
			if rs.overflowed {
				r.Overflow = true
				if w != nil {
					w.RoundEnds = append(w.RoundEnds, r.Steps)
				}
				return r, nil
			}
			if steps == 0 {
				continue
			}
			rs.judge(&r)
			if rs.legit(rs.cur) {
				r.Reached = true
				break
			}
		}
		if w != nil {
			w.RoundEnds = append(w.RoundEnds, r.Steps)
		}
		if r.Reached {
			return r, nil
		}
		if !moved {
			// Nobody moved in a whole round: unless only environment steps
			// were declined, the configuration has no step at all.
			n, _, err := rs.exp.Count(rs.cur)
			if err != nil {
				return r, err
			}
			if n == 0 {
				r.Deadlock = rs.sys.ValidEnd == nil || !rs.sys.ValidEnd.Holds(rs.cur)
				return r, nil
			}
		}
	}
	return r, nil
}

// judge records the invariants the current configuration violates as
// violated in the current round.
func (rs *roundSearcher) judge(r *RoundRun) {
	for i := range rs.opts.Invariants {
		if !rs.opts.Invariants[i].Holds(rs.cur) {
			r.LastViolated[i] = r.Rounds
		}
	}
}

// arrange sets the order of the processes for the next round.
func (rs *roundSearcher) arrange() {
	n := len(rs.order)
	for k := range rs.order {
		rs.order[k] = n - 1 - k
	}
	if rs.opts.Order == Shuffled {
		rs.rng.Shuffle(n, func(a, b int) { rs.order[a], rs.order[b] = rs.order[b], rs.order[a] })
	}
}

// act performs process p's action from rs.cur and returns the number of
// steps it took. A timeout fires at most once per action (a timer expires
// once), and the action ends when p has no other protocol step enabled, or
// when its next one would lead back to a configuration of this action (a
// cycle of p's own steps).
func (rs *roundSearcher) act(p int, w *RoundWitness) (int, error) {
	rs.timedOut = false
	if err := rs.draw(p); err != nil {
		return 0, err
	}
	steps := 0
	leave := false
	if rs.inCS != nil {
		if rs.inCS(rs.cur, p) {
			rs.inside[p]++
		} else {
			rs.inside[p] = 0
		}
		leave = rs.inside[p] >= rs.opts.CSRounds && rs.leave.seen > 0
	}
	var app *sampled // the application's step, if it takes one
	switch {
	case leave:
		app = &rs.leave // a critical section as long as the bound
	case rs.env.seen > 0 && rs.rng.IntN(2) == 0:
		app = &rs.env
	}
	if app != nil {
		rs.take(app, w)
		steps++
		if rs.overflowed {
			return steps, nil
		}
		if err := rs.draw(p); err != nil {
			return steps, err
		}
	}
	rs.visited = rs.remember(rs.visited[:0])
	for rs.proto.seen > 0 && !rs.revisits(rs.proto.state) {
		if len(rs.visited) == actionLimit {
			return steps, fmt.Errorf("rounds: %s: process %d still has a protocol action enabled after %d steps of one action", rs.sys.Name, p, actionLimit)
		}
		rs.take(&rs.proto, w)
		steps++
		mv := rs.proto.step.Moves[0]
		rs.timedOut = rs.timedOut || rs.sys.ActionOf(mv).Kind == model.Timeout
		rs.visited = rs.remember(rs.visited)
		if rs.overflowed {
			return steps, nil
		}
		if err := rs.draw(p); err != nil {
			return steps, err
		}
	}
	return steps, nil
}

// remember appends a copy of rs.cur to visited, reusing its buffers.
func (rs *roundSearcher) remember(visited []*model.State) []*model.State {
	if len(visited) < cap(visited) {
		visited = visited[:len(visited)+1]
		if st := visited[len(visited)-1]; st != nil {
			st.CopyFrom(rs.cur)
			return visited
		}
		visited[len(visited)-1] = rs.cur.Clone()
		return visited
	}
	return append(visited, rs.cur.Clone())
}

// revisits reports whether st is a configuration of the current action.
func (rs *roundSearcher) revisits(st *model.State) bool {
	for _, v := range rs.visited {
		if v.Equal(st) {
			return true
		}
	}
	return false
}

// take makes the drawn step's configuration the current one.
func (rs *roundSearcher) take(d *sampled, w *RoundWitness) {
	rs.cur.CopyFrom(d.state)
	rs.overflowed = rs.overflowed || d.step.Overflow
	if w != nil {
		w.States = append(w.States, rs.cur.Clone())
		w.Steps = append(w.Steps, d.step.Clone())
	}
}

// draw enumerates rs.cur's successors and draws, uniformly, one
// environment step of p and one step of p's first enabled protocol or
// timeout action.
func (rs *roundSearcher) draw(p int) error {
	rs.actor, rs.env.seen, rs.proto.seen, rs.protoAction = int32(p), 0, 0, -1
	rs.leave.seen = 0
	_, err := rs.exp.Expand(rs.cur, rs.offer)
	return err
}

// offer is draw's Expand callback (reservoir sampling, as Simulate's pick).
func (rs *roundSearcher) offer(st *model.Step, next *model.State) bool {
	if len(st.Moves) != 1 || st.Moves[0].Proc != rs.actor {
		return true
	}
	mv := st.Moves[0]
	kind := rs.sys.ActionOf(mv).Kind
	if kind == model.Timeout && rs.timedOut {
		return true // a timer expires once per action
	}
	if kind == model.Environment {
		rs.env.offer(rs.rng, st, next)
		if rs.inCS != nil && rs.sys.ActionOf(mv).Liveness == model.Finite {
			rs.leave.offer(rs.rng, st, next)
		}
		return true
	}
	switch {
	case rs.protoAction >= 0 && mv.Action > rs.protoAction:
		return true
	case rs.protoAction < 0 || mv.Action < rs.protoAction:
		rs.protoAction, rs.proto.seen = mv.Action, 0
	}
	rs.proto.offer(rs.rng, st, next)
	return true
}

// sampled keeps one of the steps offered to it, each with the same
// probability (reservoir sampling: the k-th replaces the one kept with
// probability 1/k), and the configuration it leads to.
type sampled struct {
	seen  int
	state *model.State
	step  model.Step
}

func (d *sampled) offer(rng *rand.Rand, st *model.Step, next *model.State) {
	d.seen++
	if rng.IntN(d.seen) == 0 {
		d.state.CopyFrom(next)
		d.step.Moves = append(d.step.Moves[:0], st.Moves...)
		d.step.Overflow = st.Overflow
	}
}
