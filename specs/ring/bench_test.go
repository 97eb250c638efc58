package ring_test

import (
	"fmt"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/lang"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/catalog"
	"github.com/ringcheck/ringcheck/specs/spectest"
)

// benchCase is one check run on a .ring twin and on its Go spec.
type benchCase struct {
	file, spec string
	values     specs.Values
	from       invariants.From
	props      []invariants.Property
}

// benchTwins runs each case on the twin and on the Go spec, one worker
// each, and reports states/s, bytes/state and the peak heap of both (the
// ratio of the twin's states/s to the Go spec's is the compiled
// language's cost).
func benchTwins(b *testing.B, cases []benchCase) {
	reg, err := catalog.Registry()
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range cases {
		ring, _, err := lang.Load(bc.file)
		if err != nil {
			b.Fatal(err)
		}
		goSpec, err := reg.Lookup(bc.spec)
		if err != nil {
			b.Fatal(err)
		}
		for _, side := range []struct {
			name string
			spec *specs.Spec
		}{{"ring", ring}, {"go", goSpec}} {
			b.Run(fmt.Sprintf("%s/%v/%s/%v", bc.spec, bc.values, bc.props, side.name), func(b *testing.B) {
				values := bc.values
				if side.name == "ring" {
					values = twin{renamed: map[string]string{"count": "ghost"}}.ringValues(values)
				}
				sys, err := side.spec.Build(values)
				if err != nil {
					b.Fatal(err)
				}
				opts := invariants.Options{Properties: bc.props, From: bc.from, Search: explore.Options{Workers: 1}}
				rep, elapsed, peak := spectest.TimeCheck(b, sys, opts)
				spectest.ReportCheckMetrics(b, rep.Search.States, elapsed, peak)
			})
		}
	}
}

// BenchmarkTwin compares the twins on checks of a fraction of a second
// to a few seconds:
//
//	go test ./specs/ring -run '^$' -bench 'Twin$' -benchtime 3x
func BenchmarkTwin(b *testing.B) {
	benchTwins(b, []benchCase{
		{"dijkstra.ring", "dijkstra", specs.Values{"n": 7, "K": 7}, invariants.FromAll, []invariants.Property{invariants.Deadlock}},
		{"dijkstra.ring", "dijkstra", specs.Values{"n": 7, "K": 7}, invariants.FromAll, []invariants.Property{invariants.Closure, invariants.Convergence}},
		{"counterflush.ring", "counterflush", specs.Values{"n": 3, "Cmax": 1}, invariants.FromAll, []invariants.Property{invariants.Deadlock}},
		{"counterflush.ring", "counterflush", specs.Values{"n": 3, "Cmax": 1}, invariants.FromAll, []invariants.Property{invariants.Closure, invariants.Convergence}},
	})
}

// BenchmarkTwinLarge compares the message-passing twins on breadth-first
// searches of one to two million states from init: kl-ddhl n=3 L=2 K=2
// (2,230,974 states, its legitimacy invariant checked on each) and raynal
// n=3 M=2 R=2 (1,096,552):
//
//	go test ./specs/ring -run '^$' -bench TwinLarge -benchtime 1x -count 3
func BenchmarkTwinLarge(b *testing.B) {
	benchTwins(b, []benchCase{
		{"kl-ddhl.ring", "kl-ddhl", specs.Values{"n": 3, "L": 2, "K": 2, "Cmax": 0, "staycs": 0}, invariants.FromInit, []invariants.Property{invariants.Safety, invariants.Deadlock}},
		{"raynal.ring", "raynal", specs.Values{"n": 3, "M": 2, "K": 0, "requests": 2, "asked": 0, "count": 0, "Cmax": 0}, invariants.FromInit, []invariants.Property{invariants.Safety, invariants.Deadlock}},
	})
}
