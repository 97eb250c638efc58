package lejeune

import (
	"math/bits"

	"github.com/ringcheck/ringcheck/model"
)

// The bounds of the fixed-size working arrays: at most maxN processes and
// maxM resources (Build rejects larger instances).
const (
	maxN   = 4
	maxM   = 3
	maxOut = 48
)

// The process states of §4.1.
const (
	Idle = iota
	WaitS
	WaitCS
	InCS
)

// The error flags a process raises when the pseudo-code does something it
// cannot do or its own proof excludes (see the package comment).
const (
	ErrNone = iota
	// ErrSelfSend: a token or a counter addressed to the sender itself.
	ErrSelfSend
	// ErrSlot: a second, different request of one site for one queue
	// (wQueue, wLoan) or one pendingReq entry.
	ErrSlot
	// ErrPrecondition: processCntNeededEmpty called with state ≠ waitS, or
	// SendToken called for a token the process does not own.
	ErrPrecondition
	// ErrOutbox: more messages in one step than the model's buffer holds.
	ErrOutbox
	// ErrDupCounter: a Counter for a resource not in CntNeeded (a second
	// counter value for one request, which §4.2.1 says lastReqC prevents).
	ErrDupCounter
)

var errLabels = []string{"none", "self-send", "slot-clash", "precondition", "outbox", "dup-counter"}

// Request kinds, as in the pendingReq entries and the request messages.
const (
	kCnt = iota
	kRes
	kLoan
)

// slot is one site's entry in a queue: id 0 means empty.
type slot struct{ id, mark, miss int }

// tokData is the content of a Token (Figure 8, line 23) but for r.
type tokData struct {
	cnt              int
	lastReqC, lastCS [maxN]int
	wq, wl           [maxN]slot
	lender           int
}

// pending is pendingReq[r] restricted to one initiating site: the id of its
// ReqCnt (0: none), its ReqRes and its ReqLoan.
type pending struct {
	cnt       int
	res, loan slot
}

// local is one process's variables (Figure 9) in working form.
type local struct {
	st, req, cntNeeded, curID, tLent, err int
	loanAsked                             bool
	tokDir, vec                           [maxM]int
	tok                                   [maxM]tokData
	pend                                  [maxM][maxN]pending
}

type outReq struct{ dest, kind, r, s, id, mark, miss int }

// outResp is a buffered response: a Counter (tok < 0, val) or the token
// snapshot toks[tok].
type outResp struct{ dest, r, val, tok int }

// outbox holds the step's buffer() calls until SendBufReq / SendBuf.
type outbox struct {
	reqs  [maxOut]outReq
	nreq  int
	resp  [maxOut]outResp
	nresp int
	toks  [maxM]tokData
	ntok  int
}

// machine runs one step of one process: load, the paper's procedure, store.
type machine struct {
	v    *Vars
	c    *model.Ctx
	self int
	l    local
	out  outbox
}

func (m *machine) load(c *model.Ctx) {
	v := m.v
	m.c, m.self = c, c.P
	l := &m.l
	l.st = c.Get(v.St)
	l.req = c.Get(v.Req)
	l.cntNeeded = c.Get(v.CntNeeded)
	l.curID = c.Get(v.CurID)
	l.tLent = c.Get(v.TLent)
	l.loanAsked = c.Get(v.LoanAsked) == 1
	l.err = c.Get(v.Err)
	for r := 0; r < v.M; r++ {
		l.tokDir[r] = c.Get(v.TokDir[r])
		l.vec[r] = c.Get(v.Vec[r])
		t := &l.tok[r]
		t.cnt = c.Get(v.Cnt[r])
		t.lender = c.Get(v.Lender[r])
		for s := 0; s < v.N; s++ {
			t.lastReqC[s] = c.Get(v.LastReqC[r][s])
			t.lastCS[s] = c.Get(v.LastCS[r][s])
			t.wq[s] = slot{c.Get(v.WqID[r][s]), c.Get(v.WqMark[r][s]), 0}
			t.wl[s] = slot{c.Get(v.WlID[r][s]), c.Get(v.WlMark[r][s]), c.Get(v.WlMiss[r][s])}
			p := &l.pend[r][s]
			p.cnt = c.Get(v.PcID[r][s])
			p.res = slot{c.Get(v.PrID[r][s]), c.Get(v.PrMark[r][s]), 0}
			p.loan = slot{c.Get(v.PlID[r][s]), c.Get(v.PlMark[r][s]), c.Get(v.PlMiss[r][s])}
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (m *machine) store() {
	v, c, l := m.v, m.c, &m.l
	c.Set(v.St, l.st)
	c.Set(v.Req, l.req)
	c.Set(v.CntNeeded, l.cntNeeded)
	c.Set(v.CurID, l.curID)
	c.Set(v.TLent, l.tLent)
	c.Set(v.LoanAsked, b2i(l.loanAsked))
	c.Set(v.Err, l.err)
	for r := 0; r < v.M; r++ {
		c.Set(v.TokDir[r], l.tokDir[r])
		c.Set(v.Vec[r], l.vec[r])
		t := &l.tok[r]
		c.Set(v.Cnt[r], t.cnt)
		c.Set(v.Lender[r], t.lender)
		for s := 0; s < v.N; s++ {
			c.Set(v.LastReqC[r][s], t.lastReqC[s])
			c.Set(v.LastCS[r][s], t.lastCS[s])
			c.Set(v.WqID[r][s], t.wq[s].id)
			c.Set(v.WqMark[r][s], t.wq[s].mark)
			c.Set(v.WlID[r][s], t.wl[s].id)
			c.Set(v.WlMark[r][s], t.wl[s].mark)
			c.Set(v.WlMiss[r][s], t.wl[s].miss)
			p := &l.pend[r][s]
			c.Set(v.PcID[r][s], p.cnt)
			c.Set(v.PrID[r][s], p.res.id)
			c.Set(v.PrMark[r][s], p.res.mark)
			c.Set(v.PlID[r][s], p.loan.id)
			c.Set(v.PlMark[r][s], p.loan.mark)
			c.Set(v.PlMiss[r][s], p.loan.miss)
		}
	}
}

func (m *machine) flag(e int) {
	if m.l.err == ErrNone {
		m.l.err = e
	}
}

func (m *machine) owned(r int) bool { return m.l.tokDir[r] == m.v.N }

func (m *machine) ownedMask() int {
	o := 0
	for r := 0; r < m.v.M; r++ {
		if m.owned(r) {
			o |= 1 << r
		}
	}
	return o
}

// inc is counter+1: with R bounded saturating at C+1, the value the
// counter-bound invariant rejects, so that a counter is never wrapped;
// with recurring requests modulo W (Vars.Next).
func (m *machine) inc(x int) int {
	if m.v.Recurring {
		return m.v.Next(x)
	}
	if x > m.v.C {
		return m.v.C + 1
	}
	return x + 1
}

// mark is L·A(MyVector): A is the average of the non-zero entries (§5),
// scaled by L = lcm(1..M) so that it is an integer.
func (m *machine) mark() int {
	sum, k := 0, 0
	for r := 0; r < m.v.M; r++ {
		if x := m.l.vec[r]; x != 0 {
			sum += x
			k++
		}
	}
	if k == 0 {
		return 0
	}
	return sum * m.v.L / k
}

// prec is the total order ◁ on requests: (mark, site) lexicographically,
// marks compared by Vars.Less.
func (m *machine) prec(m1, s1, m2, s2 int) bool {
	return m.v.Less(m1, m2) || m1 == m2 && s1 < s2
}

// obsolete is §4.2.1's test, against the process's lastTok[r] (the token
// if it holds it, its last snapshot otherwise).
func (m *machine) obsolete(kind, r, s, id int) bool {
	t := &m.l.tok[r]
	v := m.v
	return !v.Less(t.lastCS[s], id) || kind == kCnt && !v.Less(t.lastReqC[s], id)
}

// qAdd adds site s's entry e to a queue kept as one slot per site.
func (m *machine) qAdd(q *[maxN]slot, s int, e slot) {
	if q[s].id != 0 && q[s] != e {
		m.flag(ErrSlot)
	}
	q[s] = e
}

// qHead is the site of the queue's least entry by ◁, or -1.
func (m *machine) qHead(q *[maxN]slot) int {
	h := -1
	for s := 0; s < m.v.N; s++ {
		if q[s].id != 0 && (h < 0 || m.prec(q[s].mark, s, q[h].mark, h)) {
			h = s
		}
	}
	return h
}

func (m *machine) bufferReq(dest, kind, r, s, id, mark, miss int) {
	if m.out.nreq == maxOut {
		m.flag(ErrOutbox)
		return
	}
	m.out.reqs[m.out.nreq] = outReq{dest, kind, r, s, id, mark, miss}
	m.out.nreq++
}

func (m *machine) bufferCounter(dest, r, val int) {
	if dest == m.self {
		m.flag(ErrSelfSend)
		return
	}
	if m.out.nresp == maxOut {
		m.flag(ErrOutbox)
		return
	}
	m.out.resp[m.out.nresp] = outResp{dest, r, val, -1}
	m.out.nresp++
}

// sendToken is SendToken (line 102): buffer a snapshot of lastTok[r] for
// dest, tokDir[r] ← dest. The process's own copy keeps only lastReqC and
// lastCS, which obsolete() reads; the rest is never read before the next
// receipt overwrites it, so it is reset (dead-variable reduction).
func (m *machine) sendToken(dest, r int) {
	if !m.owned(r) {
		m.flag(ErrPrecondition)
		return
	}
	if dest == m.self || dest >= m.v.N {
		m.flag(ErrSelfSend)
		return
	}
	if m.out.nresp == maxOut || m.out.ntok == maxM {
		m.flag(ErrOutbox)
		return
	}
	t := &m.l.tok[r]
	m.out.toks[m.out.ntok] = *t
	m.out.resp[m.out.nresp] = outResp{dest, r, 0, m.out.ntok}
	m.out.ntok++
	m.out.nresp++
	m.l.tokDir[r] = dest
	t.cnt = 1
	t.lender = m.v.N
	t.wq = [maxN]slot{}
	t.wl = [maxN]slot{}
	if m.v.Recurring {
		// Dead as well (see Vars.SnapshotDead): 0 is no residue.
		for s := 0; s < m.v.N; s++ {
			if m.v.SnapshotDead(m.self, s) {
				t.lastReqC[s], t.lastCS[s] = 0, 0
			}
		}
	}
}

// flushReq is SendBufReq(visited): the buffered requests for one
// destination leave as one aggregate message (consecutive messages linked
// by their "more" field), destinations in the order of their first buffer.
func (m *machine) flushReq(visited int) {
	o := &m.out
	var done [maxOut]bool
	for i := 0; i < o.nreq; i++ {
		if done[i] {
			continue
		}
		d := o.reqs[i].dest
		last := i
		for j := i; j < o.nreq; j++ {
			if !done[j] && o.reqs[j].dest == d {
				last = j
			}
		}
		ch := m.c.Out(d)
		for j := i; j <= last; j++ {
			if done[j] || o.reqs[j].dest != d {
				continue
			}
			done[j] = true
			q := &o.reqs[j]
			more := b2i(j != last)
			var msg model.Msg
			switch q.kind {
			case kCnt:
				msg = m.c.Msg(m.v.ReqCnt, more, q.r, q.s, q.id, visited)
			case kRes:
				msg = m.c.Msg(m.v.ReqRes, more, q.r, q.s, q.id, q.mark, visited)
			default:
				msg = m.c.Msg(m.v.ReqLoan, more, q.r, q.s, q.id, q.mark, q.miss, visited)
			}
			m.c.Send(ch, msg)
		}
	}
	o.nreq = 0
}

// flushResp is SendBuf(): per destination and type (Counter, Token), one
// aggregate message, in the order of the first buffer of each.
func (m *machine) flushResp() {
	o := &m.out
	var done [maxOut]bool
	for i := 0; i < o.nresp; i++ {
		if done[i] {
			continue
		}
		d, isTok := o.resp[i].dest, o.resp[i].tok >= 0
		last := i
		for j := i; j < o.nresp; j++ {
			if !done[j] && o.resp[j].dest == d && (o.resp[j].tok >= 0) == isTok {
				last = j
			}
		}
		ch := m.c.Out(d)
		for j := i; j <= last; j++ {
			e := &o.resp[j]
			if done[j] || e.dest != d || (e.tok >= 0) != isTok {
				continue
			}
			done[j] = true
			if !isTok {
				m.c.Send(ch, m.c.Msg(m.v.Counter, b2i(j != last), e.r, e.val))
				continue
			}
			m.sendTokenMsgs(ch, e.r, &o.toks[e.tok], j != last)
		}
	}
	o.nresp, o.ntok = 0, 0
}

// sendTokenMsgs sends one token: its header, then one TokQ per wQueue
// entry and one TokL per wLoan entry; more links every message but the
// aggregate's last.
func (m *machine) sendTokenMsgs(ch model.ChanID, r int, t *tokData, moreAfter bool) {
	v := m.v
	n := 0
	for s := 0; s < v.N; s++ {
		n += b2i(t.wq[s].id != 0) + b2i(t.wl[s].id != 0)
	}
	var f [4 + 2*maxN]int
	f[0], f[1], f[2] = b2i(n > 0 || moreAfter), r, t.cnt
	for s := 0; s < v.N; s++ {
		f[3+s] = t.lastReqC[s]
		f[3+v.N+s] = t.lastCS[s]
	}
	f[3+2*v.N] = t.lender
	m.c.Send(ch, m.c.Msg(v.Token, f[:4+2*v.N]...))
	for s := 0; s < v.N; s++ {
		if e := t.wq[s]; e.id != 0 {
			n--
			m.c.Send(ch, m.c.Msg(v.TokQ, b2i(n > 0 || moreAfter), s, e.id, e.mark))
		}
	}
	for s := 0; s < v.N; s++ {
		if e := t.wl[s]; e.id != 0 {
			n--
			m.c.Send(ch, m.c.Msg(v.TokL, b2i(n > 0 || moreAfter), s, e.id, e.mark, e.miss))
		}
	}
}

// requestCS is Request_CS(D), lines 68–85.
func (m *machine) requestCS(d int) {
	l := &m.l
	l.curID = m.v.Next(l.curID)
	l.req = d
	l.st = WaitS
	for r := 0; r < m.v.M; r++ {
		if d&(1<<r) == 0 {
			continue
		}
		if m.owned(r) {
			l.vec[r] = l.tok[r].cnt
			l.tok[r].cnt = m.inc(l.tok[r].cnt)
		} else {
			l.cntNeeded |= 1 << r
			m.bufferReq(l.tokDir[r], kCnt, r, m.self, l.curID, 0, 0)
		}
	}
	m.flushReq(1 << m.self)
	if l.req&^m.ownedMask() == 0 {
		l.st = InCS
	}
}

// releaseCS is Release_CS, lines 88–106.
func (m *machine) releaseCS() {
	l := &m.l
	nilSite := m.v.N
	l.st = Idle
	l.loanAsked = false
	for r := 0; r < m.v.M; r++ {
		if l.req&(1<<r) == 0 {
			continue
		}
		t := &l.tok[r]
		t.lastCS[m.self] = l.curID
		if m.v.Recurring && m.v.Less(t.lastReqC[m.self], l.curID) {
			// Normalised (see Vars.EffReqC).
			t.lastReqC[m.self] = l.curID
		}
		lender := t.lender
		if h := m.qHead(&t.wq); h >= 0 && lender == nilSite {
			t.wq[h] = slot{}
			m.sendToken(h, r)
		} else if lender != nilSite {
			t.wq[lender] = slot{}
			t.lender = nilSite
			m.sendToken(lender, r)
		}
	}
	l.req = 0
	l.vec = [maxM]int{}
	m.flushResp()
}

// processCntNeededEmpty is lines 109–118.
func (m *machine) processCntNeededEmpty() {
	l := &m.l
	if l.st != WaitS || l.cntNeeded != 0 {
		m.flag(ErrPrecondition)
	}
	l.st = WaitCS
	mk := m.mark()
	for r := 0; r < m.v.M; r++ {
		if l.req&(1<<r) != 0 && !m.owned(r) {
			m.bufferReq(l.tokDir[r], kRes, r, m.self, l.curID, mk, 0)
		}
	}
	m.flushReq(1 << m.self)
}

// canLend is lines 120–136.
func (m *machine) canLend(s, mk, miss int) bool {
	l := &m.l
	if miss&^m.ownedMask() != 0 || l.tLent != 0 || l.st == InCS {
		return false
	}
	for r := 0; r < m.v.M; r++ {
		if m.owned(r) && l.tok[r].lender != m.v.N {
			return false
		}
	}
	if l.st == WaitCS {
		return !l.loanAsked || m.prec(mk, s, m.mark(), m.self)
	}
	return true
}

// processReqLoan is lines 190–207.
func (m *machine) processReqLoan(r, s, id, mk, miss int) {
	l := &m.l
	if m.obsolete(kLoan, r, s, id) {
		return
	}
	if m.canLend(s, mk, miss) {
		l.tLent = miss
		for r2 := 0; r2 < m.v.M; r2++ {
			if miss&(1<<r2) == 0 {
				continue
			}
			l.tok[r2].lender = m.self
			l.tok[r2].wq[s] = slot{}
			m.sendToken(s, r2)
		}
		return
	}
	if l.req&(1<<r) == 0 || l.st == WaitS {
		m.sendToken(s, r)
	} else if e := (slot{id, mk, miss}); m.owned(r) && l.tok[r].wl[s] != e {
		// (Not owned: only in Receive Token's wLoan loop, after an earlier
		// loan of the copy lent r away; the literal add goes to the stale
		// snapshot, which the next receipt overwrites: it is dropped.)
		m.qAdd(&l.tok[r].wl, s, e)
	}
}

// pendAdd is add(pendingReq[r], req), one entry per (site, kind); a newer
// id replaces an older one, which is obsolete for every later token.
func (m *machine) pendAdd(kind, r, s, id, mk, miss int) {
	p := &m.l.pend[r][s]
	switch kind {
	case kCnt:
		if m.v.Newer(id, p.cnt) {
			p.cnt = id
		}
	case kRes:
		e := slot{id, mk, 0}
		if m.v.Newer(id, p.res.id) {
			p.res = e
		} else if id == p.res.id && p.res != e {
			m.flag(ErrSlot)
			p.res = e
		}
	default:
		e := slot{id, mk, miss}
		if m.v.Newer(id, p.loan.id) {
			p.loan = e
		} else if id == p.loan.id && p.loan != e {
			m.flag(ErrSlot)
			p.loan = e
		}
	}
}

// receiveRequest is lines 159–189 for one request of the aggregate.
func (m *machine) receiveRequest(visited, kind, r, s, id, mk, miss int) {
	l := &m.l
	if m.obsolete(kind, r, s, id) {
		return
	}
	if m.owned(r) {
		t := &l.tok[r]
		switch {
		case kind == kLoan:
			m.processReqLoan(r, s, id, mk, miss)
		case l.req&(1<<r) == 0 || l.st == WaitS && kind != kCnt:
			m.sendToken(s, r)
		case kind == kCnt:
			t.lastReqC[s] = id
			m.bufferCounter(s, r, t.cnt)
			t.cnt = m.inc(t.cnt)
		default: // ReqRes
			e := slot{id, mk, 0}
			if t.wq[s] != e {
				my := m.mark()
				if l.st == WaitCS && m.prec(mk, s, my, m.self) {
					m.qAdd(&t.wq, m.self, slot{l.curID, my, 0})
					m.sendToken(s, r)
				} else {
					m.qAdd(&t.wq, s, e)
				}
			}
		}
		return
	}
	if d := l.tokDir[r]; visited&(1<<d) == 0 {
		m.pendAdd(kind, r, s, id, mk, miss)
		m.bufferReq(d, kind, r, s, id, mk, miss)
	}
}

// processUpdate is lines 138–163.
func (m *machine) processUpdate(r int, t *tokData) {
	l := &m.l
	l.tok[r] = *t
	tk := &l.tok[r]
	l.tokDir[r] = m.v.N
	if l.cntNeeded&(1<<r) != 0 {
		l.cntNeeded &^= 1 << r
		l.vec[r] = tk.cnt
		tk.cnt = m.inc(tk.cnt)
	}
	l.tLent &^= 1 << r
	for s := 0; s < m.v.N; s++ {
		p := &l.pend[r][s]
		if p.cnt != 0 {
			if !m.obsolete(kCnt, r, s, p.cnt) {
				tk.lastReqC[s] = p.cnt
				m.bufferCounter(s, r, tk.cnt)
				tk.cnt = m.inc(tk.cnt)
			}
			// Obsolete now (lastReqC[s] ≥ id) and for ever after.
			p.cnt = 0
		}
		if p.res.id != 0 {
			if m.obsolete(kRes, r, s, p.res.id) {
				p.res = slot{}
			} else if tk.wq[s] != p.res {
				m.qAdd(&tk.wq, s, p.res)
			}
		}
		if p.loan.id != 0 {
			if m.obsolete(kLoan, r, s, p.loan.id) {
				p.loan = slot{}
			} else if tk.wl[s] != p.loan {
				m.qAdd(&tk.wl, s, p.loan)
			}
		}
	}
}

// receiveTokens is lines 208–254, after the tokens' processUpdate.
func (m *machine) receiveTokens() {
	l := &m.l
	v := m.v
	if l.st != Idle && l.req&^m.ownedMask() == 0 {
		l.st = InCS
	} else {
		for r := 0; r < v.M; r++ {
			if m.owned(r) && l.tok[r].lender != v.N {
				lender := l.tok[r].lender
				l.tok[r].lender = v.N
				m.sendToken(lender, r)
				l.loanAsked = false
			}
		}
	}
	if l.st == WaitS && l.cntNeeded == 0 {
		m.processCntNeededEmpty()
	}
	for r := 0; r < v.M; r++ {
		if !m.owned(r) {
			continue
		}
		t := &l.tok[r]
		h := m.qHead(&t.wq)
		if h < 0 {
			continue
		}
		switch l.st {
		case WaitS:
			t.wq[h] = slot{}
			m.sendToken(h, r)
		case WaitCS:
			my := m.mark()
			if m.prec(t.wq[h].mark, h, my, m.self) {
				t.wq[h] = slot{}
				m.qAdd(&t.wq, m.self, slot{l.curID, my, 0})
				m.sendToken(h, r)
			}
		}
	}
	for r := 0; r < v.M; r++ {
		if !m.owned(r) {
			continue
		}
		wl := l.tok[r].wl
		l.tok[r].wl = [maxN]slot{}
		// copy, in ◁ order
		for {
			h := m.qHead(&wl)
			if h < 0 {
				break
			}
			e := wl[h]
			wl[h] = slot{}
			m.processReqLoan(r, h, e.id, e.mark, e.miss)
		}
	}
	missing := l.req &^ m.ownedMask()
	if v.Loan > 0 && bits.OnesCount(uint(missing)) == v.Loan && l.st == WaitCS && !l.loanAsked {
		l.loanAsked = true
		mk := m.mark()
		for r := 0; r < v.M; r++ {
			if missing&(1<<r) != 0 {
				m.bufferReq(l.tokDir[r], kLoan, r, m.self, l.curID, mk, missing)
			}
		}
	}
	m.flushResp()
	m.flushReq(1 << m.self)
}
