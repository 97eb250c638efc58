// Package klpusher holds the tests of the built-in spec kl-pusher, the
// naive k-out-of-ℓ exclusion of Datta, Devismes, Horn and Larmore with the
// pusher: the algorithm is the file specs/ring/kl-pusher.ring, which the
// catalogue serves, and the tests pin its readings of the paper, its
// verdicts and its counterexamples on that file (and, where spin is
// installed, its state counts against the Promela twin of testdata/).
package klpusher
