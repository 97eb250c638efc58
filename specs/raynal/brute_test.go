package raynal_test

import (
	"testing"

	"github.com/ringcheck/ringcheck/specs/internal/raynalbrute"
	"github.com/ringcheck/ringcheck/specs/internal/raynaltest"
)

// TestReachableCountMatchesBruteForce: ringcheck's reachable states and
// transitions equal those of the brute-force encoding
// (specs/internal/raynalbrute, written independently of the model
// package, with one type), for both versions.
func TestReachableCountMatchesBruteForce(t *testing.T) {
	for _, p := range []params{
		{n: 2, m: 1, r: 2},
		{n: 2, m: 2, r: 2},
		{n: 2, m: 3, k: 2, r: 2},
		{n: 3, m: 1, r: 1},
		{n: 3, m: 2, r: 1},
		{n: 2, m: 2, r: 3, asked: 1},
		{n: 3, m: 2, r: 1, asked: 1},
		{n: 3, m: 1, r: 2, asked: 1},
	} {
		t.Run(p.String(), func(t *testing.T) {
			sys, _ := build(t, p)
			raynaltest.MatchesBrute(t, sys, raynalbrute.Instance{N: p.n, T: 1, M: p.m, K: p.k, R: p.r, Asked: p.asked == 1})
		})
	}
}
