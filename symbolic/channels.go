package symbolic

import (
	"fmt"

	"github.com/ringcheck/ringcheck/internal/rudd"
	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/model"
)

// channel is the encoding of the FIFO channel from one process to
// another: its length and its slots, slot i holding the message at
// position i (0 is the head) while i < length, every bit 0 beyond. A
// slot is a message type (an index into the carried types) and the codes
// of its fields (value minus the field's low bound), field k of every
// type in the same bits. The bits of the slots are interleaved (bit j of
// slot 0, of slot 1, ..., then bit j+1), so that the shift of a receive
// relates neighbouring BDD variables.
type channel struct {
	from, to int
	length   *field
	typ      []*field   // per slot
	args     [][]*field // per slot, per field position
}

// carriage is what every channel of a spec carries.
type carriage struct {
	types    []*ir.Message
	index    map[*ir.Message]int
	width    []int // bits of field position k
	capacity int
	overflow model.Overflow
}

func newCarriage(spec *ir.Spec) *carriage {
	c := &carriage{index: map[*ir.Message]int{}, capacity: spec.Channels.Capacity, overflow: spec.Channels.Overflow}
	c.types = spec.Channels.Carry
	if len(c.types) == 0 {
		c.types = spec.Messages
	}
	for i, m := range c.types {
		c.index[m] = i
		for k, f := range m.Fields {
			if k == len(c.width) {
				c.width = append(c.width, 0)
			}
			c.width[k] = max(c.width[k], bitsFor(f.Type.Hi-f.Type.Lo+1))
		}
	}
	return c
}

// allocChannel lays out the channel from one process to another from BDD
// variable *nvars on.
func (e *Encoding) allocChannel(from, to int, nvars *int) *channel {
	c := e.carry
	ch := &channel{from: from, to: to, length: &field{lo: 0, hi: c.capacity}}
	alloc := func() int {
		v := *nvars
		e.current = append(e.current, v)
		e.next = append(e.next, v+1)
		*nvars += 2
		return v
	}
	for range bitsFor(c.capacity + 1) {
		ch.length.bits = append(ch.length.bits, alloc())
	}
	// interleave allocates fields of the given width, one per slot, bit by
	// bit across the slots.
	interleave := func(width, hi int) []*field {
		fs := make([]*field, c.capacity)
		for i := range fs {
			fs[i] = &field{lo: 0, hi: hi}
		}
		for range width {
			for i := range fs {
				fs[i].bits = append(fs[i].bits, alloc())
			}
		}
		return fs
	}
	ch.typ = interleave(bitsFor(len(c.types)), len(c.types)-1)
	ch.args = make([][]*field, c.capacity)
	for _, w := range c.width {
		fs := interleave(w, 1<<w-1)
		for i := range fs {
			ch.args[i] = append(ch.args[i], fs[i])
		}
	}
	return ch
}

// channelFields lists every field of ch.
func (ch *channel) fields() []*field {
	out := []*field{ch.length}
	for i := range ch.typ {
		out = append(out, ch.typ[i])
		out = append(out, ch.args[i]...)
	}
	return out
}

// zero is the BDD of the configurations (shift 0) or the steps (shift
// 1) where every bit of f is 0.
func (e *Encoding) zero(f *field, shift int) rudd.Node {
	n := e.b.True()
	for _, v := range f.bits {
		n = e.b.And(n, e.b.NIthvar(v+shift))
	}
	return n
}

// channelValid is the BDD of ch's encodings of contents: a length, then
// as many messages of the carried types with their fields in their
// domains, every other bit 0.
func (e *Encoding) channelValid(ch *channel) rudd.Node {
	b, c := e.b, e.carry
	n := e.inRange(ch.length, 0)
	for i := range ch.typ {
		used := e.lengthAbove(ch, i)
		msg := b.False()
		for t, m := range c.types {
			one := e.value(ch.typ[i], t, 0)
			for k, f := range ch.args[i] {
				if k < len(m.Fields) {
					ft := m.Fields[k].Type
					one = b.And(one, e.codeAtMost(f, ft.Hi-ft.Lo))
				} else {
					one = b.And(one, e.zero(f, 0))
				}
			}
			msg = b.Or(msg, one)
		}
		empty := e.zero(ch.typ[i], 0)
		for _, f := range ch.args[i] {
			empty = b.And(empty, e.zero(f, 0))
		}
		n = b.And(n, b.Ite(used, msg, empty))
	}
	return n
}

// codeAtMost is the BDD of the configurations where f's code is at most
// hi.
func (e *Encoding) codeAtMost(f *field, hi int) rudd.Node {
	n := e.b.False()
	for x := 0; x <= hi && x <= f.hi; x++ {
		n = e.b.Or(n, e.value(f, x, 0))
	}
	return n
}

// lengthAbove is the BDD of the configurations where ch holds more than
// i messages.
func (e *Encoding) lengthAbove(ch *channel, i int) rudd.Node {
	n := e.b.False()
	for l := i + 1; l <= ch.length.hi; l++ {
		n = e.b.Or(n, e.value(ch.length, l, 0))
	}
	return n
}

// holds is the BDD of the configurations where ch's message i is of type
// m.
func (e *Encoding) holds(ch *channel, i int, m *ir.Message) rudd.Node {
	t, ok := e.carry.index[m]
	if !ok || i >= len(ch.typ) {
		return e.b.False()
	}
	return e.b.And(e.lengthAbove(ch, i), e.value(ch.typ[i], t, 0))
}

// fieldAt is field k of ch's message i, read as a message of type m.
func (e *Encoding) fieldAt(ch *channel, i int, m *ir.Message, k int) cases {
	ft := m.Fields[k].Type
	f := ch.args[i][k]
	c := cases{}
	for code := 0; code <= ft.Hi-ft.Lo; code++ {
		e.add(c, ft.Lo+code, e.value(f, code, 0))
	}
	return c
}

// channelOf is the channel from one process to another, or an error if
// the topology has none.
func (e *Encoding) channelOf(from, to int) (*channel, error) {
	ch := e.chans[[2]int{from, to}]
	if ch == nil {
		return nil, fmt.Errorf("no channel from process %d to process %d: %w", from, to, ErrUnsupported)
	}
	return ch, nil
}

// endpoints evaluates a channel expression's processes.
func (e *Encoding) endpoints(from, to ir.Expr, in env) (*channel, error) {
	p, err := e.process(from, in)
	if err != nil {
		return nil, err
	}
	q, err := e.process(to, in)
	if err != nil {
		return nil, err
	}
	return e.channelOf(p, q)
}

// channelExpr evaluates msgs, pos and first(...).field; msgs keeps its
// running count narrowed to what want and the slots still to come tell
// apart.
func (e *Encoding) channelExpr(x ir.Expr, in env, want *interest) (cases, error) {
	b := e.b
	switch x := x.(type) {
	case *ir.ChanLen:
		ch, err := e.endpoints(x.From, x.To, in)
		if err != nil {
			return nil, err
		}
		upto := b.True()
		var bound cases
		if x.Upto != nil {
			if bound, err = e.eval(x.Upto, in); err != nil {
				return nil, err
			}
		}
		acc := e.constant(0)
		for i := range ch.typ {
			counted := e.lengthAbove(ch, i)
			if x.Msg != nil {
				counted = e.holds(ch, i, x.Msg)
			}
			if bound != nil {
				upto = e.above(bound, i)
			}
			acc = e.plus(acc, e.fromTruth(b.And(counted, upto)))
			acc = e.clamp(acc, running(want, ir.Interval{Lo: 0, Hi: len(ch.typ) - i - 1}))
		}
		return e.clamp(acc, want), nil
	case *ir.ChanPos:
		ch, err := e.endpoints(x.From, x.To, in)
		if err != nil {
			return nil, err
		}
		out, before := cases{}, b.True() // before: no message of the type so far
		for i := 0; i <= len(ch.typ); i++ {
			here := e.value(ch.length, i, 0)
			if i < len(ch.typ) {
				here = b.Or(here, e.holds(ch, i, x.Msg))
			}
			e.add(out, i, b.And(before, here))
			if i < len(ch.typ) {
				before = b.And(before, b.Not(e.holds(ch, i, x.Msg)))
			}
		}
		return out, nil
	case *ir.HeadField:
		ch, err := e.endpoints(x.From, x.To, in)
		if err != nil {
			return nil, err
		}
		out, before := cases{}, b.True()
		for i := range ch.typ {
			for _, m := range e.carry.types {
				at := b.And(before, e.holds(ch, i, m))
				if x.First != nil && m != x.First {
					continue
				}
				if k := x.Index[m.ID]; k >= 0 {
					for v, c := range e.fieldAt(ch, i, m, k) {
						e.add(out, v, b.And(at, c))
					}
				} else {
					e.add(out, 0, at)
				}
			}
			if x.First == nil {
				before = b.False() // only the head
			} else {
				before = b.And(before, b.Not(e.holds(ch, i, x.First)))
			}
		}
		// No such message: 0.
		none := b.True()
		for _, c := range out {
			none = b.And(none, b.Not(c))
		}
		e.add(out, 0, none)
		return out, nil
	}
	return nil, fmt.Errorf("a channel expression of type %T: %w", x, ErrUnsupported)
}

// above is the BDD of the configurations where c is more than i.
func (e *Encoding) above(c cases, i int) rudd.Node {
	n := e.b.False()
	for v, m := range c {
		if v > i {
			n = e.b.Or(n, m)
		}
	}
	return n
}

// plus is the sum of two integers, by cases.
func (e *Encoding) plus(x, y cases) cases {
	out := cases{}
	for u, mu := range x {
		for v, mv := range y {
			if m := e.b.And(mu, mv); !e.b.Equal(m, e.b.False()) {
				e.add(out, u+v, m)
			}
		}
	}
	return out
}

// received is field k of the message an action receives.
func (e *Encoding) received(in env, k int) (cases, error) {
	r := in.recv
	if r == nil || r.msg == nil || k < 0 || k >= len(r.msg.Fields) {
		return nil, fmt.Errorf("a received field with no message received: %w", ErrUnsupported)
	}
	return e.fieldAt(r.ch, 0, r.msg, k), nil
}

// receiving is the message an action receives: its channel and type.
type receiving struct {
	ch  *channel
	msg *ir.Message
}

// chanWrite is what an action's sends do to one channel: the length
// after them, by cases, and the messages written into each slot, each
// under its condition (disjoint for one slot).
type chanWrite struct {
	length cases
	slots  [][]slotWrite
}

type slotWrite struct {
	cond rudd.Node
	typ  int
	msg  *ir.Message
	args []cases
}

// send appends a message of type m with fields args to ch where cond
// holds, after what earlier sends of the action appended; a send to a
// full channel drops the message (overflow drop or error, where overflows
// gathers the configurations) or blocks the step (block, where blocked
// gathers them).
func (e *Encoding) send(st *effectState, ch *channel, m *ir.Message, args []cases, cond rudd.Node) error {
	b := e.b
	t, ok := e.carry.index[m]
	if !ok {
		return fmt.Errorf("a send of %s, which the channels do not carry: %w", m.Name, ErrUnsupported)
	}
	for k, arg := range args {
		ft := m.Fields[k].Type
		for v, c := range arg {
			if (v < ft.Lo || v > ft.Hi) && !b.Equal(b.And(c, cond), b.False()) {
				return fmt.Errorf("a %s whose field %s may be %d, outside %d..%d (a range fault, for the explicit engine): %w", m.Name, m.Fields[k].Name, v, ft.Lo, ft.Hi, ErrUnsupported)
			}
		}
	}
	w := st.chans[ch]
	if w == nil {
		w = &chanWrite{length: cases{}, slots: make([][]slotWrite, len(ch.typ))}
		for l := 0; l <= ch.length.hi; l++ {
			e.add(w.length, l, e.value(ch.length, l, 0))
		}
		st.chans[ch] = w
	}
	next := cases{}
	for l, at := range w.length {
		hit := b.And(at, cond)
		e.add(next, l, b.And(at, b.Not(cond)))
		if b.Equal(hit, b.False()) {
			continue
		}
		if l < len(ch.typ) {
			w.slots[l] = append(w.slots[l], slotWrite{cond: hit, typ: t, msg: m, args: args})
			e.add(next, l+1, hit)
			continue
		}
		e.add(next, l, hit)
		switch e.carry.overflow {
		case model.Block:
			st.blocked = b.Or(st.blocked, hit)
		case model.Error:
			st.overflows = b.Or(st.overflows, hit)
		}
	}
	w.length = next
	return nil
}

// written is the relation between ch's contents before and after the
// sends w records.
func (e *Encoding) written(ch *channel, w *chanWrite) rudd.Node {
	b := e.b
	rel := b.False()
	for l, at := range w.length {
		rel = b.Or(rel, b.And(at, e.value(ch.length, l, 1)))
	}
	for i := range ch.typ {
		slot := append([]*field{ch.typ[i]}, ch.args[i]...)
		untouched := b.True()
		any := b.False()
		for _, sw := range w.slots[i] {
			untouched = b.And(untouched, b.Not(sw.cond))
			one := b.And(sw.cond, e.value(ch.typ[i], sw.typ, 1))
			for k, f := range ch.args[i] {
				if k >= len(sw.args) {
					one = b.And(one, e.zero(f, 1))
					continue
				}
				lo := sw.msg.Fields[k].Type.Lo
				v := b.False()
				for x, c := range sw.args[k] {
					v = b.Or(v, b.And(c, e.value(f, x-lo, 1)))
				}
				one = b.And(one, v)
			}
			any = b.Or(any, one)
		}
		keep := untouched
		for _, f := range slot {
			keep = b.And(keep, e.unchanged(f))
		}
		rel = b.And(rel, b.Or(keep, any))
	}
	return rel
}

// shifted is the relation of a receive on ch (which holds a message):
// the length one less, each message one slot nearer the head, the last
// slot emptied.
func (e *Encoding) shifted(ch *channel) rudd.Node {
	b := e.b
	rel := b.False()
	for l := 1; l <= ch.length.hi; l++ {
		rel = b.Or(rel, b.And(e.value(ch.length, l, 0), e.value(ch.length, l-1, 1)))
	}
	last := len(ch.typ) - 1
	for i := range ch.typ {
		here := append([]*field{ch.typ[i]}, ch.args[i]...)
		if i == last {
			for _, f := range here {
				rel = b.And(rel, e.zero(f, 1))
			}
			continue
		}
		there := append([]*field{ch.typ[i+1]}, ch.args[i+1]...)
		for j, f := range here {
			for k, v := range f.bits {
				rel = b.And(rel, b.Equiv(b.Ithvar(v+1), b.Ithvar(there[j].bits[k])))
			}
		}
	}
	return rel
}
