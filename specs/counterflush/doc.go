// Package counterflush holds the tests of the built-in spec counterflush,
// Varghese's counter flushing: the algorithm is the file
// specs/ring/counterflush.ring, which the catalogue serves, and the tests
// pin its readings of the paper, its verdicts and its counterexamples on
// that file (and, where spin is installed, its state counts against the
// Promela twin of testdata/).
package counterflush
