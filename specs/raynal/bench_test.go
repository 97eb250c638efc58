package raynal_test

import (
	"testing"

	"github.com/ringcheck/ringcheck/specs/spectest"
	"github.com/ringcheck/ringcheck/specs/spintest"
)

// benchParams is the benchmarked instance, the done criterion and
// the spec's claims' (§3, n=3, M=2, K=M, R=2); from its initial
// configuration ringcheck reaches benchStates configurations by
// benchTransitions transitions, and pan stores one state more and makes
// two transitions more (see TestSPINTwinAgrees).
var benchParams = params{n: 3, m: 2, r: 2}

const (
	benchStates      = 1096552
	benchTransitions = 3680702
)

var benchName = "n=3,M=2,R=2"

// BenchmarkReachable is ringcheck's exhaustive breadth-first search of the
// configurations reachable from the initial one (explore.BFS with a
// monitor that checks nothing, on every core), reporting the states, states
// per second, the bytes per state of the state store and visited set
// (store-bytes/state), and the peak live heap, whole and per state:
//
//	go test ./specs/raynal -run '^$' -bench Reachable -benchtime 1x
func BenchmarkReachable(b *testing.B) {
	b.Run(benchName, func(b *testing.B) {
		sys, _ := build(b, benchParams)
		spectest.BenchReachable(b, sys, benchStates, benchTransitions)
	})
}

// BenchmarkSPIN runs SPIN's exhaustive search of testdata/raynal.pml on the
// same instance: pan in safety mode (no partial-order reduction, no
// compression; see spintest.CFlags), compiled once, outside the timed loop,
// with -DINV=0 (no assertions: like BenchmarkReachable's search, it
// checks nothing) and run without -E (it finds no invalid end state: no
// deadlock). It checks that pan stores ringcheck's states + 1 and makes
// its transitions + 2, and reports pan's stored states, its rate (pan's
// "pan: rate" line), its memory (pan's "total actual memory usage": hash
// table, state store and search stack) and that memory per stored state:
//
//	go test ./specs/raynal -run '^$' -bench SPIN -benchtime 1x
func BenchmarkSPIN(b *testing.B) {
	b.Run(benchName, func(b *testing.B) {
		const want = benchStates + 1
		m := spintest.Compile(b, twin, twinDefines(benchParams, false))
		flags := raynalPanFlags(want)
		m.Bench(b, want, benchTransitions+2, flags...)
	})
}

// BenchmarkSPINReduced runs SPIN's default search of testdata/raynal.pml
// on the benchmarked instance: pan with its partial-order reduction and
// compression (spintest.ReducedCFlags), reporting the states it stores and
// the seconds it takes, to weigh against a reduced ringcheck search of the
// same instance:
//
//	go test ./specs/raynal -run '^$' -bench SPINReduced -benchtime 1x
func BenchmarkSPINReduced(b *testing.B) {
	b.Run(benchName, func(b *testing.B) {
		const full = benchStates + 1
		m := spintest.CompileWith(b, twin, twinDefines(benchParams, false), spintest.ReducedCFlags())
		m.BenchReduced(b, full, raynalPanFlags(full)...)
	})
}
