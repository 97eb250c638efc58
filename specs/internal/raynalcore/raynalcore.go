// Package raynalcore is the algorithm of §3 of Raynal's k-out-of-M paper
// (M. Raynal, "A distributed solution to the k-out of-M resources
// allocation problem", INRIA RR-1342 / IRISA PI 559, 1990), run
// over one or several resource types, written once for the two specs that
// encode it: specs/raynal (§3 with one type, §5.1's variant and a ghost
// message counter) and specs/raynaland (§6, §3 per type with one timestamp
// per demand). Those packages document the models, their choices and their
// results; this one holds what they share: the variables and messages, the
// actions and their statements, and the predicates.
//
// Every statement acts on the data of one type, whose handles are a Type;
// an Algo holds every type of a process with what the types share (h_i,
// maxh_i, reqs_i, the message types). The statements read the current
// configuration through model.Ctx.Get and write the next one through Set,
// so a value read in a statement is always the value before the step.
// Guards and effects allocate nothing.
package raynalcore

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs/internal/modclock"
)

// Config describes an instance.
type Config struct {
	// N processes, Types resource types of M units each; a request asks
	// for at most KMax units of a type; every process makes at most R
	// requests (demands).
	N, Types, M, KMax, R int
	// Cmax is the channel capacity; 0 means 3R per type (R reqs and 2R
	// frees), with which no send ever finds a channel full, or with
	// Recurring 4 per type (see Recurring).
	Cmax int
	// Recurring makes requests recur for ever: R is not used, an idle
	// process may always request again, and the clocks h_i, maxh_i and the
	// h of req(h) are kept modulo W = 2·Window+3 (Algo.W) and compared by
	// their difference taken in -(W-1)/2..(W-1)/2. The invariant
	// clock-window checks that the live clock values (every maxh_i, h_i of
	// every process requesting or in its critical section, the h of every
	// req in transit) lie on an arc of at most Window; while they do the
	// modular clocks behave exactly as the unbounded ones (see
	// AddPredicates). used_i(α)[j] ranges over [-2M, 2M] and an assignment
	// outside it is an error of the search, not a silent wrap.
	Recurring bool
	// Window is the largest spread of the live clock values that the
	// modular clocks of Recurring represent exactly; it must be ≥ 1.
	Window int
	// AND is §6's layout (specs/raynaland): the variables of type α are
	// named scdem(α), ok(α), k(α), used(α)[j], delayed(α)[j] and declared
	// after h, maxh and reqs; req and free carry the type as their field
	// 0; a request alternative is any vector of 0..KMax units per type but
	// the zero one; a process is in its critical section when it has a
	// demand and ok_i(α) for every type it names. Otherwise it is §3's
	// (specs/raynal), with one type: scdem, ok, k, h, maxh, reqs, then
	// used[j], delayed[j] (and asked[j]); req(h) and free(y); a request
	// asks for k in 1..KMax; in its critical section means ok_i.
	AND bool
	// Variant is §5.1's reduced-message variant (asked_i[j]); Count adds
	// the ghost counter msgs_i and the ghost field of free. Both need
	// !AND.
	Variant, Count bool
}

// Type holds the handles of one resource type's variables. Per-peer
// arrays are indexed by the peer j; entry j is declared in every process
// but j.
type Type struct {
	Scdem, Ok, K  model.VarID
	Used, Delayed []model.VarID
	// Asked is nil unless Variant.
	Asked []model.VarID
}

// Algo is the algorithm at every process: its types and what they share.
type Algo struct {
	Types         []Type
	H, MaxH, Reqs model.VarID
	// Msgs is the ghost counter (Count), or -1.
	Msgs model.VarID
	// Req carries h, Free carries y (with Count, then the ghost count of
	// its answer, 0 for a later free); with AND both carry the type
	// first.
	Req, Free model.MsgType
	// N, M, R and Clock are n, M, R and the largest timestamp: nR, or
	// with Recurring W-1.
	N, M, R, Clock int
	// W is the modulus of the clocks with Recurring, 0 without (the
	// clocks are then plain integers); Window is Config.Window.
	W, Window int
	// Recurring is Config.Recurring.
	Recurring bool
	// clock keeps the clocks modulo W with Recurring.
	clock modclock.Ring

	// sys is the built system (Build), through which ClockSpread reads
	// the messages in transit.
	sys *model.System
	// Demands lists the request alternatives: Demands[c][α] is the
	// number of units of type α that alternative c asks for.
	Demands        [][]int
	AND            bool
	Variant, Count bool
}

// Begin starts the model of instance cfg, named name: a builder on the
// complete graph of cfg.N processes, with the algorithm's variables,
// messages and channels (declare) and its actions (addActions). The spec
// then adds its predicates (AddPredicates) and builds (Algo.Build).
func Begin(name string, cfg Config) (*model.Builder, *Algo, error) {
	b := model.NewBuilder(name, model.Complete, cfg.N)
	a, err := declare(b, cfg)
	if err != nil {
		return nil, nil, err
	}
	a.addActions(b)
	return b, a, nil
}

// declare declares the variables, the messages and the channels of
// instance cfg on b, in the layout cfg.AND names.
func declare(b *model.Builder, cfg Config) (*Algo, error) {
	n, nt, m, kmax, r := cfg.N, cfg.Types, cfg.M, cfg.KMax, cfg.R
	switch {
	case cfg.AND && (cfg.Variant || cfg.Count):
		return nil, fmt.Errorf("raynalcore: the variant and the ghost are for §3's layout only")
	case !cfg.AND && nt != 1:
		return nil, fmt.Errorf("raynalcore: §3's layout has one type, not %d", nt)
	}
	a := &Algo{
		Types: make([]Type, nt), Msgs: -1,
		N: n, M: m, R: r, Clock: n * r,
		Demands: demands(nt, kmax),
		AND:     cfg.AND, Variant: cfg.Variant, Count: cfg.Count,
		Recurring: cfg.Recurring,
	}
	usedMax := r * m
	if cfg.Recurring {
		clock, err := modclock.New(cfg.Window)
		if err != nil {
			return nil, fmt.Errorf("raynalcore: recurring requests need %w", err)
		}
		a.clock, a.Window, a.W = clock, clock.Window, clock.W
		a.R, a.Clock, r = 0, a.W-1, 0
		usedMax = 2 * m
	}
	process := func() {
		a.H = b.Var("h", model.IntRange(0, a.Clock))
		a.MaxH = b.Var("maxh", model.IntRange(0, a.Clock))
		a.Reqs = b.Var("reqs", model.IntRange(0, r))
	}
	flags := func(t *Type, tag string) {
		t.Scdem = b.Var("scdem"+tag, model.Bool())
		t.Ok = b.Var("ok"+tag, model.Bool())
		t.K = b.Var("k"+tag, model.IntRange(0, kmax))
	}
	peers := func(t *Type, tag string) {
		t.Used = make([]model.VarID, n)
		t.Delayed = make([]model.VarID, n)
		if a.Variant {
			t.Asked = make([]model.VarID, n)
		}
		for j := 0; j < n; j++ {
			others, at := othersThan(n, j), "["+strconv.Itoa(j)+"]"
			t.Used[j] = b.Var("used"+tag+at, model.IntRange(-usedMax, usedMax), others...)
			t.Delayed[j] = b.Var("delayed"+tag+at, model.Bool(), others...)
			if a.Variant {
				t.Asked[j] = b.Var("asked"+tag+at, model.Bool(), others...)
			}
		}
	}
	h := model.Var{Name: "h", Domain: model.IntRange(1, a.Clock)}
	if a.Recurring {
		h.Domain = model.IntRange(0, a.Clock)
	}
	y := model.Var{Name: "y", Domain: model.IntRange(1, m)}
	if cfg.AND {
		process()
		for x := range a.Types {
			tag := "(" + strconv.Itoa(x) + ")"
			flags(&a.Types[x], tag)
			peers(&a.Types[x], tag)
		}
		typ := model.Var{Name: "type", Domain: model.IntRange(0, nt-1)}
		a.Req = b.Message("req", typ, h)
		a.Free = b.Message("free", typ, y)
	} else {
		flags(&a.Types[0], "")
		process()
		peers(&a.Types[0], "")
		if a.Count {
			a.Msgs = b.Var("msgs", model.IntRange(0, 3*(n-1)))
		}
		a.Req = b.Message("req", h)
		if a.Count {
			a.Free = b.Message("free", y, model.Var{Name: "answer", Domain: model.IntRange(0, 2)})
		} else {
			a.Free = b.Message("free", y)
		}
	}
	cmax := cfg.Cmax
	switch {
	case cmax == 0 && a.Recurring:
		cmax = 4 * nt
	case cmax == 0:
		cmax = 3 * r * nt
	}
	b.LinkChannels(cmax, model.Error, a.Req, a.Free)
	return a, nil
}

// demands lists every vector of 0..kmax per type but the zero one, in
// lexicographic order of (k(0), ..., k(T-1)); with one type, k = 1..kmax.
func demands(nt, kmax int) [][]int {
	total := 1
	for range nt {
		total *= kmax + 1
	}
	var out [][]int
	for c := 1; c < total; c++ {
		d := make([]int, nt)
		x := c
		for a := nt - 1; a >= 0; a-- {
			d[a] = x % (kmax + 1)
			x /= kmax + 1
		}
		out = append(out, d)
	}
	return out
}

// othersThan lists 0..n-1 without j.
func othersThan(n, j int) []int {
	out := make([]int, 0, n-1)
	for i := 0; i < n; i++ {
		if i != j {
			out = append(out, i)
		}
	}
	return out
}

// addActions declares the actions of every process, in this order:
// request (an environment action, optional, one alternative per demand),
// leave (environment, finite), then recvReq(j) and recvFree(j) for every
// peer j.
func (a *Algo) addActions(b *model.Builder) {
	b.Action(model.Action{
		Name:     "request",
		Kind:     model.Environment,
		Liveness: model.Optional,
		Choices:  len(a.Demands),
		ChoiceLabel: func(c int) string {
			parts := make([]string, len(a.Types))
			for x, k := range a.Demands[c] {
				parts[x] = strconv.Itoa(k)
			}
			return "k=" + strings.Join(parts, ",")
		},
		Guard:  a.canRequest,
		Effect: a.request,
	})
	b.Action(model.Action{
		Name:     "leave",
		Kind:     model.Environment,
		Liveness: model.Finite,
		Guard:    a.inCS,
		Effect:   a.release,
	})
	for j := 0; j < a.N; j++ {
		others := othersThan(a.N, j)
		b.Action(model.Action{
			Name:   "recvReq(" + strconv.Itoa(j) + ")",
			Guard:  func(c *model.Ctx) bool { return c.HeadIs(c.In(j), a.Req) },
			Effect: func(c *model.Ctx, _ int) { a.receiveReq(c, j) },
		}, others...)
		b.Action(model.Action{
			Name:   "recvFree(" + strconv.Itoa(j) + ")",
			Guard:  func(c *model.Ctx) bool { return c.HeadIs(c.In(j), a.Free) },
			Effect: func(c *model.Ctx, _ int) { a.receiveFree(c, j) },
		}, others...)
	}
}

// Docs are the texts of the predicates AddPredicates declares, in each
// spec's own words.
type Docs struct {
	UnitsAllocated, UsedNonnegative, ValidEnd, Requesting, InCS string
}

// AddPredicates declares the invariants units-allocated and
// used-nonnegative, with Recurring clock-window, then extra, the valid end
// states (all-requests-served; none with Recurring, where an idle process
// can always request), the process predicates requesting and inCS, and the
// initial configuration (used_i(α)[j] = 0, every other variable at its
// least value, every channel empty).
//
// clock-window is what makes the modular clocks of Recurring sound. The
// statements use clock values only in h_i := maxh_i + 1, maxh_i :=
// max(maxh_i, h) and the comparison of (h_i, i) with (h, j), and the
// values they read are live ones (LiveClocks). If the live values of a
// configuration of the unbounded model lie within Window of each other, so
// do their residues modulo W on the circle, every difference the
// statements take is in -(W-1)/2..(W-1)/2 and the modular step is the
// unbounded step taken modulo W; one step widens the spread by at most 1
// (a new h_i is maxh_i + 1; max and the reset of h_i on release add no new
// value), and W = 2·Window+3 leaves that margin, so the arc computed from
// the residues of the next configuration is its true spread again. By
// induction on the length of an execution, as long as clock-window holds
// the modular model is the unbounded one with its clocks taken modulo W;
// a search that finds clock-window never violated has therefore explored
// exactly that quotient of the unbounded model, whose configurations
// differ only by a common shift of every clock, which no statement can
// tell apart.
func (a *Algo) AddPredicates(b *model.Builder, docs Docs, extra ...model.Predicate) {
	b.Invariant(model.Predicate{
		Name: "units-allocated",
		Doc:  docs.UnitsAllocated,
		Holds: func(s *model.State) bool {
			for x := range a.Types {
				if a.Allocated(s, x) > a.M {
					return false
				}
			}
			return true
		},
	})
	b.Invariant(model.Predicate{
		Name: "used-nonnegative",
		Doc:  docs.UsedNonnegative,
		Holds: func(s *model.State) bool {
			for x := range a.Types {
				for i := 0; i < a.N; i++ {
					for j := 0; j < a.N; j++ {
						if j != i && s.Get(i, a.Types[x].Used[j]) < 0 {
							return false
						}
					}
				}
			}
			return true
		},
	})
	if a.Recurring {
		b.Invariant(a.clock.Invariant("clock-window",
			"the live clock values (every maxh_i, h_i while requesting or in the critical section, h of every req in transit)",
			"the clocks", a.ClockSpread))
	}
	for _, p := range extra {
		b.Invariant(p)
	}
	if !a.Recurring {
		b.ValidEnd(model.Predicate{
			Name:  "all-requests-served",
			Doc:   docs.ValidEnd,
			Holds: a.AllServed,
		})
	}
	b.ProcessPredicate(model.ProcessPredicate{
		Name:  "requesting",
		Doc:   docs.Requesting,
		Holds: a.Requesting,
	})
	b.ProcessPredicate(model.ProcessPredicate{
		Name:  "inCS",
		Doc:   docs.InCS,
		Holds: a.InCS,
	})
	b.Initial(func(_ *model.System, s *model.State) {
		for x := range a.Types {
			for i := 0; i < a.N; i++ {
				for j := 0; j < a.N; j++ {
					if j != i {
						s.Set(i, a.Types[x].Used[j], 0)
					}
				}
			}
		}
	})
}

// LiveClocks calls f with every live clock value of s: maxh_i of every
// process, h_i of every process requesting or in its critical section for
// some type, and the h of every req in transit. These are the values the
// statements may read as clocks; h_i of an idle process is not one.
func (a *Algo) LiveClocks(sys *model.System, s *model.State, f func(h int)) {
	for i := 0; i < a.N; i++ {
		f(s.Get(i, a.MaxH))
		live := false
		for x := range a.Types {
			if s.Get(i, a.Types[x].Scdem) == 1 || s.Get(i, a.Types[x].Ok) == 1 {
				live = true
			}
		}
		if live {
			f(s.Get(i, a.H))
		}
	}
	at := 0
	if a.AND {
		at = 1
	}
	for c := range sys.Channels {
		ch := model.ChanID(c)
		for x := 0; x < s.Len(ch); x++ {
			if m := s.At(ch, x); s.TypeOf(m) == a.Req {
				f(sys.Field(m, at))
			}
		}
	}
}

// ClockSpread is the spread of the live clock values of s (LiveClocks),
// in the system a built (Build): without Recurring, the largest minus the
// smallest; with Recurring, the length of the shortest arc of the circle
// of W residues that holds them all, which is the spread of the unbounded
// values they stand for while that spread is below W/2.
func (a *Algo) ClockSpread(s *model.State) int {
	sys := a.sys
	if !a.Recurring {
		lo, hi := a.Clock, 0
		a.LiveClocks(sys, s, func(h int) { lo, hi = min(lo, h), max(hi, h) })
		return max(hi-lo, 0)
	}
	return a.clock.Spread(func(add func(int)) { a.LiveClocks(sys, s, add) })
}

// Build builds b, the builder Begin returned, and records the system, through
// which ClockSpread (and so the invariant clock-window) reads the messages
// in transit. The specs build through it rather than through b.Build.
func (a *Algo) Build(b *model.Builder) (*model.System, error) {
	sys, err := b.Build()
	if err != nil {
		return nil, err
	}
	a.sys = sys
	return sys, nil
}

// Allocated is the number of units of type x allocated in s: Σ k_i(x)
// over the processes with ok_i(x).
func (a *Algo) Allocated(s *model.State, x int) int {
	t := &a.Types[x]
	sum := 0
	for i := 0; i < a.N; i++ {
		if s.Get(i, t.Ok) == 1 {
			sum += s.Get(i, t.K)
		}
	}
	return sum
}

// Requesting reports whether process p waits for some type (scdem_p(α)).
func (a *Algo) Requesting(s *model.State, p int) bool {
	for x := range a.Types {
		if s.Get(p, a.Types[x].Scdem) == 1 {
			return true
		}
	}
	return false
}

// InCS reports whether process p is in its critical section: ok_p in
// §3's layout; with AND, p has a demand and every type it names granted.
func (a *Algo) InCS(s *model.State, p int) bool {
	if !a.AND {
		return s.Get(p, a.Types[0].Ok) == 1
	}
	named := false
	for x := range a.Types {
		if s.Get(p, a.Types[x].K) > 0 {
			named = true
			if s.Get(p, a.Types[x].Ok) == 0 {
				return false
			}
		}
	}
	return named
}

// AllServed reports whether s is a valid end state: every process idle
// with its R requests made, every channel empty.
func (a *Algo) AllServed(s *model.State) bool {
	for i := 0; i < a.N; i++ {
		if s.Get(i, a.Reqs) != a.R {
			return false
		}
		for x := range a.Types {
			if s.Get(i, a.Types[x].Scdem) == 1 || s.Get(i, a.Types[x].Ok) == 1 {
				return false
			}
		}
	}
	for c := range s.Lens {
		if s.Lens[c] != 0 {
			return false
		}
	}
	return true
}

// The guards and statements below are those of the executing process.

// canRequest: requests left (always, with Recurring), and idle (no type
// requested or granted).
func (a *Algo) canRequest(c *model.Ctx) bool {
	if !a.Recurring && c.Get(a.Reqs) >= a.R {
		return false
	}
	for x := range a.Types {
		if c.Get(a.Types[x].Scdem) == 1 || c.Get(a.Types[x].Ok) == 1 {
			return false
		}
	}
	return true
}

// inCS is InCS for the executing process.
func (a *Algo) inCS(c *model.Ctx) bool {
	if !a.AND {
		return c.Get(a.Types[0].Ok) == 1
	}
	named := false
	for x := range a.Types {
		if c.Get(a.Types[x].K) > 0 {
			named = true
			if c.Get(a.Types[x].Ok) == 0 {
				return false
			}
		}
	}
	return named
}

// req builds req(h) for type x.
func (a *Algo) req(c *model.Ctx, x, h int) model.Msg {
	if a.AND {
		return c.Msg(a.Req, x, h)
	}
	return c.Msg(a.Req, h)
}

// free builds free(y) for type x; first says whether it is the first free
// of its answer, and then (ghost) how many frees the answer takes.
func (a *Algo) free(c *model.Ctx, x, y int, first bool) model.Msg {
	switch {
	case a.AND:
		return c.Msg(a.Free, x, y)
	case !a.Count:
		return c.Msg(a.Free, y)
	}
	answer := 0
	if first {
		answer = 1
		if y < a.M {
			answer = 2
		}
	}
	return c.Msg(a.Free, y, answer)
}

// request is "when requesting resources": one timestamp h_i := maxh_i + 1
// for the whole demand, then §3's statement (§5.1's with Variant) for each
// type the demand names, in increasing type order.
func (a *Algo) request(c *model.Ctx, choice int) {
	d := a.Demands[choice]
	h := c.Get(a.MaxH) + 1
	if a.Recurring {
		h = a.clock.Next(c.Get(a.MaxH))
	} else {
		c.Set(a.Reqs, c.Get(a.Reqs)+1)
	}
	c.Set(a.H, h)
	for x, k := range d {
		c.Set(a.Types[x].K, k)
		if k > 0 {
			a.requestType(c, x, h, k)
		}
	}
}

// requestType is the request statement on type x's data, for k units.
func (a *Algo) requestType(c *model.Ctx, x, h, k int) {
	t := &a.Types[x]
	i := c.P
	req := a.req(c, x, h)
	if !a.Variant {
		c.Set(t.Scdem, 1)
		c.Set(t.Ok, 0)
		for j := 0; j < a.N; j++ {
			if j != i {
				c.Set(t.Used[j], c.Get(t.Used[j])+a.M)
				c.Send(c.Out(j), req)
			}
		}
		if a.Count {
			c.Set(a.Msgs, a.N-1)
		}
		return
	}
	sum, sent := 0, 0
	for j := 0; j < a.N; j++ {
		if j == i {
			continue
		}
		u := c.Get(t.Used[j])
		if u == 0 {
			u = a.M
			c.Set(t.Used[j], u)
			c.Set(t.Asked[j], 1)
			c.Send(c.Out(j), req)
			sent++
		} else {
			c.Set(t.Asked[j], 0)
		}
		sum += u
	}
	ok := sum+k <= a.M
	c.Set(t.Ok, b2i(ok))
	c.Set(t.Scdem, b2i(!ok))
	if a.Count {
		c.Set(a.Msgs, sent)
	}
}

// release is "when releasing the resources" for every type: ok_i :=
// false, free(k_i) to every delayed process, delayed_i := ∅; k_i and then
// h_i are reset to 0.
func (a *Algo) release(c *model.Ctx, _ int) {
	for x := range a.Types {
		t := &a.Types[x]
		k := c.Get(t.K)
		c.Set(t.Ok, 0)
		for j := 0; j < a.N; j++ {
			if j != c.P && c.Get(t.Delayed[j]) == 1 {
				c.Send(c.Out(j), a.free(c, x, k, k == a.M))
				c.Set(t.Delayed[j], 0)
			}
		}
		c.Set(t.K, 0)
	}
	c.Set(a.H, 0)
}

// fields returns the type of m (0 unless AND) and the index of its first
// field after the type.
func (a *Algo) fields(c *model.Ctx, m model.Msg) (x, at int) {
	if a.AND {
		return c.Field(m, 0), 1
	}
	return 0, 0
}

// receiveReq is "when receiving req(h, j) from P_j", on the data of the
// message's type.
func (a *Algo) receiveReq(c *model.Ctx, j int) {
	i := c.P
	msg := c.Receive(c.In(j))
	x, at := a.fields(c, msg)
	h := c.Field(msg, at)
	t := &a.Types[x]
	if a.Diff(h, c.Get(a.MaxH)) > 0 {
		c.Set(a.MaxH, h)
	}
	d := a.Diff(h, c.Get(a.H))
	prio := (c.Get(t.Scdem) == 1 || c.Get(t.Ok) == 1) && (d > 0 || d == 0 && i < j)
	out := c.Out(j)
	switch {
	case !prio:
		c.Send(out, a.free(c, x, a.M, true))
	case !a.Variant && c.Get(t.Delayed[j]) == 1: // (XX)
		c.Send(out, a.free(c, x, a.M, true))
	default:
		if k := c.Get(t.K); k != a.M {
			// The answer's first free: free(M-k_i) now, free(k_i) on release.
			c.Send(out, a.free(c, x, a.M-k, true))
		}
		c.Set(t.Delayed[j], 1)
	}
}

// receiveFree is "when receiving free(y) from P_j", on the data of the
// message's type.
func (a *Algo) receiveFree(c *model.Ctx, j int) {
	i := c.P
	msg := c.Receive(c.In(j))
	x, at := a.fields(c, msg)
	t := &a.Types[x]
	u := c.Get(t.Used[j]) - c.Field(msg, at)
	scdem := c.Get(t.Scdem) == 1
	msgs := 0
	if a.Count {
		msgs = c.Get(a.Msgs) + c.Field(msg, at+1)
	}
	if a.Variant && scdem && u == 0 && c.Get(t.Asked[j]) == 0 {
		u = a.M
		c.Send(c.Out(j), a.req(c, x, c.Get(a.H)))
		c.Set(t.Asked[j], 1)
		msgs++
	}
	c.Set(t.Used[j], u)
	if a.Count {
		c.Set(a.Msgs, msgs)
	}
	if !scdem {
		return
	}
	sum := u + c.Get(t.K)
	for y := 0; y < a.N; y++ {
		if y != i && y != j {
			sum += c.Get(t.Used[y])
		}
	}
	if sum <= a.M {
		c.Set(t.Scdem, 0)
		c.Set(t.Ok, 1)
	}
}

// Diff is the clock difference x - y: the plain difference without
// Recurring; with it, the difference modulo W taken in
// -(W-1)/2..(W-1)/2, which is the unbounded difference while the live
// clocks lie within Window of each other (see AddPredicates).
func (a *Algo) Diff(x, y int) int {
	if !a.Recurring {
		return x - y
	}
	return a.clock.Diff(x, y)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
