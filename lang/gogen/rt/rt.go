// Package rt is what the Go code lang/gogen generates calls at run time:
// the tables of one system it reads (the letters of messages without
// fields, the fields of the letters of the others) and small helpers the
// Go compiler inlines.
package rt

import (
	"fmt"
	"math"
	"sync"

	"github.com/ringcheck/ringcheck/model"
)

// Layout is what generated code assumes of the system it runs on: the
// channel of each (from, to) pair (Chans[from*N+to], -1: none), and the
// message types by name, in declaration order.
type Layout struct {
	N        int
	Chans    []model.ChanID
	Messages []string
	// Tabulated[t] tells whether the fields of the letters of message
	// type t are tabulated (Tables.Fields) or read with System.Field.
	Tabulated []bool
}

// Tables are the tables generated code reads, computed once, from the
// first system the code runs on (every system of one instance has the
// same).
type Tables struct {
	once sync.Once
	err  error
	// File is the path of the spec's file, which faults name.
	File string
	// Sys is the system the tables were computed from.
	Sys *model.System
	// Letters[t] is the letter of message type t when it has no fields.
	Letters []model.Msg
	// Fields[t][(m-Base[t])*nfields+i] is field i of letter m of type t,
	// for a tabulated type.
	Fields [][]int32
	Base   []model.Msg
}

// Prepare computes the tables from sys once, and checks that sys is laid
// out as l says.
func (t *Tables) Prepare(sys *model.System, file string, l *Layout) error {
	t.once.Do(func() { t.err = t.prepare(sys, file, l) })
	return t.err
}

func (t *Tables) prepare(sys *model.System, file string, l *Layout) error {
	if sys.N() != l.N {
		return fmt.Errorf("it is of %d processes, the system of %d", l.N, sys.N())
	}
	for from := range l.N {
		for to := range l.N {
			if got, want := sys.ChanBetween(from, to), l.Chans[from*l.N+to]; got != want {
				return fmt.Errorf("it takes channel %d→%d to be %d, the system's is %d", from, to, want, got)
			}
		}
	}
	if len(sys.Messages) != len(l.Messages) {
		return fmt.Errorf("it has %d message types, the system %d", len(l.Messages), len(sys.Messages))
	}
	t.File, t.Sys = file, sys
	n := len(l.Messages)
	t.Letters, t.Fields, t.Base = make([]model.Msg, n), make([][]int32, n), make([]model.Msg, n)
	for i, name := range l.Messages {
		m := &sys.Messages[i]
		if m.Name != name {
			return fmt.Errorf("it takes message type %d to be %s, the system's is %s", i, name, m.Name)
		}
		mt := model.MsgType(i)
		if len(m.Fields) == 0 {
			t.Letters[i] = sys.Msg(mt)
			continue
		}
		if !l.Tabulated[i] {
			continue
		}
		tab, base, ok := sys.FieldTable(mt, math.MaxInt)
		if !ok {
			return fmt.Errorf("the letters of message type %s are not consecutive", name)
		}
		t.Fields[i], t.Base[i] = tab, base
	}
	return nil
}

// B2i is 1 for true, 0 for false.
func B2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// ModK is x modulo k > 0, in 0..k-1.
func ModK(x, k int) int {
	v := x % k
	if v < 0 {
		v += k
	}
	return v
}

// Proc is process x of a ring of n: x modulo n.
func Proc(x, n int) int { return ((x % n) + n) % n }

// Len is the number of messages in channel ch of s (0 when ch < 0).
func Len(s *model.State, ch model.ChanID) int {
	if ch < 0 {
		return 0
	}
	return s.Len(ch)
}

// Count is the number of messages of type t in channel ch of s (0 when
// ch < 0).
func Count(s *model.State, ch model.ChanID, t model.MsgType) int {
	if ch < 0 {
		return 0
	}
	n := 0
	for i := range s.Len(ch) {
		if s.TypeOf(s.At(ch, i)) == t {
			n++
		}
	}
	return n
}

// NotLinked fails the step of c: its process reads variable name of
// process q, which is not linked to it. It returns 0, the value the read
// gives.
func NotLinked(c *model.Ctx, name string, q int) int {
	c.Fail(fmt.Errorf("process %d reads %s of process %d, which is not linked to it", c.P, name, q))
	return 0
}

// ReadLinked is c.Read(q, v) when q is c's process or linked to it, and
// NotLinked otherwise.
func ReadLinked(c *model.Ctx, sys *model.System, v model.VarID, name string, q int) int {
	if q != c.P && !sys.Topology.Linked(q, c.P) {
		return NotLinked(c, name, q)
	}
	return c.Read(q, v)
}

// HeadField is field index[t] of the first message of channel ch of s
// (of type first, when first ≥ 0), where t is the message's type: 0 when
// there is none, ch < 0, or index[t] < 0 (the type has no such field).
func (t *Tables) HeadField(s *model.State, ch model.ChanID, first int, index []int) int {
	if ch < 0 {
		return 0
	}
	for j := range s.Len(ch) {
		m := s.At(ch, j)
		mt := s.TypeOf(m)
		if first >= 0 && int(mt) != first {
			continue
		}
		i := index[mt]
		if i < 0 {
			return 0
		}
		if tab := t.Fields[mt]; tab != nil {
			return int(tab[int(m-t.Base[mt])*len(t.Sys.Messages[mt].Fields)+i])
		}
		return t.Sys.Field(m, i)
	}
	return 0
}

// CountUpTo is the number of messages (of type t, when t ≥ 0) among the
// first upto of channel ch of s (0 when ch < 0).
func CountUpTo(s *model.State, ch model.ChanID, t int, upto int) int {
	if ch < 0 {
		return 0
	}
	n := s.Len(ch)
	if upto >= 0 && upto < n {
		n = upto
	}
	if t < 0 {
		return n
	}
	count := 0
	for i := range n {
		if int(s.TypeOf(s.At(ch, i))) == t {
			count++
		}
	}
	return count
}

// Pos is the index of the first message of type t in channel ch of s, or
// its length when it holds none (0 when ch < 0).
func Pos(s *model.State, ch model.ChanID, t model.MsgType) int {
	if ch < 0 {
		return 0
	}
	for i := range s.Len(ch) {
		if s.TypeOf(s.At(ch, i)) == t {
			return i
		}
	}
	return s.Len(ch)
}

// Field is field i of letter m of message type mt: from Fields where the
// type is tabulated, from the system otherwise.
func (t *Tables) Field(m model.Msg, mt model.MsgType, i int) int {
	if tab := t.Fields[mt]; tab != nil {
		return int(tab[int(m-t.Base[mt])*len(t.Sys.Messages[mt].Fields)+i])
	}
	return t.Sys.Field(m, i)
}

// RunLen is the length of the run of messages a run receive takes at the
// head of channel ch of s: the head, then each next message while the
// one before it has its chaining field set, up to the channel's end or a
// message of a type the run does not hold. more[t] is the chaining
// field's index in message type t (-1: not a type of the run).
func (t *Tables) RunLen(s *model.State, ch model.ChanID, more []int) int {
	l := 0
	for l < s.Len(ch) {
		m := s.At(ch, l)
		mt := s.TypeOf(m)
		i := more[mt]
		if i < 0 {
			return l
		}
		l++
		if t.Field(m, mt, i) == 0 {
			return l
		}
	}
	return l
}

// VarOf is variable v of process p of s, or 0 when p does not declare it
// (bit p of declared clear), as a state predicate reads a variable of a
// process known only in the configuration.
func VarOf(s *model.State, p int, v model.VarID, declared uint64) int {
	if declared>>p&1 == 0 {
		return 0
	}
	return s.Get(p, v)
}

// EntryOf is entry i (counted from the array's first index) of an array
// of process p of s, whose entries are the variables ids, entry i of
// the processes of bit mask has[i]: 0 where p has no such entry, as a
// state predicate reads an entry at an index known only in the
// configuration.
func EntryOf(s *model.State, p, i int, ids []model.VarID, has []uint64) int {
	if i < 0 || i >= len(ids) || has[i]>>p&1 == 0 {
		return 0
	}
	return s.Get(p, ids[i])
}
