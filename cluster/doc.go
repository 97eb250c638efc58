// Package cluster runs a breadth-first search for safety and deadlock
// partitioned over workers: each state belongs to the worker its packed
// words hash to; each level, every worker expands the states it owns and
// sends their successors, in batches under a bound on the batches a
// peer has not acknowledged, to their owners, which keep the new ones and
// judge them with the monitors of package invariants. A coordinator
// numbers the states of each level as the single-process search does (in
// the order of their smallest parent's number and the step that reaches
// them), so that counts, verdicts and counterexamples are the same for
// any number of workers.
//
// Closure and convergence from every configuration run over the same
// workers: each owns a contiguous range of the full space's ranks, sweeps
// it (L, closure, the configurations outside L with no step or a faulty
// one, the counts) and sends the reverse edges between configurations
// outside L to the owners of their targets; the coordinator then
// eliminates, level by level, the configurations outside L whose
// successors outside L are all gone, so that a configuration's level is
// its worst case in steps, and what remains does not converge. The
// report is the one package invariants gives on one process.
//
// Messages go through a Transport: an in-process one (goroutines and
// channels) here, NATS in package cluster/natsnet.
package cluster
