// Package ring_test proves each .ring file of this folder the same model as
// the Go spec it is the twin of: on several instances, the same states and
// transitions from the initial configurations (and over the full space
// where it is small enough), the same verdicts on every property the
// instance can decide, and counterexamples of the same length.
package ring_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/lang"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/catalog"
	"github.com/ringcheck/ringcheck/specs/counterflush"
	"github.com/ringcheck/ringcheck/specs/dijkstra"
	"github.com/ringcheck/ringcheck/specs/klddhl"
	"github.com/ringcheck/ringcheck/specs/kldhv"
	"github.com/ringcheck/ringcheck/specs/klnaive"
	"github.com/ringcheck/ringcheck/specs/klpusher"
	"github.com/ringcheck/ringcheck/specs/lejeune"
	"github.com/ringcheck/ringcheck/specs/raynal"
	"github.com/ringcheck/ringcheck/specs/raynaland"
	"github.com/ringcheck/ringcheck/specs/thiare"
)

// twin is a .ring file, the built-in spec it encodes, and what to compare.
type twin struct {
	file, spec string
	instances  []specs.Values
	// fromInit are the properties checked from the initial configurations
	// of every instance; fromAll those checked from every configuration of
	// the instances whose full space is small enough to sweep, allInstances
	// (instances when nil).
	fromInit, fromAll []invariants.Property
	allInstances      []specs.Values
	// daemons, if set, are the daemons every instance is compared under
	// (default: the central daemon alone).
	daemons []model.Daemon
	// fairness qualifies the liveness properties.
	fairness invariants.Fairness
	// renamed maps a Go spec's parameter to the .ring file's name for it,
	// where the Go name is a reserved word of the language.
	renamed map[string]string
}

// ringValues returns values with the parameters the .ring file names
// differently renamed.
func (tw twin) ringValues(values specs.Values) specs.Values {
	out := specs.Values{}
	for k, v := range values {
		if r, ok := tw.renamed[k]; ok {
			k = r
		}
		out[k] = v
	}
	return out
}

// outcome is what two twins must agree on for one check.
type outcome struct {
	states, transitions int64
	verdicts            string
	// lengths are the counterexamples' steps, per property.
	lengths    string
	worstSteps int
	legitimate uint64
}

func run(t *testing.T, spec *specs.Spec, values specs.Values, d model.Daemon, props []invariants.Property, from invariants.From, fairness invariants.Fairness) outcome {
	t.Helper()
	req := &ringcheck.Request{Spec: spec, Params: values, Properties: props, From: from, Daemon: d, Workers: 1}
	for _, p := range props {
		if p == invariants.Starvation || p == invariants.Convergence {
			req.Fairness = fairness
		}
	}
	res, err := req.Run(context.Background())
	if err != nil {
		t.Fatalf("%s %v: %v", spec.Name, values, err)
	}
	var o outcome
	if s := res.Report.Search; s != nil {
		o.states, o.transitions = s.States, s.Transitions
	}
	for _, out := range res.Report.Outcomes {
		o.verdicts += fmt.Sprintf("%s=%s ", out.Property, out.Verdict)
		if ce := out.Counterexample; ce != nil {
			o.lengths += fmt.Sprintf("%s:%d+%d ", out.Property, len(ce.Steps), ce.LoopStart)
		}
	}
	if st := res.Report.Stabilization; st != nil {
		o.worstSteps, o.legitimate = st.WorstSteps, st.Legitimate
	}
	return o
}

func TestDijkstraTwin(t *testing.T) {
	testTwin(t, twin{
		file: "dijkstra.ring", spec: "dijkstra",
		instances: []specs.Values{{"n": 3, "K": 3}, {"n": 4, "K": 2}, {"n": 5, "K": 4}, {"n": 6, "K": 5}},
		fromInit:  []invariants.Property{invariants.Safety, invariants.Deadlock, invariants.Starvation},
		fromAll:   []invariants.Property{invariants.Closure, invariants.Convergence},
		daemons:   []model.Daemon{model.Central, model.Distributed, model.Synchronous},
	})
}

func TestCounterflushTwin(t *testing.T) {
	testTwin(t, twin{
		file: "counterflush.ring", spec: "counterflush",
		instances:    []specs.Values{{"n": 2, "Cmax": 1}, {"n": 3, "Cmax": 1}, {"n": 2, "Cmax": 2}, {"n": 3, "Cmax": 2}, {"n": 5, "Cmax": 3}},
		fromInit:     []invariants.Property{invariants.Safety, invariants.Deadlock},
		fromAll:      []invariants.Property{invariants.Deadlock, invariants.Closure, invariants.Convergence},
		allInstances: []specs.Values{{"n": 2, "Cmax": 1}, {"n": 3, "Cmax": 1}, {"n": 2, "Cmax": 2}},
	})
}

// goTwins are the Go specs whose catalogue entry is now their file: the
// twin tests compare the file with them, not with the catalogue's.
var goTwins = map[string]func() *specs.Spec{
	"dijkstra":     dijkstra.Spec,
	"kl-naive":     klnaive.Spec,
	"kl-pusher":    klpusher.Spec,
	"counterflush": counterflush.Spec,
	"kl-dhv":       kldhv.Spec,
	"raynal":       raynal.Spec,
	"raynal-and":   raynaland.Spec,
	"thiare":       thiare.Spec,
	"kl-ddhl":      klddhl.Spec,
	"lejeune":      lejeune.Spec,
}

// lookupGo returns the Go spec name: from goTwins, or the catalogue reg's.
func lookupGo(reg *specs.Registry, name string) (*specs.Spec, error) {
	if spec, ok := goTwins[name]; ok {
		return spec(), nil
	}
	return reg.Lookup(name)
}

// testTwin checks that tw's file and Go spec are the same model.
func testTwin(t *testing.T, tw twin) {
	t.Helper()
	reg, err := catalog.Registry()
	if err != nil {
		t.Fatal(err)
	}
	file, _, err := lang.Load(tw.file)
	if err != nil {
		t.Fatal(err)
	}
	goSpec, err := lookupGo(reg, tw.spec)
	if err != nil {
		t.Fatal(err)
	}
	daemons := tw.daemons
	if daemons == nil {
		daemons = []model.Daemon{model.Central}
	}
	all := tw.allInstances
	if all == nil {
		all = tw.instances
	}
	type check struct {
		values specs.Values
		from   invariants.From
		props  []invariants.Property
	}
	var checks []check
	for _, v := range tw.instances {
		checks = append(checks, check{v, invariants.FromInit, tw.fromInit})
	}
	for _, v := range all {
		if len(tw.fromAll) > 0 {
			checks = append(checks, check{v, invariants.FromAll, tw.fromAll})
		}
	}
	for _, c := range checks {
		for _, d := range daemons {
			got := run(t, file, tw.ringValues(c.values), d, c.props, c.from, tw.fairness)
			want := run(t, goSpec, c.values, d, c.props, c.from, tw.fairness)
			if got != want {
				t.Errorf("%v %v from %s:\n .ring %+v\n Go    %+v", c.values, d, c.from, got, want)
			}
			if got.states == 0 {
				t.Errorf("%v %v from %s: no state explored", c.values, d, c.from)
			}
		}
	}
}

// naming translates a .ring twin's names into its Go spec's, where the
// language cannot spell the Go spec's: var maps a variable of the file to
// the Go spec's name for it ("" for a variable the Go spec lacks, which
// must then keep the value 0), and label an action's label, given the Go
// system.
type naming struct {
	vars  func(ring string) string
	label func(gsys *model.System, ring string) string
	// repair, if set, makes a random configuration of the Go spec one of
	// those the twins are compared on: it clears what no execution
	// reaches and the Go spec cannot encode a step from.
	repair func(model.Snapshot) model.Snapshot
	// rangeErrors says that the Go spec's expansion fails on an
	// assignment outside a variable's domain, which the file reports as a
	// range fault: a sample where it fails is not compared, but one of
	// the file's steps must report a range fault of the same process.
	rangeErrors bool
	// absent, if set, names the file's invariants the Go spec lacks for
	// an instance (it declares them only for some parameters, where the
	// file's hold trivially for the others).
	absent func(values specs.Values) []string
	// labels says that the file declares as integers some of the Go
	// spec's enumerations: their values take the Go spec's labels, and
	// the file reads them as integers.
	labels bool
	// predicates, if set, maps the name of an invariant or a process
	// predicate of the file to the Go spec's: the invariants are then
	// compared by name, in whatever order the two declare them.
	predicates func(ring string) string
	// message, if set, translates a message in transit into the file's
	// (toRing) or into the Go spec's, where their fields differ.
	message func(m model.MessageView, toRing bool) model.MessageView
}

// channels returns chans, the channels of a configuration, with their
// messages translated into the file's (toRing) or the Go spec's.
func (nm naming) channels(chans []model.ChannelView, toRing bool) []model.ChannelView {
	if nm.message == nil {
		return chans
	}
	out := make([]model.ChannelView, len(chans))
	for c, ch := range chans {
		out[c] = model.ChannelView{From: ch.From, To: ch.To}
		for _, m := range ch.Messages {
			out[c].Messages = append(out[c].Messages, nm.message(m, toRing))
		}
	}
	return out
}

// rangeError reports whether err, the error of a Go spec's expansion, is
// an assignment outside a variable's domain by the process whose range
// fault f is (the two need not name the same variable: a step with
// several reports one of them).
func rangeError(err error, f string) bool {
	at := strings.Index(f, " sets ")
	return at > 0 && strings.Contains(err.Error(), ": "+f[:at+len(" sets ")]) && strings.Contains(err.Error(), ", outside ")
}

// fault returns a range fault of the file ("process 0 sets x to 4,
// outside 0..3") with the Go spec's name for the variable.
func (nm naming) fault(f string) string {
	at, to := strings.Index(f, " sets "), strings.Index(f, " to ")
	if at < 0 || to < at {
		return f
	}
	return f[:at+len(" sets ")] + nm.vars(f[at+len(" sets "):to]) + f[to:]
}

// toRing returns snap, a configuration of the Go system, as one of the
// .ring system rsys: every variable of the file takes the value of the Go
// variable of its name, or 0 if the Go spec lacks it.
func (nm naming) toRing(rsys *model.System, snap model.Snapshot) model.Snapshot {
	out := model.Snapshot{Channels: nm.channels(snap.Channels, true)}
	for p, pv := range snap.Processes {
		byName := map[string]model.Value{}
		for _, v := range pv.Vars {
			byName[v.Name] = v
		}
		rv := model.ProcessView{ID: p}
		for _, id := range rsys.Processes[p].Vars {
			name := rsys.Vars[id].Name
			v, ok := byName[nm.vars(name)]
			if !ok {
				v = model.Value{Int: 0}
			}
			v.Name = name
			if d := rsys.Vars[id].Domain; nm.labels && d.IsEnum() {
				// The file's label of the value, which may be spelled
				// differently (a name of the language).
				v.Text, v.Enum = d.Format(v.Int), true
			} else if nm.labels {
				v.Enum = false
			}
			rv.Vars = append(rv.Vars, v)
		}
		out.Processes = append(out.Processes, rv)
	}
	return out
}

// toGo returns snap, a configuration of the .ring system, as one of the
// Go system gsys, or an error naming a variable the Go spec lacks whose
// value is not 0.
func (nm naming) toGo(gsys *model.System, snap model.Snapshot) (model.Snapshot, error) {
	out := model.Snapshot{Channels: nm.channels(snap.Channels, false)}
	for p, pv := range snap.Processes {
		byName := map[string]model.Value{}
		for _, v := range pv.Vars {
			g := nm.vars(v.Name)
			if g == "" {
				if v.Int != 0 {
					return out, fmt.Errorf("process %d: %s = %d, the Go spec has no such variable", p, v.Name, v.Int)
				}
				continue
			}
			v.Name = g
			byName[g] = v
		}
		gv := model.ProcessView{ID: p}
		for _, id := range gsys.Processes[p].Vars {
			v, d := byName[gsys.Vars[id].Name], gsys.Vars[id].Domain
			if nm.labels && d.IsEnum() {
				v.Text, v.Enum = d.Format(v.Int), true
			}
			gv.Vars = append(gv.Vars, v)
		}
		out.Processes = append(out.Processes, gv)
	}
	return out, nil
}

// twinSystems builds the Go spec spec and its twin file with the same
// values.
func twinSystems(t *testing.T, file, spec string, values specs.Values) (gsys, rsys *model.System) {
	t.Helper()
	reg, err := catalog.Registry()
	if err != nil {
		t.Fatal(err)
	}
	ringSpec, _, err := lang.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	goSpec, err := lookupGo(reg, spec)
	if err != nil {
		t.Fatal(err)
	}
	if gsys, err = goSpec.Build(values); err != nil {
		t.Fatal(err)
	}
	if rsys, err = ringSpec.Build(values); err != nil {
		t.Fatal(err)
	}
	return gsys, rsys
}

// testSameSteps checks, on random configurations of the Go spec's model
// (channels filled up to fill messages), that the .ring twin has the same
// steps: the same actions of the same processes leading to the same
// configurations, and the same invariants, legitimacy and process
// predicates. Random configurations reach what executions from the initial
// ones never do (corrupt local states, the recovery of a
// self-stabilizing protocol). nm, if set, translates the file's names
// into the Go spec's.
func testSameSteps(t *testing.T, file, spec string, values specs.Values, fill, samples int, nm *naming) {
	t.Helper()
	gsys, rsys := twinSystems(t, file, spec, values)
	var err error
	// steps lists the steps from st, or the error that stops the
	// expansion.
	// faults collects the file's range faults, in the Go spec's names.
	var faults []string
	steps := func(sys *model.System, st *model.State) ([]string, error) {
		var out []string
		if _, err := sys.NewExpander().Expand(st, func(s *model.Step, next *model.State) bool {
			label, snap, fault := sys.Label(s), sys.Decode(next), s.RangeFault
			if nm != nil && sys == rsys {
				label, fault = nm.label(gsys, label), nm.fault(fault)
				if snap, err = nm.toGo(gsys, snap); err != nil {
					t.Errorf("%s %s: %v", sys.Name, label, err)
				}
			}
			if sys == rsys && fault != "" {
				faults = append(faults, fault)
			}
			out = append(out, fmt.Sprintf("%v %s %v %s -> %v", s.Procs(), label, s.Overflow, fault, snap))
			return true
		}); err != nil {
			return nil, err
		}
		slices.Sort(out)
		return out, nil
	}
	var absent []string
	if nm != nil && nm.absent != nil {
		absent = nm.absent(values)
	}
	// name is a predicate's name in the Go spec's words.
	name := func(sys *model.System, n string) string {
		if sys == rsys && nm != nil && nm.predicates != nil {
			return nm.predicates(n)
		}
		return n
	}
	holds := func(sys *model.System, st *model.State) string {
		out := ""
		var named []string
		for _, inv := range sys.Invariants {
			if sys == rsys && slices.Contains(absent, inv.Name) {
				if !inv.Holds(st) {
					out += "(" + inv.Name + " false)"
				}
				continue
			}
			if nm != nil && nm.predicates != nil {
				named = append(named, fmt.Sprint(name(sys, inv.Name), "=", inv.Holds(st), " "))
				continue
			}
			out += fmt.Sprint(inv.Holds(st))
		}
		slices.Sort(named)
		out += strings.Join(named, "")
		if sys.Legitimate != nil {
			out += fmt.Sprint(" L=", sys.Legitimate.Holds(st))
		}
		for _, pp := range sys.ProcessPredicates {
			for p := range sys.N() {
				out += fmt.Sprint(" ", name(sys, pp.Name), p, "=", pp.Holds(st, p))
			}
		}
		return out
	}
	rng := rand.New(rand.NewPCG(7, uint64(len(file))))
	gst := gsys.NewState()
	faulted := 0
	for i := range samples {
		gsys.RandomConfigurationUpTo(rng, gst, fill)
		snap := gsys.Decode(gst)
		if nm != nil && nm.repair != nil {
			if gst, err = gsys.Encode(nm.repair(snap)); err != nil {
				t.Fatalf("sample %d: %v", i, err)
			}
			snap = gsys.Decode(gst)
		}
		if nm != nil {
			snap = nm.toRing(rsys, snap)
		}
		rst, err := rsys.Encode(snap)
		if err != nil {
			t.Fatalf("sample %d: %v", i, err)
		}
		faults = faults[:0]
		r, err := steps(rsys, rst)
		if err != nil {
			t.Fatalf("sample %d: %v", i, err)
		}
		g, err := steps(gsys, gst)
		if err != nil {
			// The Go spec fails on an assignment outside its domain,
			// where the file's step reports it as a range fault.
			if nm == nil || !nm.rangeErrors || !slices.ContainsFunc(faults, func(f string) bool { return rangeError(err, f) }) {
				t.Fatalf("sample %d, %v: Go %v, .ring %q (range faults %q)", i, gsys.Decode(gst), err, r, faults)
			}
			faulted++
			continue
		}
		if !slices.Equal(g, r) {
			t.Fatalf("sample %d, %v:\n Go    %q\n .ring %q", i, gsys.Decode(gst), g, r)
		}
		if g, r := holds(gsys, gst), holds(rsys, rst); g != r {
			t.Fatalf("sample %d, %v: predicates\n Go    %s\n .ring %s", i, gsys.Decode(gst), g, r)
		}
	}
	if faulted > samples/2 {
		t.Errorf("%d of %d samples fail in the Go spec: too few compared", faulted, samples)
	}
	t.Logf("%d samples compared, %d failed in the Go spec on a range fault", samples-faulted, faulted)
}

func TestTwinsTakeTheSameSteps(t *testing.T) {
	for _, tc := range []struct {
		file, spec string
		values     specs.Values
		fill       int
		names      *naming
	}{
		{"dijkstra.ring", "dijkstra", specs.Values{"n": 5, "K": 4}, 0, nil},
		{"counterflush.ring", "counterflush", specs.Values{"n": 3, "Cmax": 2}, 2, nil},
		{"kl-naive.ring", "kl-naive", specs.Values{"n": 3, "L": 3, "K": 2, "Cmax": 3}, 3, nil},
		{"kl-pusher.ring", "kl-pusher", specs.Values{"n": 3, "L": 3, "K": 2, "Cmax": 4}, 3, nil},
		{"kl-ddhl.ring", "kl-ddhl", specs.Values{"n": 3, "L": 2, "K": 2, "Cmax": 5, "staycs": 0}, 3, nil},
		{"kl-ddhl.ring", "kl-ddhl", specs.Values{"n": 2, "L": 1, "K": 1, "Cmax": 4, "staycs": 1}, 4, nil},
		// Each reading of the resends, the root with and without its
		// timeout, and counter domains of their own.
		{"kl-ddhl.ring", "kl-ddhl", specs.Values{"n": 3, "L": 2, "K": 2, "Cmax": 5, "resend": 1}, 3, nil},
		{"kl-ddhl.ring", "kl-ddhl", specs.Values{"n": 3, "L": 2, "K": 1, "Cmax": 5, "resend": 2}, 3, nil},
		{"kl-ddhl.ring", "kl-ddhl", specs.Values{"n": 3, "L": 1, "K": 1, "Cmax": 4, "resend": 1, "notimeout": 1, "counters": 5}, 3, nil},
		{"kl-ddhl.ring", "kl-ddhl", specs.Values{"n": 2, "L": 1, "K": 1, "Cmax": 4, "resend": 2, "notimeout": 1, "staycs": 1, "counters": 2}, 4, nil},
		// Channels empty or of one message, where no privilege is in
		// transit and the resends and the root's timeout are enabled
		// (few counters: C[0] = C[n-1] often).
		{"kl-ddhl.ring", "kl-ddhl", specs.Values{"n": 3, "L": 2, "K": 2, "Cmax": 5, "resend": 1, "counters": 3}, 0, nil},
		{"kl-ddhl.ring", "kl-ddhl", specs.Values{"n": 3, "L": 1, "K": 1, "Cmax": 4, "resend": 2, "notimeout": 1, "counters": 2}, 0, nil},
		{"kl-ddhl.ring", "kl-ddhl", specs.Values{"n": 2, "L": 1, "K": 1, "Cmax": 4, "resend": 1, "staycs": 1, "counters": 2}, 1, nil},
		// Every parameter of lejeune: loans, the reading of lines 260–261,
		// strict=0, two requests, recurring requests (fill 3: at most
		// maxM tokens in one aggregate, as the Go spec's buffer holds).
		{"lejeune.ring", "lejeune", specs.Values{"N": 3, "M": 2, "requests": 1, "window": 0, "loan": 0, "strict": 1, "Cmax": 0, "line260": 0}, 3, lejeuneNames(3, false)},
		{"lejeune.ring", "lejeune", specs.Values{"N": 3, "M": 2, "requests": 1, "window": 0, "loan": 1, "strict": 0, "Cmax": 0, "line260": 0}, 3, lejeuneNames(3, false)},
		{"lejeune.ring", "lejeune", specs.Values{"N": 2, "M": 3, "requests": 2, "window": 0, "loan": 2, "strict": 1, "Cmax": 0, "line260": 1}, 3, lejeuneNames(2, false)},
		{"lejeune.ring", "lejeune", specs.Values{"N": 2, "M": 1, "requests": 0, "window": 0, "loan": 0, "strict": 1, "Cmax": 0, "line260": 0}, 3, lejeuneNames(2, true)},
		{"raynal-and.ring", "raynal-and", specs.Values{"n": 3, "types": 2, "M": 1, "K": 1, "requests": 1, "Cmax": 0}, 3, &raynalAnd},
		{"raynal-and.ring", "raynal-and", specs.Values{"n": 2, "types": 2, "M": 2, "K": 0, "requests": 1, "Cmax": 0}, 3, &raynalAnd},
		{"raynal-and.ring", "raynal-and", specs.Values{"n": 2, "types": 3, "M": 2, "K": 1, "requests": 2, "Cmax": 3}, 3, &raynalAnd},
		{"raynal-and.ring", "raynal-and", specs.Values{"n": 3, "types": 2, "M": 1, "K": 0, "requests": 0, "window": 0, "Cmax": 0}, 3, &raynalAnd},
		{"raynal-and.ring", "raynal-and", specs.Values{"n": 2, "types": 2, "M": 2, "K": 0, "requests": 0, "window": 2, "Cmax": 3}, 4, &raynalAnd},
		{"raynal.ring", "raynal", specs.Values{"n": 3, "M": 2, "K": 0, "requests": 3, "asked": 0, "count": 1, "Cmax": 0}, 3, raynalNames(true, false)},
		{"raynal.ring", "raynal", specs.Values{"n": 3, "M": 1, "K": 0, "requests": 3, "asked": 1, "count": 1, "Cmax": 2}, 3, raynalNames(true, false)},
		{"raynal.ring", "raynal", specs.Values{"n": 2, "M": 3, "K": 2, "requests": 2, "asked": 1, "count": 0, "Cmax": 0}, 3, raynalNames(false, false)},
		{"raynal.ring", "raynal", specs.Values{"n": 3, "M": 1, "K": 0, "requests": 0, "window": 0, "asked": 0, "count": 1, "Cmax": 0}, 3, raynalNames(true, true)},
		{"raynal.ring", "raynal", specs.Values{"n": 3, "M": 2, "K": 0, "requests": 0, "window": 2, "asked": 0, "count": 0, "Cmax": 0}, 4, raynalNames(false, true)},
		{"raynal.ring", "raynal", specs.Values{"n": 2, "M": 2, "K": 1, "requests": 0, "window": 1, "asked": 1, "count": 1, "Cmax": 3}, 3, raynalNames(true, true)},
	} {
		t.Run(tc.file, func(t *testing.T) {
			// Each case builds its own systems: they run side by side.
			t.Parallel()
			testSameSteps(t, tc.file, tc.spec, tc.values, tc.fill, 3000, tc.names)
		})
	}
}

// raynalAnd translates raynal-and.ring's names into the Go spec
// raynal-and's: the entry [α] of a per-type array is the Go spec's (α),
// used[α][j] and delayed[α][j] its used(α)[j] and delayed(α)[j] (the
// file's entries j = self are the Go spec's missing ones), and the file's
// request(c=C) is the Go spec's alternative C-1 of request.
var raynalAnd = naming{
	vars: func(name string) string {
		var base string
		var a, j int
		switch {
		case strings.Count(name, "[") == 2:
			if _, err := fmt.Sscanf(strings.NewReplacer("[", " ", "]", " ").Replace(name), "%s %d %d", &base, &a, &j); err != nil {
				return name
			}
			return fmt.Sprintf("%s(%d)[%d]", base, a, j)
		case strings.Count(name, "[") == 1:
			if _, err := fmt.Sscanf(strings.NewReplacer("[", " ", "]", " ").Replace(name), "%s %d", &base, &a); err != nil {
				return name
			}
			return fmt.Sprintf("%s(%d)", base, a)
		}
		return name
	},
	label: func(gsys *model.System, label string) string {
		var c int
		if _, err := fmt.Sscanf(label, "request(c=%d)", &c); err != nil {
			return label
		}
		return gsys.Processes[0].Actions[0].Label(c - 1)
	},
	// delayed(α)[j] with k(α) = 0, which no execution reaches, makes the
	// Go spec's release send free(α, 0), outside y's domain 1..M, which it
	// encodes as another message; the file reports the send as a range
	// fault.
	repair: func(snap model.Snapshot) model.Snapshot {
		for _, pv := range snap.Processes {
			k := map[string]int{}
			for _, v := range pv.Vars {
				if strings.HasPrefix(v.Name, "k(") {
					k[strings.TrimPrefix(v.Name, "k")] = v.Int
				}
			}
			for i, v := range pv.Vars {
				if at := strings.Index(v.Name, ")"); strings.HasPrefix(v.Name, "delayed(") && k[v.Name[len("delayed"):at+1]] == 0 {
					pv.Vars[i].Int, pv.Vars[i].Text = 0, "false"
				}
			}
		}
		return snap
	},
	rangeErrors: true,
	// clock_window, of recurring demands only.
	absent: func(values specs.Values) []string {
		if values["requests"] > 0 {
			return []string{"clock_window"}
		}
		return nil
	},
}

// raynalNames translates raynal.ring's names into the Go spec raynal's,
// with the ghost (the Go spec's count=1) or without: the file's sent[j]
// and nmsgs are asked[j] and msgs there (asked is a parameter of the
// file, msgs a function of the language), its choice kk of request is k, its
// invariants and process predicates say '_' where the Go spec says '-',
// and without the ghost its free carries the field answer, always 0,
// which the Go spec's lacks. recurring says requests=0.
func raynalNames(ghost, recurring bool) *naming {
	return &naming{
		vars: func(name string) string {
			switch {
			case strings.HasPrefix(name, "sent["):
				return "asked" + strings.TrimPrefix(name, "sent")
			case name == "nmsgs":
				return "msgs"
			}
			return name
		},
		label: func(_ *model.System, label string) string {
			return strings.Replace(label, "request(kk=", "request(k=", 1)
		},
		// delayed_i[j] with k_i = 0, which no execution reaches, makes the
		// Go spec's release send free(0), outside y's domain 1..M, which it
		// encodes as another message; the file reports the send as a range
		// fault.
		// With at most R requests, h_i = 0 while scdem_i, which no
		// execution reaches either, makes §5.1's late req(h_i) leave the
		// domain 1..nR of h, where the Go spec faults; with recurring
		// requests 0 is a timestamp.
		repair: func(snap model.Snapshot) model.Snapshot {
			for _, pv := range snap.Processes {
				at := map[string]int{}
				for i, v := range pv.Vars {
					at[v.Name] = i
				}
				vars := pv.Vars
				for i, v := range vars {
					if strings.HasPrefix(v.Name, "delayed[") && vars[at["k"]].Int == 0 {
						vars[i].Int, vars[i].Text = 0, "false"
					}
				}
				if h := &vars[at["h"]]; !recurring && h.Int == 0 && vars[at["scdem"]].Int == 1 {
					h.Int, h.Text = 1, "1"
				}
				// msgs_i within 3(n-1)-3, so that the free and the late
				// req a step receives and sends keep it in its domain.
				if i, ok := at["msgs"]; ok && vars[i].Int > 3*(len(snap.Processes)-1)-3 {
					vars[i].Int = max(vars[i].Int-3, 0)
					vars[i].Text = strconv.Itoa(vars[i].Int)
				}
			}
			return snap
		},
		// used_i[j] and msgs_i leave their domains in random configurations
		// no execution reaches, which the Go spec's expansion reports as an
		// error.
		rangeErrors: true,
		// The file declares every invariant; the Go spec timestamp-order
		// with M=1 only, clock-window with recurring requests only and
		// count-sound with the ghost only.
		absent: func(values specs.Values) []string {
			var out []string
			if values["M"] != 1 {
				out = append(out, "timestamp_order")
			}
			if values["requests"] > 0 {
				out = append(out, "clock_window")
			}
			if !ghost {
				out = append(out, "count_sound")
			}
			return out
		},
		// asked_i[j] is a boolean of the Go spec, sent[j] 0..1 in the file.
		labels:     true,
		predicates: func(name string) string { return strings.ReplaceAll(name, "_", "-") },
		message: func(m model.MessageView, toRing bool) model.MessageView {
			if ghost || m.Type != "free" {
				return m
			}
			if toRing {
				return model.MessageView{Type: m.Type, Fields: append(slices.Clone(m.Fields), model.Value{Name: "answer"})}
			}
			return model.MessageView{Type: m.Type, Fields: m.Fields[:1]}
		},
	}
}
