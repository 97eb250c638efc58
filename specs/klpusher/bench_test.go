package klpusher_test

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/spectest"
)

// BenchmarkStarvationCheck explores every state reachable from the initial
// configuration and decides starvation under weak fairness for every
// process, reporting states per second over the whole check, the states,
// and the peak live heap:
//
//	go test ./specs/klpusher -run '^$' -bench StarvationCheck -benchtime 1x
func BenchmarkStarvationCheck(b *testing.B) {
	for _, p := range []specs.Values{
		{"n": 3, "L": 3, "K": 2, "Cmax": 0},
		{"n": 5, "L": 4, "K": 2, "Cmax": 0},
		{"n": 6, "L": 5, "K": 3, "Cmax": 0},
	} {
		b.Run(fmt.Sprintf("n=%d,L=%d,K=%d", p["n"], p["L"], p["K"]), func(b *testing.B) {
			sys := spectest.Build(b, "kl-pusher", p)
			opts := spectest.WeakFairnessFromInit(invariants.Starvation)
			opts.Search.Workers = runtime.GOMAXPROCS(0)
			rep, elapsed, peak := spectest.TimeCheck(b, sys, opts)
			if rep.Outcomes[0].Verdict != invariants.Violated {
				b.Fatalf("starvation %s, the paper's Figure 2 says violated", rep.Outcomes[0].Verdict)
			}
			spectest.ReportCheckMetrics(b, rep.Search.States, elapsed, peak)
		})
	}
}
