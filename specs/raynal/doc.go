// Package raynal holds the tests of the built-in spec raynal, Raynal's
// permission-based k-out-of-M resource allocation: the algorithm is the
// file specs/ring/raynal.ring, which the catalogue serves, and the tests
// pin its readings of the paper, its verdicts and its counterexamples on
// that file (and, where spin is installed, its state counts against the
// Promela twin of testdata/).
package raynal
