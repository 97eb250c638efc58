// Package statespace holds the implicit graphs that ringcheck's analyses
// of self-stabilization and liveness work on, and the algorithms over them.
//
// A Space is a system's full configuration space as a graph whose vertices
// are ranks (model.System.Rank) and whose edges are regenerated on demand,
// never stored; a Cursor expands one configuration at a time and Parallel
// walks every configuration on several goroutines. Predicates over the
// space are Bits, one bit per configuration. Graph and Walker abstract over
// a Space and the reachable-state graph of a complete breadth-first search
// (explore.ReachGraph), so that one algorithm serves both:
//
//   - Components finds strongly connected components with Pearce's
//     iterative algorithm (one 32-bit word per vertex, no recursion), in
//     reverse topological order;
//   - Space.Heights computes, on an acyclic kept subgraph, the length of the
//     longest path from each vertex, in parallel, or reports ErrCyclic.
//
// Vertex ids are 32-bit: a space has at most MaxSpace configurations.
package statespace
