//go:build race

package explore

// raceDetector says the tests run under the race detector, which makes
// a search several times slower.
const raceDetector = true
