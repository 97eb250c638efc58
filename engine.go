package ringcheck

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ringcheck/ringcheck/budget"
	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/fields"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/statespace"
	"github.com/ringcheck/ringcheck/symbolic"
)

// Engine is what decides closure and convergence from every
// configuration.
type Engine string

// The engines.
const (
	// EngineExplicit walks every configuration one by one (the default).
	EngineExplicit Engine = "explicit"
	// EngineSymbolic computes fixpoints over BDDs (package symbolic): a
	// spec written in the ring language, closure and convergence from
	// every configuration (channel contents included), and convergence
	// from the configurations of its start predicate, under no fairness
	// or weak or strong fairness (per process or per action).
	EngineSymbolic Engine = "symbolic"
	// EngineAuto is the symbolic engine where it applies and the explicit
	// one could not hold the full space (past statespace.MaxSpace
	// configurations, or past the memory budget at explicitBytes a
	// configuration), the explicit one otherwise.
	EngineAuto Engine = "auto"
)

// explicitBytes is what the explicit stabilization analysis holds per
// configuration: its heights, its claims and its index, and the bit sets.
const explicitBytes = 11

// ParseEngine reads explicit, symbolic or auto.
func ParseEngine(s string) (Engine, error) {
	switch e := Engine(s); e {
	case EngineExplicit, EngineSymbolic, EngineAuto:
		return e, nil
	}
	return "", fmt.Errorf("engine %q is not one of explicit, symbolic, auto", s)
}

// chooseEngine resolves the request's engine for the planned check, or
// says why the symbolic engine it names cannot run it.
func (r *Request) chooseEngine(res *Result) (Engine, error) {
	switch r.Engine {
	case "", EngineExplicit:
		if r.SymbolicRounds {
			return "", fields.Errorf("{SymbolicRounds} asks the symbolic engine for rounds: it needs {Engine} symbolic or auto (the explicit engine computes them anyway)")
		}
		return EngineExplicit, nil
	case EngineSymbolic:
		if err := r.symbolicApplies(res); err != nil {
			return "", fields.Errorf("{Engine} symbolic: %v", err)
		}
		return EngineSymbolic, nil
	case EngineAuto:
		if r.symbolicApplies(res) != nil {
			return EngineExplicit, nil
		}
		count, ok := res.System.Configurations()
		if ok && count <= statespace.MaxSpace && (r.MaxMemory == 0 || count <= r.MaxMemory/explicitBytes) {
			return EngineExplicit, nil
		}
		return EngineSymbolic, nil
	}
	return "", fields.Errorf("{Engine} %q is not one of explicit, symbolic, auto", r.Engine)
}

// symbolicApplies says why the symbolic engine cannot run the planned
// check, or nil.
func (r *Request) symbolicApplies(res *Result) error {
	opts := res.Options
	for _, p := range opts.Properties {
		if p != invariants.Closure && p != invariants.Convergence {
			return fmt.Errorf("it decides closure and convergence, not %s", p)
		}
	}
	if opts.From != invariants.FromAll && opts.From != invariants.FromStart {
		return fmt.Errorf("it decides from every configuration or from start, not from %s", opts.From)
	}
	if r.MaxDepth > 0 || r.MaxStates > 0 || r.Fingerprints {
		return errors.New("it has no depth or state bound and keeps no fingerprints")
	}
	if r.Spec.Instance == nil {
		return fmt.Errorf("spec %s is written in Go; the engine reads specs written in the ring language (.ring files)", r.Spec.Name)
	}
	inst, err := r.instance(res)
	if err != nil {
		return err
	}
	return symbolic.Supports(inst, r.symbolicOptions(opts))
}

// instance is the ring-language instance the symbolic engine encodes: the
// spec's at the check's values, with the request's overflow policy on its
// channels when it replaces the spec's (as for the explicit model).
func (r *Request) instance(res *Result) (*ir.Spec, error) {
	inst, err := r.Spec.Instance(res.Values)
	if err != nil || r.Overflow == nil || inst.Channels == nil {
		return inst, err
	}
	ch := *inst.Channels
	ch.Overflow = *r.Overflow
	inst.Channels = &ch
	return inst, nil
}

// symbolicOptions are the symbolic engine's options for the check.
func (r *Request) symbolicOptions(opts invariants.Options) symbolic.Options {
	return symbolic.Options{Daemon: r.Daemon, Fairness: opts.Fairness, Memory: opts.Search.Memory, Rounds: r.SymbolicRounds, Start: opts.From == invariants.FromStart}
}

// SymbolicRoundsNotAsked is the note on rounds of a symbolic check that
// did not ask for them (Request.SymbolicRounds).
const SymbolicRoundsNotAsked = "the symbolic engine computes rounds only when asked"

// errTimeLimit is the cause of a symbolic run stopped by its time limit.
var errTimeLimit = errors.New("time limit reached")

// runSymbolic decides closure and convergence with the symbolic engine and
// replays every witness on the explicit model. A stop (the memory budget,
// a cancelled ctx) leaves both unknown, with what the engine had done.
func (r *Request) runSymbolic(ctx context.Context, res *Result) error {
	start := time.Now()
	opts := r.symbolicOptions(res.Options)
	if r.SymbolicProgress != nil {
		opts.Progress = r.SymbolicProgress
	}
	search := &explore.Result{Stop: explore.Exhausted}
	res.Report = &invariants.Report{Search: search}
	inst, err := r.instance(res)
	if err != nil {
		return err
	}
	if r.TimeLimit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, r.TimeLimit, errTimeLimit)
		defer cancel()
	}
	var out *symbolic.Result
	enc, err := symbolic.Encode(ctx, inst, opts)
	encoded := err == nil
	if encoded {
		out, err = enc.Analyse(ctx)
	}
	search.Elapsed = time.Since(start)
	if err != nil {
		stop, stopped := symbolicStop(ctx, err)
		if !stopped {
			return err
		}
		search.Stop = stop
		errors.As(err, &search.Exceeded) // the budget's figures, when it stopped
		at := stoppedAt(err)
		var reason string
		switch {
		case !encoded:
			reason = fmt.Sprintf("the symbolic engine stopped (%s) while it encoded the spec", search.Stop)
			var where []string
			if phase := strings.TrimPrefix(at.Phase, "encoding "); phase != "" {
				where = append(where, phase)
			}
			if at.Table > 0 {
				where = append(where, fmt.Sprintf("a table of %d BDD nodes", at.Table))
			}
			if len(where) > 0 {
				reason += " (" + strings.Join(where, "; ") + ")"
			}
			if at.Total > 0 {
				res.Report.Phases = append(res.Report.Phases, invariants.Phase{Name: "symbolic encoding, the actions of every process", Done: uint64(at.Done), Total: uint64(at.Total)})
			}
		case out == nil || out.Iterations == 0:
			reason = fmt.Sprintf("the symbolic engine stopped (%s) before its first fixpoint iteration", search.Stop)
			if at.Phase != "" {
				reason += ", in " + at.Phase
			}
		default:
			reason = fmt.Sprintf("the symbolic engine stopped (%s) in %s", search.Stop, at.Phase)
			if at.Iteration > 0 {
				reason += fmt.Sprintf(", iteration %d", at.Iteration)
			}
		}
		if out != nil {
			// The counts decided before the fixpoints; layers that the
			// stop cut short are no worst case.
			out.Layers = nil
			res.Symbolic = out
		}
		for _, p := range res.Options.Properties {
			if p == invariants.Closure && out != nil {
				// Closure is decided before the fixpoints.
				o, err := closureOutcome(res.System, out)
				if err != nil {
					return err
				}
				res.Report.Outcomes = append(res.Report.Outcomes, o)
				continue
			}
			res.Report.Outcomes = append(res.Report.Outcomes, invariants.Outcome{Property: p, Verdict: invariants.Unknown, Reason: reason})
		}
		return nil
	}
	res.Symbolic = out
	var rounds *symbolic.Rounds
	roundsNote := SymbolicRoundsNotAsked
	if out.Convergence && !out.Unbounded && out.Faulty.Sign() == 0 && opts.Rounds {
		rounds, err = enc.WorstRounds(ctx)
		search.Elapsed = time.Since(start)
		switch stop, stopped := symbolicStop(ctx, err); {
		case err == nil:
			out.Iterations += rounds.Iterations
			out.PeakNodes = max(out.PeakNodes, rounds.PeakNodes)
		case stopped:
			// Closure, convergence and the worst case in steps stand;
			// the check is cut.
			at := stoppedAt(err)
			roundsNote = fmt.Sprintf("the symbolic engine stopped (%s) in %s, iteration %d", stop, at.Phase, at.Iteration)
			search.Stop = stop
			errors.As(err, &search.Exceeded)
		default:
			return err
		}
	}
	return r.symbolicReport(res, out, rounds, roundsNote)
}

// symbolicStop names the limit that stopped the symbolic engine with err,
// if one did.
func symbolicStop(ctx context.Context, err error) (explore.StopReason, bool) {
	var exceeded *budget.Exceeded
	switch {
	case err == nil:
		return 0, false
	case errors.As(err, &exceeded):
		return explore.MemoryBound, true
	case errors.Is(context.Cause(ctx), errTimeLimit):
		return explore.TimeBound, true
	case ctx.Err() != nil:
		return explore.Interrupted, true
	}
	return 0, false
}

// stoppedAt is where the symbolic engine stood when a bound stopped it
// with err (the zero Progress if err does not say).
func stoppedAt(err error) symbolic.Progress {
	var st *symbolic.Stopped
	if errors.As(err, &st) {
		return st.At
	}
	return symbolic.Progress{}
}

// closureOutcome is the closure verdict of the symbolic engine's result,
// its witness replayed on sys.
func closureOutcome(sys *model.System, out *symbolic.Result) (invariants.Outcome, error) {
	o := invariants.Outcome{Property: invariants.Closure, Verdict: invariants.Holds, Reason: invariants.ClosureHoldsReason(sys)}
	if !out.Closure {
		ce, err := symbolic.Execution(sys, out.ClosureWitness, false)
		if err != nil {
			return o, fmt.Errorf("the symbolic engine's closure witness: %w", err)
		}
		o.Verdict, o.Reason, o.Counterexample = invariants.Violated, "a step from a legitimate configuration leaves L", ce
	}
	return o, nil
}

// symbolicReport turns the symbolic engine's result into outcomes, each
// witness replayed on the explicit model.
func (r *Request) symbolicReport(res *Result, out *symbolic.Result, rounds *symbolic.Rounds, roundsNote string) error {
	sys := res.System
	for _, p := range res.Options.Properties {
		o := invariants.Outcome{Property: p, Verdict: invariants.Holds}
		switch p {
		case invariants.Closure:
			var err error
			if o, err = closureOutcome(sys, out); err != nil {
				return err
			}
		case invariants.Convergence:
			if !out.Convergence {
				ce, err := symbolic.StartedExecution(sys, out.Stem, out.Violation, out.Cycle)
				if err != nil {
					return fmt.Errorf("the symbolic engine's convergence witness: %w", err)
				}
				o.Verdict, o.Counterexample = invariants.Violated, ce
				o.Reason = "a configuration outside L has no enabled step"
				if out.Cycle {
					o.Reason = invariants.FairCycle(res.Options.Fairness, false)
				}
				o.Stuck = out.Stuck.String()
				o.Reason += "; " + invariants.DoNotConverge(o.Stuck)
				o, _ = invariants.LeavingTheModel(o, out.Faulty.String())
				break
			}
			if o, kept := invariants.LeavingTheModel(o, out.Faulty.String()); !kept {
				// No worst case either: executions through a faulty step
				// leave the model.
				res.Report.Outcomes = append(res.Report.Outcomes, o)
				continue
			}
			st := &invariants.Stabilization{Unbounded: out.Unbounded, WorstSteps: len(out.Layers), RoundsNote: roundsNote}
			if r.Daemon == model.Central && !out.Unbounded {
				// A step is one move; the engine does not weigh the
				// steps of the other daemons.
				st.WorstMoves, st.MovesComputed = st.WorstSteps, true
			}
			if out.Unbounded {
				st.RoundsNote = "unfair cycles outside L: rounds are not computed on a graph with cycles"
			}
			if rounds != nil {
				st.WorstRounds, st.RoundsComputed, st.RoundsNote = rounds.Worst, true, ""
			}
			if out.Configurations.IsUint64() {
				st.Configurations, st.Legitimate = out.Configurations.Uint64(), out.Legitimate.Uint64()
			}
			if !out.Unbounded && len(out.Worst) > 1 {
				ce, err := symbolic.Execution(sys, out.Worst, false)
				if err != nil {
					return fmt.Errorf("the symbolic engine's worst-case execution: %w", err)
				}
				st.Witness = ce
			}
			res.Report.Stabilization = st
		}
		res.Report.Outcomes = append(res.Report.Outcomes, o)
	}
	return nil
}
