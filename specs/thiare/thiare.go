// Package thiare encodes the several-tokens mutual exclusion algorithm of
// O. Thiare, "Several-Tokens Distributed Mutual Exclusion Algorithm in a
// Logical Ring Network", section 4, Rules 1–4, for at most R
// requests per process.
//
// Every request generates its own token T_i^r = (SeqNum, PID, ResourceID,
// Resend) that travels once around a logical ring; the requester enters
// CS(r) when its own token comes back. Priorities are the paper's: "Pri
// (TokenID_1) is greater than Pri(TokenID_2) iff SN_1 < SN_2 or (SN_1 = SN_2
// and PID_1 < PID_2)". Each node has HSeqNumSeen (H), one priority queue
// Q_i^r per resource, and for each resource its state (idle, waiting: token
// generated and not yet back, cs) and the copy of its own token (seq).
//
// Topology: model.UniRing. Every send in Rules 1–4 goes to "the next node"
// of the logical ring and the paper says the token "must visit all the
// nodes before returning back to its originator" (N-1 messages per CS), so
// only successor links are used. Rule 5 (throwing a token over a dead node)
// is the only place needing a fully connected network, and it is about node
// failures, which are not modelled. Of "clockwise and anticlockwise" the
// model takes one direction, i → i+1 mod n. Channels are FIFO, as the
// paper's network model says.
//
// Actions of node i, for each resource r (atomic, interleaving; the suffix
// [r] of names is left out when resources = 1); on every receipt
// H := max(H, SN) first (section 3: "When a token is received, HSeqNumSeen
// is updated"):
//
//	request[r]  environment, optional  used < R ∧ state[r] = idle → H := H+1; seq[r] := H;
//	                                    state[r] := waiting; send (H, i, r, 0)   (Rule 1, relation (4))
//	enter       head = own token for r ∧ state[r] = waiting → state[r] := cs      (Rule 3)
//	stale       head = own token for r ∧ state[r] ≠ waiting → delete it           (choice, below)
//	discard     head.Resend = 1 ∧ a token of head.PID is in Q_i^r → delete it     (Rule 4)
//	pass        state[r] = idle → SN := H (replace=1); send on                     (Rule 2, bullet 1)
//	queue       state[r] = cs, or state[r] = waiting ∧ Pri(head) < Pri(own) → into Q_i^r
//	forward     state[r] = waiting ∧ Pri(head) > Pri(own) → send on unchanged     (Rule 2, bullet 3)
//	leave[r]    environment, finite    state[r] = cs → send Q_i^r in decreasing priority,
//	                                    empty it; state[r] := idle                 (Rule 3)
//	timeout[r]  timeout (resend=1)     state[r] = waiting ∧ not yet resent ∧ no token of i
//	                                    for r in any channel → send (seq[r], i, r, 1) (Rule 4)
//
// Choices the paper leaves open, pinned by tests:
//
//   - Own-token recognition is by originator and resource, not by SeqNum:
//     Rule 3 reads "if the node N_i receives T_i^r", and T_i^r "represents
//     the token generated from node N_i for resource r". Recognising it by
//     (SeqNum, PID) cannot be meant, since Rule 2 rewrites SeqNum on the way
//     and the token would then never be recognised.
//   - Rule 2, bullet 1 is encoded AS WRITTEN (parameter replace=1): "if N_j
//     has no intention to enter the CS(r), it replaces the sequence number by
//     HSeqNumSeen and simply passes the token to the next node". H is
//     updated with the token's SN first, so the new SN is max(H, SN): a
//     token's SN can only grow in transit, while its originator compares
//     incoming tokens against its own copy, which keeps the original SN
//     (Rule 1: "makes a copy of the token in its node"). replace=0 leaves SN
//     unchanged, for comparison; it is not the paper.
//   - Rule 2, bullet 3: "If Pri(T_i^r) < Pri(T^r), it passes the token to the
//     next node; otherwise it puts the token in Q_i^r". Its indices are
//     garbled (the receiver is N_j, the queue Q_i^r); read with relation (6),
//     "Forward the Token ... if Pri(received Token) ≥ Pri(N_i's Token)": the
//     waiting node forwards a token of higher priority than its own copy and
//     queues one of lower priority. Ties cannot happen (PIDs differ).
//   - A token's Resend field is kept when it is passed, forwarded, queued and
//     released; only the originator's timeout sets it.
//   - Rule 4's duplicate test, "a simple query in the request queues is
//     executed to find that token. If it is not found, the token is added in
//     the request queue, otherwise it is simply discarded", is read as: a
//     token with Resend = 1 is deleted if Q_i^r already holds a token of the
//     same originator (the same T_j^r), and otherwise handled as any token
//     by Rules 2 and 3 (queued only where Rule 2 queues). Adding it to the
//     queue of an idle node, literally, would park it for ever, since queues
//     are released only on leaving a CS. Tokens with Resend = 0 are never
//     tested for duplicates (the paper tests only Resend = 1).
//   - A node receiving its own token for r when it is not waiting for r (a
//     duplicate that Rule 4 created and the first copy already served)
//     deletes it, as Rule 3 "deletes the associated copy and original
//     token". Passing it on by Rule 2 would make it circulate for ever.
//   - Rule 4's timeout is a model.Timeout action whose global guard is "i
//     waits for r, has not resent this request's token, and no token of i
//     for r is in any channel": the token is held in some node's queue, the
//     situation the paper's timer cannot tell from "held by some other dead
//     node". Each request is resent at most once, with its original SN, so
//     the timeout is enabled only when resend=1. Nodes never fail and
//     messages are never lost (Rule 5: "we assume ... that tokens are never
//     lost"), so resend=0, where the timeout never fires, is the paper's
//     failure-free setting and the default.
//   - Leaving CS(r) sends every token of Q_i^r to the successor in one
//     atomic step, highest priority first ("it releases the tokens to the
//     next node sequentially"), and deletes the node's copy.
//   - Bounds. Each process makes at most R requests (parameter requests);
//     afterwards it stays idle and only relays. Every SeqNum ever created or
//     written is at most the number of requests made so far (H+1 on a
//     request, max or H elsewhere), so SeqNum and H range over 0..n·R and
//     the bound never truncates anything. At most n·R·(1+resend) tokens are
//     ever created, which bounds the queue slots ((n-1)·R·(1+resend) per
//     resource) and the default channel capacity (n·R·(1+resend)): no send
//     ever blocks and no queue ever overflows (an overflow would be reported
//     as a fault of the spec). Queues are kept sorted, so equal queues are
//     equal states.
//   - Resources. "Nodes may compete for multiple resource type at the same
//     time": parameter resources (default 1); a node may wait for, or be in,
//     several CS(r) at once; its R requests are shared among resources; one
//     H serves all resources. Mutual exclusion is at node level (the
//     paper's processes of one node are one model process).
//   - Requests are environment actions (model.Optional), leaving a CS is
//     model.Finite. "requesting" is state[0] = waiting and "inCS" is
//     state[0] = cs: starvation is checked for resource 0, which stands for
//     every resource since they are symmetric.
//   - A configuration is a valid end state iff every process has used up its
//     R requests and is idle for every resource, and no token is in transit.
//     Any other configuration with no enabled step is a deadlock.
//   - The initial configuration has every node idle, H = 0, used = 0 and
//     every channel empty.
//
// The paper claims safety (Theorem 4.1), and deadlock and starvation freedom
// (Theorem 4.2). What the checker decides, from init, exhaustively, under
// weak fairness (the tests pin these verdicts and state counts, except
// n=4 with R=3: 646,582 states, about 16 s for the three properties):
//
//   - All three hold for n=2 and n=3 with R ≤ 3, n=4 with R ≤ 3, n=3 with
//     two resources and R=1, and, with Rule 4, n=3 with R=1 (n=4 with R=1
//     too: 131,307 states, not in the tests).
//   - Rule 2 as written deadlocks n=5 nodes with one request each (17
//     steps): node 3, idle with H=2, raises T_0 = (1,0) to (2,0); node 4,
//     waiting with its own (1,4), then queues (2,0) as of lower priority,
//     while node 0, waiting with (1,0), queues (1,4): each holds the other's
//     token for ever, and every node starves. With replace=0 the same
//     instance satisfies all three properties (TestRule2Deadlock).
//   - Rule 4 breaks safety for n=3 with R=2 (19 steps): a resent duplicate
//     of a node's token outlives the request it was sent for and, by Rule 3,
//     lets the node enter its CS during its next request while another node
//     is in its CS (TestRule4StaleTokenBreaksSafety).
package thiare

import (
	"fmt"
	"strconv"

	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
)

// The per-resource states of a node.
const (
	Idle    = 0
	Waiting = 1
	InCS    = 2
)

// Token fields, in declaration order.
const (
	FieldSeq = iota
	FieldPID
	FieldRes
	FieldResend
)

// Spec returns the catalogue entry.
func Spec() *specs.Spec {
	n3 := map[string]int{"n": 3}
	return &specs.Spec{
		Name:          "thiare",
		Summary:       "several-tokens mutual exclusion on a logical ring (seed 002), Rules 1–4, for at most R requests per process",
		Source:        "O. Thiare, Several-Tokens Distributed Mutual Exclusion Algorithm in a Logical Ring Network, §3 (token, SeqNum, HSeqNumSeen, priorities) and §4 (Rules 1–4, Theorems 4.1 and 4.2)",
		Communication: "message-passing",
		Params: []specs.Param{
			{Name: "n", Default: 3, Min: 2, Max: 5, Doc: "number of nodes on the logical ring"},
			{Name: "requests", Default: 2, Min: 1, Max: 3, Doc: "R: at most R requests per process, after which it stays idle; SeqNum and HSeqNumSeen range over 0..n·R"},
			{Name: "resources", Default: 1, Min: 1, Max: 2, Doc: "number of resource types (one queue and one mutual exclusion per resource)"},
			{Name: "resend", Default: 0, Min: 0, Max: 1, Doc: "1: Rule 4, a waiting node whose token is held in a queue may time out and resend it once with Resend = 1 (0: no timeout, the failure-free setting)"},
			{Name: "replace", Default: 1, Min: 0, Max: 1, Doc: "1: Rule 2 as written, a node with no intention replaces the token's SeqNum by HSeqNumSeen; 0: it leaves SeqNum unchanged (not the paper)"},
			{Name: "Cmax", Default: 0, Min: 0, Max: 64, Doc: "channel capacity (0: n·R·(1+resend), every token that can exist, so no send ever blocks)"},
		},
		Invariants: []string{
			"mutex: for every resource r, at most one node is in CS(r)",
		},
		DefaultChecks: []string{"safety", "deadlock", "starvation"},
		Claims: []specs.Claim{
			{Property: "safety", Verdict: "holds", Params: n3, From: "init",
				Source: "Theorem 4.1 (safety and fairness): at most one node executes CS(r) at a time"},
			{Property: "deadlock", Verdict: "holds", Params: n3, From: "init",
				Source: "Theorem 4.2: \"the proposed algorithm is deadlock free\""},
			{Property: "starvation", Verdict: "holds", Params: n3, From: "init", Fairness: "weak",
				Source: "Theorem 4.2 (liveness): each requesting node obtains the CS in finite time"},
			{Property: "deadlock", Verdict: "holds", Params: map[string]int{"n": 5, "requests": 1}, From: "init", Found: "violated",
				Source: "Theorem 4.2: \"the proposed algorithm is deadlock free\" (Rule 2 as written: an idle node raises a token's SeqNum)"},
			{Property: "safety", Verdict: "holds", Params: map[string]int{"n": 3, "requests": 2, "resend": 1}, From: "init", Found: "violated",
				Source: "Theorem 4.1 with Rule 4: a resent token whose duplicate is discarded keeps mutual exclusion"},
		},
		Build: Build,
	}
}

// Vars are the handles of a built thiare system, for tests and predicates.
// Slices are indexed by resource.
type Vars struct {
	// State[r] is idle, waiting or cs for resource r.
	State []model.VarID
	// Seq[r] is the SeqNum of the node's copy of its own token (0: none).
	Seq []model.VarID
	// Resent[r] is whether the current request's token was resent (Rule 4);
	// declared only when resend = 1.
	Resent []model.VarID
	// Queue[r][k] is slot k of Q^r: 0 empty, else a token code (see Code),
	// labelled "(SN,PID)" or "(SN,PID)R" (Resend = 1) in traces; slots are
	// sorted by decreasing priority, empty slots last.
	Queue [][]model.VarID
	// H is HSeqNumSeen; Used counts the requests made.
	H, Used model.VarID
	// Token is the only message type: fields seq, pid, res, resend.
	Token model.MsgType
	// N, S (largest SeqNum, n·R), F (1+resend) size the token codes.
	N, S, F int
}

// Code is the queue code of token (seq, pid, resend): 1 + ((seq-1)·n +
// pid)·F + resend. Codes increase as priority decreases.
func (v Vars) Code(seq, pid, resend int) int { return 1 + ((seq-1)*v.N+pid)*v.F + resend }

// Decode is the inverse of Code.
func (v Vars) Decode(code int) (seq, pid, resend int) {
	c := code - 1
	resend = c % v.F
	c /= v.F
	return c/v.N + 1, c % v.N, resend
}

// Higher reports whether token (s1, p1) has a higher priority than (s2, p2):
// SN_1 < SN_2 or (SN_1 = SN_2 and PID_1 < PID_2).
func Higher(s1, p1, s2, p2 int) bool { return s1 < s2 || (s1 == s2 && p1 < p2) }

// Build returns the model for parameters n, requests, resources, resend,
// replace and Cmax.
func Build(p specs.Values) (*model.System, error) {
	sys, _, err := BuildVars(p)
	return sys, err
}

// The receipt cases: what node P does with the head of its incoming channel.
const (
	caseNone = iota
	caseEnter
	caseStale
	caseDiscard
	casePass
	caseQueue
	caseForward
)

// BuildVars is Build, also returning the handles.
func BuildVars(p specs.Values) (*model.System, Vars, error) {
	n, rq, nres, resend, replace, cmax := p["n"], p["requests"], p["resources"], p["resend"], p["replace"], p["Cmax"]
	var v Vars
	if n < 2 || rq < 1 || nres < 1 || resend < 0 || resend > 1 || replace < 0 || replace > 1 {
		return nil, v, fmt.Errorf("thiare: need n ≥ 2, requests ≥ 1, resources ≥ 1, resend and replace in 0..1; got %v", p)
	}
	s := n * rq
	f := 1 + resend
	tokens := n * rq * f
	if cmax == 0 {
		cmax = min(tokens, 255)
	}
	qcap := (n - 1) * rq * f
	v.N, v.S, v.F = n, s, f

	b := model.NewBuilder("thiare", model.UniRing, n)
	sfx := func(r int) string {
		if nres == 1 {
			return ""
		}
		return "[" + strconv.Itoa(r) + "]"
	}
	v.H = b.Var("H", model.IntRange(0, s))
	v.Used = b.Var("used", model.IntRange(0, rq))
	v.State = make([]model.VarID, nres)
	v.Seq = make([]model.VarID, nres)
	v.Queue = make([][]model.VarID, nres)
	if resend == 1 {
		v.Resent = make([]model.VarID, nres)
	}
	// Queue slots are enumerations, so that traces show tokens: "-" for an
	// empty slot, "(SN,PID)" for a token, "(SN,PID)R" if Resend = 1.
	labels := make([]string, v.Code(s, n-1, f-1)+1)
	labels[0] = "-"
	for code := 1; code < len(labels); code++ {
		sn, pid, rs := v.Decode(code)
		labels[code] = "(" + strconv.Itoa(sn) + "," + strconv.Itoa(pid) + ")"
		if rs == 1 {
			labels[code] += "R"
		}
	}
	for r := range nres {
		v.State[r] = b.Var("state"+sfx(r), model.Enum("idle", "waiting", "cs"))
		v.Seq[r] = b.Var("seq"+sfx(r), model.IntRange(0, s))
		if resend == 1 {
			v.Resent[r] = b.Var("resent"+sfx(r), model.Bool())
		}
		v.Queue[r] = make([]model.VarID, qcap)
		for k := range qcap {
			v.Queue[r][k] = b.Var("q"+sfx(r)+strconv.Itoa(k), model.Enum(labels...))
		}
	}
	v.Token = b.Message("Token",
		model.Var{Name: "seq", Domain: model.IntRange(1, s)},
		model.Var{Name: "pid", Domain: model.IntRange(0, n-1)},
		model.Var{Name: "res", Domain: model.IntRange(0, nres-1)},
		model.Var{Name: "resend", Domain: model.IntRange(0, resend)},
	)
	b.LinkChannels(cmax, model.Block, v.Token)

	hv, used, state, seq, queue, token := v.H, v.Used, v.State, v.Seq, v.Queue, v.Token
	vv := v

	// classify says what node c.P does with the head of its incoming channel.
	classify := func(c *model.Ctx) int {
		m, ok := c.Head(c.In(c.Pred()))
		if !ok {
			return caseNone
		}
		sn, pid, r, rs := c.Field(m, FieldSeq), c.Field(m, FieldPID), c.Field(m, FieldRes), c.Field(m, FieldResend)
		st := c.Get(state[r])
		if pid == c.P {
			if st == Waiting {
				return caseEnter
			}
			return caseStale
		}
		if rs == 1 {
			for _, slot := range queue[r] {
				code := c.Get(slot)
				if code == 0 {
					break
				}
				if _, qp, _ := vv.Decode(code); qp == pid {
					return caseDiscard
				}
			}
		}
		switch st {
		case Idle:
			return casePass
		case InCS:
			return caseQueue
		}
		if Higher(sn, pid, c.Get(seq[r]), c.P) {
			return caseForward
		}
		return caseQueue
	}
	// receive takes the head token and updates H := max(H, SN); it returns
	// the token's fields and the new H.
	receive := func(c *model.Ctx) (sn, pid, r, rs, h int) {
		m := c.Receive(c.In(c.Pred()))
		sn, pid, r, rs = c.Field(m, FieldSeq), c.Field(m, FieldPID), c.Field(m, FieldRes), c.Field(m, FieldResend)
		h = max(c.Get(hv), sn)
		c.Set(hv, h)
		return
	}

	for r := range nres {
		b.Action(model.Action{
			Name:     "request" + sfx(r),
			Kind:     model.Environment,
			Liveness: model.Optional,
			Guard:    func(c *model.Ctx) bool { return c.Get(used) < rq && c.Get(state[r]) == Idle },
			Effect: func(c *model.Ctx, _ int) {
				h := c.Get(hv) + 1
				c.Set(hv, h)
				c.Set(used, c.Get(used)+1)
				c.Set(state[r], Waiting)
				c.Set(seq[r], h)
				if resend == 1 {
					c.Set(vv.Resent[r], 0)
				}
				c.Send(c.Out(c.Succ()), c.Msg(token, h, c.P, r, 0))
			},
		})
	}
	b.Action(model.Action{
		Name:  "enter",
		Guard: func(c *model.Ctx) bool { return classify(c) == caseEnter },
		Effect: func(c *model.Ctx, _ int) {
			_, _, r, _, _ := receive(c)
			c.Set(state[r], InCS)
		},
	})
	b.Action(model.Action{
		Name:   "stale",
		Guard:  func(c *model.Ctx) bool { return classify(c) == caseStale },
		Effect: func(c *model.Ctx, _ int) { receive(c) },
	})
	b.Action(model.Action{
		Name:   "discard",
		Guard:  func(c *model.Ctx) bool { return classify(c) == caseDiscard },
		Effect: func(c *model.Ctx, _ int) { receive(c) },
	})
	b.Action(model.Action{
		Name:  "pass",
		Guard: func(c *model.Ctx) bool { return classify(c) == casePass },
		Effect: func(c *model.Ctx, _ int) {
			sn, pid, r, rs, h := receive(c)
			if replace == 1 {
				sn = h
			}
			c.Send(c.Out(c.Succ()), c.Msg(token, sn, pid, r, rs))
		},
	})
	b.Action(model.Action{
		Name:  "queue",
		Guard: func(c *model.Ctx) bool { return classify(c) == caseQueue },
		Effect: func(c *model.Ctx, _ int) {
			sn, pid, r, rs, _ := receive(c)
			// Insertion into the sorted slots.
			code := vv.Code(sn, pid, rs)
			slots := queue[r]
			for _, slot := range slots {
				cur := c.Get(slot)
				if cur == 0 {
					c.Set(slot, code)
					return
				}
				if code < cur {
					c.Set(slot, code)
					code = cur
				}
			}
			// No free slot: impossible with the computed capacity; report it
			// as a fault of the spec rather than lose a token.
			c.Set(slots[len(slots)-1], -1)
		},
	})
	b.Action(model.Action{
		Name:  "forward",
		Guard: func(c *model.Ctx) bool { return classify(c) == caseForward },
		Effect: func(c *model.Ctx, _ int) {
			sn, pid, r, rs, _ := receive(c)
			c.Send(c.Out(c.Succ()), c.Msg(token, sn, pid, r, rs))
		},
	})
	for r := range nres {
		b.Action(model.Action{
			Name:     "leave" + sfx(r),
			Kind:     model.Environment,
			Liveness: model.Finite,
			Guard:    func(c *model.Ctx) bool { return c.Get(state[r]) == InCS },
			Effect: func(c *model.Ctx, _ int) {
				out := c.Out(c.Succ())
				for _, slot := range queue[r] {
					code := c.Get(slot)
					if code == 0 {
						break
					}
					qs, qp, qr := vv.Decode(code)
					c.Send(out, c.Msg(token, qs, qp, r, qr))
					c.Set(slot, 0)
				}
				c.Set(state[r], Idle)
				c.Set(seq[r], 0)
				if resend == 1 {
					c.Set(vv.Resent[r], 0)
				}
			},
		})
	}
	if resend == 1 {
		resent := v.Resent
		for r := range nres {
			b.Action(model.Action{
				Name: "timeout" + sfx(r),
				Kind: model.Timeout,
				Guard: func(c *model.Ctx) bool {
					if c.Get(state[r]) != Waiting || c.Get(resent[r]) != 0 {
						return false
					}
					return !inTransit(c, c.P, r)
				},
				Effect: func(c *model.Ctx, _ int) {
					c.Set(resent[r], 1)
					c.Send(c.Out(c.Succ()), c.Msg(token, c.Get(seq[r]), c.P, r, 1))
				},
			})
		}
	}

	b.Invariant(model.Predicate{
		Name: "mutex",
		Doc:  "for every resource r, at most one node is in CS(r)",
		Holds: func(st *model.State) bool {
			for r := range nres {
				in := 0
				for q := range n {
					if st.Get(q, state[r]) == InCS {
						in++
					}
				}
				if in > 1 {
					return false
				}
			}
			return true
		},
	})
	b.ValidEnd(model.Predicate{
		Name: "all-served",
		Doc:  "every node has made its R requests and is idle for every resource, and no token is in transit",
		Holds: func(st *model.State) bool {
			for q := range n {
				if st.Get(q, used) != rq {
					return false
				}
				for r := range nres {
					if st.Get(q, state[r]) != Idle {
						return false
					}
				}
			}
			for c := range st.Lens {
				if st.Lens[c] != 0 {
					return false
				}
			}
			return true
		},
	})
	b.ProcessPredicate(model.ProcessPredicate{
		Name:  "requesting",
		Doc:   "the node waits for its token for resource 0 (state[0] = waiting)",
		Holds: func(st *model.State, q int) bool { return st.Get(q, state[0]) == Waiting },
	})
	b.ProcessPredicate(model.ProcessPredicate{
		Name:  "inCS",
		Doc:   "the node is in CS(0) (state[0] = cs)",
		Holds: func(st *model.State, q int) bool { return st.Get(q, state[0]) == InCS },
	})
	b.Initial(func(*model.System, *model.State) {})
	sys, err := b.Build()
	if err != nil {
		return nil, v, err
	}
	return sys, v, nil
}

// inTransit reports whether a token of node p for resource r is in some
// channel of the configuration c's guard reads.
func inTransit(c *model.Ctx, p, r int) bool {
	st := c.Config()
	for ch := range st.Lens {
		for i := 0; i < int(st.Lens[ch]); i++ {
			m := st.At(model.ChanID(ch), i)
			if c.Field(m, FieldPID) == p && c.Field(m, FieldRes) == r {
				return true
			}
		}
	}
	return false
}
