package lejeune_test

import (
	"fmt"
	"testing"

	"github.com/ringcheck/ringcheck/specs/spectest"
)

// The brute-force model: the algorithm for one resource (M = 1, so no
// loans and A(V) = the counter), written again over plain Go values,
// independently of the model package and of the spec's machine, with the
// spec's documented reductions (stale token fields reset but lastReqC and
// lastCS, obsolete pendingReq entries dropped when the token is processed,
// saturating counters, sticky error flag), to count reachable states and
// transitions.

type bq struct{ id, mark int } // a queue entry, id 0: none

type bproc struct {
	st, cur, dir, vec int // dir = -1: the process holds the token
	cntNeeded         bool
	cnt               int
	lastReqC, lastCS  [4]int
	wq                [4]bq
	pc                [4]int
	pr                [4]bq
	err               int
}

type bitem struct {
	typ        byte // 'c' ReqCnt, 'r' ReqRes, 'n' Counter, 't' Token
	s, id, val int
	tok        *btok
}

type btok struct {
	cnt              int
	lastReqC, lastCS [4]int
	wq               [4]bq
}

// bmsg is one aggregate message: requests share their visited set.
type bmsg struct {
	visited int
	items   []bitem
}

type bworld struct {
	n, r, c int
	p       [4]bproc
	ch      [4][4][]bmsg // ch[from][to]
}

func (w *bworld) clone() *bworld {
	o := *w
	for i := 0; i < w.n; i++ {
		for j := 0; j < w.n; j++ {
			o.ch[i][j] = nil
			for _, m := range w.ch[i][j] {
				o.ch[i][j] = append(o.ch[i][j], bmsg{m.visited, append([]bitem(nil), m.items...)})
			}
		}
	}
	return &o
}

func (w *bworld) key() string {
	s := fmt.Sprint(w.p[:w.n])
	for i := 0; i < w.n; i++ {
		for j := 0; j < w.n; j++ {
			for _, m := range w.ch[i][j] {
				s += fmt.Sprintf("|%d%d:%d", i, j, m.visited)
				for _, it := range m.items {
					s += fmt.Sprintf("%c%d.%d.%d", it.typ, it.s, it.id, it.val)
					if it.tok != nil {
						s += fmt.Sprint(*it.tok)
					}
				}
			}
		}
	}
	return s
}

// bstep runs one process's procedure with its outgoing buffers.
type bstep struct {
	w    *bworld
	me   int
	reqs []struct {
		dest int
		it   bitem
	}
	resp []struct {
		dest int
		it   bitem
	}
}

func (b *bstep) pr() *bproc { return &b.w.p[b.me] }

func (b *bstep) flag(e int) {
	if b.pr().err == 0 {
		b.pr().err = e
	}
}

func (b *bstep) inc(x int) int { return min(x+1, b.w.c+1) }

func (b *bstep) sendToken(dest int) {
	p := b.pr()
	if dest == b.me {
		b.flag(1)
		return
	}
	t := &btok{cnt: p.cnt, lastReqC: p.lastReqC, lastCS: p.lastCS, wq: p.wq}
	b.resp = append(b.resp, struct {
		dest int
		it   bitem
	}{dest, bitem{typ: 't', tok: t}})
	p.dir, p.cnt, p.wq = dest, 1, [4]bq{}
}

func (b *bstep) addQ(s int, e bq) {
	p := b.pr()
	if p.wq[s].id != 0 && p.wq[s] != e {
		b.flag(2)
	}
	p.wq[s] = e
}

func (b *bstep) head() int {
	p, h := b.pr(), -1
	for s := 0; s < b.w.n; s++ {
		if p.wq[s].id != 0 && (h < 0 || p.wq[s].mark < p.wq[h].mark || p.wq[s].mark == p.wq[h].mark && s < h) {
			h = s
		}
	}
	return h
}

func (b *bstep) flushReqs(visited int) {
	done := make([]bool, len(b.reqs))
	for i := range b.reqs {
		if done[i] {
			continue
		}
		m := bmsg{visited: visited}
		for j := i; j < len(b.reqs); j++ {
			if !done[j] && b.reqs[j].dest == b.reqs[i].dest {
				done[j] = true
				m.items = append(m.items, b.reqs[j].it)
			}
		}
		b.w.ch[b.me][b.reqs[i].dest] = append(b.w.ch[b.me][b.reqs[i].dest], m)
	}
	b.reqs = nil
}

func (b *bstep) flushResp() {
	done := make([]bool, len(b.resp))
	for i := range b.resp {
		if done[i] {
			continue
		}
		var m bmsg
		for j := i; j < len(b.resp); j++ {
			if !done[j] && b.resp[j].dest == b.resp[i].dest && (b.resp[j].it.typ == 't') == (b.resp[i].it.typ == 't') {
				done[j] = true
				m.items = append(m.items, b.resp[j].it)
			}
		}
		b.w.ch[b.me][b.resp[i].dest] = append(b.w.ch[b.me][b.resp[i].dest], m)
	}
	b.resp = nil
}

func (b *bstep) cntNeededEmpty() {
	p := b.pr()
	if p.st != 1 || p.cntNeeded {
		b.flag(3)
	}
	p.st = 2
	if p.dir >= 0 {
		b.reqs = append(b.reqs, struct {
			dest int
			it   bitem
		}{p.dir, bitem{typ: 'r', s: b.me, id: p.cur, val: p.vec}})
	}
	b.flushReqs(1 << b.me)
}

func (b *bstep) obsolete(typ byte, s, id int) bool {
	p := b.pr()
	return id <= p.lastCS[s] || typ == 'c' && id <= p.lastReqC[s]
}

// bruteSuccessors lists one successor per enabled (process, action).
func bruteSuccessors(w *bworld) []*bworld {
	var out []*bworld
	for me := 0; me < w.n; me++ {
		p := &w.p[me]
		if p.st == 0 && p.cur < w.r { // request
			b := &bstep{w: w.clone(), me: me}
			q := b.pr()
			q.cur++
			q.st = 1
			if q.dir < 0 {
				q.vec, q.cnt, q.st = q.cnt, b.inc(q.cnt), 3
			} else {
				q.cntNeeded = true
				b.reqs = append(b.reqs, struct {
					dest int
					it   bitem
				}{q.dir, bitem{typ: 'c', s: me, id: q.cur}})
				b.flushReqs(1 << me)
			}
			out = append(out, b.w)
		}
		if p.st == 3 { // leave
			b := &bstep{w: w.clone(), me: me}
			q := b.pr()
			q.st = 0
			q.lastCS[me] = q.cur
			if h := b.head(); h >= 0 {
				q.wq[h] = bq{}
				b.sendToken(h)
			}
			q.vec = 0
			b.flushResp()
			out = append(out, b.w)
		}
		for from := 0; from < w.n; from++ {
			if from == me || len(w.ch[from][me]) == 0 {
				continue
			}
			for _, kind := range []byte{'q', 'n', 't'} {
				m := w.ch[from][me][0]
				typ := m.items[0].typ
				if kind == 'q' && typ != 'c' && typ != 'r' || kind == 'n' && typ != 'n' || kind == 't' && typ != 't' {
					continue
				}
				b := &bstep{w: w.clone(), me: me}
				b.w.ch[from][me] = b.w.ch[from][me][1:]
				q := b.pr()
				switch kind {
				case 'q':
					for _, it := range m.items {
						if b.obsolete(it.typ, it.s, it.id) {
							continue
						}
						if q.dir < 0 {
							switch {
							case q.st == 0 || q.st == 1 && it.typ == 'r':
								b.sendToken(it.s)
							case it.typ == 'c':
								q.lastReqC[it.s] = it.id
								b.resp = append(b.resp, struct {
									dest int
									it   bitem
								}{it.s, bitem{typ: 'n', val: q.cnt}})
								q.cnt = b.inc(q.cnt)
							default:
								e := bq{it.id, it.val}
								if q.wq[it.s] != e {
									if q.st == 2 && (it.val < q.vec || it.val == q.vec && it.s < me) {
										b.addQ(me, bq{q.cur, q.vec})
										b.sendToken(it.s)
									} else {
										b.addQ(it.s, e)
									}
								}
							}
						} else if m.visited&(1<<q.dir) == 0 {
							if it.typ == 'c' {
								q.pc[it.s] = max(q.pc[it.s], it.id)
							} else if e := (bq{it.id, it.val}); it.id > q.pr[it.s].id {
								q.pr[it.s] = e
							} else if it.id == q.pr[it.s].id && q.pr[it.s] != e {
								b.flag(2)
								q.pr[it.s] = e
							}
							b.reqs = append(b.reqs, struct {
								dest int
								it   bitem
							}{q.dir, it})
						}
					}
					b.flushReqs(m.visited | 1<<me)
					b.flushResp()
				case 'n':
					for _, it := range m.items {
						if !q.cntNeeded {
							b.flag(5)
						}
						q.vec, q.cntNeeded, q.dir = it.val, false, from
					}
					b.cntNeededEmpty()
				case 't':
					for _, it := range m.items {
						t := it.tok
						q.cnt, q.lastReqC, q.lastCS, q.wq, q.dir = t.cnt, t.lastReqC, t.lastCS, t.wq, -1
						if q.cntNeeded {
							q.cntNeeded, q.vec, q.cnt = false, q.cnt, b.inc(q.cnt)
						}
						for s := 0; s < w.n; s++ {
							if id := q.pc[s]; id != 0 {
								if !b.obsolete('c', s, id) {
									q.lastReqC[s] = id
									if s == me {
										b.flag(1)
									} else {
										b.resp = append(b.resp, struct {
											dest int
											it   bitem
										}{s, bitem{typ: 'n', val: q.cnt}})
									}
									q.cnt = b.inc(q.cnt)
								}
								q.pc[s] = 0
							}
							if e := q.pr[s]; e.id != 0 {
								if b.obsolete('r', s, e.id) {
									q.pr[s] = bq{}
								} else if q.wq[s] != e {
									b.addQ(s, e)
								}
							}
						}
					}
					if q.st != 0 {
						q.st = 3
					}
					if q.st == 1 && !q.cntNeeded {
						b.cntNeededEmpty()
					}
					if h := b.head(); h >= 0 && q.dir < 0 {
						if q.st == 1 {
							q.wq[h] = bq{}
							b.sendToken(h)
						} else if q.st == 2 && (q.wq[h].mark < q.vec || q.wq[h].mark == q.vec && h < me) {
							q.wq[h] = bq{}
							b.addQ(me, bq{q.cur, q.vec})
							b.sendToken(h)
						}
					}
					b.flushResp()
					b.flushReqs(1 << me)
				}
				out = append(out, b.w)
			}
		}
	}
	return out
}

func bruteReachable(n, r int) (states, transitions int64) {
	w := &bworld{n: n, r: r, c: 1 + 2*n*r}
	for i := 0; i < n; i++ {
		w.p[i].cnt = 1
		if i > 0 {
			w.p[i].dir = 0
		} else {
			w.p[i].dir = -1
		}
	}
	return spectest.CountReachableByKey(w, (*bworld).key, bruteSuccessors)
}

// TestReachableCountMatchesBruteForce: on one resource, ringcheck's
// reachable states and transitions equal those of the brute-force model.
func TestReachableCountMatchesBruteForce(t *testing.T) {
	for _, tc := range []struct{ n, r int }{{2, 1}, {3, 1}, {2, 2}, {2, 3}} {
		t.Run(fmt.Sprintf("N=%d,M=1,R=%d", tc.n, tc.r), func(t *testing.T) {
			sys, _ := build(t, tc.n, 1, tc.r, 0, 1)
			res := spectest.Reachable(t, sys)
			states, trans := bruteReachable(tc.n, tc.r)
			t.Logf("ringcheck %d states %d transitions; brute force %d states %d transitions", res.States, res.Transitions, states, trans)
			if res.States != states || res.Transitions != trans {
				t.Errorf("ringcheck reaches %d states, %d transitions; brute force %d, %d", res.States, res.Transitions, states, trans)
			}
		})
	}
}
