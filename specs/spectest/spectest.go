// Package spectest holds what the specs' tests share: running
// invariants.Check and failing the test unless the search was complete
// (Check, CheckComplete, with WeakFairnessFromInit for the usual options),
// exploring the configurations reachable from init (Reachable, NopMonitor),
// counting the states of the brute-force encodings the tests compare
// ringcheck with (CountReachable, CountReachableByKey), resolving a spec's
// parameters (Resolve), looking up and building a spec of the catalogue
// (Builtin, Build), finding an action by name (ActionIndex), and timing
// a check or the exhaustive search in a benchmark (TimeCheck,
// ReportCheckMetrics, BenchReachable).
//
// It is a test-support package: nothing but tests uses it (the specs' and
// those of the engines, which run the catalogue's specs).
package spectest

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/lang"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/catalog"
)

// Workers is the number of goroutines the tests' searches use: more than
// one, so that they exercise the parallel engine, and few, so that they
// leave cores to the other packages' tests.
const Workers = 2

// WeakFairnessFromInit returns the options of a check of props from the
// initial configurations under weak fairness, searching with Workers
// goroutines: the check most of the specs' tests run.
func WeakFairnessFromInit(props ...invariants.Property) invariants.Options {
	return invariants.Options{
		Properties: props,
		From:       invariants.FromInit,
		Fairness:   invariants.WeakFairness,
		Search:     explore.Options{Workers: Workers},
	}
}

// Check runs invariants.Check on sys with opts and returns its report. It
// fails tb if the check returns an error, or if the search stopped before
// it had visited every configuration without having found a violation (a
// search may stop early once violations decide every property it checks).
func Check(tb testing.TB, sys *model.System, opts invariants.Options) *invariants.Report {
	tb.Helper()
	rep := run(tb, sys, opts)
	if !rep.Search.Complete() && !rep.Violated() {
		tb.Fatalf("search stopped: %v", rep.Search.Stop)
	}
	return rep
}

// CheckComplete is Check for the tests that need the whole space searched
// even when a property is violated (to pin its state count, say): it also
// fails tb when a violation stopped the search.
func CheckComplete(tb testing.TB, sys *model.System, opts invariants.Options) *invariants.Report {
	tb.Helper()
	rep := run(tb, sys, opts)
	if !rep.Search.Complete() {
		tb.Fatalf("search stopped: %v", rep.Search.Stop)
	}
	return rep
}

// run runs invariants.Check, failing tb on an error.
func run(tb testing.TB, sys *model.System, opts invariants.Options) *invariants.Report {
	tb.Helper()
	rep, err := invariants.Check(context.Background(), sys, opts)
	if err != nil {
		tb.Fatal(err)
	}
	return rep
}

// NopMonitor is an explore.Monitor that watches nothing and never decides,
// so a search with it runs to the end.
type NopMonitor struct{}

// Observe does nothing.
func (NopMonitor) Observe(*explore.Visit) {}

// Decided reports false: nothing is ever decided.
func (NopMonitor) Decided() bool { return false }

// Reachable explores every configuration reachable from sys's initial ones
// (explore.BFS with a NopMonitor and Workers goroutines) and returns the
// search's counts. It fails tb if the search fails or stops early.
func Reachable(tb testing.TB, sys *model.System) *explore.Result {
	tb.Helper()
	res, err := explore.BFS(context.Background(), sys, NopMonitor{}, explore.Options{Workers: Workers})
	if err != nil {
		tb.Fatalf("exploring the model: %v", err)
	}
	if !res.Complete() {
		tb.Fatalf("search stopped: %v", res.Stop)
	}
	return res
}

// CountReachable counts the states reachable from init by successors and
// the transitions out of them (every successor of every reachable state,
// as explore.BFS counts them), by a plain breadth-first search that shares
// nothing with ringcheck's engine: for the brute-force encodings of the
// specs that the tests compare ringcheck's counts with.
func CountReachable[S comparable](init S, successors func(S) []S) (states, transitions int64) {
	return CountReachableByKey(init, func(s S) S { return s }, successors)
}

// CountReachableByKey is CountReachable for states that are not comparable
// or not canonical: two states are the same when key gives them the same
// key.
func CountReachableByKey[S any, K comparable](init S, key func(S) K, successors func(S) []S) (states, transitions int64) {
	seen := map[K]bool{key(init): true}
	queue := []S{init}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for _, t := range successors(s) {
			transitions++
			if k := key(t); !seen[k] {
				seen[k] = true
				queue = append(queue, t)
			}
		}
	}
	return int64(len(seen)), transitions
}

// Builtin returns the catalogue's spec called name, as `ringcheck check
// NAME` runs it; it fails tb if there is none.
func Builtin(tb testing.TB, name string) *specs.Spec {
	tb.Helper()
	reg, err := catalog.Registry()
	if err != nil {
		tb.Fatal(err)
	}
	spec, err := reg.Lookup(name)
	if err != nil {
		tb.Fatal(err)
	}
	return spec
}

// Build returns the model of the catalogue's spec called name for values
// (its defaults for the parameters values omits), under the central
// daemon; it fails tb if the spec refuses the values or does not build.
func Build(tb testing.TB, name string, values specs.Values) *model.System {
	tb.Helper()
	spec := Builtin(tb, name)
	vals, err := spec.Resolve(values)
	if err != nil {
		tb.Fatal(err)
	}
	sys, err := spec.Build(vals)
	if err != nil {
		tb.Fatalf("%s %v: %v", name, vals, err)
	}
	return sys
}

// File returns the model of the .ring file at path for params (its
// defaults for the parameters params omits), under the central daemon;
// it fails tb if the file does not load, refuses the values or does not
// build.
func File(tb testing.TB, path string, params specs.Values) *model.System {
	tb.Helper()
	spec, _, err := lang.Load(path)
	if err != nil {
		tb.Fatal(err)
	}
	vals, err := spec.Resolve(params)
	if err != nil {
		tb.Fatal(err)
	}
	sys, err := spec.Build(vals)
	if err != nil {
		tb.Fatalf("%s %v: %v", path, vals, err)
	}
	return sys
}

// Resolve returns spec's parameter values: its defaults, overridden by kv,
// pairs of a name and an int ("n", 3, "L", 2, ...). It fails tb if spec
// rejects a value.
func Resolve(tb testing.TB, spec *specs.Spec, kv ...any) specs.Values {
	tb.Helper()
	over := map[string]int{}
	for i := 0; i+1 < len(kv); i += 2 {
		over[kv[i].(string)] = kv[i+1].(int)
	}
	vals, err := spec.Resolve(over)
	if err != nil {
		tb.Fatal(err)
	}
	return vals
}

// ActionIndex returns the index of process p's action name in sys, for
// building a model.Move, and fails tb if p has no such action.
func ActionIndex(tb testing.TB, sys *model.System, p int, name string) int32 {
	tb.Helper()
	for a, act := range sys.Processes[p].Actions {
		if act.Name == name {
			return int32(a)
		}
	}
	tb.Fatalf("process %d has no action %s", p, name)
	return -1
}

// TimeCheck runs invariants.Check on sys with opts once per iteration of
// b.Loop, failing b on an error. It returns the last report, the wall time
// of the last check, and the peak live heap over all of them, in bytes
// (explore.StartHeapSampler, every 10 ms).
func TimeCheck(b *testing.B, sys *model.System, opts invariants.Options) (rep *invariants.Report, elapsed time.Duration, peakHeap uint64) {
	b.Helper()
	for b.Loop() {
		heap := explore.StartHeapSampler(10 * time.Millisecond)
		start := time.Now()
		var err error
		rep, err = invariants.Check(context.Background(), sys, opts)
		elapsed = time.Since(start)
		peakHeap = max(peakHeap, heap.Stop())
		if err != nil {
			b.Fatal(err)
		}
	}
	return rep, elapsed, peakHeap
}

// ReportCheckMetrics reports, as TimeCheck measures them, a check that
// visited states configurations in elapsed with a peak live heap of
// peakHeap bytes: the metrics states, states/s, peak-heap-MB and
// bytes/state.
func ReportCheckMetrics(b *testing.B, states int64, elapsed time.Duration, peakHeap uint64) {
	b.Helper()
	b.ReportMetric(float64(states), "states")
	b.ReportMetric(float64(states)/elapsed.Seconds(), "states/s")
	b.ReportMetric(float64(peakHeap)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(peakHeap)/float64(states), "bytes/state")
}

// BenchReachable is the body of a BenchmarkReachable: ringcheck's
// exhaustive breadth-first search from sys's initial configurations
// (explore.BFS with NopMonitor, on every core), keeping the states (exact),
// the states tree-compressed (tree) or their fingerprints (fingerprint),
// failing unless it is complete with exactly states and transitions, and
// reporting the states, states per second, the bytes per state that the
// search holds in memory at its end in its state store, visited set (the
// tree store's tables) and levels (store-bytes/state: explore.Result's
// StoreBytes), and the peak live heap, whole and per state. What the
// search writes to its files is not in store-bytes/state: with the tree
// store the parent links, with fingerprints the fingerprints, the parent
// links and the levels' full segments of 1,024 states (each store keeps
// fewer than 4,096 of its last states, and each level a segment or two,
// in memory, and those count).
func BenchReachable(b *testing.B, sys *model.System, states, transitions int64) {
	for _, store := range []struct {
		name               string
		fingerprints, tree bool
	}{{"exact", false, false}, {"tree", false, true}, {"fingerprint", true, false}} {
		b.Run(store.name, func(b *testing.B) {
			var (
				res  *explore.Result
				peak uint64
				err  error
			)
			for b.Loop() {
				heap := explore.StartHeapSampler(10 * time.Millisecond)
				res, err = explore.BFS(context.Background(), sys, NopMonitor{}, explore.Options{Workers: runtime.GOMAXPROCS(0), Fingerprints: store.fingerprints, Tree: store.tree})
				peak = max(peak, heap.Stop())
				if err != nil {
					b.Fatal(err)
				}
			}
			if !res.Complete() || res.States != states || res.Transitions != transitions {
				b.Fatalf("ringcheck: %d states, %d transitions, stop %v; want %d and %d, complete",
					res.States, res.Transitions, res.Stop, states, transitions)
			}
			b.ReportMetric(float64(res.States), "states")
			b.ReportMetric(float64(res.States)/res.Elapsed.Seconds(), "states/s")
			b.ReportMetric(float64(res.StoreBytes)/float64(res.States), "store-bytes/state")
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
			b.ReportMetric(float64(peak)/float64(res.States), "bytes/state")
		})
	}
}

// Contents returns the messages of channel ch in s, head first.
func Contents(s *model.State, ch model.ChanID) []model.Msg {
	out := make([]model.Msg, s.Len(ch))
	for i := range out {
		out[i] = s.At(ch, i)
	}
	return out
}

// Refill replaces the contents of channel ch in s by msgs, head first.
func Refill(s *model.State, ch model.ChanID, msgs []model.Msg) {
	for s.Len(ch) > 0 {
		s.Pop(ch)
	}
	for _, m := range msgs {
		s.Push(ch, m)
	}
}

// SingleEdits calls visit with every configuration one edit away from s:
// any variable set to any value of its domain; any message of a channel
// replaced by any of letters, or removed; any of letters inserted at any
// position of a channel with room for it. The configuration visit gets is
// reused: it must copy what it keeps. The tests of the enumerators of
// legitimate configurations use it to look for legitimate neighbours the
// enumeration misses.
func SingleEdits(sys *model.System, s *model.State, letters []model.Msg, visit func(edit *model.State, what string)) {
	edit := sys.NewState()
	for p := range sys.Processes {
		for _, id := range sys.Processes[p].Vars {
			d := sys.Vars[id].Domain
			for val := d.Min; val <= d.Max; val++ {
				edit.CopyFrom(s)
				edit.Set(p, id, val)
				visit(edit, "a variable")
			}
		}
	}
	for c, channel := range sys.Channels {
		ch := model.ChanID(c)
		msgs := Contents(s, ch)
		for i := range msgs {
			changed := append([]model.Msg(nil), msgs...)
			for _, l := range letters {
				changed[i] = l
				edit.CopyFrom(s)
				Refill(edit, ch, changed)
				visit(edit, "a replaced message")
			}
			edit.CopyFrom(s)
			Refill(edit, ch, append(append([]model.Msg(nil), msgs[:i]...), msgs[i+1:]...))
			visit(edit, "a removed message")
		}
		if len(msgs) >= channel.Capacity {
			continue
		}
		for i := 0; i <= len(msgs); i++ {
			inserted := append(append(append([]model.Msg(nil), msgs[:i]...), 0), msgs[i:]...)
			for _, l := range letters {
				inserted[i] = l
				edit.CopyFrom(s)
				Refill(edit, ch, inserted)
				visit(edit, "an inserted message")
			}
		}
	}
}

// Var returns the id of sys's variable called name, failing tb if there
// is none: the tests of a spec read from a file find its variables by the
// names the file declares.
func Var(tb testing.TB, sys *model.System, name string) model.VarID {
	tb.Helper()
	id, ok := sys.VarByName(name)
	if !ok {
		tb.Fatalf("%s has no variable %s", sys.Name, name)
	}
	return id
}

// MsgType returns sys's message type called name, failing tb if there is
// none.
func MsgType(tb testing.TB, sys *model.System, name string) model.MsgType {
	tb.Helper()
	for i, m := range sys.Messages {
		if m.Name == name {
			return model.MsgType(i)
		}
	}
	tb.Fatalf("%s has no message type %s", sys.Name, name)
	return -1
}
