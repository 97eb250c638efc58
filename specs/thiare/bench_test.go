package thiare_test

import (
	"testing"

	"github.com/ringcheck/ringcheck/specs/spectest"
	"github.com/ringcheck/ringcheck/specs/spintest"
)

// bench is the benchmarked instance, n=4 with R=3 requests each (the
// other parameters at their defaults: one resource, no Rule 4, Rule 2 as
// written), the largest of the spec's deadlock-free instances whose search
// takes a few seconds (about 1.5 s for ringcheck on two cores, 2 s for
// pan; n=4 with R=2, 89308 states, takes a third of a second); from its
// initial configuration ringcheck reaches benchStates configurations by
// benchTransitions transitions, and pan stores one state more and makes
// two transitions more (see TestSPINTwinAgrees).
var bench = twinInstance{n: 4, r: 3, res: 1, resend: 0, replace: 1}

const (
	benchStates      = 646582
	benchTransitions = 1487485
)

// BenchmarkReachable is ringcheck's exhaustive breadth-first search of the
// configurations reachable from the initial one (explore.BFS with a
// monitor that checks nothing, on every core), reporting the states, states
// per second, the bytes per state of the state store and visited set
// (store-bytes/state), and the peak live heap, whole and per state:
//
//	go test ./specs/thiare -run '^$' -bench Reachable -benchtime 1x
func BenchmarkReachable(b *testing.B) {
	b.Run(bench.String(), func(b *testing.B) {
		spectest.BenchReachable(b, spectest.Build(b, "thiare", bench.values(b)), benchStates, benchTransitions)
	})
}

// BenchmarkSPIN runs SPIN's exhaustive search of testdata/thiare.pml on the
// same instance: pan in safety mode (no partial-order reduction, no
// compression; see spintest.CFlags), compiled once, outside the timed loop,
// without -E (it finds no invalid end state: no deadlock) and with the
// mutex assertions on (none fails). It checks that pan stores ringcheck's
// states + 1 and makes its transitions + 2, and reports pan's stored
// states, its rate (pan's "pan: rate" line), its memory (pan's "memory
// usage (Mbyte)": hash table, state store and search stack) and that
// memory per stored state:
//
//	go test ./specs/thiare -run '^$' -bench SPIN -benchtime 1x
func BenchmarkSPIN(b *testing.B) {
	b.Run(bench.String(), func(b *testing.B) {
		const want = benchStates + 1
		m := spintest.Compile(b, twin, bench.defines())
		flags := thiarePanFlags(want)
		m.Bench(b, want, benchTransitions+2, flags...)
	})
}

// BenchmarkSPINReduced runs SPIN's default search of testdata/thiare.pml
// on the benchmarked instance: pan with its partial-order reduction and
// compression (spintest.ReducedCFlags), reporting the states it stores and
// the seconds it takes, to weigh against a reduced ringcheck search of the
// same instance:
//
//	go test ./specs/thiare -run '^$' -bench SPINReduced -benchtime 1x
func BenchmarkSPINReduced(b *testing.B) {
	b.Run(bench.String(), func(b *testing.B) {
		const full = benchStates + 1
		m := spintest.CompileWith(b, twin, bench.defines(), spintest.ReducedCFlags())
		m.BenchReduced(b, full, thiarePanFlags(full)...)
	})
}
