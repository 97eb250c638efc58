// Package kldhv holds the tests of the built-in spec kl-dhv, the
// self-stabilizing token-based k-out-of-ℓ exclusion of Datta, Hadid and
// Villain: the algorithm is the file specs/ring/kl-dhv.ring, which the
// catalogue serves, and the tests pin its readings of the paper, its
// verdicts and its counterexamples on that file.
package kldhv
