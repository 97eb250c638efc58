// Israeli and Jalfon's self-stabilizing token management on a ring
// (A. Israeli, M. Jalfon, "Token management schemes and random walks
// yield self-stabilizing mutual exclusion", PODC 1990): a process that
// holds a token passes it to its predecessor or to its successor, in one
// atomic step that clears its own bit and sets the neighbour's; a token
// passed to a process that holds one merges with it. Random walks make
// the tokens meet with probability 1; ringcheck's daemon is not random,
// so two tokens that it keeps apart keep convergence from holding, from
// every configuration with at least one token (the start predicate) as
// from every configuration (where the one with no token has no step);
// closure holds: one token stays one token.
spec israeli-jalfon "Israeli-Jalfon token passing: tokens walk the ring and merge"
source "A. Israeli, M. Jalfon, Token management schemes and random walks yield self-stabilizing mutual exclusion, PODC 1990"

param N = 4 in 2..16 "number of processes on the ring"

topology ring(N)

var q: bool = false "the process holds a token"

// Passing a token writes the neighbour's q: the action is atomic, one
// step for the clearing and the setting.
process all {
  atomic action left:  q -> q := false, q[pred] := true
  atomic action right: q -> q := false, q[succ] := true
}
// The initial configuration: one token, at process 0.
process 0 {
  init: q := true
}

def tokens = count p: q[p]
invariant one_token "exactly one token, from the initial configuration": tokens == 1
legitimate "exactly one token": tokens == 1
// The paper's claim is about every configuration with at least one
// token (the configuration with none has no step): checks start there
// with --from start.
start "at least one token": tokens >= 1
valid_end "no token (the configurations with none have no step)": tokens == 0

check safety, deadlock
claim safety holds from init with N = 4 "a token is moved, never duplicated: one token stays one"
claim closure holds from all with N = 4 "passing the only token leaves exactly one"
claim convergence violated from all with N = 4 "no token: no step; two tokens walking the same way never meet under an adversarial daemon (random walks meet with probability 1)"
claim convergence violated from start with N = 4 "two tokens that the daemon keeps apart never merge, under every fairness (random walks meet with probability 1)"

// Every process runs the same actions, which read processes only
// relative to the acting one: the processes are interchangeable under
// rotation, and symmetry reduction stores one configuration per orbit.
symmetry rotation
