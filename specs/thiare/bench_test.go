package thiare_test

import (
	"runtime"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
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

// BenchmarkSPINReduced runs SPIN's default search of testdata/thiare.pml:
// pan with its partial-order reduction and compression
// (spintest.ReducedCFlags), reporting the states it stores and the seconds
// it takes, to weigh against a reduced ringcheck search of the same
// instance. On the benchmarked instance it checks what BenchmarkSPIN does
// (the assertions and invalid end states); on deadlockBench, deadlock
// freedom alone, as BenchmarkReducedDeadlock does: invalid end states,
// with the assertions off (-A).
//
//	go test ./specs/thiare -run '^$' -bench 'ReducedDeadlock|SPINReduced' -benchtime 1x
func BenchmarkSPINReduced(b *testing.B) {
	b.Run(bench.String(), func(b *testing.B) {
		const full = benchStates + 1
		m := spintest.CompileWith(b, twin, bench.defines(), spintest.ReducedCFlags())
		m.BenchReduced(b, full, thiarePanFlags(full)...)
	})
	b.Run("deadlock/"+deadlockBench.String(), func(b *testing.B) {
		const full = deadlockFull + 1
		m := spintest.CompileWith(b, twin, deadlockBench.defines(), spintest.ReducedCFlags())
		m.BenchReduced(b, full, append(thiarePanFlags(full), "-A")...)
	})
}

// deadlockBench is the instance of the one-run comparison with SPIN's
// partial-order reduction: n=5 with R=2 requests each and Rule 2 without
// replacement (replace=0), where deadlock freedom holds. Its reachable
// space has deadlockFull configurations; pan, with or without its
// reduction, stores one more.
var deadlockBench = twinInstance{n: 5, r: 2, res: 1, resend: 0, replace: 0}

const deadlockFull = 2824498

// BenchmarkReducedDeadlock is ringcheck's check of deadlock freedom on
// deadlockBench with the partial-order reduction the command line runs by
// default for it (explore.PartialOrder without invariants, the exact
// store, every core). It fails unless deadlock freedom holds after an
// exhaustive search of at most deadlockFull states, and reports the
// states stored, the seconds, the states per second and the peak live
// heap. Run it with BenchmarkSPINReduced, in one command, to weigh the two
// checkers' reductions:
//
//	go test ./specs/thiare -run '^$' -bench 'ReducedDeadlock|SPINReduced' -benchtime 1x
func BenchmarkReducedDeadlock(b *testing.B) {
	b.Run(deadlockBench.String(), func(b *testing.B) {
		sys := spectest.Build(b, "thiare", deadlockBench.values(b))
		rep, elapsed, peak := spectest.TimeCheck(b, sys, invariants.Options{
			Properties: []invariants.Property{invariants.Deadlock},
			From:       invariants.FromInit,
			Search:     explore.Options{Workers: runtime.GOMAXPROCS(0), PartialOrder: &explore.PartialOrder{}},
		})
		if !rep.Search.Complete() || !rep.Search.PartialOrder || rep.Search.States > deadlockFull ||
			len(rep.Outcomes) != 1 || rep.Outcomes[0].Verdict != invariants.Holds {
			b.Fatalf("ringcheck: %d states (at most %d), stop %v, reduced %v, outcomes %+v; want deadlock freedom to hold",
				rep.Search.States, deadlockFull, rep.Search.Stop, rep.Search.PartialOrder, rep.Outcomes)
		}
		spectest.ReportCheckMetrics(b, rep.Search.States, elapsed, peak)
		b.ReportMetric(elapsed.Seconds(), "s")
	})
}
