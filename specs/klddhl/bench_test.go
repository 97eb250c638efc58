package klddhl_test

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/runs"
	"github.com/ringcheck/ringcheck/specs/spectest"
	"github.com/ringcheck/ringcheck/specs/spintest"
)

// benchN, benchL and benchK are the benchmarked instance, the one of the
// spec's claims; from its initial configuration ringcheck reaches
// benchStates configurations by benchTransitions transitions, and pan
// stores one state more and makes two transitions more (see
// TestSPINTwinAgrees).
const (
	benchN, benchL, benchK = 3, 2, 2
	benchStates            = 2230974
	benchTransitions       = 8439120
)

var benchName = fmt.Sprintf("n=%d,L=%d,K=%d", benchN, benchL, benchK)

// BenchmarkReachable is ringcheck's exhaustive breadth-first search of the
// configurations reachable from the initial one (explore.BFS with a
// monitor that checks nothing, on every core), reporting the states, states
// per second, the bytes per state of the state store and visited set
// (store-bytes/state), and the peak live heap, whole and per state:
//
//	go test ./specs/klddhl -run '^$' -bench Reachable -benchtime 1x
func BenchmarkReachable(b *testing.B) {
	b.Run(benchName, func(b *testing.B) {
		sys, _ := build(b, benchN, benchL, benchK)
		spectest.BenchReachable(b, sys, benchStates, benchTransitions)
	})
}

// BenchmarkSPIN runs SPIN's exhaustive search of testdata/klddhl.pml on the
// same instance: pan in safety mode (no partial-order reduction, no
// compression; see spintest.CFlags), compiled once, outside the timed loop,
// without -E (it finds no invalid end state: no deadlock). It checks that
// pan stores ringcheck's states + 1 and makes its transitions + 2, and
// reports pan's stored states, its rate (pan's "pan: rate" line), its
// memory (pan's "memory usage (Mbyte)": hash table, state store and search
// stack) and that memory per stored state:
//
//	go test ./specs/klddhl -run '^$' -bench SPIN -benchtime 1x
func BenchmarkSPIN(b *testing.B) {
	b.Run(benchName, func(b *testing.B) {
		const want = benchStates + 1
		m := spintest.Compile(b, twin, map[string]int{"N": benchN, "L": benchL, "K": benchK})
		flags := ddhlPanFlags(want)
		m.Bench(b, want, benchTransitions+2, flags...)
	})
}

// BenchmarkStarvation is ringcheck's starvation check under weak fairness
// from the initial configuration (every process, at once), which the spec
// claims holds, reporting the states, states per second over the whole
// check (search and the fairness analysis), and the peak live heap, whole
// and per state:
//
//	go test ./specs/klddhl -run '^$' -bench Starvation -benchtime 1x
func BenchmarkStarvation(b *testing.B) {
	if err := invariants.Implemented(invariants.Starvation); err != nil {
		b.Skip(err)
	}
	b.Run(benchName, func(b *testing.B) {
		sys, _ := build(b, benchN, benchL, benchK)
		opts := spectest.WeakFairnessFromInit(invariants.Starvation)
		opts.Search.Workers = runtime.GOMAXPROCS(0)
		rep, elapsed, peak := spectest.TimeCheck(b, sys, opts)
		if o := rep.Outcomes[0]; o.Verdict != invariants.Holds || rep.Search.States != benchStates {
			b.Fatalf("starvation %s (%s) over %d states; the spec claims it holds, over %d", o.Verdict, o.Reason, rep.Search.States, benchStates)
		}
		spectest.ReportCheckMetrics(b, rep.Search.States, elapsed, peak)
	})
}

// BenchmarkRounds is 'ringcheck rounds kl-ddhl' on the same instance: runs
// from random configurations in the paper's round model (backward order),
// one core, reporting runs and model steps per second and the allocations
// per run:
//
//	go test ./specs/klddhl -run '^$' -bench Rounds -benchmem
func BenchmarkRounds(b *testing.B) {
	b.Run(benchName, func(b *testing.B) {
		sys, _ := build(b, benchN, benchL, benchK)
		const batch = 1000
		b.ReportAllocs()
		b.ResetTimer()
		steps := 0
		for i := 0; i < b.N; i++ {
			res, err := runs.SearchRounds(context.Background(), sys,
				runs.RoundOptions{Runs: batch, First: i * batch, Seed: 1, MaxRounds: 120, Invariants: sys.Invariants}, sys.Legitimate.Holds)
			if err != nil {
				b.Fatal(err)
			}
			for _, r := range res.Runs {
				steps += r.Steps
			}
		}
		secs := b.Elapsed().Seconds()
		b.ReportMetric(float64(b.N*batch)/secs, "runs/s")
		b.ReportMetric(float64(steps)/secs, "steps/s")
		b.ReportMetric(0, "ns/op")
	})
}

// BenchmarkSPINReduced runs SPIN's default search of testdata/klddhl.pml
// on the benchmarked instance: pan with its partial-order reduction and
// compression (spintest.ReducedCFlags), reporting the states it stores and
// the seconds it takes, to weigh against a reduced ringcheck search of the
// same instance:
//
//	go test ./specs/klddhl -run '^$' -bench SPINReduced -benchtime 1x
func BenchmarkSPINReduced(b *testing.B) {
	b.Run(benchName, func(b *testing.B) {
		const full = benchStates + 1
		m := spintest.CompileWith(b, twin, map[string]int{"N": benchN, "L": benchL, "K": benchK}, spintest.ReducedCFlags())
		m.BenchReduced(b, full, ddhlPanFlags(full)...)
	})
}
