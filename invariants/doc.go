// Package invariants holds ringcheck's properties and their checkers. Check
// takes a system and Options (which properties, from where, under which
// fairness, with which search bounds; Options.Validate holds every rule on
// what may be combined) and returns a Report with one Outcome per
// property: holds (the search was complete and found no violation),
// violated (with a counterexample) or unknown (a bound stopped the search
// first, or the evidence cannot decide). A bounded or sampled search never
// yields holds.
//
// The properties:
//
//   - safety: every state invariant the spec declares holds in every
//     reachable state, and no step overflows a channel whose policy is
//     "error";
//   - deadlock: no reachable state outside the spec's valid end states has
//     no enabled step;
//   - starvation: no execution fair under the chosen fairness (none, weak
//     or strong, over the actions' liveness roles) keeps a requesting
//     process out of its critical section forever;
//   - leads-to: every fair execution in which a process satisfies one
//     predicate later has it satisfy another;
//   - closure: every step from a legitimate configuration leads to a
//     legitimate one;
//   - convergence: every fair execution from every configuration reaches a
//     legitimate one; when it holds, the stabilization time in steps and in
//     asynchronous rounds, with a witness.
//
// Safety and deadlock are monitors run by the engines of package explore,
// whose breadth-first search makes every counterexample to them a shortest
// one. Starvation and leads-to search the reachable-state graph for fair
// cycles; closure and convergence work on the full configuration space
// (package statespace). Convergence can also start from configurations a
// trace gives or from random samples, where a violation found is decided
// and anything else stays unknown.
package invariants
