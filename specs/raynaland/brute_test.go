package raynaland_test

import (
	"fmt"
	"testing"

	"github.com/ringcheck/ringcheck/specs/internal/raynalbrute"
	"github.com/ringcheck/ringcheck/specs/internal/raynaltest"
)

// TestReachableCountMatchesBruteForce: ringcheck's reachable states and
// transitions equal the brute-force encoding's (§6 written again in
// specs/internal/raynalbrute, independently of the model package).
func TestReachableCountMatchesBruteForce(t *testing.T) {
	for _, p := range []params{
		{n: 2, t: 2, m: 1, r: 2},
		{n: 2, t: 3, m: 1, r: 1},
		{n: 2, t: 2, m: 2, r: 2},
		{n: 3, t: 2, m: 1, r: 1},
	} {
		t.Run(fmt.Sprint(p), func(t *testing.T) {
			if testing.Short() && p.n == 3 {
				t.Skip("large instance")
			}
			sys, _ := build(t, p)
			raynaltest.MatchesBrute(t, sys, raynalbrute.Instance{N: p.n, T: p.t, M: p.m, K: p.k, R: p.r})
		})
	}
}
