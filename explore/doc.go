// Package explore holds ringcheck's search engines over a model.System and
// the store they keep:
//
//   - BFS, a breadth-first search by levels from the system's initial
//     configurations, exhaustive or bounded by depth, states and time, with
//     a compact append-only store of packed states, parent links (so every
//     path it returns is a shortest one) and an open-addressing visited set
//     of 64-bit slots (a hash's tag and a state id, or with fingerprints
//     the hash itself); after a complete search, Result.Graph gives the
//     reachable-state graph as a statespace.Graph;
//   - Sweep, which visits every configuration of the full configuration
//     space by rank, with no store and no hash table at all: when every
//     configuration is an initial state, the reachable set is the whole
//     space, so there is nothing to remember.
//
// Engines know no property. They hand every state they visit, with its
// number of successors, to a Monitor, which judges; a monitor tells the
// engine when it has decided everything it watches, and the engine stops.
// Both engines use Options.Workers goroutines (at most MaxWorkers).
// HeapSampler measures the peak heap of a run.
//
// The graph analyses of self-stabilization live in package statespace,
// random runs and rounds in package runs.
package explore
