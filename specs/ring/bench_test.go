package ring_test

import (
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/lang"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/spectest"
)

// benchCase is one check of a spec's file, run on the compiled closures
// and on the Go generated from the instance.
type benchCase struct {
	file, spec string
	values     specs.Values
	from       invariants.From
	props      []invariants.Property
}

// sides are the two forms an instance runs on: the closures compiled
// from its file ("ring") and the Go generated from it ("gen", the
// checked-in package of specs/ring/generated; a case without one is
// skipped).
var sides = []string{"ring", "gen"}

// buildSide returns the system of the instance values of file on side.
func buildSide(b *testing.B, spec *specs.Spec, file, side string, values specs.Values) *model.System {
	var sys *model.System
	var err error
	if side == "gen" {
		sys, err = generatedSystem(b, file, values)
	} else {
		sys, err = spec.Build(values)
	}
	if err != nil {
		b.Fatal(err)
	}
	return sys
}

// benchTwins runs each case on each side, one worker each, and reports
// states/s, bytes/state and the peak heap of each.
func benchTwins(b *testing.B, cases []benchCase) {
	for _, bc := range cases {
		ring, _, err := lang.Load(bc.file)
		if err != nil {
			b.Fatal(err)
		}
		for _, side := range sides {
			b.Run(fmt.Sprintf("%s/%v/%s/%v", bc.spec, bc.values, bc.props, side), func(b *testing.B) {
				sys := buildSide(b, ring, bc.file, side, bc.values)
				opts := invariants.Options{Properties: bc.props, From: bc.from, Search: explore.Options{Workers: 1}}
				rep, elapsed, peak := spectest.TimeCheck(b, sys, opts)
				spectest.ReportCheckMetrics(b, rep.Search.States, elapsed, peak)
			})
		}
	}
}

// BenchmarkTwin compares the two forms on checks of a fraction of a
// second to a few seconds:
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

// BenchmarkTwinLarge compares the two forms on breadth-first searches of
// the message-passing specs from init of about a second to a few seconds
// each, every invariant of the instance checked on each state: kl-ddhl
// n=3 L=2 K=2 (2,230,974 states), raynal n=3 M=2 R=2 (1,096,552), and
// one instance of each other message-passing spec:
//
//	go test ./specs/ring -run '^$' -bench TwinLarge -benchtime 1x -count 2
func BenchmarkTwinLarge(b *testing.B) {
	benchTwins(b, largeCases)
}

// BenchmarkReachableGenerated is BenchmarkReachable of specs/raynal,
// specs/klddhl and specs/thiare (spectest.BenchReachable: every state
// from init, on every core, with each store) on the Go generated from the
// same instances (the packages under generated/, what `ringcheck gen
// --build` compiles), to weigh against pan, which SPIN compiles from the
// twin models in the same way; one run of both:
//
//	go test ./specs/raynal ./specs/klddhl ./specs/thiare ./specs/ring -run '^$' -bench 'SPIN$|ReachableGenerated/.*/exact' -benchtime 3x
func BenchmarkReachableGenerated(b *testing.B) {
	for _, c := range []struct {
		spec                string
		states, transitions int64
	}{
		{"raynal", 1096552, 3680702},
		{"kl-ddhl", 2230974, 8439120},
		{"thiare", 646582, 1487485},
	} {
		b.Run(c.spec, func(b *testing.B) {
			sys, err := generatedSystem(b, c.spec+".ring", largeCase(c.spec))
			if err != nil {
				b.Fatal(err)
			}
			spectest.BenchReachable(b, sys, c.states, c.transitions)
		})
	}
}

// largeCases are BenchmarkTwinLarge's checks: safety (and deadlock where
// it holds) from init.
var largeCases = []benchCase{
	{"kl-ddhl.ring", "kl-ddhl", specs.Values{"n": 3, "L": 2, "K": 2, "Cmax": 0, "staycs": 0}, invariants.FromInit, safetyDeadlock},
	{"raynal.ring", "raynal", specs.Values{"n": 3, "M": 2, "K": 0, "requests": 2, "asked": 0, "count": 0, "Cmax": 0}, invariants.FromInit, safetyDeadlock},
	{"kl-naive.ring", "kl-naive", specs.Values{"n": 5, "L": 5, "K": 3, "Cmax": 0}, invariants.FromInit, []invariants.Property{invariants.Safety}},
	{"kl-pusher.ring", "kl-pusher", specs.Values{"n": 5, "L": 4, "K": 2, "Cmax": 0}, invariants.FromInit, safetyDeadlock},
	{"kl-dhv.ring", "kl-dhv", specs.Values{"n": 3, "L": 2, "K": 2, "Cmax": 0, "MaxSeq": 1, "MaxVc": 0, "staycs": 0, "fix": 0, "ctop": 0}, invariants.FromInit, safetyDeadlock},
	{"thiare.ring", "thiare", specs.Values{"n": 4, "requests": 3, "window": 0, "resources": 1, "resend": 0, "replace": 1, "order": 1, "Cmax": 0}, invariants.FromInit, safetyDeadlock},
	{"raynal-and.ring", "raynal-and", specs.Values{"n": 3, "types": 2, "M": 1, "K": 0, "requests": 1, "window": 0, "Cmax": 0}, invariants.FromInit, safetyDeadlock},
	{"lejeune.ring", "lejeune", specs.Values{"N": 3, "M": 2, "requests": 1, "window": 0, "loan": 1, "strict": 0, "Cmax": 0, "line260": 0}, invariants.FromInit, safetyDeadlock},
}

// safetyDeadlock is the check of most large cases.
var safetyDeadlock = []invariants.Property{invariants.Safety, invariants.Deadlock}

// BenchmarkTwinSteps measures what each form costs per configuration,
// without the search's tables: for each case of BenchmarkTwinLarge, the
// expansion of each of the first 20,000 configurations a breadth-first
// search from init reaches, unpacked as the search unpacks them, with
// every invariant evaluated on each (ns/state and the processor time
// cpu-ns/state, per configuration):
//
//	go test ./specs/ring -run '^$' -bench TwinSteps -benchtime 5x -count 3
func BenchmarkTwinSteps(b *testing.B) {
	for _, bc := range largeCases {
		ring, _, err := lang.Load(bc.file)
		if err != nil {
			b.Fatal(err)
		}
		for _, side := range sides {
			b.Run(fmt.Sprintf("%s/%s", bc.spec, side), func(b *testing.B) {
				sys := buildSide(b, ring, bc.file, side, bc.values)
				// The sample is kept packed and unpacked into one
				// configuration, as the search does.
				sample := firstStates(b, sys, 20000)
				words := make([]uint64, len(sample)*sys.Words())
				for i, st := range sample {
					sys.Pack(st, words[i*sys.Words():(i+1)*sys.Words()])
				}
				st, exp := sys.NewState(), sys.NewExpander()
				b.ResetTimer()
				cpu := cpuTime()
				for b.Loop() {
					for i := range sample {
						sys.Unpack(words[i*sys.Words():(i+1)*sys.Words()], st)
						if _, err := exp.Expand(st, func(*model.Step, *model.State) bool { return true }); err != nil {
							b.Fatal(err)
						}
						for _, inv := range sys.Invariants {
							inv.Holds(st)
						}
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(sample)), "ns/state")
				b.ReportMetric(float64((cpuTime()-cpu).Nanoseconds())/float64(b.N*len(sample)), "cpu-ns/state")
			})
		}
	}
}

// cpuTime is the processor time the process has used so far, which a
// machine shared with other work inflates less than the elapsed time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// firstStates returns the first n configurations a breadth-first search
// of sys from its initial ones reaches (fewer if it has fewer).
func firstStates(b *testing.B, sys *model.System, n int) []*model.State {
	seen := map[string]bool{}
	key := func(st *model.State) string {
		words := make([]uint64, sys.Words())
		sys.Pack(st, words)
		return fmt.Sprint(words)
	}
	var out []*model.State
	for _, st := range sys.Initial() {
		if k := key(st); !seen[k] {
			seen[k] = true
			out = append(out, st)
		}
	}
	exp := sys.NewExpander()
	for i := 0; i < len(out) && len(out) < n; i++ {
		if _, err := exp.Expand(out[i], func(_ *model.Step, next *model.State) bool {
			if k := key(next); !seen[k] && len(out) < n {
				seen[k] = true
				out = append(out, next.Clone())
			}
			return true
		}); err != nil {
			b.Fatal(err)
		}
	}
	return out
}
