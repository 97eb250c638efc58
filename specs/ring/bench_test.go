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
	"github.com/ringcheck/ringcheck/specs/counterflush"
	"github.com/ringcheck/ringcheck/specs/dijkstra"
	"github.com/ringcheck/ringcheck/specs/klddhl"
	"github.com/ringcheck/ringcheck/specs/kldhv"
	"github.com/ringcheck/ringcheck/specs/klnaive"
	"github.com/ringcheck/ringcheck/specs/klpusher"
	"github.com/ringcheck/ringcheck/specs/lejeune"
	"github.com/ringcheck/ringcheck/specs/raynal"
	"github.com/ringcheck/ringcheck/specs/raynaland"
	"github.com/ringcheck/ringcheck/specs/spectest"
	"github.com/ringcheck/ringcheck/specs/thiare"
)

// benchCase is one check run on a .ring twin and on its Go spec, goSpec
// (the Go package's Spec, not the catalog's entry of that name, so that
// the file is compared with the hand-written Go whatever the catalog
// resolves the name to).
type benchCase struct {
	file, spec string
	goSpec     func() *specs.Spec
	values     specs.Values
	from       invariants.From
	props      []invariants.Property
}

// benchTwins runs each case on the twin, on the Go spec and on the twin
// run by the Go generated from it (side "gen", skipped for a case without
// a package in specs/ring/generated), one worker each, and reports
// states/s, bytes/state and the peak heap of each (the ratio of the
// twin's states/s to the Go spec's is the compiled language's cost).
func benchTwins(b *testing.B, cases []benchCase) {
	for _, bc := range cases {
		ring, _, err := lang.Load(bc.file)
		if err != nil {
			b.Fatal(err)
		}
		for _, side := range []struct {
			name string
			spec *specs.Spec
		}{{"ring", ring}, {"go", bc.goSpec()}, {"gen", ring}} {
			b.Run(fmt.Sprintf("%s/%v/%s/%v", bc.spec, bc.values, bc.props, side.name), func(b *testing.B) {
				values := bc.values
				if side.name != "go" {
					values = ringValues(side.spec, values)
				}
				var sys *model.System
				var err error
				if side.name == "gen" {
					sys, err = generatedSystem(b, bc.file, values)
				} else {
					sys, err = side.spec.Build(values)
				}
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

// ringValues returns a Go spec's values for its twin: raynal's count is
// ghost in a twin that has no parameter count.
func ringValues(ring *specs.Spec, values specs.Values) specs.Values {
	for _, p := range ring.Params {
		if p.Name == "count" {
			return values
		}
	}
	return twin{renamed: map[string]string{"count": "ghost"}}.ringValues(values)
}

// BenchmarkTwin compares the twins on checks of a fraction of a second
// to a few seconds:
//
//	go test ./specs/ring -run '^$' -bench 'Twin$' -benchtime 3x
func BenchmarkTwin(b *testing.B) {
	benchTwins(b, []benchCase{
		{"dijkstra.ring", "dijkstra", dijkstra.Spec, specs.Values{"n": 7, "K": 7}, invariants.FromAll, []invariants.Property{invariants.Deadlock}},
		{"dijkstra.ring", "dijkstra", dijkstra.Spec, specs.Values{"n": 7, "K": 7}, invariants.FromAll, []invariants.Property{invariants.Closure, invariants.Convergence}},
		{"counterflush.ring", "counterflush", counterflush.Spec, specs.Values{"n": 3, "Cmax": 1}, invariants.FromAll, []invariants.Property{invariants.Deadlock}},
		{"counterflush.ring", "counterflush", counterflush.Spec, specs.Values{"n": 3, "Cmax": 1}, invariants.FromAll, []invariants.Property{invariants.Closure, invariants.Convergence}},
	})
}

// BenchmarkTwinLarge compares the message-passing twins on breadth-first
// searches from init of about a second to a few seconds each, every
// invariant of the instance checked on each state: kl-ddhl n=3 L=2 K=2
// (2,230,974 states), raynal n=3 M=2 R=2 (1,096,552), and one instance of
// each other message-passing twin:
//
//	go test ./specs/ring -run '^$' -bench TwinLarge -benchtime 1x -count 2
func BenchmarkTwinLarge(b *testing.B) {
	benchTwins(b, largeCases)
}

// largeCases are BenchmarkTwinLarge's checks: safety (and deadlock where
// it holds) from init.
var largeCases = []benchCase{
	{"kl-ddhl.ring", "kl-ddhl", klddhl.Spec, specs.Values{"n": 3, "L": 2, "K": 2, "Cmax": 0, "staycs": 0}, invariants.FromInit, safetyDeadlock},
	{"raynal.ring", "raynal", raynal.Spec, specs.Values{"n": 3, "M": 2, "K": 0, "requests": 2, "asked": 0, "count": 0, "Cmax": 0}, invariants.FromInit, safetyDeadlock},
	{"kl-naive.ring", "kl-naive", klnaive.Spec, specs.Values{"n": 5, "L": 5, "K": 3, "Cmax": 0}, invariants.FromInit, []invariants.Property{invariants.Safety}},
	{"kl-pusher.ring", "kl-pusher", klpusher.Spec, specs.Values{"n": 5, "L": 4, "K": 2, "Cmax": 0}, invariants.FromInit, safetyDeadlock},
	{"kl-dhv.ring", "kl-dhv", kldhv.Spec, specs.Values{"n": 3, "L": 2, "K": 2, "Cmax": 0, "MaxSeq": 1, "MaxVc": 0, "staycs": 0, "fix": 0, "ctop": 0}, invariants.FromInit, safetyDeadlock},
	{"thiare.ring", "thiare", thiare.Spec, thiareValues(specs.Values{"n": 4, "requests": 3}), invariants.FromInit, safetyDeadlock},
	{"raynal-and.ring", "raynal-and", raynaland.Spec, specs.Values{"n": 3, "types": 2, "M": 1, "K": 0, "requests": 1, "window": 0, "Cmax": 0}, invariants.FromInit, safetyDeadlock},
	{"lejeune.ring", "lejeune", lejeune.Spec, specs.Values{"N": 3, "M": 2, "requests": 1, "window": 0, "loan": 1, "strict": 0, "Cmax": 0, "line260": 0}, invariants.FromInit, safetyDeadlock},
}

// safetyDeadlock is the check of most large cases.
var safetyDeadlock = []invariants.Property{invariants.Safety, invariants.Deadlock}

// BenchmarkTwinSteps measures what the compiled language costs per
// configuration, without the search's tables: for each case of
// BenchmarkTwinLarge, the expansion of each of the first 20,000
// configurations a breadth-first search from init reaches, unpacked as
// the search unpacks them, with every invariant evaluated on each, on the twin and on the Go spec (ns/state
// and the processor time cpu-ns/state, per configuration; the ratio of
// the Go spec's to the twin's is the compiled language's speed on its
// own), and on the twin run by the Go generated from it (side "gen",
// compile.SystemWith with the checked-in package of specs/ring/generated;
// skipped for a case without one):
//
//	go test ./specs/ring -run '^$' -bench TwinSteps -count 5
func BenchmarkTwinSteps(b *testing.B) {
	for _, bc := range largeCases {
		ring, _, err := lang.Load(bc.file)
		if err != nil {
			b.Fatal(err)
		}
		for _, side := range []struct {
			name string
			spec *specs.Spec
		}{{"ring", ring}, {"go", bc.goSpec()}, {"gen", ring}} {
			b.Run(fmt.Sprintf("%s/%s", bc.spec, side.name), func(b *testing.B) {
				values := bc.values
				if side.name != "go" {
					values = ringValues(side.spec, values)
				}
				var sys *model.System
				if side.name == "gen" {
					sys, err = generatedSystem(b, bc.file, values)
				} else {
					sys, err = side.spec.Build(values)
				}
				if err != nil {
					b.Fatal(err)
				}
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
