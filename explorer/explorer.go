// Package explorer serves the explorer's page (package internal/webui)
// and a JSON API over one compiled model: its description and initial
// configurations, a random configuration for a seed, and for any
// configuration its enabled steps with their successors, its guards'
// values, its legitimacy and its invariants; and, when it has one, a
// trace to play back. The handler keeps no state between requests:
// configurations travel in the trace format (reports.TraceState).
package explorer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/ringcheck/ringcheck/internal/webui"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/reports"
)

// maxBody bounds a request's body: a configuration of the largest rings
// is a few KiB.
const maxBody = 4 << 20

// Model is what GET /api/model answers: the system's name and parameters,
// its legitimacy predicate and invariants by name, every process's
// actions, its initial configurations, and the trace to play back, if
// any; or, for a handler of a sweep (NewSweep), the sweep alone.
type Model struct {
	Name       string               `json:"name"`
	Values     string               `json:"values"`
	Processes  int                  `json:"processes"`
	Legitimacy *string              `json:"legitimacy"`
	Invariants []string             `json:"invariants"`
	Actions    [][]string           `json:"actions"`
	Initial    []reports.TraceState `json:"initial"`
	Trace      *reports.Playback    `json:"trace,omitempty"`
	Sweep      *Sweep               `json:"sweep,omitempty"`
}

// View is what POST /api/view answers for a configuration: its enabled
// steps (in the order model.Expander.Expand yields them), every action's
// guard per process, whether the legitimacy predicate holds (null where
// the system has none) and the value of each invariant.
type View struct {
	Enabled    []Step           `json:"enabled"`
	Guards     [][]Guard        `json:"guards"`
	Legitimate *bool            `json:"legitimate"`
	Invariants []InvariantValue `json:"invariants"`
}

// Step is one enabled step of a configuration: the processes that move,
// its action's label, whether it overflows a channel or leaves a
// variable's domain, and the configuration it leads to.
type Step struct {
	Processes  []int              `json:"processes"`
	Action     string             `json:"action"`
	Overflow   bool               `json:"overflow,omitempty"`
	RangeFault string             `json:"range_fault,omitempty"`
	Next       reports.TraceState `json:"next"`
}

// Guard is an action's name and whether its guard holds.
type Guard struct {
	Action string `json:"action"`
	Holds  bool   `json:"holds"`
}

// InvariantValue is an invariant's name and whether it holds.
type InvariantValue struct {
	Name  string `json:"name"`
	Holds bool   `json:"holds"`
}

// StateRequest is the body of POST /api/view and /api/step: a
// configuration, and for /api/step the index of one of its enabled steps
// (as View.Enabled lists them).
type StateRequest struct {
	State reports.TraceState `json:"state"`
	Index int                `json:"index"`
}

// StateAnswer is what GET /api/random and POST /api/step answer: one
// configuration.
type StateAnswer struct {
	State reports.TraceState `json:"state"`
}

// Handler serves the page and the API over one system, or a sweep's
// results.
type Handler struct {
	sys    *model.System
	values string
	trace  *reports.Playback
	sweep  *Sweep
}

// New returns the handler over sys, whose parameters are described by
// values (as "K=5 n=5"), playing trace back when it is not nil (a trace
// of sys, which the caller has replayed).
func New(sys *model.System, values string, trace *reports.Trace) (*Handler, error) {
	h := &Handler{sys: sys, values: values}
	if trace != nil {
		pb, err := reports.NewPlayback(trace)
		if err != nil {
			return nil, fmt.Errorf("the trace: %w", err)
		}
		h.trace = pb
	}
	return h, nil
}

// ServeHTTP serves GET / (the page), its script and style sheet, and the
// API under /api/.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimPrefix(r.URL.Path, "/")
	switch {
	case path == "" || path == "index.html":
		if !allow(w, r, http.MethodGet) {
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(webui.Index())
	case h.sys == nil && strings.HasPrefix(path, "api/") && path != "api/model":
		http.Error(w, "no model: the explorer shows a sweep", http.StatusNotFound)
	case path == "api/model":
		if allow(w, r, http.MethodGet) {
			h.answer(w, h.model)
		}
	case path == "api/random":
		if allow(w, r, http.MethodGet) {
			h.answer(w, func() (any, error) { return h.random(r.URL.Query().Get("seed")) })
		}
	case path == "api/view" || path == "api/step":
		if !allow(w, r, http.MethodPost) {
			return
		}
		var req StateRequest
		dec := json.NewDecoder(io.LimitReader(r.Body, maxBody))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&req); err != nil {
			http.Error(w, "the request's body: "+err.Error(), http.StatusBadRequest)
			return
		}
		if path == "api/view" {
			h.answer(w, func() (any, error) { return h.View(req.State) })
		} else {
			h.answer(w, func() (any, error) { return h.step(req.State, req.Index) })
		}
	default:
		content, mediaType, ok := webui.Asset(path)
		if !ok {
			http.NotFound(w, r)
			return
		}
		if allow(w, r, http.MethodGet) {
			w.Header().Set("Content-Type", mediaType)
			_, _ = w.Write(content)
		}
	}
}

// allow answers 405 unless r's method is method.
func allow(w http.ResponseWriter, r *http.Request, method string) bool {
	if r.Method == method || method == http.MethodGet && r.Method == http.MethodHead {
		return true
	}
	w.Header().Set("Allow", method)
	http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	return false
}

// badRequest marks an error of the request rather than of the model.
type badRequest struct{ error }

// answer writes what f returns as JSON, or its error: 400 for a bad
// request, 500 otherwise.
func (h *Handler) answer(w http.ResponseWriter, f func() (any, error)) {
	v, err := f()
	if err != nil {
		code := http.StatusInternalServerError
		var bad badRequest
		if errors.As(err, &bad) {
			code = http.StatusBadRequest
		}
		http.Error(w, err.Error(), code)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

func (h *Handler) model() (any, error) {
	if h.sys == nil {
		return &Model{Sweep: h.sweep}, nil
	}
	m := &Model{Name: h.sys.Name, Values: h.values, Processes: h.sys.N(), Trace: h.trace, Invariants: []string{}}
	if l := h.sys.Legitimate; l != nil {
		name := l.Name
		if l.Doc != "" {
			name = l.Doc
		}
		m.Legitimacy = &name
	}
	for _, inv := range h.sys.Invariants {
		m.Invariants = append(m.Invariants, inv.Name)
	}
	for _, p := range h.sys.Processes {
		names := make([]string, len(p.Actions))
		for i, a := range p.Actions {
			names[i] = a.Name
		}
		m.Actions = append(m.Actions, names)
	}
	for _, st := range h.sys.Initial() {
		m.Initial = append(m.Initial, reports.StateOf(h.sys, st))
	}
	return m, nil
}

// random draws a configuration of the full space, every variable and
// channel's contents uniformly, from the seed given (a decimal number).
func (h *Handler) random(seed string) (any, error) {
	s, err := strconv.ParseUint(seed, 10, 64)
	if err != nil {
		return nil, badRequest{fmt.Errorf("seed %q is not a natural number", seed)}
	}
	st := h.sys.NewState()
	h.sys.RandomConfiguration(rand.New(rand.NewPCG(s, 0x5eed)), st)
	return StateAnswer{State: reports.StateOf(h.sys, st)}, nil
}

// encode returns the configuration ts describes.
func (h *Handler) encode(ts reports.TraceState) (*model.State, error) {
	snap, err := ts.Snapshot()
	if err != nil {
		return nil, badRequest{fmt.Errorf("state: %w", err)}
	}
	st, err := h.sys.Encode(snap)
	if err != nil {
		return nil, badRequest{fmt.Errorf("state: %w", err)}
	}
	return st, nil
}

// View returns the enabled steps, guards, legitimacy and invariants of
// configuration ts of the system.
func (h *Handler) View(ts reports.TraceState) (*View, error) {
	st, err := h.encode(ts)
	if err != nil {
		return nil, err
	}
	v := &View{Enabled: []Step{}, Invariants: []InvariantValue{}}
	ex := h.sys.NewExpander()
	if _, err := ex.Expand(st, func(s *model.Step, next *model.State) bool {
		v.Enabled = append(v.Enabled, Step{Processes: s.Procs(), Action: h.sys.Label(s), Overflow: s.Overflow, RangeFault: s.RangeFault, Next: reports.StateOf(h.sys, next)})
		return true
	}); err != nil {
		return nil, fmt.Errorf("the enabled steps: %w", err)
	}
	guards, err := ex.Guards(st)
	if err != nil {
		return nil, fmt.Errorf("the guards: %w", err)
	}
	for p, gs := range guards {
		row := make([]Guard, len(gs))
		for a, holds := range gs {
			row[a] = Guard{Action: h.sys.Processes[p].Actions[a].Name, Holds: holds}
		}
		v.Guards = append(v.Guards, row)
	}
	if l := h.sys.Legitimate; l != nil {
		holds := l.Holds(st)
		v.Legitimate = &holds
	}
	for _, inv := range h.sys.Invariants {
		v.Invariants = append(v.Invariants, InvariantValue{Name: inv.Name, Holds: inv.Holds(st)})
	}
	if h.sys.PredicateFault != nil {
		if err := h.sys.PredicateFault(); err != nil {
			return nil, fmt.Errorf("a predicate: %w", err)
		}
	}
	return v, nil
}

// step returns the successor of configuration ts by its enabled step
// index, in the order Expand yields them.
func (h *Handler) step(ts reports.TraceState, index int) (any, error) {
	st, err := h.encode(ts)
	if err != nil {
		return nil, err
	}
	var next *reports.TraceState
	i := 0
	if _, err := h.sys.NewExpander().Expand(st, func(_ *model.Step, succ *model.State) bool {
		if i == index {
			s := reports.StateOf(h.sys, succ)
			next = &s
			return false
		}
		i++
		return true
	}); err != nil {
		return nil, fmt.Errorf("the enabled steps: %w", err)
	}
	if next == nil {
		return nil, badRequest{fmt.Errorf("index %d: the configuration has %d enabled steps", index, i)}
	}
	return StateAnswer{State: *next}, nil
}

// Serve serves h on ln until ctx is done, then shuts the server down,
// letting the requests under way finish for up to five seconds. It
// returns nil once stopped by ctx.
func Serve(ctx context.Context, ln net.Listener, h http.Handler) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("serving on %s: %w", ln.Addr(), err)
	case <-ctx.Done():
	}
	stop, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(stop); err != nil {
		return fmt.Errorf("stopping the server: %w", err)
	}
	<-done
	return nil
}
