// Herman's self-stabilizing token ring (T. Herman, "Probabilistic
// self-stabilization", Information Processing Letters 35(2), 1990):
// n processes, n odd, on a unidirectional ring, each with a bit x.
// Process i holds a token when x_i = x_{i-1}. The ring is synchronous:
// at every step every process moves, a process with a token setting x_i
// to a random bit (the coin, here a choice of either bit), one without
// copying x_{i-1}. Run it under the synchronous daemon.
spec herman "Herman's probabilistic token ring"
source "T. Herman, Probabilistic self-stabilization, IPL 35(2), 1990"

param n = 5 in 3..15 "number of processes (odd)"
require n mod 2 == 1 "Herman's ring has an odd number of processes, so an odd number of tokens"

topology ring(n)

var x: 0..1

process all {
  action toss(c in 0..1): x == x[pred] -> x := c
  action copy: x != x[pred] -> x := x[pred]
}

legitimate "exactly one token": (count p: x[p] == x[p-1]) == 1

check closure, convergence

// Every process runs the same actions, which read processes only
// relative to the acting one: the processes are interchangeable under
// rotation, and symmetry reduction stores one configuration per orbit.
symmetry rotation
