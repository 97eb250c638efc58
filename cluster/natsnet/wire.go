package natsnet

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/ringcheck/ringcheck/cluster"
	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/invariants"
)

// wireVersion is the first byte of every message: a node of another
// build refuses what it cannot read.
const wireVersion = 1

// encode writes m in the wire format: the version, the scalar fields as
// varints, then the arrays, each its length and its items.
func encode(m *cluster.Message) []byte {
	b := make([]byte, 0, 64+8*len(m.Words)+8*len(m.Parents)+len(m.Text))
	b = append(b, wireVersion, byte(m.Kind))
	b = binary.AppendVarint(b, int64(m.From))
	for _, u := range []uint64{m.Run, m.Seq, m.Chunk} {
		b = binary.AppendUvarint(b, u)
	}
	for _, v := range []int64{int64(m.Depth), m.Lo, m.Hi, m.Count,
		m.Counts.Transitions, m.Counts.Distinct, m.Counts.Refused, m.Counts.StoreBytes, m.Counts.States, m.Counts.Heap,
		m.Counts.Budget.Limit, m.Counts.Budget.Held, m.Counts.Budget.Need} {
		b = binary.AppendVarint(b, v)
	}
	last := byte(0)
	if m.Last {
		last = 1
	}
	b = append(b, last)
	for _, f := range []invariants.Finding{m.Findings.Invariant, m.Findings.Overflow, m.Findings.Deadlock} {
		found := byte(0)
		if f.Found {
			found = 1
		}
		b = append(b, found)
		b = binary.AppendVarint(b, int64(f.ID))
		b = binary.AppendVarint(b, int64(f.Detail))
	}
	b = binary.AppendUvarint(b, uint64(len(m.Words)))
	for _, w := range m.Words {
		b = binary.LittleEndian.AppendUint64(b, w)
	}
	for _, a := range [][]uint32{m.Parents, m.Steps} {
		b = binary.AppendUvarint(b, uint64(len(a)))
		for _, x := range a {
			b = binary.LittleEndian.AppendUint32(b, x)
		}
	}
	b = binary.AppendUvarint(b, uint64(len(m.Text)))
	return append(b, m.Text...)
}

// reader reads the wire format, remembering its first error.
type reader struct {
	b   []byte
	err error
}

var errShort = errors.New("message cut short")

func (r *reader) byte() byte {
	if r.err != nil || len(r.b) < 1 {
		r.err = errShort
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *reader) varint() int64 {
	v, n := binary.Varint(r.b)
	if r.err != nil || n <= 0 {
		r.err = errShort
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if r.err != nil || n <= 0 {
		r.err = errShort
		return 0
	}
	r.b = r.b[n:]
	return v
}

// length reads an array's length, of items of size bytes each.
func (r *reader) length(size int) int {
	n := r.uvarint()
	if r.err == nil && n > uint64(len(r.b)/size) {
		r.err = errShort
	}
	if r.err != nil {
		return 0
	}
	return int(n)
}

// decode reads a message encode wrote.
func decode(b []byte) (*cluster.Message, error) {
	r := &reader{b: b}
	if v := r.byte(); r.err == nil && v != wireVersion {
		return nil, fmt.Errorf("wire format %d, not %d: a node of another build", v, wireVersion)
	}
	m := &cluster.Message{Kind: cluster.Kind(r.byte())}
	from := r.varint()
	if from < math.MinInt32 || from > math.MaxInt32 {
		r.err = errors.New("sender out of range")
	}
	m.From = int(from)
	m.Run, m.Seq, m.Chunk = r.uvarint(), r.uvarint(), r.uvarint()
	depth := r.varint()
	m.Depth = int(depth)
	m.Lo, m.Hi, m.Count = r.varint(), r.varint(), r.varint()
	c := &m.Counts
	c.Transitions, c.Distinct, c.Refused, c.StoreBytes, c.States, c.Heap = r.varint(), r.varint(), r.varint(), r.varint(), r.varint(), r.varint()
	c.Budget.Limit, c.Budget.Held, c.Budget.Need = r.varint(), r.varint(), r.varint()
	m.Last = r.byte() == 1
	for _, f := range []*invariants.Finding{&m.Findings.Invariant, &m.Findings.Overflow, &m.Findings.Deadlock} {
		f.Found = r.byte() == 1
		f.ID = explore.StateID(r.varint())
		f.Detail = int(r.varint())
	}
	if n := r.length(8); n > 0 {
		m.Words = make([]uint64, n)
		for i := range m.Words {
			m.Words[i] = binary.LittleEndian.Uint64(r.b[8*i:])
		}
		r.b = r.b[8*n:]
	}
	for _, a := range []*[]uint32{&m.Parents, &m.Steps} {
		if n := r.length(4); n > 0 {
			*a = make([]uint32, n)
			for i := range *a {
				(*a)[i] = binary.LittleEndian.Uint32(r.b[4*i:])
			}
			r.b = r.b[4*n:]
		}
	}
	if n := r.length(1); n > 0 {
		m.Text = string(r.b[:n])
		r.b = r.b[n:]
	}
	if r.err == nil && len(r.b) > 0 {
		r.err = errors.New("trailing bytes")
	}
	if r.err != nil {
		return nil, fmt.Errorf("decoding a message: %w", r.err)
	}
	return m, nil
}
