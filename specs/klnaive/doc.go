// Package klnaive holds the tests of the built-in spec kl-naive, the naive
// token-collection k-out-of-ℓ exclusion of Datta, Devismes, Horn and
// Larmore: the algorithm is the file specs/ring/kl-naive.ring, which the
// catalogue serves, and the tests pin its readings of the paper, its
// verdicts and its counterexamples on that file (and, where spin is
// installed, its state counts against the Promela twin of testdata/).
package klnaive
