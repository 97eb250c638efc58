package kldhv_test

import (
	"fmt"
	"testing"

	"github.com/ringcheck/ringcheck/specs/spectest"
)

// The brute-force model: kl-dhv written again over a plain Go struct,
// independently of the model package (one if-else chain per process
// instead of guards), for counting reachable states and transitions.

const bMaxN, bMaxCap = 3, 8

// Message kinds.
const (
	bCToken = iota + 1
	bET
	bToken
	bCollect
	bAllocate
	bDisable
)

type bmsg struct{ t, a, b int8 }

type bstate struct {
	st, need, th, td, seq, ord [bMaxN]int8
	ce, cf, tc, ta             int8
	ln                         [bMaxN]int8
	ch                         [bMaxN][bMaxCap]bmsg // ch[i]: from i to i+1
}

type bparams struct{ n, l, k, cap, maxSeq, maxVc, maxTa int }

func (s *bstate) pop(c int) bmsg {
	m := s.ch[c][0]
	copy(s.ch[c][:], s.ch[c][1:s.ln[c]])
	s.ln[c]--
	s.ch[c][s.ln[c]] = bmsg{}
	return m
}

func (s *bstate) send(p bparams, c int, m bmsg) {
	if int(s.ln[c]) < p.cap { // drop when full
		s.ch[c][s.ln[c]] = m
		s.ln[c]++
	}
}

func i8(x int) int8 { return int8(x) }

// protocol returns the successor of process q's first enabled protocol
// action, if any.
func (s bstate) protocol(p bparams, q int) (bstate, bool) {
	in, out := (q+p.n-1)%p.n, q
	t := s
	var head bmsg
	if s.ln[in] > 0 {
		head = s.ch[in][0]
	}
	en := max(0, int(s.th[q]-s.td[q]))
	need := int(s.need[q])
	root := q == 0
	// uncount at Root
	uncount := func(x int) {
		if x <= int(t.ce) {
			t.ce -= i8(x)
			return
		}
		x -= int(t.ce)
		t.ce = 0
		t.cf = i8(max(0, int(t.cf)-x))
	}
	switch {
	case head.t == bCToken:
		t.pop(in)
		if root {
			if head.a != s.seq[0] {
				return t, true
			}
			t.seq[0] = i8((int(s.seq[0]) + 1) % (p.maxSeq + 1))
			sum := int(s.ce + s.cf + s.tc + s.ta)
			if sum > p.l {
				t.send(p, out, bmsg{t: bDisable})
			} else {
				for range p.l - sum {
					t.send(p, out, bmsg{t: bToken})
				}
			}
			if pool := int(s.tc + s.ta); pool > 0 {
				t.send(p, out, bmsg{t: bAllocate, a: i8(min(pool, p.maxTa)), b: s.ord[0]})
			}
			t.send(p, out, bmsg{t: bCollect})
			t.ce, t.cf, t.tc, t.ta = i8(en), 0, 0, 0
			t.send(p, out, bmsg{t: bCToken, a: t.seq[0]})
			return t, true
		}
		if head.a == s.seq[q] {
			return t, true
		}
		t.seq[q] = head.a
		for range en {
			t.send(p, out, bmsg{t: bET})
		}
		t.send(p, out, head)
		return t, true
	case head.t == bET:
		t.pop(in)
		if root {
			t.ce = i8(min(p.l, int(s.ce)+1))
		} else {
			t.send(p, out, head)
		}
		return t, true
	}
	if root {
		any := false
		for c := 0; c < p.n; c++ {
			for i := 0; i < int(s.ln[c]); i++ {
				any = any || s.ch[c][i].t == bCToken
			}
		}
		if !any {
			t.seq[0] = i8((int(s.seq[0]) + 1) % (p.maxSeq + 1))
			t.send(p, out, bmsg{t: bCToken, a: t.seq[0]})
			return t, true
		}
	}
	if s.th[q]+s.td[q] > 0 && (s.st[q] == 0 || s.st[q] == 1 && int(s.th[q]-s.td[q]) >= need) {
		if s.st[q] == 0 {
			for range en {
				t.send(p, out, bmsg{t: bToken})
			}
			t.th[q], t.td[q] = 0, 0
		} else {
			t.st[q] = 2
		}
		return t, true
	}
	if head.t == 0 {
		return t, false
	}
	t.pop(in)
	requesting := s.st[q] == 1
	switch head.t {
	case bToken:
		if root {
			t.cf = i8(min(p.l, int(s.cf)+1))
		}
		switch {
		case !requesting:
			t.send(p, out, head)
		case int(s.th[q]) < need:
			t.th[q]++
		case s.td[q] > 0:
			t.td[q]--
		default:
			t.send(p, out, head)
		}
	case bAllocate:
		ta := int(head.a)
		missing := max(0, need-en)
		privileged := head.b != s.ord[q]
		if root {
			privileged = head.b == s.ord[q]
		}
		switch {
		case privileged && !requesting:
			if root {
				t.ord[q] = 1 - head.b
				t.ta = i8(ta)
			} else {
				t.ord[q] = head.b
				t.send(p, out, bmsg{t: bAllocate, a: i8(ta), b: head.b})
			}
		case privileged && ta >= missing:
			t.th[q], t.td[q] = i8(need), 0
			if root {
				t.ord[q] = 1 - head.b
				t.ta = i8(ta - missing)
				t.ce = i8(min(p.l, int(s.ce)+missing))
			} else {
				t.ord[q] = head.b
				if ta-missing > 0 {
					t.send(p, out, bmsg{t: bAllocate, a: i8(ta - missing), b: head.b})
				}
			}
		case privileged:
			if int(s.td[q]) >= ta {
				t.td[q] -= i8(ta)
			} else {
				t.th[q] = i8(min(p.k, max(0, int(s.th[q])+ta-int(s.td[q]))))
				t.td[q] = 0
			}
			if root {
				t.ta = 0
				t.ce = i8(min(p.l, int(s.ce)+ta))
			}
		default: // not privileged
			if requesting && s.td[q] > 0 && ta >= missing {
				t.th[q], t.td[q] = i8(need), 0
				ta -= missing
				if root {
					t.ce = i8(min(p.l, int(s.ce)+missing))
				}
			}
			if root {
				t.ta = i8(ta)
			} else if ta > 0 {
				t.send(p, out, bmsg{t: bAllocate, a: i8(ta), b: head.b})
			}
		}
	case bCollect:
		x := 0
		if requesting && 0 < s.th[q] && int(s.th[q]) < need {
			x = min(en, max(0, p.maxVc-int(head.a)))
		}
		t.td[q] += i8(x)
		if root {
			t.tc = head.a + i8(x)
			uncount(x)
		} else {
			t.send(p, out, bmsg{t: bCollect, a: head.a + i8(x)})
		}
	case bDisable:
		t.td[q] = s.th[q]
		if root {
			uncount(en)
		} else {
			t.send(p, out, head)
		}
	}
	return t, true
}

func bruteSuccessors(s bstate, p bparams) []bstate {
	var out []bstate
	for q := 0; q < p.n; q++ {
		if t, ok := s.protocol(p, q); ok {
			out = append(out, t)
		}
		if s.st[q] == 0 && s.th[q] == 0 && s.td[q] == 0 {
			for k := 1; k <= p.k; k++ {
				t := s
				t.st[q], t.need[q] = 1, i8(k)
				out = append(out, t)
			}
		}
		if s.st[q] == 2 {
			t := s
			t.st[q], t.need[q] = 0, 1
			out = append(out, t)
		}
	}
	return out
}

func bruteReachable(p bparams) (states, transitions int64) {
	var init bstate
	for q := 0; q < p.n; q++ {
		init.need[q] = 1
	}
	for range p.l {
		init.send(p, p.n-1, bmsg{t: bToken})
	}
	init.send(p, p.n-1, bmsg{t: bCToken})
	return spectest.CountReachable(init, func(s bstate) []bstate { return bruteSuccessors(s, p) })
}

// TestReachableCountMatchesBruteForce: ringcheck's reachable states and
// transitions equal the brute-force encoding's, including instances whose
// small Cmax makes sends drop.
func TestReachableCountMatchesBruteForce(t *testing.T) {
	for _, tc := range []struct{ n, l, k, cmax, maxSeq int }{
		{2, 1, 1, 0, 1},
		{3, 1, 1, 0, 1},
		{2, 2, 1, 0, 1},
		{2, 2, 2, 0, 1},
		{2, 2, 2, 0, 2},
		{3, 2, 1, 0, 1},
		{2, 2, 2, 4, 1}, // drops
		{2, 1, 1, 2, 1}, // drops
	} {
		t.Run(fmt.Sprintf("n=%d,L=%d,K=%d,Cmax=%d,MaxSeq=%d", tc.n, tc.l, tc.k, tc.cmax, tc.maxSeq), func(t *testing.T) {
			sys, v := build(t, "n", tc.n, "L", tc.l, "K", tc.k, "Cmax", tc.cmax, "MaxSeq", tc.maxSeq)
			res := spectest.Reachable(t, sys)
			states, trans := bruteReachable(bparams{n: tc.n, l: tc.l, k: tc.k, cap: v.Cmax, maxSeq: v.MaxSeq, maxVc: v.MaxVc, maxTa: v.MaxTa})
			t.Logf("ringcheck %d states %d transitions; brute force %d, %d", res.States, res.Transitions, states, trans)
			if res.States != states || res.Transitions != trans {
				t.Errorf("ringcheck %d states %d transitions; brute force %d, %d", res.States, res.Transitions, states, trans)
			}
		})
	}
}
