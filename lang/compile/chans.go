package compile

import (
	"fmt"

	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/model"
)

func (c *compiler) chanLen(s *model.State, from, to int, msg *ir.Message, fail interface{ Fail(error) }) int {
	ch := c.post.sys.ChanBetween(from, to)
	if ch < 0 {
		if fail != nil {
			fail.Fail(fmt.Errorf("there is no channel %d→%d", from, to))
		}
		return 0
	}
	return c.countIn(s, ch, msg)
}

// countIn is the number of messages in channel ch (0 if ch < 0), or of
// type msg when it is not nil.
func (c *compiler) countIn(s *model.State, ch model.ChanID, msg *ir.Message) int {
	if ch < 0 {
		return 0
	}
	if msg == nil {
		return s.Len(ch)
	}
	t, count := c.types[msg.ID], 0
	for i := range s.Len(ch) {
		if s.TypeOf(s.At(ch, i)) == t {
			count++
		}
	}
	return count
}

// at returns message i of the channel from one process to another, as its
// IR type and field values.
func (c *compiler) at(s *model.State, from, to, i int) (*ir.Message, []int, bool) {
	sys := c.post.sys
	ch := sys.ChanBetween(from, to)
	if ch < 0 || i < 0 || s.Len(ch) <= i {
		return nil, nil, false
	}
	m := s.At(ch, i)
	msg := c.spec.Messages[int(s.TypeOf(m))]
	fields := make([]int, len(msg.Fields))
	for f := range fields {
		fields[f] = sys.Field(m, f)
	}
	return msg, fields, true
}

// headField is field e.Field of the message at the head of the channel
// from one process to another (0 if empty or without that field).
func (c *compiler) headField(s *model.State, from, to int, e *ir.HeadField) int {
	sys := c.post.sys
	ch := sys.ChanBetween(from, to)
	if ch < 0 {
		return 0
	}
	for j := range s.Len(ch) {
		m := s.At(ch, j)
		t := s.TypeOf(m)
		if e.First != nil && int(t) != e.First.ID {
			continue
		}
		i := e.Index[t]
		if i < 0 {
			return 0
		}
		return c.post.field(m, c.types[t], i, len(c.spec.Messages[t].Fields))
	}
	return 0
}

// chanCount is the number of messages (of type msg, if not nil) among the
// first upto of the channel from one process to another (upto < 0: all).
func (c *compiler) chanCount(s *model.State, from, to int, msg *ir.Message, upto int) int {
	ch := c.post.sys.ChanBetween(from, to)
	if ch < 0 {
		return 0
	}
	n := s.Len(ch)
	if upto >= 0 && upto < n {
		n = upto
	}
	if msg == nil {
		return n
	}
	t, count := c.types[msg.ID], 0
	for i := range n {
		if s.TypeOf(s.At(ch, i)) == t {
			count++
		}
	}
	return count
}

// chanPos is the index of the first message of type msg in the channel
// from one process to another, or its length.
func (c *compiler) chanPos(s *model.State, from, to int, msg *ir.Message) int {
	ch := c.post.sys.ChanBetween(from, to)
	if ch < 0 {
		return 0
	}
	t := c.types[msg.ID]
	for i := range s.Len(ch) {
		if s.TypeOf(s.At(ch, i)) == t {
			return i
		}
	}
	return s.Len(ch)
}
