package lejeune

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/internal/modclock"
)

// Spec returns the Go spec lejeune: the twin of specs/ring/lejeune.ring,
// which the catalogue serves, that specs/ring's twin tests and benchmarks
// compare the file with.
func Spec() *specs.Spec {
	small := map[string]int{"N": 3, "M": 2, "requests": 1, "loan": 0, "strict": 1}
	small1 := map[string]int{"N": 3, "M": 2, "requests": 1, "loan": 1, "strict": 1}
	return &specs.Spec{
		Name:          "lejeune",
		Summary:       "multi-resource allocation with a counter and a prioritized token tree per resource, and optional loans (seed 004), for at most R requests per process, or recurring (N=2, M=1: ids and counters modulo a window); a request can get two counter values (N=3) and lose a token (N=4)",
		Source:        "Lejeune, Arantes, Sopena, Sens, Reducing synchronization cost in distributed multi-resource allocation problem, Inria RR-8689, 2015: §3–4, Annex A (Figures 8–12), claims of Annex B",
		Communication: "message-passing",
		Params: []specs.Param{
			{Name: "N", Default: 3, Min: 2, Max: maxN, Doc: "number of processes (complete graph, FIFO channel per ordered pair); process 0 is the elected node that starts with every token"},
			{Name: "M", Default: 2, Min: 1, Max: maxM, Doc: "number of resources, one token (and counter) each; a request is any non-empty subset"},
			{Name: "requests", Default: 1, Min: 0, Max: 2, Doc: "R: requests per process; after R requests a process stays idle for ever (every result holds for at most R requests per process); counters are bounded by 1+2N·R. 0: recurring requests (M=1 only; N=2 only: with N ≥ 3 compared marks lie arbitrarily far apart): an idle process may always request again, request ids and counters are kept modulo W = 2·window+3, and the abstraction invariants id-window (the live ids of each site lie within window of each other) and marks-unordered (no step compares two marks) make the model the unbounded algorithm's where they hold"},
			{Name: "window", Default: 0, Min: 0, Max: modclock.MaxWindow, Doc: "with requests=0: the largest spread of the live request ids of one site that the invariant id-window allows (0: N); ids and counters are kept modulo W = 2·window+3; ignored when requests ≥ 1"},
			{Name: "loan", Default: 0, Min: 0, Max: maxM - 1, Doc: "loan threshold (line 251: a waiting process asks a loan when exactly this many resources are missing); 0 = loan mechanism off"},
			{Name: "strict", Default: 1, Min: 0, Max: 1, Doc: "1: safety also checks the pseudo-code invariant (no error flag: duplicate counter, self-send, SendToken without the token, processCntNeededEmpty outside waitS, two requests of one site in one queue); 0: only exclusion, one-token and counter-bound (with requests=0, id-window and marks-unordered, which still requires no error flag)"},
			{Name: "Cmax", Default: 0, Min: 0, Max: 64, Doc: "channel capacity in messages (0: 4+2N·M); a send to a full channel is an error (safety violation)"},
			{Name: "line260", Default: 0, Min: 0, Max: 1, Doc: "a reading of lines 260–261 (Counter received): 0, literally: tokDir[r] ← sender for the Counter's resource even when the process holds its token, and processCntNeededEmpty in any state; 1, within their stated preconditions: tokDir[r] ← sender only for a resource still in CntNeeded whose token the process does not hold, and processCntNeededEmpty only in waitS (line 111)"},
		},
		Invariants: []string{
			"exclusion: no two processes in their critical section request a common resource (Theorem 1)",
			"one-token: every resource has exactly one token, held (tokDir = nil) or in transit (Lemmas 1–3)",
			"counter-bound (requests ≥ 1): every counter is at most 1+2N·R (each of the N·R requests takes at most two values of a counter: one from the token, one from a Counter message)",
			"id-window (requests=0, abstraction): the live request ids of each site lie within window of each other, so that ids kept modulo W compare as unbounded ones",
			"marks-unordered (requests=0, abstraction): no error flag, no process in waitCS holds a token, at most one request queued or pending per token, so that no step compares two marks and counters kept modulo W behave as unbounded ones",
			"pseudo-code (strict=1): no error flag — a second counter value for one request (§4.2.1 says lastReqC prevents it), two requests of one site in one queue (excluded by Lemma 4's proof), processCntNeededEmpty outside waitS (line 111), SendToken without the token (line 104), a send to oneself",
		},
		DefaultChecks: []string{"safety", "deadlock", "starvation"},
		Claims: []specs.Claim{
			{Property: "safety", Verdict: "holds", Params: small, From: "init", Found: "violated", Source: "Annex B, Theorem 1 (Safety); with strict=1 also §4.2.1 (one counter value per request) and Lemma 4"},
			{Property: "deadlock", Verdict: "holds", Params: small, From: "init", Source: "Annex B, Theorem 2 (deadlock free)"},
			{Property: "starvation", Verdict: "holds", Params: small, From: "init", Fairness: "weak", Source: "Annex B, Theorem 3 (Liveness): waitS ⇒ eventually inCS; with at most R requests every execution is finite, so this says only that none ends waiting"},
			{Property: "safety", Verdict: "holds", Params: small1, From: "init", Found: "violated", Source: "Annex B, Theorem 1, with the loan mechanism (§3.4, §4.5)"},
			{Property: "deadlock", Verdict: "holds", Params: small1, From: "init", Source: "Annex B, Theorem 2 and §3.4.2 (loans to a single site avoid deadlock)"},
			{Property: "starvation", Verdict: "holds", Params: small1, From: "init", Fairness: "weak", Source: "Annex B, Theorem 3 and Lemma 10 (lent tokens come back); with at most R requests every execution is finite, so this says only that none ends waiting"},
		},
		Build: Build,
	}
}

// Vars are the handles of a built lejeune system: every variable (indexed
// [r] or [r][s] for resource r and site s), the message types, and the
// derived constants.
type Vars struct {
	N, M, R, Loan int
	// Guarded260 reads lines 260–261 within their preconditions
	// (line260=1).
	Guarded260 bool
	// C = 1+2N·R bounds every counter (see the package comment).
	C int
	// L = lcm(1..M): a mark is stored as L·A(MyVector), an integer.
	L int
	// Recurring (requests=0): an idle process may always request again;
	// request ids and counters are residues modulo Ring.W, kept in
	// 1..Ring.W (Ring.W stands for 0), 0 being "none" as with R bounded.
	Recurring bool
	Ring      modclock.Ring
	// sys is the built system, whose message fields Spread reads.
	sys *model.System

	St, Req, CntNeeded, CurID, TLent, LoanAsked, Err model.VarID
	// TokDir[r] is a site or N (nil: the process holds token r).
	TokDir, Vec, Cnt, Lender [maxM]model.VarID
	LastReqC, LastCS         [maxM][maxN]model.VarID
	WqID, WqMark             [maxM][maxN]model.VarID
	WlID, WlMark, WlMiss     [maxM][maxN]model.VarID
	PcID                     [maxM][maxN]model.VarID
	PrID, PrMark             [maxM][maxN]model.VarID
	PlID, PlMark, PlMiss     [maxM][maxN]model.VarID

	ReqCnt, ReqRes, ReqLoan, Counter, Token, TokQ, TokL model.MsgType
	// Types are the message types in declaration order.
	Types []model.MsgType
}

// Build returns the model for parameters N, M, requests, window, loan,
// strict, Cmax and line260.
func Build(p specs.Values) (*model.System, error) {
	sys, _, err := BuildVars(p)
	return sys, err
}

func lcm(m int) int {
	l := 1
	for k := 2; k <= m; k++ {
		a, b := l, k
		for b != 0 {
			a, b = b, a%b
		}
		l = l * k / a
	}
	return l
}

func setLabel(mask, m int) string {
	var parts []string
	for r := 0; r < m; r++ {
		if mask&(1<<r) != 0 {
			parts = append(parts, "r"+strconv.Itoa(r))
		}
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// BuildVars is Build, also returning the handles.
func BuildVars(p specs.Values) (*model.System, *Vars, error) {
	n, m, r, loan, cmax := p["N"], p["M"], p["requests"], p["loan"], p["Cmax"]
	if n < 2 || n > maxN || m < 1 || m > maxM || r < 0 {
		return nil, nil, fmt.Errorf("lejeune: need 2 ≤ N ≤ %d, 1 ≤ M ≤ %d, requests ≥ 0; got N=%d M=%d requests=%d", maxN, maxM, n, m, r)
	}
	if loan < 0 || loan >= m && loan != 0 {
		return nil, nil, fmt.Errorf("lejeune: loan threshold %d is outside 0..M-1 = 0..%d", loan, m-1)
	}
	if cmax == 0 {
		cmax = 4 + 2*n*m
	}
	v := &Vars{N: n, M: m, R: r, Loan: loan, C: 1 + 2*n*r, L: lcm(m), Guarded260: p["line260"] == 1, Recurring: r == 0}
	// idTop and cntTop are the largest request id and counter value.
	idTop, cntTop := r, v.C+1
	if v.Recurring {
		if m != 1 {
			return nil, nil, fmt.Errorf("lejeune: recurring requests (requests=0) need M=1, got M=%d: a mark averages the counters of several resources, which drift apart without bound, so no modulus keeps the marks' order (see the package comment)", m)
		}
		if n != 2 {
			return nil, nil, fmt.Errorf("lejeune: recurring requests (requests=0) need N=2, got N=%d: with N ≥ 3 a holder compares two queued requests by their marks, which lie arbitrarily far apart, so no modulus keeps their order (and a Token's values would exceed the model's 2^20; see the package comment)", n)
		}
		window := p["window"]
		if window == 0 {
			window = n
		}
		ring, err := modclock.New(window)
		if err != nil {
			return nil, nil, fmt.Errorf("lejeune: recurring requests need %w", err)
		}
		v.Ring, v.C = ring, 0
		idTop, cntTop = ring.W, ring.W
	}
	// A Token header carries lastReqC and lastCS for every site: its
	// values must fit the model's 2^20 per message type.
	size := 2 * m * cntTop * (n + 1)
	for i := 0; i < 2*n; i++ {
		size *= idTop + 1
	}
	if size > 1<<20 {
		return nil, nil, fmt.Errorf("lejeune: N=%d with %d request ids and %d counter values gives a Token message of %d values, more than the model's 2^20 (it carries lastReqC and lastCS for every site)", n, idTop, cntTop, size)
	}
	b := model.NewBuilder("lejeune", model.Complete, n)

	sites := make([]string, n+1)
	for s := 0; s < n; s++ {
		sites[s] = strconv.Itoa(s)
	}
	sites[n] = "nil"
	siteOrNil := model.Enum(sites...)
	sets := model.IntRange(0, 1<<m-1)
	ids := model.IntRange(0, idTop)
	vals := model.IntRange(0, cntTop)
	counters := model.IntRange(1, cntTop)
	marks := model.IntRange(0, v.L*cntTop)

	v.St = b.Var("state", model.Enum("Idle", "waitS", "waitCS", "inCS"))
	v.Req = b.Var("TRequired", sets)
	v.CntNeeded = b.Var("CntNeeded", sets)
	v.CurID = b.Var("curId", ids)
	v.TLent = b.Var("TLent", sets)
	v.LoanAsked = b.Var("loanAsked", model.Bool())
	v.Err = b.Var("err", model.Enum(errLabels...))
	for x := 0; x < m; x++ {
		rs := fmt.Sprintf("[%d]", x)
		v.TokDir[x] = b.Var("tokDir"+rs, siteOrNil)
		v.Vec[x] = b.Var("MyVector"+rs, vals)
		v.Cnt[x] = b.Var("lastTok"+rs+".counter", counters)
		v.Lender[x] = b.Var("lastTok"+rs+".lender", siteOrNil)
		for s := 0; s < n; s++ {
			ss := fmt.Sprintf("%s[%d]", rs, s)
			v.LastReqC[x][s] = b.Var("lastTok"+rs+".lastReqC"+fmt.Sprintf("[%d]", s), ids)
			v.LastCS[x][s] = b.Var("lastTok"+rs+".lastCS"+fmt.Sprintf("[%d]", s), ids)
			v.WqID[x][s] = b.Var("wQueue"+ss+".id", ids)
			v.WqMark[x][s] = b.Var("wQueue"+ss+".mark", marks)
			v.WlID[x][s] = b.Var("wLoan"+ss+".id", ids)
			v.WlMark[x][s] = b.Var("wLoan"+ss+".mark", marks)
			v.WlMiss[x][s] = b.Var("wLoan"+ss+".missing", sets)
			v.PcID[x][s] = b.Var("pendingReq"+ss+".ReqCnt.id", ids)
			v.PrID[x][s] = b.Var("pendingReq"+ss+".ReqRes.id", ids)
			v.PrMark[x][s] = b.Var("pendingReq"+ss+".ReqRes.mark", marks)
			v.PlID[x][s] = b.Var("pendingReq"+ss+".ReqLoan.id", ids)
			v.PlMark[x][s] = b.Var("pendingReq"+ss+".ReqLoan.mark", marks)
			v.PlMiss[x][s] = b.Var("pendingReq"+ss+".ReqLoan.missing", sets)
		}
	}

	more := model.Var{Name: "more", Domain: model.Bool()}
	res := model.Var{Name: "r", Domain: model.IntRange(0, m-1)}
	sinit := model.Var{Name: "sinit", Domain: model.IntRange(0, n-1)}
	id := model.Var{Name: "id", Domain: model.IntRange(1, idTop)}
	mark := model.Var{Name: "mark", Domain: marks}
	miss := model.Var{Name: "missingRes", Domain: sets}
	visited := model.Var{Name: "visited", Domain: model.IntRange(0, 1<<n-1)}
	v.ReqCnt = b.Message("ReqCnt", more, res, sinit, id, visited)
	v.ReqRes = b.Message("ReqRes", more, res, sinit, id, mark, visited)
	v.ReqLoan = b.Message("ReqLoan", more, res, sinit, id, mark, miss, visited)
	v.Counter = b.Message("Counter", more, res, model.Var{Name: "val", Domain: vals})
	tf := []model.Var{more, res, {Name: "counter", Domain: counters}}
	for s := 0; s < n; s++ {
		tf = append(tf, model.Var{Name: fmt.Sprintf("lastReqC[%d]", s), Domain: ids})
	}
	for s := 0; s < n; s++ {
		tf = append(tf, model.Var{Name: fmt.Sprintf("lastCS[%d]", s), Domain: ids})
	}
	tf = append(tf, model.Var{Name: "lender", Domain: siteOrNil})
	v.Token = b.Message("Token", tf...)
	site := model.Var{Name: "s", Domain: model.IntRange(0, n-1)}
	v.TokQ = b.Message("Token.wQueue", more, site, id, mark)
	v.TokL = b.Message("Token.wLoan", more, site, id, mark, miss)
	v.Types = []model.MsgType{v.ReqCnt, v.ReqRes, v.ReqLoan, v.Counter, v.Token, v.TokQ, v.TokL}
	b.LinkChannels(cmax, model.Error, v.Types...)

	addActions(b, v)

	var sys *model.System
	b.Invariant(model.Predicate{
		Name: "exclusion",
		Doc:  "no two processes in their critical section request a common resource",
		Holds: func(s *model.State) bool {
			used := 0
			for q := 0; q < n; q++ {
				if s.Get(q, v.St) == InCS {
					d := s.Get(q, v.Req)
					if used&d != 0 {
						return false
					}
					used |= d
				}
			}
			return true
		},
	})
	b.Invariant(model.Predicate{
		Name: "one-token",
		Doc:  "every resource has exactly one token, held by a process whose tokDir is nil or in transit",
		Holds: func(s *model.State) bool {
			var count [maxM]int
			for q := 0; q < n; q++ {
				for x := 0; x < m; x++ {
					if s.Get(q, v.TokDir[x]) == n {
						count[x]++
					}
				}
			}
			for ch := range s.Lens {
				for i := 0; i < s.Len(model.ChanID(ch)); i++ {
					if msg := s.At(model.ChanID(ch), i); s.TypeOf(msg) == v.Token {
						count[sys.Field(msg, 1)]++
					}
				}
			}
			for x := 0; x < m; x++ {
				if count[x] != 1 {
					return false
				}
			}
			return true
		},
	})
	if v.Recurring {
		b.Invariant(v.Ring.Invariant("id-window", "the live request ids of each site", "ids", v.IDSpread))
		b.Invariant(model.Predicate{
			Name:        "marks-unordered",
			Doc:         "no error flag, no process in waitCS holds a token, and at most one request is queued or pending per token, so that no step compares two marks and counters kept modulo W behave as unbounded ones",
			Holds:       v.MarksUnordered,
			Abstraction: true,
		})
	} else {
		b.Invariant(model.Predicate{
			Name: "counter-bound",
			Doc:  "every counter, held or in transit, is at most 1+2N·R",
			Holds: func(s *model.State) bool {
				for q := 0; q < n; q++ {
					for x := 0; x < m; x++ {
						if s.Get(q, v.Cnt[x]) > v.C || s.Get(q, v.Vec[x]) > v.C {
							return false
						}
					}
				}
				for ch := range s.Lens {
					for i := 0; i < s.Len(model.ChanID(ch)); i++ {
						msg := s.At(model.ChanID(ch), i)
						switch s.TypeOf(msg) {
						case v.Token:
							if sys.Field(msg, 2) > v.C {
								return false
							}
						case v.Counter:
							if sys.Field(msg, 2) > v.C {
								return false
							}
						}
					}
				}
				return true
			},
		})
	}
	if p["strict"] != 0 {
		b.Invariant(model.Predicate{
			Name: "pseudo-code",
			Doc:  "no process raised an error flag (self-send, SendToken without the token, processCntNeededEmpty outside waitS, two requests of one site in one queue)",
			Holds: func(s *model.State) bool {
				for q := 0; q < n; q++ {
					if s.Get(q, v.Err) != ErrNone {
						return false
					}
				}
				return true
			},
		})
	}
	if !v.Recurring {
		b.ValidEnd(model.Predicate{
			Name: "done",
			Doc:  "every process has made its R requests and is idle, and every channel is empty",
			Holds: func(s *model.State) bool {
				for q := 0; q < n; q++ {
					if s.Get(q, v.CurID) != r || s.Get(q, v.St) != Idle {
						return false
					}
				}
				for ch := range s.Lens {
					if s.Lens[ch] != 0 {
						return false
					}
				}
				return true
			},
		})
	}
	b.ProcessPredicate(model.ProcessPredicate{
		Name:  "requesting",
		Doc:   "state ∈ {waitS, waitCS}",
		Holds: func(s *model.State, q int) bool { st := s.Get(q, v.St); return st == WaitS || st == WaitCS },
	})
	b.ProcessPredicate(model.ProcessPredicate{
		Name:  "inCS",
		Doc:   "state = inCS",
		Holds: func(s *model.State, q int) bool { return s.Get(q, v.St) == InCS },
	})
	b.Initial(func(_ *model.System, s *model.State) {
		// Figure 9: process 0 is the elected node and holds every token;
		// every other tokDir points to it; counters start at 1.
		for q := 0; q < n; q++ {
			for x := 0; x < m; x++ {
				dir := 0
				if q == 0 {
					dir = n
				}
				s.Set(q, v.TokDir[x], dir)
				s.Set(q, v.Lender[x], n)
				s.Set(q, v.Cnt[x], 1)
				if v.Recurring {
					// Request id 0 (none yet) is the residue W.
					for site := 0; site < n; site++ {
						s.Set(q, v.LastReqC[x][site], v.Ring.W)
						s.Set(q, v.LastCS[x][site], v.Ring.W)
					}
				}
			}
			if v.Recurring {
				s.Set(q, v.CurID, v.Ring.W)
			}
		}
	})
	built, err := b.Build()
	if err != nil {
		return nil, nil, err
	}
	sys = built
	v.sys = built
	return sys, v, nil
}

// addActions declares each process's actions: request(D) and leave (the
// environment), then for every other site q the receipt of a request,
// counter or token aggregate from q.
func addActions(b *model.Builder, v *Vars) {
	n, m := v.N, v.M
	b.Action(model.Action{
		Name:        "request",
		Kind:        model.Environment,
		Liveness:    model.Optional,
		Choices:     1<<m - 1,
		ChoiceLabel: func(k int) string { return "D=" + setLabel(k+1, m) },
		Guard: func(c *model.Ctx) bool {
			return c.Get(v.St) == Idle && (v.Recurring || c.Get(v.CurID) < v.R)
		},
		Effect: func(c *model.Ctx, k int) {
			var mc machine
			mc.v = v
			mc.load(c)
			mc.requestCS(k + 1)
			mc.store()
		},
	})
	b.Action(model.Action{
		Name:     "leave",
		Kind:     model.Environment,
		Liveness: model.Finite,
		Guard:    func(c *model.Ctx) bool { return c.Get(v.St) == InCS },
		Effect: func(c *model.Ctx, _ int) {
			var mc machine
			mc.v = v
			mc.load(c)
			mc.releaseCS()
			mc.store()
		},
	})
	for p := 0; p < n; p++ {
		for q := 0; q < n; q++ {
			if q == p {
				continue
			}
			addReceives(b, v, p, q)
		}
	}
}

func addReceives(b *model.Builder, v *Vars, p, q int) {
	from := fmt.Sprintf("(from %d)", q)
	b.Action(model.Action{
		Name: "recvReq" + from,
		Guard: func(c *model.Ctx) bool {
			ch := c.In(q)
			return c.HeadIs(ch, v.ReqCnt) || c.HeadIs(ch, v.ReqRes) || c.HeadIs(ch, v.ReqLoan)
		},
		Effect: func(c *model.Ctx, _ int) {
			var mc machine
			mc.v = v
			mc.load(c)
			ch := c.In(q)
			visited := 0
			// An aggregate ends with more = 0; a run cut short by an
			// overflow (a safety violation) ends with the channel.
		loop:
			for left := c.Config().Len(ch); left > 0; left-- {
				msg := c.Receive(ch)
				t := c.TypeOf(msg)
				var kind, mk, miss int
				switch t {
				case v.ReqCnt:
					kind, visited = kCnt, c.Field(msg, 4)
				case v.ReqRes:
					kind, mk, visited = kRes, c.Field(msg, 4), c.Field(msg, 5)
				case v.ReqLoan:
					kind, mk, miss, visited = kLoan, c.Field(msg, 4), c.Field(msg, 5), c.Field(msg, 6)
				default:
					mc.flag(ErrPrecondition)
					break loop
				}
				mc.receiveRequest(visited, kind, c.Field(msg, 1), c.Field(msg, 2), c.Field(msg, 3), mk, miss)
				if c.Field(msg, 0) == 0 {
					break
				}
			}
			mc.flushReq(visited | 1<<c.P)
			mc.flushResp()
			mc.store()
		},
	}, p)
	b.Action(model.Action{
		Name:  "recvCounter" + from,
		Guard: func(c *model.Ctx) bool { return c.HeadIs(c.In(q), v.Counter) },
		Effect: func(c *model.Ctx, _ int) {
			var mc machine
			mc.v = v
			mc.load(c)
			ch := c.In(q)
			l := &mc.l
			for left := c.Config().Len(ch); left > 0; left-- {
				msg := c.Receive(ch)
				if c.TypeOf(msg) != v.Counter {
					mc.flag(ErrPrecondition)
					break
				}
				x := c.Field(msg, 1)
				needed := l.cntNeeded&(1<<x) != 0
				if !needed {
					mc.flag(ErrDupCounter)
				}
				l.vec[x] = c.Field(msg, 2)
				l.cntNeeded &^= 1 << x
				if !v.Guarded260 || needed && !mc.owned(x) {
					l.tokDir[x] = q // line 260
				}
				if c.Field(msg, 0) == 0 {
					break
				}
			}
			if l.cntNeeded == 0 && (!v.Guarded260 || l.st == WaitS) {
				mc.processCntNeededEmpty() // line 261
			}
			mc.store()
		},
	}, p)
	b.Action(model.Action{
		Name:  "recvToken" + from,
		Guard: func(c *model.Ctx) bool { return c.HeadIs(c.In(q), v.Token) },
		Effect: func(c *model.Ctx, _ int) {
			var mc machine
			mc.v = v
			mc.load(c)
			ch := c.In(q)
			var toks [maxM]tokData
			var rs [maxM]int
			k := -1
			for left := c.Config().Len(ch); left > 0; left-- {
				msg := c.Receive(ch)
				switch c.TypeOf(msg) {
				case v.Token:
					if k+1 == maxM {
						mc.flag(ErrOutbox)
						break
					}
					k++
					rs[k] = c.Field(msg, 1)
					t := &toks[k]
					*t = tokData{cnt: c.Field(msg, 2), lender: c.Field(msg, 3+2*v.N)}
					for s := 0; s < v.N; s++ {
						t.lastReqC[s] = c.Field(msg, 3+s)
						t.lastCS[s] = c.Field(msg, 3+v.N+s)
					}
				case v.TokQ:
					if k >= 0 {
						toks[k].wq[c.Field(msg, 1)] = slot{c.Field(msg, 2), c.Field(msg, 3), 0}
					}
				case v.TokL:
					if k >= 0 {
						toks[k].wl[c.Field(msg, 1)] = slot{c.Field(msg, 2), c.Field(msg, 3), c.Field(msg, 4)}
					}
				default:
					mc.flag(ErrPrecondition)
				}
				if c.Field(msg, 0) == 0 {
					break
				}
			}
			for i := 0; i <= k; i++ {
				mc.processUpdate(rs[i], &toks[i])
			}
			mc.receiveTokens()
			mc.store()
		},
	}, p)
}
