// Package raynalbrute is a brute-force oracle for the tests of
// specs/raynal and specs/raynaland: Raynal's algorithm (INRIA RR-1342, 1990) written
// again over a plain Go struct, independently of the model package and of
// the spec's file, to count the reachable states and
// transitions (with spectest.CountReachable, a search that shares nothing
// with ringcheck's engine). It encodes §6's AND-allocation over T resource
// types; with one type that is §3 (the claim TestOneTypeIsRaynal checks on
// the models), and with Asked, §5.1's reduced-message variant of each
// type.
//
// It must not import the model package nor the specs: it is what the
// models are checked against.
package raynalbrute

// The largest instance: processes, types, messages in one channel (a send
// beyond it panics).
const maxN, maxT, maxCap = 3, 3, 9

type msg struct {
	req  bool
	x, v int8 // type; h of a req, y of a free
}

// State is a configuration: every variable of every process and every
// channel's contents. Its zero value is the initial configuration (every
// variable 0, every channel empty).
type State struct {
	h, maxh, reqs [maxN]int8
	scdem, ok, k  [maxN][maxT]int8
	used          [maxN][maxT][maxN]int8
	delayed       [maxN][maxT][maxN]bool
	asked         [maxN][maxT][maxN]bool
	ch            [maxN][maxN][maxCap]msg // ch[from][to], head first
	ln            [maxN][maxN]int8
}

func (s *State) send(from, to int, m msg) {
	s.ch[from][to][s.ln[from][to]] = m
	s.ln[from][to]++
}

func (s *State) recv(from, to int) msg {
	m := s.ch[from][to][0]
	l := s.ln[from][to]
	copy(s.ch[from][to][:], s.ch[from][to][1:l])
	s.ln[from][to]--
	s.ch[from][to][l-1] = msg{}
	return m
}

// Instance is n processes, T types of M units, demands of at most K units
// of a type (0: M), at most R demands per process, and, with Asked, §5.1's
// variant.
type Instance struct {
	N, T, M, K, R int
	Asked         bool
}

// sumUsed is Σ used_i(x)[y] over y ≠ i.
func (b Instance) sumUsed(s *State, i, x int) int {
	sum := 0
	for y := 0; y < b.N; y++ {
		if y != i {
			sum += int(s.used[i][x][y])
		}
	}
	return sum
}

// Successors returns every successor of s, one per enabled action and
// alternative of every process: request (every demand vector but zero, in
// the specs' order), leave, and the receipt of the head of each incoming
// channel.
func (b Instance) Successors(s State) []State {
	var out []State
	n, m, kmax := b.N, int8(b.M), b.K
	if kmax == 0 {
		kmax = b.M
	}
	for i := 0; i < n; i++ {
		idle, named, all := true, false, true
		for x := 0; x < b.T; x++ {
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
		// request: every demand vector but zero, in the specs' order
		if idle && int(s.reqs[i]) < b.R {
			total := 1
			for range b.T {
				total *= kmax + 1
			}
			for c := 1; c < total; c++ {
				var d [maxT]int8
				y := c
				for x := b.T - 1; x >= 0; x-- {
					d[x] = int8(y % (kmax + 1))
					y /= kmax + 1
				}
				u := s
				u.h[i] = s.maxh[i] + 1
				u.reqs[i]++
				for x := 0; x < b.T; x++ {
					u.k[i][x] = d[x]
					if d[x] == 0 {
						continue
					}
					for j := 0; j < n; j++ {
						if j == i {
							continue
						}
						if !b.Asked {
							u.used[i][x][j] += m
							u.send(i, j, msg{req: true, x: int8(x), v: u.h[i]})
						} else if u.used[i][x][j] == 0 {
							u.used[i][x][j] = m
							u.asked[i][x][j] = true
							u.send(i, j, msg{req: true, x: int8(x), v: u.h[i]})
						} else {
							u.asked[i][x][j] = false
						}
					}
					if b.Asked && b.sumUsed(&u, i, x)+int(d[x]) <= b.M {
						u.scdem[i][x], u.ok[i][x] = 0, 1
					} else {
						u.scdem[i][x], u.ok[i][x] = 1, 0
					}
				}
				out = append(out, u)
			}
		}
		// leave
		if named && all {
			u := s
			for x := 0; x < b.T; x++ {
				u.ok[i][x] = 0
				for j := 0; j < n; j++ {
					if j != i && u.delayed[i][x][j] {
						u.send(i, j, msg{x: int8(x), v: s.k[i][x]})
						u.delayed[i][x][j] = false
					}
				}
				u.k[i][x] = 0
			}
			u.h[i] = 0
			out = append(out, u)
		}
		// receipts, per sender
		for j := 0; j < n; j++ {
			if j == i || s.ln[j][i] == 0 {
				continue
			}
			u := s
			mg := u.recv(j, i)
			x := mg.x
			if mg.req {
				if mg.v > u.maxh[i] {
					u.maxh[i] = mg.v
				}
				prio := (u.scdem[i][x] == 1 || u.ok[i][x] == 1) && (u.h[i] < mg.v || u.h[i] == mg.v && i < j)
				switch {
				case !prio || !b.Asked && u.delayed[i][x][j]:
					u.send(i, j, msg{x: x, v: m})
				default:
					if u.k[i][x] != m {
						u.send(i, j, msg{x: x, v: m - u.k[i][x]})
					}
					u.delayed[i][x][j] = true
				}
			} else {
				u.used[i][x][j] -= mg.v
				if b.Asked && u.scdem[i][x] == 1 && u.used[i][x][j] == 0 && !u.asked[i][x][j] {
					u.used[i][x][j] = m
					u.send(i, j, msg{req: true, x: x, v: u.h[i]})
					u.asked[i][x][j] = true
				}
				if u.scdem[i][x] == 1 && b.sumUsed(&u, i, int(x))+int(u.k[i][x]) <= b.M {
					u.scdem[i][x], u.ok[i][x] = 0, 1
				}
			}
			out = append(out, u)
		}
	}
	return out
}
