// Package raynaland encodes the generalized AND-allocation of Raynal's
// k-out-of-M paper (M. Raynal, "A distributed solution to the k-out of-M
// resources allocation problem", INRIA RR-1342 / IRISA PI 559, 1990, seed
// 003), §6: several resource types R(1..T), M(α) identical units of type
// R(α), and a demand asks at once for k(α) units of each type, the process
// staying blocked until it has them all. The solution is §3's algorithm
// (specs/raynal, asked=0) run once per type, with one timestamp per demand
// shared by every type, "Giving a unique timestamp to each demand allow to
// solve all the conflicts in the same way whatever is (or are) the
// resource(s) concerned". The statements are written once, in
// specs/internal/raynalcore, shared with specs/raynal; this model is
// raynalcore's AND layout.
//
// With requests=0, demands recur for ever and the clocks are kept modulo
// W under the invariant clock-window, as in specs/raynal (whose package
// comment gives the argument and its limit): for n=2, types=2, M = 1 and
// 2, clock-window holds and the spec is deadlock- and starvation-free
// under weak fairness per action; for n=3, types=2, M=1 clock-window fails
// (17,683,320 states), so that instance is out of reach.
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

	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/internal/raynalcore"
)

// MaxN and MaxTypes bound the instances the spec builds.
const (
	MaxN     = 4
	MaxTypes = 3
)

// Spec returns the catalogue entry.
func Spec() *specs.Spec {
	claim := map[string]int{"n": 3, "types": 2, "M": 1, "K": 1, "requests": 1}
	recurring := map[string]int{"n": 2, "types": 2, "M": 2, "requests": 0}
	return &specs.Spec{
		Name:          "raynal-and",
		Summary:       "Raynal's generalized AND-allocation over several resource types (seed 003, §6), for at most R requests per process or, with requests=0, recurring demands",
		Source:        "M. Raynal, A distributed solution to the k-out of-M resources allocation problem, INRIA RR-1342 (IRISA PI 559), 1990, §6",
		Communication: "message-passing",
		Params: []specs.Param{
			{Name: "n", Default: 3, Min: 2, Max: MaxN, Doc: "number of processes (complete graph, one FIFO channel per ordered pair)"},
			{Name: "types", Default: 2, Min: 1, Max: MaxTypes, Doc: "number of resource types"},
			{Name: "M", Default: 1, Min: 1, Max: 3, Doc: "number of identical units of each type"},
			{Name: "K", Default: 0, Min: 0, Max: 3, Doc: "largest number of units of one type a demand asks for, K ≤ M (0: K = M); a demand asks for 0..K of each type, at least one unit in all"},
			{Name: "requests", Default: 1, Min: 0, Max: 3, Doc: "R ≥ 1: the number of demands each process makes, after which it stays idle for ever; every result holds for at most R requests per process, and timestamps range over 0..nR. 0: demands recur for ever (a process that leaves may demand again), with timestamps kept modulo 2·window+3 under the invariant clock-window (see the package comment)"},
			{Name: "window", Default: 0, Min: 0, Max: 30, Doc: "with requests=0, the largest spread of the live timestamps the modular clocks represent exactly, checked by the invariant clock-window (0: 2n)"},
			{Name: "Cmax", Default: 0, Min: 0, Max: 64, Doc: "channel capacity (0: 3R per type, so no send ever finds a channel full)"},
		},
		Invariants: []string{
			"units-allocated: for every type α, Σ k_i(α) over processes with ok_i(α) never exceeds M",
			"used-nonnegative: used_i(α)[j] ≥ 0 for every type and i ≠ j (proposition P1 per type)",
			"clock-window (requests=0): the live timestamps lie within window of each other, so the modular clocks compare as unbounded ones",
		},
		DefaultChecks: []string{"safety", "deadlock", "starvation"},
		Claims: []specs.Claim{
			{Property: "safety", Verdict: "holds", Params: claim, From: "init",
				Source: "§6: §3's algorithm per type, whose safety (§4.3) holds for each type"},
			{Property: "deadlock", Verdict: "holds", Params: claim, From: "init",
				Source: "§6: a unique timestamp per demand resolves every conflict the same way for all types, so no circular wait"},
			{Property: "starvation", Verdict: "holds", Params: claim, From: "init", Fairness: "weak",
				Source: "§6 with §4.5: every demand is satisfied within finite time; with at most R requests every execution is finite, so this says only that none ends waiting"},
			{Property: "starvation", Verdict: "holds", Params: recurring, From: "init", Fairness: "weak-action",
				Source: "§6 with §4.5, with demands recurring for ever and every message received in finite time"},
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
	// R is 0 and Clock W-1 with recurring demands (Recurring), whose
	// clocks are kept modulo W under the invariant clock-window, which
	// allows a spread of Window.
	R, Clock  int
	W, Window int
	Recurring bool
	// Demands lists the request alternatives: Demands[c][α] is k(α) of
	// choice c.
	Demands [][]int

	algo *raynalcore.Algo
}

// Build returns the model for parameters n, types, M, K, requests, Cmax.
func Build(p specs.Values) (*model.System, error) {
	sys, _, err := BuildVars(p)
	return sys, err
}

// BuildVars is Build, also returning the handles. The variables, actions
// and statements are specs/internal/raynalcore's, in §6's layout.
func BuildVars(p specs.Values) (*model.System, Vars, error) {
	n, nt, m, kmax, r, cmax, window := p["n"], p["types"], p["M"], p["K"], p["requests"], p["Cmax"], p["window"]
	var v Vars
	if kmax == 0 {
		kmax = m
	}
	if window == 0 {
		window = 2 * n
	}
	if n < 2 || n > MaxN || nt < 1 || nt > MaxTypes || m < 1 || r < 0 || kmax < 1 || kmax > m {
		return nil, v, fmt.Errorf("raynal-and: need 2 ≤ n ≤ %d, 1 ≤ types ≤ %d, M ≥ 1, 1 ≤ K ≤ M, requests ≥ 0; got n=%d types=%d M=%d K=%d requests=%d",
			MaxN, MaxTypes, n, nt, m, kmax, r)
	}
	b, a, err := raynalcore.Begin("raynal-and", raynalcore.Config{
		N: n, Types: nt, M: m, KMax: kmax, R: r, Cmax: cmax, AND: true,
		Recurring: r == 0, Window: window,
	})
	if err != nil {
		return nil, v, err
	}
	v = Vars{
		H: a.H, MaxH: a.MaxH, Reqs: a.Reqs,
		Req: a.Req, Free: a.Free,
		N: n, T: nt, M: m, KMax: kmax, R: a.R, Clock: a.Clock,
		W: a.W, Window: a.Window, Recurring: a.Recurring,
		Demands: a.Demands,
		algo:    a,
	}
	for _, t := range a.Types {
		v.Scdem = append(v.Scdem, t.Scdem)
		v.Ok = append(v.Ok, t.Ok)
		v.K = append(v.K, t.K)
		v.Used = append(v.Used, t.Used)
		v.Delayed = append(v.Delayed, t.Delayed)
	}
	a.AddPredicates(b, raynalcore.Docs{
		UnitsAllocated:  "for every type α, Σ k_i(α) over processes with ok_i(α) never exceeds M",
		UsedNonnegative: "used_i(α)[j] ≥ 0 for every type α and i ≠ j (proposition P1)",
		ValidEnd:        "every process has made its R demands and is idle, and every channel is empty",
		Requesting:      "some scdem_i(α): the process waits for resources",
		InCS:            "the process has a demand and ok_i(α) for every type it names",
	})
	sys, err := a.Build(b)
	return sys, v, err
}

// Allocated is the number of units of type x allocated in s: Σ k_i(x)
// over the processes with ok_i(x).
func Allocated(v Vars, s *model.State, x int) int { return v.algo.Allocated(s, x) }

// Requesting reports whether process p waits for some type.
func Requesting(v Vars, s *model.State, p int) bool { return v.algo.Requesting(s, p) }

// InCS reports whether process p has a demand and every type it names
// granted.
func InCS(v Vars, s *model.State, p int) bool { return v.algo.InCS(s, p) }

// AllServed reports whether s is a valid end state.
func AllServed(v Vars, s *model.State) bool { return v.algo.AllServed(s) }
