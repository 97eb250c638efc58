// Package invariants holds ringcheck's properties and their checkers. Each
// checker watches the states a search engine visits (it is an
// explore.Monitor) and yields a verdict: holds (the search was complete and
// found no violation), violated (with a counterexample, shortest because the
// engines search breadth-first) or unknown (a bound stopped the search
// first). A bounded search never yields holds.
//
// The properties built so far:
//
//   - safety: every state invariant the spec declares holds in every
//     reachable state, and no step overflows a channel whose policy is
//     "error";
//   - deadlock: no reachable state outside the spec's valid end states has
//     no enabled step.
package invariants
