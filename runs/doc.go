// Package runs holds ringcheck's random runs and its two round models.
//
// Simulate runs random executions of a system (from random initial or
// arbitrary configurations, optionally with a transient fault that
// replaces the whole configuration mid-run), checking a state predicate at
// every step and measuring recovery to the legitimacy predicate.
//
// Rounds measure stabilization time the way the papers do, in two models:
//
//   - Asynchronous rounds (Dolev, Self-Stabilization, 2000, §2): a round is
//     the shortest stretch of an execution in which every process enabled at
//     its start moves or is neutralized. WorstRounds computes the exact worst
//     case over every configuration outside L and every schedule of the
//     explicit configuration space (a statespace.Space), for the
//     stabilization analysis of package invariants.
//   - The message-passing round of Datta, Devismes, Horn and Larmore
//     (AlgoTel 2008): in a round every process acts once, and an action
//     receives what is in its channels, changes the state and sends.
//     SearchRounds samples runs of that model from random configurations
//     (a lower bound on the worst case, never the worst case), and
//     VerifyRounds checks, independently, that a witness run is an
//     execution of the model with the rounds it claims.
package runs
