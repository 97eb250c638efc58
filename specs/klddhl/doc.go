// Package klddhl holds the tests of the built-in spec kl-ddhl, the full
// self-stabilizing k-out-of-ℓ exclusion of Datta, Devismes, Horn and
// Larmore: the algorithm is the file specs/ring/kl-ddhl.ring, which the
// catalogue serves, and the tests pin its readings of the paper, its
// verdicts and its counterexamples on that file (and, where spin is
// installed, its state counts against the Promela twin of testdata/).
package klddhl
