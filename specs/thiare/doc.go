// Package thiare holds the tests of the built-in spec thiare, Thiare's
// several-tokens mutual exclusion on a logical ring: the algorithm is the
// file specs/ring/thiare.ring, which the catalogue serves, and the tests
// pin its readings of the paper, its verdicts and its counterexamples on
// that file (and, where spin is installed, its state counts against the
// Promela twin of testdata/).
package thiare
