package thiare_test

import (
	"testing"

	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs/spectest"
)

// The brute-force model: thiare for one resource written again over plain
// Go structs, independently of the model package, for counting reachable
// states and transitions.
const bruteMaxN, bruteMaxQ, bruteMaxCap = 4, 12, 16

type btok struct{ seq, pid, rs int8 }

type bnode struct {
	h, used, st, seq, resent int8
	qn                       int8
	q                        [bruteMaxQ]btok // sorted by (seq, pid, rs)
}

// bstate is a configuration; ch[p] is the channel INTO node p, head first.
type bstate struct {
	nodes [bruteMaxN]bnode
	lens  [bruteMaxN]int8
	ch    [bruteMaxN][bruteMaxCap]btok
}

type bparams struct{ n, r, resend, replace, capacity int }

func (s *bstate) pop(c int) btok {
	m := s.ch[c][0]
	copy(s.ch[c][:], s.ch[c][1:s.lens[c]])
	s.lens[c]--
	s.ch[c][s.lens[c]] = btok{}
	return m
}

func (s *bstate) push(c int, m btok) {
	s.ch[c][s.lens[c]] = m
	s.lens[c]++
}

func less(a, b btok) bool {
	if a.seq != b.seq {
		return a.seq < b.seq
	}
	if a.pid != b.pid {
		return a.pid < b.pid
	}
	return a.rs < b.rs
}

func (nd *bnode) insert(k btok) {
	i := int(nd.qn)
	for i > 0 && less(k, nd.q[i-1]) {
		nd.q[i] = nd.q[i-1]
		i--
	}
	nd.q[i] = k
	nd.qn++
}

func bruteSuccessors(s bstate, bp bparams) []bstate {
	var out []bstate
	n := bp.n
	for p := 0; p < n; p++ {
		in, to := p, (p+1)%n
		nd := s.nodes[p]
		room := bp.capacity - int(s.lens[to])
		// request
		if int(nd.used) < bp.r && nd.st == idle && room >= 1 {
			t := s
			x := &t.nodes[p]
			x.h++
			x.used++
			x.st, x.seq, x.resent = waiting, x.h, 0
			t.push(to, btok{x.h, int8(p), 0})
			out = append(out, t)
		}
		// receipt of the head token
		if s.lens[in] > 0 {
			k := s.ch[in][0]
			t := s
			t.pop(in)
			x := &t.nodes[p]
			x.h = max(x.h, k.seq)
			dup := false
			for i := 0; i < int(nd.qn); i++ {
				dup = dup || nd.q[i].pid == k.pid
			}
			ok := true
			switch {
			case int(k.pid) == p:
				if nd.st == waiting {
					x.st = cs
				}
			case k.rs == 1 && dup:
			case nd.st == idle:
				if bp.replace == 1 {
					k.seq = x.h
				}
				ok = room >= 1
				t.push(to, k)
			case nd.st == cs:
				x.insert(k)
			case k.seq < nd.seq || (k.seq == nd.seq && int(k.pid) < p):
				ok = room >= 1
				t.push(to, k)
			default:
				x.insert(k)
			}
			if ok {
				out = append(out, t)
			}
		}
		// leave
		if nd.st == cs && room >= int(nd.qn) {
			t := s
			x := &t.nodes[p]
			for i := 0; i < int(nd.qn); i++ {
				t.push(to, nd.q[i])
				x.q[i] = btok{}
			}
			x.qn, x.st, x.seq, x.resent = 0, idle, 0, 0
			out = append(out, t)
		}
		// timeout
		if bp.resend == 1 && nd.st == waiting && nd.resent == 0 && room >= 1 {
			transit := false
			for c := 0; c < n; c++ {
				for i := 0; i < int(s.lens[c]); i++ {
					transit = transit || int(s.ch[c][i].pid) == p
				}
			}
			if !transit {
				t := s
				t.nodes[p].resent = 1
				t.push(to, btok{nd.seq, int8(p), 1})
				out = append(out, t)
			}
		}
	}
	return out
}

func bruteReachable(bp bparams) (states, transitions int64) {
	var init bstate
	return spectest.CountReachable(init, func(s bstate) []bstate { return bruteSuccessors(s, bp) })
}

// TestReachableCountMatchesBruteForce: ringcheck's reachable states and
// transitions equal those of the brute-force encoding, with and without
// Rule 4 and the replacement, and with channels small enough to block.
func TestReachableCountMatchesBruteForce(t *testing.T) {
	for _, tc := range []bparams{
		{n: 2, r: 1, replace: 1},
		{n: 3, r: 1, replace: 1},
		{n: 2, r: 2, replace: 1},
		{n: 3, r: 2, replace: 1},
		{n: 3, r: 2, replace: 0},
		{n: 3, r: 1, replace: 1, resend: 1},
		{n: 2, r: 2, replace: 1, resend: 1},
		{n: 3, r: 1, replace: 1, capacity: 1},
		{n: 3, r: 1, replace: 1, resend: 1, capacity: 1},
	} {
		vals := params(t, "n", tc.n, "requests", tc.r, "resend", tc.resend, "replace", tc.replace, "Cmax", tc.capacity)
		t.Run(vals.String(), func(t *testing.T) {
			if tc.capacity == 0 {
				tc.capacity = tc.n * tc.r * (1 + tc.resend)
			}
			sys, _ := build(t, vals)
			res := spectest.Reachable(t, sys)
			states, trans := bruteReachable(tc)
			t.Logf("ringcheck %d states %d transitions; brute force %d states %d transitions", res.States, res.Transitions, states, trans)
			if res.States != states || res.Transitions != trans {
				t.Errorf("ringcheck reaches %d states, %d transitions; brute force %d, %d", res.States, res.Transitions, states, trans)
			}
		})
	}
}

// TestExpandDoesNotAllocate: guards and effects allocate nothing (the
// expansion of a configuration with a queue, tokens in transit and a
// timeout to evaluate).
func TestExpandDoesNotAllocate(t *testing.T) {
	sys, v := build(t, params(t, "n", 3, "requests", 2, "resend", 1))
	st := config{
		nodes: []node{{h: 2, used: 1, state: waiting, seq: 1}, {h: 3, used: 2, state: cs, seq: 3, queue: []tok{{2, 2, 0}}}, {h: 2, used: 1, state: waiting, seq: 2}},
		in:    [][]tok{{{1, 2, 1}}, {{2, 0, 0}}, nil},
	}.state(t, sys, v)
	ex := sys.NewExpander()
	count := 0
	yield := func(*model.Step, *model.State) bool { count++; return true }
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := ex.Expand(st, yield); err != nil {
			t.Fatal(err)
		}
	})
	if count == 0 {
		t.Fatal("no step enabled")
	}
	if allocs != 0 {
		t.Errorf("Expand allocates %.1f times per call", allocs)
	}
}
