// Package raynaland holds the tests of the built-in spec raynal-and, the
// generalized AND-allocation of Raynal's k-out-of-M paper: the algorithm
// is the file specs/ring/raynal-and.ring, which the catalogue serves, and
// the tests pin its readings of the paper, its verdicts and its
// counterexamples on that file.
package raynaland
