// Package raynaland encodes the generalized AND-allocation of Raynal's
// k-out-of-M paper (M. Raynal, "A distributed solution to the k-out of-M
// resources allocation problem", INRIA RR-1342 / IRISA PI 559, 1990, seed
// 003), §6: several resource types R(1..T), M(α) identical units of type
// R(α), and a demand asks at once for k(α) units of each type, the process
// staying blocked until it has them all. The solution is §3's algorithm
// (specs/raynal, asked=0) run once per type, with one timestamp per demand
// shared by every type, "Giving a unique timestamp to each demand allow to
// solve all the conflicts in the same way whatever is (or are) the
// resource(s) concerned".
//
// n processes on a complete graph, reliable FIFO channels, one per ordered
// pair; every process shares every type (GR(α) is every process). Every
// type has the same number M of units (parameter M) and a demand asks for
// 0..K units of each type, at least one unit in all (parameter K ≤ M).
// Process i has h_i, maxh_i (shared by the types) and, per type α,
// scdem_i(α), ok_i(α), k_i(α), used_i(α)[j] and delayed_i(α) (one boolean
// per j ≠ i); reqs_i counts its demands. Messages are req(α, h) and
// free(α, y), "Messages req and free take the resource type concerned as a
// parameter. Statements associated to the reception of these messages use
// the data structures associated to the type of resources defined by the
// corresponding parameter."
//
// Actions of process i (each atomic; central daemon, interleaving):
//
//	request(k(1..T))  environment, optional  idle ∧ reqs < R   → §6's "when requesting resources"; reqs++
//	leave             environment, finite    in CS             → §3's release, for every type
//	recvReq(j)        protocol               head(j→i) = req   → §3's receipt of req, for the message's type
//	recvFree(j)       protocol               head(j→i) = free  → §3's receipt of free, for the message's type
//
// §6's request statement, for the types α with k(α) > 0 (the types the
// demand names): h_i := maxh_i + 1; scdem_i(α) := true; ok_i(α) := false;
// for every j ≠ i, used_i(α)[j] += M and send req(α, h_i) to P_j, the
// types in increasing order, so on each channel the demand's reqs travel in
// type order. "wait (ok_i(α) and ok_i(β))": the process is in its critical
// section when ok_i(α) holds for every type it asked for. The paper gives
// no release statement for §6 ("the other texts are obtained in the same
// way"): leave does §3's release for each type, ok_i(α) := false and
// free(α, k_i(α)) to every j ∈ delayed_i(α), delayed_i(α) := ∅.
//
// Bounds: as in specs/raynal, every process makes at most R demands
// (parameter requests), so every result holds "for at most R requests per
// process"; timestamps range over 0..nR (the m-th demand of an execution
// has a timestamp of at most m), used_i(α)[j] over [-RM, RM], and each
// channel's capacity defaults to 3RT (R reqs and 2R frees per type), with
// overflow policy error. Every execution is finite, so the valid end
// states are those where every process has made its R demands and is idle
// and every channel is empty; any other state with no enabled step is a
// deadlock.
//
// Choices the paper leaves open, pinned by tests:
//   - A type the demand does not name (k(α) = 0) is untouched: no req,
//     scdem_i(α) and ok_i(α) stay false, so a req(α) received is answered
//     free(α, M) at once (prio_i is false).
//   - ok_i(α), once set, stays until the release, even while the process
//     waits for other types; the resources of type α are then allocated to
//     it, and the per-type safety invariant counts them: for each type α,
//     Σ k_i(α) over the processes with ok_i(α) never exceeds M
//     (units-allocated). This is stronger than counting only processes in
//     their critical section.
//   - k_i(α) and h_i are reset to 0 on release (read only while some
//     scdem_i(α) ∨ ok_i(α)), as in specs/raynal; maxh_i is raised only by
//     the requests received, as the paper writes it.
//   - requesting(p) is "some scdem_p(α)", inCS(p) is "p has a demand and
//     ok_p(α) for every type it names".
//
// Results (exhaustive from init, weak fairness for starvation, for at most
// R requests per process): per-type safety, deadlock freedom and
// starvation freedom hold on every instance tried: n=2 with 2 or 3 types,
// M ≤ 2, R ≤ 3 (TestAndAllocationHolds); n=3, 2 types, M=1, R=1 (289,529
// states, the claim instance); n=3, 2 types, M=1, R=2 (5,738,255 states,
// about 4 minutes); n=3, 2 types, M=2, R=1 (15,001,860 states, about 7.5
// minutes). With one type the model is specs/raynal's §3 exactly
// (TestOneTypeIsRaynal).
package raynaland

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
)

// MaxN and MaxTypes bound the instances the spec builds.
const (
	MaxN     = 4
	MaxTypes = 3
)

// Spec returns the catalogue entry.
func Spec() *specs.Spec {
	claim := map[string]int{"n": 3, "types": 2, "M": 1, "K": 1, "requests": 1}
	return &specs.Spec{
		Name:          "raynal-and",
		Summary:       "Raynal's generalized AND-allocation over several resource types (seed 003, §6), for at most R requests per process",
		Source:        "M. Raynal, A distributed solution to the k-out of-M resources allocation problem, INRIA RR-1342 (IRISA PI 559), 1990, §6",
		Communication: "message-passing",
		Params: []specs.Param{
			{Name: "n", Default: 3, Min: 2, Max: MaxN, Doc: "number of processes (complete graph, one FIFO channel per ordered pair)"},
			{Name: "types", Default: 2, Min: 1, Max: MaxTypes, Doc: "number of resource types"},
			{Name: "M", Default: 1, Min: 1, Max: 3, Doc: "number of identical units of each type"},
			{Name: "K", Default: 0, Min: 0, Max: 3, Doc: "largest number of units of one type a demand asks for, K ≤ M (0: K = M); a demand asks for 0..K of each type, at least one unit in all"},
			{Name: "requests", Default: 1, Min: 1, Max: 3, Doc: "R, the number of demands each process makes, after which it stays idle for ever; every result holds for at most R requests per process, and timestamps range over 0..nR"},
			{Name: "Cmax", Default: 0, Min: 0, Max: 64, Doc: "channel capacity (0: 3R per type, so no send ever finds a channel full)"},
		},
		Invariants: []string{
			"units-allocated: for every type α, Σ k_i(α) over processes with ok_i(α) never exceeds M",
			"used-nonnegative: used_i(α)[j] ≥ 0 for every type and i ≠ j (proposition P1 per type)",
		},
		DefaultChecks: []string{"safety", "deadlock", "starvation"},
		Claims: []specs.Claim{
			{Property: "safety", Verdict: "holds", Params: claim, From: "init",
				Source: "§6: §3's algorithm per type, whose safety (§4.3) holds for each type"},
			{Property: "deadlock", Verdict: "holds", Params: claim, From: "init",
				Source: "§6: a unique timestamp per demand resolves every conflict the same way for all types, so no circular wait"},
			{Property: "starvation", Verdict: "holds", Params: claim, From: "init", Fairness: "weak",
				Source: "§6 with §4.5: every demand is satisfied within finite time"},
		},
		Build: Build,
	}
}

// Vars are the handles of a built raynal-and system. Per-type arrays are
// indexed by type; per-peer ones by type, then peer j (declared in every
// process but j).
type Vars struct {
	H, MaxH, Reqs model.VarID
	Scdem, Ok, K  []model.VarID
	Used, Delayed [][]model.VarID
	Req, Free     model.MsgType
	N, T, M, KMax int
	R, Clock      int
	// Demands lists the request alternatives: Demands[c][α] is k(α) of
	// choice c.
	Demands [][]int
}

// Build returns the model for parameters n, types, M, K, requests, Cmax.
func Build(p specs.Values, opts specs.BuildOptions) (*model.System, error) {
	sys, _, err := BuildVars(p, opts)
	return sys, err
}

// BuildVars is Build, also returning the handles.
func BuildVars(p specs.Values, opts specs.BuildOptions) (*model.System, Vars, error) {
	n, nt, m, kmax, r, cmax := p["n"], p["types"], p["M"], p["K"], p["requests"], p["Cmax"]
	var v Vars
	if kmax == 0 {
		kmax = m
	}
	if n < 2 || n > MaxN || nt < 1 || nt > MaxTypes || m < 1 || r < 1 || kmax < 1 || kmax > m {
		return nil, v, fmt.Errorf("raynal-and: need 2 ≤ n ≤ %d, 1 ≤ types ≤ %d, M ≥ 1, 1 ≤ K ≤ M, requests ≥ 1; got n=%d types=%d M=%d K=%d requests=%d",
			MaxN, MaxTypes, n, nt, m, kmax, r)
	}
	if cmax == 0 {
		cmax = 3 * r * nt
	}
	v.N, v.T, v.M, v.KMax, v.R, v.Clock = n, nt, m, kmax, r, n*r
	// Every vector in 0..K per type but the zero one, in lexicographic
	// order of (k(0), ..., k(T-1)).
	total := 1
	for range nt {
		total *= kmax + 1
	}
	for c := 1; c < total; c++ {
		d := make([]int, nt)
		x := c
		for a := nt - 1; a >= 0; a-- {
			d[a] = x % (kmax + 1)
			x /= kmax + 1
		}
		v.Demands = append(v.Demands, d)
	}

	b := model.NewBuilder("raynal-and", model.Complete, n)
	b.Daemon(opts.Daemon)
	v.H = b.Var("h", model.IntRange(0, v.Clock))
	v.MaxH = b.Var("maxh", model.IntRange(0, v.Clock))
	v.Reqs = b.Var("reqs", model.IntRange(0, r))
	v.Scdem = make([]model.VarID, nt)
	v.Ok = make([]model.VarID, nt)
	v.K = make([]model.VarID, nt)
	v.Used = make([][]model.VarID, nt)
	v.Delayed = make([][]model.VarID, nt)
	for a := 0; a < nt; a++ {
		t := "(" + strconv.Itoa(a) + ")"
		v.Scdem[a] = b.Var("scdem"+t, model.Bool())
		v.Ok[a] = b.Var("ok"+t, model.Bool())
		v.K[a] = b.Var("k"+t, model.IntRange(0, kmax))
		v.Used[a] = make([]model.VarID, n)
		v.Delayed[a] = make([]model.VarID, n)
		for j := 0; j < n; j++ {
			others := othersThan(n, j)
			v.Used[a][j] = b.Var("used"+t+"["+strconv.Itoa(j)+"]", model.IntRange(-r*m, r*m), others...)
			v.Delayed[a][j] = b.Var("delayed"+t+"["+strconv.Itoa(j)+"]", model.Bool(), others...)
		}
	}
	typeDom := model.IntRange(0, nt-1)
	v.Req = b.Message("req", model.Var{Name: "type", Domain: typeDom}, model.Var{Name: "h", Domain: model.IntRange(1, v.Clock)})
	v.Free = b.Message("free", model.Var{Name: "type", Domain: typeDom}, model.Var{Name: "y", Domain: model.IntRange(1, m)})
	overflow := model.Error
	if opts.Overflow != nil {
		overflow = *opts.Overflow
	}
	b.LinkChannels(cmax, overflow, v.Req, v.Free)

	a := &algo{Vars: v}
	b.Action(model.Action{
		Name:     "request",
		Kind:     model.Environment,
		Liveness: model.Optional,
		Choices:  len(v.Demands),
		ChoiceLabel: func(c int) string {
			parts := make([]string, nt)
			for x, k := range v.Demands[c] {
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
	for j := 0; j < n; j++ {
		j := j
		others := othersThan(n, j)
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

	b.Invariant(model.Predicate{
		Name: "units-allocated",
		Doc:  "for every type α, Σ k_i(α) over processes with ok_i(α) never exceeds M",
		Holds: func(s *model.State) bool {
			for x := 0; x < nt; x++ {
				if Allocated(v, s, x) > m {
					return false
				}
			}
			return true
		},
	})
	b.Invariant(model.Predicate{
		Name: "used-nonnegative",
		Doc:  "used_i(α)[j] ≥ 0 for every type α and i ≠ j (proposition P1)",
		Holds: func(s *model.State) bool {
			for x := 0; x < nt; x++ {
				for i := 0; i < n; i++ {
					for j := 0; j < n; j++ {
						if j != i && s.Get(i, v.Used[x][j]) < 0 {
							return false
						}
					}
				}
			}
			return true
		},
	})
	b.ValidEnd(model.Predicate{
		Name:  "all-requests-served",
		Doc:   "every process has made its R demands and is idle, and every channel is empty",
		Holds: func(s *model.State) bool { return AllServed(v, s) },
	})
	b.ProcessPredicate(model.ProcessPredicate{
		Name:  "requesting",
		Doc:   "some scdem_i(α): the process waits for resources",
		Holds: func(s *model.State, p int) bool { return Requesting(v, s, p) },
	})
	b.ProcessPredicate(model.ProcessPredicate{
		Name:  "inCS",
		Doc:   "the process has a demand and ok_i(α) for every type it names",
		Holds: func(s *model.State, p int) bool { return InCS(v, s, p) },
	})
	b.Initial(func(_ *model.System, s *model.State) {
		for x := 0; x < nt; x++ {
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					if j != i {
						s.Set(i, v.Used[x][j], 0)
					}
				}
			}
		}
	})
	sys, err := b.Build()
	return sys, v, err
}

func othersThan(n, j int) []int {
	out := make([]int, 0, n-1)
	for i := 0; i < n; i++ {
		if i != j {
			out = append(out, i)
		}
	}
	return out
}

// Allocated is the number of units of type x allocated in s: Σ k_i(x)
// over the processes with ok_i(x).
func Allocated(v Vars, s *model.State, x int) int {
	sum := 0
	for i := 0; i < v.N; i++ {
		if s.Get(i, v.Ok[x]) == 1 {
			sum += s.Get(i, v.K[x])
		}
	}
	return sum
}

// Requesting reports whether process p waits for some type.
func Requesting(v Vars, s *model.State, p int) bool {
	for x := 0; x < v.T; x++ {
		if s.Get(p, v.Scdem[x]) == 1 {
			return true
		}
	}
	return false
}

// InCS reports whether process p has a demand and every type it names
// granted.
func InCS(v Vars, s *model.State, p int) bool {
	named := false
	for x := 0; x < v.T; x++ {
		if s.Get(p, v.K[x]) > 0 {
			named = true
			if s.Get(p, v.Ok[x]) == 0 {
				return false
			}
		}
	}
	return named
}

// AllServed reports whether s is a valid end state.
func AllServed(v Vars, s *model.State) bool {
	for i := 0; i < v.N; i++ {
		if s.Get(i, v.Reqs) != v.R {
			return false
		}
		for x := 0; x < v.T; x++ {
			if s.Get(i, v.Scdem[x]) == 1 || s.Get(i, v.Ok[x]) == 1 {
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

type algo struct{ Vars }

// canRequest: idle (no type requested or granted) and requests left.
func (a *algo) canRequest(c *model.Ctx) bool {
	if c.Get(a.Reqs) >= a.R {
		return false
	}
	for x := 0; x < a.T; x++ {
		if c.Get(a.Scdem[x]) == 1 || c.Get(a.Ok[x]) == 1 {
			return false
		}
	}
	return true
}

// inCS: a demand whose every named type is granted.
func (a *algo) inCS(c *model.Ctx) bool {
	named := false
	for x := 0; x < a.T; x++ {
		if c.Get(a.K[x]) > 0 {
			named = true
			if c.Get(a.Ok[x]) == 0 {
				return false
			}
		}
	}
	return named
}

// request is §6's "when requesting resources".
func (a *algo) request(c *model.Ctx, choice int) {
	i := c.P
	d := a.Demands[choice]
	h := c.Get(a.MaxH) + 1
	c.Set(a.H, h)
	c.Set(a.Reqs, c.Get(a.Reqs)+1)
	for x := 0; x < a.T; x++ {
		c.Set(a.K[x], d[x])
		if d[x] == 0 {
			continue
		}
		c.Set(a.Scdem[x], 1)
		c.Set(a.Ok[x], 0)
		req := c.Msg(a.Req, x, h)
		for j := 0; j < a.N; j++ {
			if j != i {
				c.Set(a.Used[x][j], c.Get(a.Used[x][j])+a.M)
				c.Send(c.Out(j), req)
			}
		}
	}
}

// release is §3's "when releasing the resources" for every type; k_i(α)
// and h_i are then reset to 0.
func (a *algo) release(c *model.Ctx, _ int) {
	for x := 0; x < a.T; x++ {
		k := c.Get(a.K[x])
		c.Set(a.Ok[x], 0)
		for j := 0; j < a.N; j++ {
			if j != c.P && c.Get(a.Delayed[x][j]) == 1 {
				c.Send(c.Out(j), c.Msg(a.Free, x, k))
				c.Set(a.Delayed[x][j], 0)
			}
		}
		c.Set(a.K[x], 0)
	}
	c.Set(a.H, 0)
}

// receiveReq is §3's "when receiving req(h, j) from P_j" on the message's
// type's data.
func (a *algo) receiveReq(c *model.Ctx, j int) {
	i := c.P
	msg := c.Receive(c.In(j))
	x, h := c.Field(msg, 0), c.Field(msg, 1)
	if mh := c.Get(a.MaxH); h > mh {
		c.Set(a.MaxH, h)
	}
	hi := c.Get(a.H)
	prio := (c.Get(a.Scdem[x]) == 1 || c.Get(a.Ok[x]) == 1) && (hi < h || hi == h && i < j)
	out := c.Out(j)
	switch {
	case !prio:
		c.Send(out, c.Msg(a.Free, x, a.M))
	case c.Get(a.Delayed[x][j]) == 1: // (XX)
		c.Send(out, c.Msg(a.Free, x, a.M))
	default:
		if k := c.Get(a.K[x]); k != a.M {
			c.Send(out, c.Msg(a.Free, x, a.M-k))
		}
		c.Set(a.Delayed[x][j], 1)
	}
}

// receiveFree is §3's "when receiving free(y) from P_j" on the message's
// type's data.
func (a *algo) receiveFree(c *model.Ctx, j int) {
	i := c.P
	msg := c.Receive(c.In(j))
	x := c.Field(msg, 0)
	u := c.Get(a.Used[x][j]) - c.Field(msg, 1)
	c.Set(a.Used[x][j], u)
	if c.Get(a.Scdem[x]) == 0 {
		return
	}
	sum := u + c.Get(a.K[x])
	for y := 0; y < a.N; y++ {
		if y != i && y != j {
			sum += c.Get(a.Used[x][y])
		}
	}
	if sum <= a.M {
		c.Set(a.Scdem[x], 0)
		c.Set(a.Ok[x], 1)
	}
}
