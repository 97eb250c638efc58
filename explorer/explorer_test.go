package explorer_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck"
	"github.com/ringcheck/ringcheck/explorer"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/reports"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/catalog"
	"github.com/ringcheck/ringcheck/specs/spectest"
)

// build returns the system of the built-in spec name with params.
func build(t *testing.T, name string, params map[string]int) (*model.System, specs.Values) {
	t.Helper()
	spec := spectest.Builtin(t, name)
	values, err := spec.Resolve(params)
	if err != nil {
		t.Fatal(err)
	}
	sys, err := spec.Build(values)
	if err != nil {
		t.Fatal(err)
	}
	return sys, values
}

// call sends a request to h and decodes its JSON answer into out, failing
// unless the status is want.
func call(t *testing.T, h http.Handler, method, path string, body any, want int, out any) string {
	t.Helper()
	var rd *bytes.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	} else {
		rd = bytes.NewReader(nil)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(method, path, rd))
	if rec.Code != want {
		t.Fatalf("%s %s: status %d, want %d: %s", method, path, rec.Code, want, rec.Body.String())
	}
	if out != nil {
		if err := json.Unmarshal(rec.Body.Bytes(), out); err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
	}
	return rec.Body.String()
}

// successors lists the steps and successors of st as the model expands
// them.
func successors(t *testing.T, sys *model.System, st *model.State) (labels []string, procs [][]int, next []reports.TraceState) {
	t.Helper()
	if _, err := sys.NewExpander().Expand(st, func(s *model.Step, n *model.State) bool {
		labels = append(labels, sys.Label(s))
		procs = append(procs, s.Procs())
		next = append(next, reports.StateOf(sys, n))
		return true
	}); err != nil {
		t.Fatal(err)
	}
	return labels, procs, next
}

// TestSuccessorsAreTheModels: for configurations of Dijkstra's ring and
// kl-pusher, initial and random, the steps /api/view lists and the
// successor /api/step returns for each are the model's, in its order.
func TestSuccessorsAreTheModels(t *testing.T) {
	for _, tc := range []struct {
		spec   string
		params map[string]int
	}{
		{"dijkstra", map[string]int{"n": 5, "K": 5}},
		{"kl-pusher", nil},
		{"kl-naive", map[string]int{"n": 3, "L": 3, "K": 2}},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			sys, values := build(t, tc.spec, tc.params)
			h, err := explorer.New(sys, values.String(), nil)
			if err != nil {
				t.Fatal(err)
			}
			configs := sys.Initial()
			rng := rand.New(rand.NewPCG(1, 2))
			for range 8 {
				st := sys.NewState()
				sys.RandomConfiguration(rng, st)
				configs = append(configs, st)
			}
			for ci, st := range configs {
				ts := reports.StateOf(sys, st)
				labels, procs, next := successors(t, sys, st)
				var v explorer.View
				call(t, h, http.MethodPost, "/api/view", explorer.StateRequest{State: ts}, http.StatusOK, &v)
				if len(v.Enabled) != len(labels) {
					t.Fatalf("configuration %d: %d enabled steps, the model has %d", ci, len(v.Enabled), len(labels))
				}
				for i, s := range v.Enabled {
					if s.Action != labels[i] || !reflect.DeepEqual(s.Processes, procs[i]) {
						t.Errorf("configuration %d, step %d: %v %s, the model's is %v %s", ci, i, s.Processes, s.Action, procs[i], labels[i])
					}
					if !sameState(t, s.Next, next[i]) {
						t.Errorf("configuration %d, step %d: view's successor differs from the model's", ci, i)
					}
					var a explorer.StateAnswer
					call(t, h, http.MethodPost, "/api/step", explorer.StateRequest{State: ts, Index: i}, http.StatusOK, &a)
					if !sameState(t, a.State, next[i]) {
						t.Errorf("configuration %d, step %d: /api/step's successor differs from the model's", ci, i)
					}
				}
				if sys.Legitimate != nil {
					if v.Legitimate == nil || *v.Legitimate != sys.Legitimate.Holds(st) {
						t.Errorf("configuration %d: legitimate %v, the model's %v", ci, v.Legitimate, sys.Legitimate.Holds(st))
					}
				} else if v.Legitimate != nil {
					t.Errorf("configuration %d: legitimate %v, but %s has no legitimacy predicate", ci, *v.Legitimate, sys.Name)
				}
				if len(v.Invariants) != len(sys.Invariants) {
					t.Fatalf("configuration %d: %d invariants, the model has %d", ci, len(v.Invariants), len(sys.Invariants))
				}
				for i, inv := range sys.Invariants {
					if v.Invariants[i].Name != inv.Name || v.Invariants[i].Holds != inv.Holds(st) {
						t.Errorf("configuration %d: invariant %v, the model's %s is %v", ci, v.Invariants[i], inv.Name, inv.Holds(st))
					}
				}
				guards, err := sys.NewExpander().Guards(st)
				if err != nil {
					t.Fatal(err)
				}
				for p := range guards {
					for a := range guards[p] {
						if g := v.Guards[p][a]; g.Holds != guards[p][a] || g.Action != sys.Processes[p].Actions[a].Name {
							t.Errorf("configuration %d: p%d's guard %v, the model's %s is %v", ci, p, g, sys.Processes[p].Actions[a].Name, guards[p][a])
						}
					}
				}
			}
		})
	}
}

// sameState compares two trace states as their JSON.
func sameState(t *testing.T, a, b reports.TraceState) bool {
	t.Helper()
	ja, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	jb, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Equal(ja, jb)
}

// TestModel: /api/model describes the system: its initial configurations,
// legitimacy, invariants and actions; and the trace when there is one.
func TestModel(t *testing.T) {
	sys, values := build(t, "dijkstra", map[string]int{"n": 5})
	h, err := explorer.New(sys, values.String(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var m explorer.Model
	call(t, h, http.MethodGet, "/api/model", nil, http.StatusOK, &m)
	if m.Name != "dijkstra" || m.Values != values.String() || m.Processes != 5 || m.Legitimacy == nil || m.Trace != nil {
		t.Errorf("model %+v", m)
	}
	if len(m.Initial) != len(sys.Initial()) || !sameState(t, m.Initial[0], reports.StateOf(sys, sys.Initial()[0])) {
		t.Errorf("initial %v, want the system's", m.Initial)
	}
	if len(m.Actions) != 5 || len(m.Actions[0]) != len(sys.Processes[0].Actions) {
		t.Errorf("actions %v", m.Actions)
	}

	tr, err := reports.ReadTraceFile("testdata/kl-pusher-starvation.json")
	if err != nil {
		t.Fatal(err)
	}
	psys, pvalues := build(t, "kl-pusher", tr.Params)
	h, err = explorer.New(psys, pvalues.String(), tr)
	if err != nil {
		t.Fatal(err)
	}
	m = explorer.Model{}
	call(t, h, http.MethodGet, "/api/model", nil, http.StatusOK, &m)
	if m.Trace == nil || len(m.Trace.Trace.States) != len(tr.States) || !strings.HasPrefix(m.Trace.Title, "starvation counterexample for kl-pusher") || !strings.Contains(m.Trace.SVG, `data-row="3"`) {
		t.Errorf("the model's trace: %+v", m.Trace)
	}
}

// TestTestdataTraceReplays: the trace the browser tests play back is a
// trace of kl-pusher that replays (Figure 2's starvation, a lasso).
func TestTestdataTraceReplays(t *testing.T) {
	tr, err := reports.ReadTraceFile("testdata/kl-pusher-starvation.json")
	if err != nil {
		t.Fatal(err)
	}
	reg, err := catalog.Registry()
	if err != nil {
		t.Fatal(err)
	}
	spec, err := reg.Lookup(tr.Spec)
	if err != nil {
		t.Fatal(err)
	}
	if err := ringcheck.Replay(spec, tr); err != nil {
		t.Fatal(err)
	}
	if tr.Kind != "lasso" || tr.Property != "starvation" {
		t.Errorf("a %s of %s, want a lasso of starvation", tr.Kind, tr.Property)
	}
}

// TestRandomIsSeeded: /api/random is the same configuration for the same
// seed, a valid one, and another for another seed; a seed that is not a
// number is a bad request.
func TestRandomIsSeeded(t *testing.T) {
	sys, values := build(t, "dijkstra", map[string]int{"n": 5})
	h, err := explorer.New(sys, values.String(), nil)
	if err != nil {
		t.Fatal(err)
	}
	get := func(seed int) string {
		var a explorer.StateAnswer
		body := call(t, h, http.MethodGet, "/api/random?seed="+strconv.Itoa(seed), nil, http.StatusOK, &a)
		snap, err := a.State.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := sys.Encode(snap); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		return body
	}
	if get(7) != get(7) {
		t.Error("seed 7 gives two configurations")
	}
	differ := false
	for s := range 5 {
		differ = differ || get(s) != get(7)
	}
	if !differ {
		t.Error("seeds 0..4 all give seed 7's configuration")
	}
	if body := call(t, h, http.MethodGet, "/api/random?seed=x", nil, http.StatusBadRequest, nil); !strings.Contains(body, `seed "x"`) {
		t.Errorf("bad seed: %q", body)
	}
}

// TestRequestsRefused: what is not a configuration of the system, an
// index that is no step, an unknown path or a wrong method is refused with
// the right status and says why.
func TestRequestsRefused(t *testing.T) {
	sys, values := build(t, "dijkstra", map[string]int{"n": 3})
	h, err := explorer.New(sys, values.String(), nil)
	if err != nil {
		t.Fatal(err)
	}
	init := reports.StateOf(sys, sys.Initial()[0])
	wrong := reports.StateOf(sys, sys.Initial()[0])
	wrong.Processes = wrong.Processes[:2]
	for _, tc := range []struct {
		method, path string
		body         any
		code         int
		says         string
	}{
		{http.MethodPost, "/api/view", explorer.StateRequest{State: wrong}, http.StatusBadRequest, "state: 2 processes"},
		{http.MethodPost, "/api/step", explorer.StateRequest{State: init, Index: 99}, http.StatusBadRequest, "index 99"},
		{http.MethodPost, "/api/view", map[string]int{"nope": 1}, http.StatusBadRequest, `unknown field "nope"`},
		{http.MethodGet, "/api/view", nil, http.StatusMethodNotAllowed, "method not allowed"},
		{http.MethodPost, "/api/model", nil, http.StatusMethodNotAllowed, "method not allowed"},
		{http.MethodGet, "/nope.js", nil, http.StatusNotFound, "not found"},
	} {
		body := call(t, h, tc.method, tc.path, tc.body, tc.code, nil)
		if !strings.Contains(body, tc.says) {
			t.Errorf("%s %s: %q, want it to say %q", tc.method, tc.path, body, tc.says)
		}
	}
}

// TestPageAndAssets: / is the page, linking its script and style sheet,
// which are served with their media types.
func TestPageAndAssets(t *testing.T) {
	sys, values := build(t, "dijkstra", map[string]int{"n": 3})
	h, err := explorer.New(sys, values.String(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, mediaType, has string }{
		{"/", "text/html", `<script src="app.js"></script>`},
		{"/app.js", "text/javascript", "api/view"},
		{"/style.css", "text/css", "svg#ring"},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, tc.path, nil))
		if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Header().Get("Content-Type"), tc.mediaType) || !strings.Contains(rec.Body.String(), tc.has) {
			t.Errorf("GET %s: %d %s, want %s holding %q", tc.path, rec.Code, rec.Header().Get("Content-Type"), tc.mediaType, tc.has)
		}
	}
}

// TestReadSweep: a sweep's results give one point per value of the swept
// parameter, in order, with its states, worst cases and verdicts; a file
// that is not a sweep is refused with its name, and a JSON error with its
// line and column.
func TestReadSweep(t *testing.T) {
	s, err := explorer.ReadSweep("testdata/dijkstra-sweep.json")
	if err != nil {
		t.Fatal(err)
	}
	if s.Spec != "dijkstra" || s.Param != "n" || len(s.Points) != 4 {
		t.Fatalf("sweep %+v", s)
	}
	steps := func(p explorer.SweepPoint) string {
		if p.WorstSteps == nil {
			return "-"
		}
		return strconv.Itoa(*p.WorstSteps)
	}
	var got []string
	for _, p := range s.Points {
		got = append(got, fmt.Sprintf("n=%d states=%d steps=%s %v", p.Value, p.States, steps(p), p.Verdicts))
	}
	want := []string{
		"n=3 states=64 steps=2 [{closure holds} {convergence holds}]",
		"n=4 states=256 steps=13 [{closure holds} {convergence holds}]",
		"n=5 states=1024 steps=24 [{closure holds} {convergence holds}]",
		"n=6 states=4096 steps=- [{closure holds} {convergence violated}]",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("points\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	dir := t.TempDir()
	for _, tc := range []struct{ content, says string }{
		{"[{\"spec\": \"a\",\n \"params\": {\"n\": 1}} {", "bad.json:2:22: not a sweep: invalid character '{'"},
		{`[{"spec": "a", "params": {"n": 1}}]`, "bad.json: not a sweep: 1 results, a sweep has two or more"},
		{`[{"spec": "a", "params": {"n": 1, "K": 1}}, {"spec": "a", "params": {"n": 2, "K": 2}}]`, "bad.json: not a sweep: 2 parameters vary between its results ([K n])"},
		{`[{"spec": "a", "params": {"n": 1}}, {"spec": "b", "params": {"n": 2}}]`, "bad.json: not a sweep: result 1 is of b, result 0 of a"},
		{`{"spec": "a"}`, "bad.json:1:1: not a sweep: the file holds a JSON object, not an array of check results"},
		{`[{"spec": "a", "params": {"n": "x"}}]`, `bad.json:1:34: not a sweep: "params" holds a JSON string`},
	} {
		path := filepath.Join(dir, "bad.json")
		if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := explorer.ReadSweep(path)
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: error %v, want %q", tc.content, err, tc.says)
		}
	}
}

// TestSweepHandler: the handler of a sweep answers /api/model with the
// sweep alone, and refuses the API over a model.
func TestSweepHandler(t *testing.T) {
	s, err := explorer.ReadSweep("testdata/dijkstra-sweep.json")
	if err != nil {
		t.Fatal(err)
	}
	h := explorer.NewSweep(s)
	var m explorer.Model
	call(t, h, http.MethodGet, "/api/model", nil, http.StatusOK, &m)
	if m.Sweep == nil || len(m.Sweep.Points) != 4 || m.Name != "" {
		t.Errorf("model %+v", m)
	}
	call(t, h, http.MethodGet, "/api/random?seed=1", nil, http.StatusNotFound, nil)
	call(t, h, http.MethodPost, "/api/view", explorer.StateRequest{}, http.StatusNotFound, nil)
}
