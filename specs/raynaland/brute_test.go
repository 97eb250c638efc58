package raynaland_test

import (
	"fmt"
	"testing"
)

// The brute-force model: §6 written again over a plain Go struct,
// independently of the model package, to count reachable states and
// transitions.
const bruteN, bruteT, bruteCap = 3, 3, 8 // 8: more than any channel holds on the instances below (a send beyond it panics)

type bmsg struct {
	req  bool
	x, v int8 // type; h of a req, y of a free
}

type bstate struct {
	h, maxh, reqs [bruteN]int8
	scdem, ok, k  [bruteN][bruteT]int8
	used          [bruteN][bruteT][bruteN]int8
	delayed       [bruteN][bruteT][bruteN]bool
	ch            [bruteN][bruteN][bruteCap]bmsg
	ln            [bruteN][bruteN]int8
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

type brute struct{ n, t, m, k, r int }

func (b brute) successors(s bstate) []bstate {
	var out []bstate
	n, m := b.n, int8(b.m)
	for i := 0; i < n; i++ {
		idle, named, all := true, false, true
		for x := 0; x < b.t; x++ {
			if s.scdem[i][x] == 1 || s.ok[i][x] == 1 {
				idle = false
			}
			if s.k[i][x] > 0 {
				named = true
				if s.ok[i][x] == 0 {
					all = false
				}
			}
		}
		if idle && int(s.reqs[i]) < b.r {
			// every demand vector but zero, in the spec's order
			total := 1
			for range b.t {
				total *= b.k + 1
			}
			for c := 1; c < total; c++ {
				var d [bruteT]int8
				y := c
				for x := b.t - 1; x >= 0; x-- {
					d[x] = int8(y % (b.k + 1))
					y /= b.k + 1
				}
				u := s
				u.h[i] = s.maxh[i] + 1
				u.reqs[i]++
				for x := 0; x < b.t; x++ {
					u.k[i][x] = d[x]
					if d[x] == 0 {
						continue
					}
					u.scdem[i][x], u.ok[i][x] = 1, 0
					for j := 0; j < n; j++ {
						if j != i {
							u.used[i][x][j] += m
							u.send(i, j, bmsg{req: true, x: int8(x), v: u.h[i]})
						}
					}
				}
				out = append(out, u)
			}
		}
		if named && all {
			u := s
			for x := 0; x < b.t; x++ {
				u.ok[i][x] = 0
				for j := 0; j < n; j++ {
					if j != i && u.delayed[i][x][j] {
						u.send(i, j, bmsg{x: int8(x), v: s.k[i][x]})
						u.delayed[i][x][j] = false
					}
				}
				u.k[i][x] = 0
			}
			u.h[i] = 0
			out = append(out, u)
		}
		for j := 0; j < n; j++ {
			if j == i || s.ln[j][i] == 0 {
				continue
			}
			u := s
			msg := u.recv(j, i)
			x := msg.x
			if msg.req {
				if msg.v > u.maxh[i] {
					u.maxh[i] = msg.v
				}
				prio := (u.scdem[i][x] == 1 || u.ok[i][x] == 1) && (u.h[i] < msg.v || u.h[i] == msg.v && i < j)
				switch {
				case !prio || u.delayed[i][x][j]:
					u.send(i, j, bmsg{x: x, v: m})
				default:
					if u.k[i][x] != m {
						u.send(i, j, bmsg{x: x, v: m - u.k[i][x]})
					}
					u.delayed[i][x][j] = true
				}
			} else {
				u.used[i][x][j] -= msg.v
				if u.scdem[i][x] == 1 {
					sum := int(u.k[i][x])
					for y := 0; y < n; y++ {
						if y != i {
							sum += int(u.used[i][x][y])
						}
					}
					if sum <= b.m {
						u.scdem[i][x], u.ok[i][x] = 0, 1
					}
				}
			}
			out = append(out, u)
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
		for _, u := range b.successors(s) {
			transitions++
			if !seen[u] {
				seen[u] = true
				queue = append(queue, u)
			}
		}
	}
	return int64(len(seen)), transitions
}

// TestReachableCountMatchesBruteForce: ringcheck's reachable states and
// transitions equal the brute-force encoding's.
func TestReachableCountMatchesBruteForce(t *testing.T) {
	for _, p := range []params{
		{n: 2, t: 2, m: 1, r: 2},
		{n: 2, t: 3, m: 1, r: 1},
		{n: 2, t: 2, m: 2, r: 2},
		{n: 3, t: 2, m: 1, r: 1},
	} {
		t.Run(fmt.Sprint(p), func(t *testing.T) {
			if testing.Short() && p.n == 3 {
				t.Skip("large instance")
			}
			sys, _ := build(t, p)
			res := reach(t, sys)
			k := p.k
			if k == 0 {
				k = p.m
			}
			states, trans := brute{n: p.n, t: p.t, m: p.m, k: k, r: p.r}.reachable()
			t.Logf("ringcheck %d states %d transitions; brute force %d, %d", res.States, res.Transitions, states, trans)
			if res.States != states || res.Transitions != trans {
				t.Errorf("ringcheck %d states %d transitions; brute force %d, %d", res.States, res.Transitions, states, trans)
			}
		})
	}
}
