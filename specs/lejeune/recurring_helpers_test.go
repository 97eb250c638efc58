package lejeune_test

import "github.com/ringcheck/ringcheck/model"

// The methods below are lejeune.ring's arithmetic of ids and its
// abstraction's measures, as test code: the file says them in the
// ring language (less, effReqC, live_ids), the tests in Go.

// Next is x+1: a new request id or counter value. With recurring requests
// it is taken modulo W in 1..W (W stands for 0 and for every multiple of W).
func (v *vars) Next(x int) int {
	if v.Recurring {
		return x%v.Ring.W + 1
	}
	return x + 1
}

// Less is x < y for two request ids of one site or two marks: with R
// bounded as integers, with recurring requests by their difference modulo
// W (modclock.Ring.Diff), which is the integers' difference while the live
// values lie within the window.
func (v *vars) Less(x, y int) bool {
	if v.Recurring {
		return v.Ring.Diff(x, y) < 0
	}
	return x < y
}

// Newer reports whether request id x (at least 1) is newer than y, the id
// of a pendingReq entry, 0 for none (then any id is newer).
func (v *vars) Newer(x, y int) bool { return y == 0 || v.Less(y, x) }

// SnapshotDead reports whether lastTok[r].lastReqC[s] and lastCS[s] of
// process p are dead while p does not hold token r: nothing reads them
// before p receives token r again, which overwrites them. While p does not
// hold r they are read only by the obsolescence test of a request of site
// s that p receives (line 165); p never receives a request of its own
// site (a request is sent only to a site not in its visited set, which
// holds its initiator), and with N=2 a request p receives comes from the
// other site q, which is in its visited set and is tokDir[r] of p (the
// only site but p), so that p neither forwards it nor adds it to
// pendingReq, obsolete or not. With recurring requests sendToken resets
// the dead values to 0, a value no id takes (ids are 1..W).
func (v *vars) SnapshotDead(p, s int) bool { return s == p || v.N == 2 }

// EffReqC is lastReqC[s] as the algorithm reads it, max(lastReqC[s],
// lastCS[s]): obsolete() tests id ≤ lastCS[s] ∨ (ReqCnt ∧ id ≤
// lastReqC[s]), which is the same test with lastReqC[s] replaced by the
// maximum; lastReqC[s] is set only to the id of a request that is not
// obsolete, above both; lastCS[s] only by s on release, to its curId,
// which is at least every id of s. So a pair (lastReqC, lastCS) and its
// normal form (EffReqC, lastCS) behave alike in every step, and with
// recurring requests releaseCS keeps the normal form (a lastReqC[s] that
// lags behind lastCS[s] would take every old value while s's ids grow).
func (v *vars) EffReqC(reqC, cs int) int {
	if v.Less(reqC, cs) {
		return cs
	}
	return reqC
}

// EachID calls id(site, x) for every live request id x of site in the
// configuration: curId of every process, EffReqC and lastCS of
// lastTok[r] for every site, of the holder of token r and of every other
// process where they are not dead (SnapshotDead), every non-empty
// wQueue, wLoan and pendingReq entry, the id of every request,
// Token.wQueue and Token.wLoan message, and EffReqC and lastCS of every
// Token message. Every id that a step compares, or computes the next id
// from, is one of them.
func (v *vars) EachID(s *model.State, id func(site, x int)) {
	n, m := v.N, v.M
	for p := 0; p < n; p++ {
		id(p, s.Get(p, v.CurID))
		for r := 0; r < m; r++ {
			for q := 0; q < n; q++ {
				if s.Get(p, v.TokDir[r]) == n || !v.SnapshotDead(p, q) {
					cs := s.Get(p, v.LastCS[r][q])
					id(q, v.EffReqC(s.Get(p, v.LastReqC[r][q]), cs))
					id(q, cs)
				}
				for _, e := range []model.VarID{v.WqID[r][q], v.WlID[r][q], v.PrID[r][q], v.PlID[r][q], v.PcID[r][q]} {
					if x := s.Get(p, e); x != 0 {
						id(q, x)
					}
				}
			}
		}
	}
	for ch := range s.Lens {
		c := model.ChanID(ch)
		for i := 0; i < s.Len(c); i++ {
			msg := s.At(c, i)
			f := func(k int) int { return v.sys.Field(msg, k) }
			switch s.TypeOf(msg) {
			case v.ReqCnt, v.ReqRes, v.ReqLoan:
				id(f(2), f(3))
			case v.Token:
				for q := 0; q < n; q++ {
					id(q, v.EffReqC(f(3+q), f(3+n+q)))
					id(q, f(3+n+q))
				}
			case v.TokQ, v.TokL:
				id(f(1), f(2))
			}
		}
	}
}

// IDSpread is the largest spread of the live request ids (EachID) of one
// site. With R bounded the ids are integers and a site's spread is its
// largest live id less its least; with recurring requests they are
// residues and it is modclock.Ring.Spread, the shortest arc of the circle
// that holds them. The invariant id-window bounds it with recurring
// requests.
func (v *vars) IDSpread(s *model.State) int {
	var lo, hi [maxN]int
	var seen [maxN]uint64
	var any [maxN]bool
	v.EachID(s, func(site, x int) {
		if v.Recurring {
			seen[site] |= 1 << uint(x%v.Ring.W)
			return
		}
		if !any[site] || x < lo[site] {
			lo[site] = x
		}
		if !any[site] || x > hi[site] {
			hi[site] = x
		}
		any[site] = true
	})
	spread := 0
	for site := 0; site < v.N; site++ {
		if v.Recurring {
			spread = max(spread, v.Ring.Spread(func(add func(int)) {
				for x := 0; x < v.Ring.W; x++ {
					if seen[site]&(1<<uint(x)) != 0 {
						add(x)
					}
				}
			}))
		} else if any[site] {
			spread = max(spread, hi[site]-lo[site])
		}
	}
	return spread
}

// MarksUnordered reports whether no step from the configuration compares
// two marks by ◁ and every equal pair of request ids carries equal marks,
// so that marks (counter values) kept modulo any bound behave as integers:
// no process raised an error flag (a second counter value for one request
// would give it a second mark, with dup-counter); no process in waitCS
// holds a token (a waiting holder compares its own mark with a ReqRes it
// receives and with its queue's head); and for every token at most one
// request is queued or pending (its holder's wQueue, the Token.wQueue
// messages and every pendingReq ReqRes entry together hold at most one
// entry), so that the head of a wQueue (on release, on receipt of a
// token) is never chosen among two. (A process that receives a token
// while waiting compares its mark with the queue's head only if it still
// misses a token, which with M=1, the only M of recurring requests, never
// happens: it enters at once.) Marks are otherwise only copied and
// compared for equality between entries of one site with one id, which
// carry one mark when no flag is raised. canLend compares marks too, but
// loans need M ≥ 2, and recurring requests M=1.
func (v *vars) MarksUnordered(s *model.State) bool {
	n, m := v.N, v.M
	var queued [maxM]int
	for p := 0; p < n; p++ {
		if s.Get(p, v.Err) != errNone {
			return false
		}
		waitCS := s.Get(p, v.St) == waitCS
		for r := 0; r < m; r++ {
			held := s.Get(p, v.TokDir[r]) == n
			if held && waitCS {
				return false
			}
			for q := 0; q < n; q++ {
				if held && s.Get(p, v.WqID[r][q]) != 0 {
					queued[r]++
				}
				if s.Get(p, v.PrID[r][q]) != 0 {
					queued[r]++
				}
			}
		}
	}
	for ch := range s.Lens {
		c := model.ChanID(ch)
		r := -1
		for i := 0; i < s.Len(c); i++ {
			msg := s.At(c, i)
			switch s.TypeOf(msg) {
			case v.Token:
				r = v.sys.Field(msg, 1)
			case v.TokQ:
				if r >= 0 {
					queued[r]++
				}
			}
		}
	}
	for r := 0; r < m; r++ {
		if queued[r] > 1 {
			return false
		}
	}
	return true
}
