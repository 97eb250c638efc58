package kldhv_test

import "github.com/ringcheck/ringcheck/model"

// local is one process's part of a legitimate configuration: STATE, NEED,
// T_h, T_d and MyOrder (MySeq is fixed by the CToken's place and value).
type local struct{ state, need, th, td, order int }

func (lc local) enabled() int { return lc.th - lc.td }

// locals lists the local states a process may have in a legitimate
// configuration: T_d ≤ T_h; In ⇒ T_h = NEED ∧ T_d = 0; Request ⇒ T_h ≤
// NEED; Out with any T_d ≤ T_h ≤ K; NEED and MyOrder free.
func (v vars) locals() []local {
	var out []local
	for st := Out; st <= In; st++ {
		for need := 1; need <= v.K; need++ {
			for th := 0; th <= v.K; th++ {
				for td := 0; td <= th; td++ {
					if st == In && (th != need || td != 0) || st == Request && th > need {
						continue
					}
					for order := 0; order <= 1; order++ {
						out = append(out, local{st, need, th, td, order})
					}
				}
			}
		}
	}
	return out
}

// The letters of the messages in transit, as the enumeration arranges
// them; the fields (CToken's Seq, Collect's T_c, Allocate's T_a and Order)
// are chosen apart.
const (
	letterToken = iota
	letterET
	letterCollect
	letterAllocate
	letterCToken
	letters
)

// pool is the choice of the token-carrying values outside the processes:
// Root's MyT_c and MyT_a, and the Collect and Allocate in transit (has*
// false: none).
type pool struct {
	myTc, myTa           int
	hasCollect, hasAlloc bool
	tc, ta, order        int
}

// enumerateLegitimate is a hand-written enumerator of L, independent of the
// one ringcheck derives from the file's legitimacy predicate (the tests
// compare the two): it yields every configuration satisfying L (see the
// header of specs/ring/kl-dhv.ring) exactly once. It chooses, in turn: each
// process's local state (at most ℓ enabled tokens held in all); Root's
// MyT_c and MyT_a; whether a Collect and an Allocate are in transit, and
// their fields; the number of Enabled_Token messages. The number of Token
// messages is then solved from "exactly ℓ tokens". It arranges these
// messages and the CToken on the n channels, head first, within capacity,
// with every Enabled_Token, Collect and Allocate ahead of the CToken (so
// the channels before the CToken's carry only Tokens, and so does its own
// after it). What Root will still count is then fixed, so C_e + C_f is
// solved from the count equation; C_e ranges over its solutions and C_f is
// solved; the CToken's value v ranges over 0..MaxSeq and fixes every MySeq.
func (v vars) enumerateLegitimate(sys *model.System, yield func(*model.State) bool) {
	locals := v.locals()
	st := sys.NewState()
	choice := make([]local, v.N)
	capacity := sys.Channels[v.Out[0]].Capacity
	var counts [letters]int
	var pickLocals func(p, enabled int) bool
	pickLocals = func(p, enabled int) bool {
		if p < v.N {
			for _, lc := range locals {
				if enabled+lc.enabled() > v.L {
					continue
				}
				choice[p] = lc
				if !pickLocals(p+1, enabled+lc.enabled()) {
					return false
				}
			}
			return true
		}
		for _, pl := range v.pools(v.L - enabled) {
			held := enabled + pl.myTc + pl.myTa
			if pl.hasCollect {
				held += pl.tc
			}
			if pl.hasAlloc {
				held += pl.ta
			}
			counts = [letters]int{letterToken: v.L - held, letterCToken: 1}
			if pl.hasCollect {
				counts[letterCollect] = 1
			}
			if pl.hasAlloc {
				counts[letterAllocate] = 1
			}
			// Every Enabled_Token is still to be counted, and so are the
			// Collect's and Allocate's tokens: at most what the count
			// equation leaves (the rest of what is still to be counted
			// depends on the arrangement, and is checked in emit).
			for ets := 0; ets <= v.L-(held-enabled); ets++ {
				counts[letterET] = ets
				ok := v.arrangements(counts, capacity, func(channels [][]int, j, at int) bool {
					return v.emit(sys, st, choice, pl, channels, j, at, yield)
				})
				if !ok {
					return false
				}
			}
		}
		return true
	}
	pickLocals(0, 0)
}

// pools lists the choices of Root's MyT_c, MyT_a and the Collect and
// Allocate in transit that hold at most free tokens in all.
func (v vars) pools(free int) []pool {
	var out []pool
	for myTc := 0; myTc <= v.MaxVc; myTc++ {
		for myTa := 0; myTa <= v.MaxTa; myTa++ {
			if myTc+myTa > free {
				continue
			}
			rest := free - myTc - myTa
			for tc := -1; tc <= min(v.MaxVc, rest); tc++ {
				left := rest - max(tc, 0)
				for ta := -1; ta <= min(v.MaxTa, left); ta++ {
					for order := 0; order <= 1; order++ {
						if ta < 0 && order > 0 {
							continue
						}
						out = append(out, pool{
							myTc: myTc, myTa: myTa,
							hasCollect: tc >= 0, tc: max(tc, 0),
							hasAlloc: ta >= 0, ta: max(ta, 0), order: order,
						})
					}
				}
			}
		}
	}
	return out
}

// arrangements calls f with every distinct way to lay the multiset of
// letters (counts) out on the n channels, head first, each within
// capacity, with the Enabled_Tokens, Collect and Allocate ahead of the
// CToken; j and at are the CToken's channel and position.
func (v vars) arrangements(counts [letters]int, capacity int, f func(channels [][]int, j, at int) bool) bool {
	channels := make([][]int, v.N)
	left := 0
	for _, k := range counts {
		left += k
	}
	j, at := -1, -1
	// ahead: channel c holds a letter that must be ahead of the CToken,
	// which is not placed yet, so the CToken must come later in c.
	var place func(c, left int, ahead bool) bool
	place = func(c, left int, ahead bool) bool {
		if left == 0 {
			for rest := c + 1; rest < v.N; rest++ {
				channels[rest] = channels[rest][:0]
			}
			return f(channels, j, at)
		}
		if len(channels[c]) < capacity {
			for l := range counts {
				if counts[l] == 0 || j == c && l != letterToken {
					continue
				}
				counts[l]--
				channels[c] = append(channels[c], l)
				if l == letterCToken {
					j, at = c, len(channels[c])-1
				}
				ok := place(c, left-1, j < 0 && (ahead || l != letterToken))
				if l == letterCToken {
					j, at = -1, -1
				}
				channels[c] = channels[c][:len(channels[c])-1]
				counts[l]++
				if !ok {
					return false
				}
			}
		}
		if c+1 < v.N && !ahead {
			channels[c+1] = channels[c+1][:0]
			return place(c+1, left, false)
		}
		return true
	}
	channels[0] = channels[0][:0]
	return place(0, left, false)
}

// emit writes the configuration of the chosen locals, pool and channel
// contents for every CToken value and C_e that make it legitimate.
func (v vars) emit(sys *model.System, st *model.State, choice []local, pl pool, channels [][]int, j, at int, yield func(*model.State) bool) bool {
	// What Root will still count before the CToken returns.
	pending := 0
	for p := j + 1; p < v.N; p++ {
		pending += choice[p].enabled()
	}
	for c, ch := range channels {
		for i, l := range ch {
			if c < j || c == j && i > at {
				continue // behind the CToken: only Tokens, not pending
			}
			switch l {
			case letterToken, letterET:
				pending++
			case letterCollect:
				pending += pl.tc
			case letterAllocate:
				pending += pl.ta
			}
		}
	}
	sum := v.L - pl.myTc - pl.myTa - pending // C_e + C_f
	if sum < 0 {
		return true
	}
	// fill writes channel c, with the CToken (if there) carrying seq.
	fill := func(c, seq int) {
		for st.Len(v.Out[c]) > 0 {
			st.Pop(v.Out[c])
		}
		for _, l := range channels[c] {
			var m model.Msg
			switch l {
			case letterToken:
				m = sys.Msg(v.Token)
			case letterET:
				m = sys.Msg(v.EnabledToken)
			case letterCollect:
				m = sys.Msg(v.Collect, pl.tc)
			case letterAllocate:
				m = sys.Msg(v.Allocate, pl.ta, pl.order)
			case letterCToken:
				m = sys.Msg(v.CToken, seq)
			}
			// arrangements keeps every channel within its capacity.
			st.Push(v.Out[c], m)
		}
	}
	for c := range channels {
		if c != j {
			fill(c, 0)
		}
	}
	for p := 0; p < v.N; p++ {
		lc := choice[p]
		st.Set(p, v.State, lc.state)
		st.Set(p, v.Need, lc.need)
		st.Set(p, v.Th, lc.th)
		st.Set(p, v.Td, lc.td)
		st.Set(p, v.MyOrder, lc.order)
	}
	st.Set(0, v.MyTc, pl.myTc)
	st.Set(0, v.MyTa, pl.myTa)
	for seq := 0; seq <= v.MaxSeq; seq++ {
		prev := (seq + v.MaxSeq) % (v.MaxSeq + 1)
		for p := 0; p < v.N; p++ {
			if p == 0 || p <= j {
				st.Set(p, v.MySeq, seq)
			} else {
				st.Set(p, v.MySeq, prev)
			}
		}
		fill(j, seq)
		for ce := 0; ce <= min(sum, v.L); ce++ {
			if sum-ce > v.L {
				continue
			}
			st.Set(0, v.Ce, ce)
			st.Set(0, v.Cf, sum-ce)
			// The conditions of a legitimate run that the counts do not
			// imply are filtered, not constructed.
			if !v.inRun(sys, st) {
				continue
			}
			if !yield(st) {
				return false
			}
		}
	}
	return true
}

// inRun reports the conditions every configuration of a legitimate run
// meets that the counts of L do not imply (the file's inRun): no Allocate
// carries zero tokens (no action sends one); no Enabled_Token is on Root's
// own outgoing link (Root never sends one); Root's MyT_c is 0 while a
// Collect is in transit, and its MyT_a 0 while an Allocate is (A_l5, A_l3
// and A_l4 overwrite them); and C_e + C_f counts at least Root's own
// enabled tokens (A_l5 and A_l6 take Root's pre-empted tokens out of them).
func (v vars) inRun(sys *model.System, s *model.State) bool {
	collects, allocates := 0, 0
	for c, ch := range v.Out {
		for k := 0; k < s.Len(ch); k++ {
			m := s.At(ch, k)
			switch s.TypeOf(m) {
			case v.Collect:
				collects++
			case v.Allocate:
				allocates++
				if sys.Field(m, 0) == 0 {
					return false
				}
			case v.EnabledToken:
				if c == 0 {
					return false
				}
			}
		}
	}
	return (collects == 0 || s.Get(0, v.MyTc) == 0) && (allocates == 0 || s.Get(0, v.MyTa) == 0) &&
		s.Get(0, v.Ce)+s.Get(0, v.Cf) >= s.Get(0, v.Th)-s.Get(0, v.Td)
}
