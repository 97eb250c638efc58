//go:build !race

package explore_test

// slowdown is how many times slower the race detector makes the search
// (1: it is off).
const slowdown = 1
