package symbolic

import (
	"fmt"
	"slices"

	"github.com/ringcheck/ringcheck/internal/rudd"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
)

// fromStart, with Options.Start, restricts the analysis to the
// configurations reachable from those where the spec's start predicate
// holds: the valid configurations become those, and L those of them in
// it. They are closed under steps, so closure, the least fixpoint of
// convergence and the fair cycles computed over them are about the
// executions from the start configurations (and from every configuration
// they reach). Restricting twice gives the same set.
func (a *analysis) fromStart() error {
	e, b := a.e, a.b
	if !e.opts.Start {
		return nil
	}
	a.w.report(Progress{Phase: "the start predicate"})
	start, err := e.boolean(e.spec.Start.Body, env{self: -1})
	if err != nil {
		return fmt.Errorf("spec %s: the start predicate: %w", e.spec.Name, err)
	}
	start = b.And(start, e.valid)
	if b.Equal(start, b.False()) {
		return fmt.Errorf("spec %s: the start predicate: no configuration satisfies it", e.spec.Name)
	}
	reached, err := a.reach("configurations reachable from start", start, e.valid, true)
	if err != nil {
		return err
	}
	e.valid = reached
	e.legitimate = b.And(e.legitimate, reached)
	e.closureFrom = b.And(e.closureFrom, reached)
	return nil
}

// stem sets res.Stem, with Options.Start and a violation of convergence:
// a shortest path from a start configuration to the violation's first.
func (a *analysis) stem(res *Result) error {
	e, b := a.e, a.b
	if !e.opts.Start || res == nil || len(res.Violation) == 0 {
		return nil
	}
	a.w.report(Progress{Phase: "the path from start of the counterexample"})
	start, err := e.boolean(e.spec.Start.Body, env{self: -1})
	if err != nil {
		return fmt.Errorf("spec %s: the start predicate: %w", e.spec.Name, err)
	}
	frontier := b.And(start, e.valid)
	target := e.point(res.Violation[0])
	layers := []rudd.Node{frontier}
	seen := frontier
	for b.Equal(b.And(frontier, target), b.False()) {
		if err := a.poll("the path from start of the counterexample", len(layers), frontier); err != nil {
			return err
		}
		frontier = b.And(b.And(e.post(frontier), e.valid), b.Not(seen))
		if b.Equal(frontier, b.False()) {
			return fmt.Errorf("spec %s: the counterexample's first configuration is not reachable from start", e.spec.Name)
		}
		seen = b.Or(seen, frontier)
		layers = append(layers, frontier)
	}
	path := make([]Configuration, len(layers)-1)
	next := res.Violation[0]
	for i := len(layers) - 2; i >= 0; i-- {
		path[i] = e.pick(b.And(layers[i], e.pre(e.point(next))))
		next = path[i]
	}
	res.Stem = path
	return nil
}

// StartedExecution is Execution of stem followed by configs: a path from
// a start configuration to configs[0] (stem, configs[0] excluded), then
// configs, a lasso looping back to configs[0] when lasso is set. With no
// stem it is Execution.
func StartedExecution(sys *model.System, stem, configs []Configuration, lasso bool) (*invariants.Counterexample, error) {
	if len(stem) == 0 {
		return Execution(sys, configs, lasso)
	}
	if len(configs) == 0 {
		return nil, fmt.Errorf("an execution of no configuration")
	}
	path, err := Execution(sys, append(slices.Clone(stem), configs[0]), false)
	if err != nil {
		return nil, err
	}
	rest, err := Execution(sys, configs, lasso)
	if err != nil {
		return nil, err
	}
	ce := &invariants.Counterexample{Kind: rest.Kind, States: append(path.States, rest.States[1:]...), Steps: append(path.Steps, rest.Steps...), LoopStart: len(stem) + rest.LoopStart}
	if err := ce.Replay(sys); err != nil {
		return nil, err
	}
	return ce, nil
}
