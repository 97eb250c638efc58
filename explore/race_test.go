//go:build race

package explore_test

// slowdown is how many times slower the race detector makes the search:
// the tests that bound how long a stop takes allow that much more.
const slowdown = 4
