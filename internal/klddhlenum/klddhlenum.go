// Package klddhlenum is a hand-written enumerator of the legitimate
// configurations of specs/ring/kl-ddhl.ring, independent of the one
// ringcheck derives from the file's legitimacy predicate (a walk of its
// BDD): the tests of specs/klddhl and of package symbolic compare the two.
package klddhlenum

import (
	"fmt"

	"github.com/ringcheck/ringcheck/model"
)

// Handles are the variables, message types and channels of a built
// kl-ddhl system, by the names specs/ring/kl-ddhl.ring declares, and its
// resolved sizes.
type Handles struct {
	// Need, Cnt, Prio and C are every process's variables.
	Need, Cnt, Prio, C model.VarID
	// Tok, Pri, Push and Reset are the root's.
	Tok, Pri, Push, Reset model.VarID
	// The message types. Priv's fields are c, tok, pri, mark.
	Token, Pusher, Priority, Priv model.MsgType
	// Out[i] is the channel from process i to its successor.
	Out []model.ChanID
	// N, L, K of the instance, and M, the counter domain's size, as the
	// built system declares it (the values of C).
	N, L, K, M int
}

// Find returns the handles of sys, kl-ddhl built for l tokens and
// requests of at most k.
func Find(sys *model.System, l, k int) (Handles, error) {
	h := Handles{N: sys.N(), L: l, K: k}
	for _, v := range []struct {
		name string
		id   *model.VarID
	}{{"need", &h.Need}, {"cnt", &h.Cnt}, {"prio", &h.Prio}, {"C", &h.C}, {"tok", &h.Tok}, {"pri", &h.Pri}, {"push", &h.Push}, {"reset", &h.Reset}} {
		id, ok := sys.VarByName(v.name)
		if !ok {
			return h, fmt.Errorf("%s has no variable %s", sys.Name, v.name)
		}
		*v.id = id
	}
	for _, m := range []struct {
		name string
		t    *model.MsgType
	}{{"Token", &h.Token}, {"Pusher", &h.Pusher}, {"Priority", &h.Priority}, {"Priv", &h.Priv}} {
		*m.t = -1
		for i, mt := range sys.Messages {
			if mt.Name == m.name {
				*m.t = model.MsgType(i)
			}
		}
		if *m.t < 0 {
			return h, fmt.Errorf("%s has no message type %s", sys.Name, m.name)
		}
	}
	h.Out = make([]model.ChanID, h.N)
	found := 0
	for c, ch := range sys.Channels {
		if ch.To != (ch.From+1)%h.N {
			return h, fmt.Errorf("channel %d→%d is not a link of the unidirectional ring", ch.From, ch.To)
		}
		h.Out[ch.From] = model.ChanID(c)
		found++
	}
	if found != h.N {
		return h, fmt.Errorf("%d channels, want %d", found, h.N)
	}
	h.M = sys.Vars[h.C].Domain.Size()
	return h, nil
}

// census counts the resource tokens, pushers and priority tokens of a
// configuration, in transit or held.
type census struct{ tokens, pushers, priorities int }

func (c *census) add(o census) {
	c.tokens += o.tokens
	c.pushers += o.pushers
	c.priorities += o.priorities
}

// local is one process's part of a legitimate configuration: need ≤ K,
// cnt ≤ need, and the priority token only while waiting.
type local struct{ need, cnt, prio int }

// locals lists the local states a process may have in a legitimate
// configuration.
func (v Handles) locals() []local {
	var out []local
	for need := 0; need <= v.K; need++ {
		for cnt := 0; cnt <= need; cnt++ {
			out = append(out, local{need, cnt, 0})
			if need > 0 && cnt < need {
				out = append(out, local{need, cnt, 1})
			}
		}
	}
	return out
}

// The letters of the messages in transit, as the enumeration arranges
// them.
const (
	letterToken = iota
	letterPusher
	letterPriority
	letterPriv
)

// Enumerate yields every configuration of sys satisfying L (see the
// header of specs/ring/kl-ddhl.ring) exactly once, with the sent fields of
// resend=1 at 0 (where closure from holds). It chooses, in turn: each process's local
// state (at most L tokens and one priority token held in all); an
// arrangement of the messages left in transit (the other tokens, the
// pusher, the priority token if no process holds it, and the privilege) as
// one sequence cut into the n channels, head first, within their capacity;
// the privilege's counter value v (which fixes every C_i through counter
// flushing's pattern) and the counts tok' and pri' it carries; the root's
// counts then follow from L's equations, and are kept when in range. It
// stops when yield returns false.
func (v Handles) Enumerate(sys *model.System, yield func(*model.State) bool) {
	locals := v.locals()
	st := sys.NewState()
	choice := make([]local, v.N)
	msgs := [letterPriv]model.Msg{
		letterToken:    sys.Msg(v.Token),
		letterPusher:   sys.Msg(v.Pusher),
		letterPriority: sys.Msg(v.Priority),
	}
	capacity := sys.Channels[v.Out[0]].Capacity
	var pickLocals func(p, tokens, prios int) bool
	pickLocals = func(p, tokens, prios int) bool {
		if p == v.N {
			letters := []int{letterPusher, letterPriv}
			for range v.L - tokens {
				letters = append(letters, letterToken)
			}
			if prios == 0 {
				letters = append(letters, letterPriority)
			}
			return v.arrangements(letters, capacity, func(channels [][]int) bool {
				return v.emit(sys, st, choice, channels, msgs, yield)
			})
		}
		for _, lc := range locals {
			if tokens+lc.cnt > v.L || prios+lc.prio > 1 {
				continue
			}
			choice[p] = lc
			if !pickLocals(p+1, tokens+lc.cnt, prios+lc.prio) {
				return false
			}
		}
		return true
	}
	pickLocals(0, 0, 0)
}

// arrangements calls f with every distinct way to lay the multiset letters
// out on the n channels, head first, each within capacity.
func (v Handles) arrangements(letters []int, capacity int, f func([][]int) bool) bool {
	counts := make([]int, letterPriv+1)
	for _, l := range letters {
		counts[l]++
	}
	channels := make([][]int, v.N)
	// Fill channel c with one more letter, or close it and move on to the
	// next; every letter must be placed.
	var place func(c, left int) bool
	place = func(c, left int) bool {
		if left == 0 {
			for rest := c + 1; rest < v.N; rest++ {
				channels[rest] = channels[rest][:0]
			}
			return f(channels)
		}
		if len(channels[c]) < capacity {
			for l, k := range counts {
				if k == 0 {
					continue
				}
				counts[l]--
				channels[c] = append(channels[c], l)
				ok := place(c, left-1)
				channels[c] = channels[c][:len(channels[c])-1]
				counts[l]++
				if !ok {
					return false
				}
			}
		}
		if c+1 < v.N {
			channels[c+1] = channels[c+1][:0]
			return place(c+1, left)
		}
		return true
	}
	channels[0] = channels[0][:0]
	return place(0, len(letters))
}

// emit writes the configuration of the chosen locals and channel contents
// for every counter value and privilege count that make it legitimate.
func (v Handles) emit(sys *model.System, st *model.State, choice []local, channels [][]int, msgs [letterPriv]model.Msg, yield func(*model.State) bool) bool {
	// Where the privilege is, and what is still ahead of it.
	j, at := -1, 0
	for c, ch := range channels {
		for i, l := range ch {
			if l == letterPriv {
				j, at = c, i
			}
		}
	}
	var ahead census
	for i := 0; i < at; i++ {
		ahead.add(letterCensus(channels[j][i]))
	}
	for p := j + 1; p < v.N; p++ {
		for _, l := range channels[p] {
			ahead.add(letterCensus(l))
		}
		ahead.tokens += choice[p].cnt
		ahead.priorities += choice[p].prio
	}
	push := 1 - ahead.pushers
	for val := 0; val < v.M; val++ {
		for ptok := 0; ptok <= v.L+1; ptok++ {
			tok := v.L - ptok - ahead.tokens
			if tok < 0 || tok > v.L+1 {
				continue
			}
			for ppri := 0; ppri <= 2; ppri++ {
				pri := 1 - ppri - ahead.priorities
				if pri < 0 || pri > 2 {
					continue
				}
				prev := (val + v.M - 1) % v.M
				for p := 0; p < v.N; p++ {
					st.Set(p, v.Need, choice[p].need)
					st.Set(p, v.Cnt, choice[p].cnt)
					st.Set(p, v.Prio, choice[p].prio)
					c := val
					if p > j {
						c = prev
					}
					st.Set(p, v.C, c)
				}
				st.Set(0, v.Tok, tok)
				st.Set(0, v.Pri, pri)
				st.Set(0, v.Push, push)
				st.Set(0, v.Reset, 0)
				for c, ch := range channels {
					for st.Len(v.Out[c]) > 0 {
						st.Pop(v.Out[c])
					}
					// arrangements keeps every channel within its
					// capacity, so every push fits.
					for _, l := range ch {
						if l == letterPriv {
							st.Push(v.Out[c], sys.Msg(v.Priv, val, ptok, ppri, 0))
						} else {
							st.Push(v.Out[c], msgs[l])
						}
					}
				}
				if !yield(st) {
					return false
				}
			}
		}
	}
	return true
}

// letterCensus counts one letter of the enumeration.
func letterCensus(l int) census {
	switch l {
	case letterToken:
		return census{tokens: 1}
	case letterPusher:
		return census{pushers: 1}
	case letterPriority:
		return census{priorities: 1}
	}
	return census{}
}
