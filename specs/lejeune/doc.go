// Package lejeune holds the tests of the built-in spec lejeune, the multi-
// resource allocation of Lejeune, Arantes, Sopena and Sens: the algorithm
// is the file specs/ring/lejeune.ring, which the catalogue serves, and the
// tests pin its readings of the paper, its verdicts and its
// counterexamples on that file.
package lejeune
