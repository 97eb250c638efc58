// Package cluster runs a breadth-first search for safety and deadlock
// partitioned over workers: each state belongs to the worker its packed
// words hash to; each level, every worker expands the states it owns and
// sends their successors, in batches under a bound on the batches a
// peer has not acknowledged, to their owners, which keep the new ones and
// judge them with the monitors of package invariants. A coordinator
// numbers the states of each level as the single-process search does (in
// the order of their smallest parent's number and the step that reaches
// them), so that counts, verdicts and counterexamples are the same for
// any number of workers. Messages go through a Transport: an in-process
// one (goroutines and channels) here, NATS in package cluster/natsnet.
package cluster
