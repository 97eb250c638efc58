package raynal_test

import (
	"testing"

	"github.com/ringcheck/ringcheck/model"
)

// The brute-force model: Raynal's algorithm (§3, or §5.1 with asked)
// written again over a plain Go struct, independently of the model
// package, to count the reachable states and transitions.
const bruteN, bruteCap = 3, 9

type bmsg struct {
	req bool
	v   int8 // h of a req, y of a free
}

type bstate struct {
	scdem, ok, k, h, maxh, reqs [bruteN]int8
	used                        [bruteN][bruteN]int8
	delayed, asked              [bruteN][bruteN]bool
	ch                          [bruteN][bruteN][bruteCap]bmsg // ch[from][to], head first
	ln                          [bruteN][bruteN]int8
}

func (s *bstate) send(from, to int, m bmsg) {
	s.ch[from][to][s.ln[from][to]] = m
	s.ln[from][to]++
}

func (s *bstate) recv(from, to int) bmsg {
	m := s.ch[from][to][0]
	l := s.ln[from][to]
	copy(s.ch[from][to][:], s.ch[from][to][1:l])
	s.ln[from][to]--
	s.ch[from][to][l-1] = bmsg{}
	return m
}

type brute struct {
	n, m, k, r int
	asked      bool
}

func (b brute) sumUsed(s *bstate, i int) int {
	sum := 0
	for x := 0; x < b.n; x++ {
		if x != i {
			sum += int(s.used[i][x])
		}
	}
	return sum
}

func (b brute) successors(s bstate) []bstate {
	var out []bstate
	n, m := b.n, int8(b.m)
	for i := 0; i < n; i++ {
		// request(k)
		if s.scdem[i] == 0 && s.ok[i] == 0 && int(s.reqs[i]) < b.r {
			for k := 1; k <= b.k; k++ {
				t := s
				t.k[i], t.h[i] = int8(k), s.maxh[i]+1
				t.reqs[i]++
				for j := 0; j < n; j++ {
					if j == i {
						continue
					}
					if !b.asked {
						t.used[i][j] += m
						t.send(i, j, bmsg{req: true, v: t.h[i]})
					} else if t.used[i][j] == 0 {
						t.used[i][j] = m
						t.asked[i][j] = true
						t.send(i, j, bmsg{req: true, v: t.h[i]})
					} else {
						t.asked[i][j] = false
					}
				}
				if !b.asked {
					t.scdem[i], t.ok[i] = 1, 0
				} else if b.sumUsed(&t, i)+k <= b.m {
					t.scdem[i], t.ok[i] = 0, 1
				} else {
					t.scdem[i], t.ok[i] = 1, 0
				}
				out = append(out, t)
			}
		}
		// leave
		if s.ok[i] == 1 {
			t := s
			t.ok[i] = 0
			for j := 0; j < n; j++ {
				if j != i && t.delayed[i][j] {
					t.send(i, j, bmsg{v: s.k[i]})
					t.delayed[i][j] = false
				}
			}
			t.k[i], t.h[i] = 0, 0
			out = append(out, t)
		}
		// receipts, per sender
		for j := 0; j < n; j++ {
			if j == i || s.ln[j][i] == 0 {
				continue
			}
			t := s
			msg := t.recv(j, i)
			if msg.req {
				if msg.v > t.maxh[i] {
					t.maxh[i] = msg.v
				}
				prio := (t.scdem[i] == 1 || t.ok[i] == 1) && (t.h[i] < msg.v || t.h[i] == msg.v && i < j)
				switch {
				case !prio:
					t.send(i, j, bmsg{v: m})
				case !b.asked && t.delayed[i][j]:
					t.send(i, j, bmsg{v: m})
				default:
					if t.k[i] != m {
						t.send(i, j, bmsg{v: m - t.k[i]})
					}
					t.delayed[i][j] = true
				}
			} else {
				t.used[i][j] -= msg.v
				if b.asked && t.scdem[i] == 1 && t.used[i][j] == 0 && !t.asked[i][j] {
					t.used[i][j] = m
					t.send(i, j, bmsg{req: true, v: t.h[i]})
					t.asked[i][j] = true
				}
				if t.scdem[i] == 1 && b.sumUsed(&t, i)+int(t.k[i]) <= b.m {
					t.scdem[i], t.ok[i] = 0, 1
				}
			}
			out = append(out, t)
		}
	}
	return out
}

func (b brute) reachable() (states, transitions int64) {
	var init bstate
	seen := map[bstate]bool{init: true}
	queue := []bstate{init}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for _, t := range b.successors(s) {
			transitions++
			if !seen[t] {
				seen[t] = true
				queue = append(queue, t)
			}
		}
	}
	return int64(len(seen)), transitions
}

// TestReachableCountMatchesBruteForce: ringcheck's reachable states and
// transitions equal those of the brute-force encoding, for both versions.
func TestReachableCountMatchesBruteForce(t *testing.T) {
	for _, p := range []params{
		{n: 2, m: 1, r: 2},
		{n: 2, m: 2, r: 2},
		{n: 2, m: 3, k: 2, r: 2},
		{n: 3, m: 1, r: 1},
		{n: 3, m: 2, r: 1},
		{n: 2, m: 2, r: 3, asked: 1},
		{n: 3, m: 2, r: 1, asked: 1},
		{n: 3, m: 1, r: 2, asked: 1},
	} {
		t.Run(p.String(), func(t *testing.T) {
			sys, _ := build(t, p)
			res := visitAll(t, sys, func(*model.State) {})
			k := p.k
			if k == 0 {
				k = p.m
			}
			states, trans := brute{n: p.n, m: p.m, k: k, r: p.r, asked: p.asked == 1}.reachable()
			t.Logf("ringcheck %d states %d transitions; brute force %d, %d", res.States, res.Transitions, states, trans)
			if res.States != states || res.Transitions != trans {
				t.Errorf("ringcheck %d states %d transitions; brute force %d, %d", res.States, res.Transitions, states, trans)
			}
		})
	}
}
