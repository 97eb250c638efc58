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

// BenchmarkTwin runs the same check on each .ring twin and on its Go spec,
// one worker each, and reports states/s and bytes/state for both (the
// ratio of the twin's states/s to the Go spec's is the compiled
// language's cost):
//
//	go test ./specs/ring -run '^$' -bench Twin -benchtime 3x
func BenchmarkTwin(b *testing.B) {
	reg, err := catalog.Registry()
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		file, spec string
		values     specs.Values
		from       invariants.From
		props      []invariants.Property
	}{
		{"dijkstra.ring", "dijkstra", specs.Values{"n": 7, "K": 7}, invariants.FromAll, []invariants.Property{invariants.Deadlock}},
		{"dijkstra.ring", "dijkstra", specs.Values{"n": 7, "K": 7}, invariants.FromAll, []invariants.Property{invariants.Closure, invariants.Convergence}},
		{"counterflush.ring", "counterflush", specs.Values{"n": 3, "Cmax": 1}, invariants.FromAll, []invariants.Property{invariants.Deadlock}},
		{"counterflush.ring", "counterflush", specs.Values{"n": 3, "Cmax": 1}, invariants.FromAll, []invariants.Property{invariants.Closure, invariants.Convergence}},
	} {
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
				sys, err := side.spec.Build(bc.values)
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

// BenchmarkTwinKLDDHL is BenchmarkTwin for kl-ddhl n=3 L=2 K=2: safety
// and deadlock from init, a breadth-first search of 2,230,974 states with
// the legitimacy invariant checked on each:
//
//	go test ./specs/ring -run '^$' -bench TwinKLDDHL -benchtime 1x
func BenchmarkTwinKLDDHL(b *testing.B) {
	reg, err := catalog.Registry()
	if err != nil {
		b.Fatal(err)
	}
	ring, _, err := lang.Load("kl-ddhl.ring")
	if err != nil {
		b.Fatal(err)
	}
	goSpec, err := reg.Lookup("kl-ddhl")
	if err != nil {
		b.Fatal(err)
	}
	values := specs.Values{"n": 3, "L": 2, "K": 2, "Cmax": 0, "staycs": 0}
	for _, side := range []struct {
		name string
		spec *specs.Spec
	}{{"ring", ring}, {"go", goSpec}} {
		b.Run(side.name, func(b *testing.B) {
			sys, err := side.spec.Build(values)
			if err != nil {
				b.Fatal(err)
			}
			opts := invariants.Options{Properties: []invariants.Property{invariants.Safety, invariants.Deadlock}, Search: explore.Options{Workers: 1}}
			rep, elapsed, peak := spectest.TimeCheck(b, sys, opts)
			spectest.ReportCheckMetrics(b, rep.Search.States, elapsed, peak)
		})
	}
}
