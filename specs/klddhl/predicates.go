package klddhl

import "github.com/ringcheck/ringcheck/model"

// inCS reports whether process p is in its critical section: 0 < need = cnt.
func (v Vars) inCS(s *model.State, p int) bool {
	need := s.Get(p, v.Need)
	return need > 0 && s.Get(p, v.Cnt) == need
}

// waitingAt reports whether process p has an unsatisfied request:
// 0 < need ≤ K ∧ cnt < need.
func (v Vars) waitingAt(s *model.State, p int) bool {
	need := s.Get(p, v.Need)
	return need > 0 && need <= v.K && s.Get(p, v.Cnt) < need
}

// unitsInUse is the sum of need over the processes in their critical
// section.
func (v Vars) unitsInUse(s *model.State) int {
	used := 0
	for p := 0; p < v.N; p++ {
		if v.inCS(s, p) {
			used += s.Get(p, v.Need)
		}
	}
	return used
}

func (v Vars) declarePredicates(b *model.Builder) {
	b.Invariant(model.Predicate{
		Name:  "units-in-use",
		Doc:   "the units held by processes in their critical section never exceed L",
		Holds: func(s *model.State) bool { return v.unitsInUse(s) <= v.L },
	})
	b.ProcessPredicate(model.ProcessPredicate{
		Name:  "requesting",
		Doc:   "the process has an unsatisfied request (0 < need ≤ K, cnt < need)",
		Holds: v.waitingAt,
	})
	b.ProcessPredicate(model.ProcessPredicate{
		Name:  "inCS",
		Doc:   "the process is in its critical section (0 < need = cnt)",
		Holds: v.inCS,
	})
	b.ProcessPredicate(model.ProcessPredicate{
		Name: "servedOrFull",
		Doc:  "the process is in its critical section or needs more units than are free (need > L - units in use); requesting ~> servedOrFull is (k,L)-liveness for the process",
		Holds: func(s *model.State, p int) bool {
			return v.inCS(s, p) || s.Get(p, v.Need) > v.L-v.unitsInUse(s)
		},
	})
}

// census counts the resource tokens, pushers and priority tokens of a
// configuration, in transit or held.
type census struct{ tokens, pushers, priorities int }

func (c *census) add(o census) {
	c.tokens += o.tokens
	c.pushers += o.pushers
	c.priorities += o.priorities
}

// messages counts the Token, Pusher and Priority messages among the first
// upto messages of channel ch.
func (v Vars) messages(s *model.State, ch model.ChanID, upto int) census {
	var c census
	for i := 0; i < upto; i++ {
		switch s.TypeOf(s.At(ch, i)) {
		case v.Token:
			c.tokens++
		case v.Pusher:
			c.pushers++
		case v.Priority:
			c.priorities++
		}
	}
	return c
}

// held counts what process p holds.
func (v Vars) held(s *model.State, p int) census {
	return census{tokens: s.Get(p, v.Cnt), priorities: s.Get(p, v.Prio)}
}

// privilege finds the only Priv message: the sending process and its index
// in that process's outgoing channel; ok is false unless there is exactly
// one.
func (v Vars) privilege(s *model.State) (from, at int, ok bool) {
	found := 0
	for p, ch := range v.Out {
		for i := 0; i < s.Len(ch); i++ {
			if s.TypeOf(s.At(ch, i)) == v.Priv {
				from, at = p, i
				found++
			}
		}
	}
	return from, at, found == 1
}

// Legitimate reports whether s is legitimate (see the package comment).
func Legitimate(sys *model.System, v Vars, s *model.State) bool { return v.legitimate(sys, s) }

func (v Vars) legitimate(sys *model.System, s *model.State) bool {
	if s.Get(0, v.Reset) == 1 {
		return false
	}
	for p := 0; p < v.N; p++ {
		need, cnt := s.Get(p, v.Need), s.Get(p, v.Cnt)
		if need > v.K || cnt > need || (s.Get(p, v.Prio) == 1 && !v.waitingAt(s, p)) {
			return false
		}
	}
	j, at, ok := v.privilege(s)
	if !ok {
		return false
	}
	msg := s.At(v.Out[j], at)
	val, ptok, ppri, mark := sys.Field(msg, 0), sys.Field(msg, 1), sys.Field(msg, 2), sys.Field(msg, 3)
	if mark != 0 {
		return false
	}
	// Counter flushing's pattern: C_0..C_j = val, the others val-1.
	prev := (val + v.M - 1) % v.M
	for p := 0; p < v.N; p++ {
		want := val
		if p > j {
			want = prev
		}
		if s.Get(p, v.C) != want {
			return false
		}
	}
	// What is still ahead of the privilege, and everything.
	ahead := v.messages(s, v.Out[j], at)
	var all census
	for p := 0; p < v.N; p++ {
		all.add(v.messages(s, v.Out[p], s.Len(v.Out[p])))
		all.add(v.held(s, p))
		if p > j {
			ahead.add(v.messages(s, v.Out[p], s.Len(v.Out[p])))
			ahead.add(v.held(s, p))
		}
	}
	if all != (census{tokens: v.L, pushers: 1, priorities: 1}) {
		return false
	}
	return s.Get(0, v.Tok)+ptok+ahead.tokens == v.L &&
		s.Get(0, v.Pri)+ppri+ahead.priorities == 1 &&
		s.Get(0, v.Push)+ahead.pushers == 1
}
