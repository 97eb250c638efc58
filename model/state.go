package model

import (
	"errors"
	"fmt"
	"math"
)

// State is a configuration in its working (unpacked) form: every process's
// variables, flat, and every channel's contents. Engines reuse States; copy
// one with Clone or CopyFrom before keeping it.
type State struct {
	// Vars holds every process's variables; use Get and Set.
	Vars []int32
	// Msgs holds every channel's slots, Capacity of them per channel; the
	// first Lens[c] slots of channel c are its contents, head first.
	Msgs []Msg
	// Lens is the number of messages in each channel.
	Lens []int32
	lay  *layout
}

// Get returns process p's variable v. It panics if p does not declare v, a
// programming error in the spec that Build's checks and the spec's tests catch.
func (s *State) Get(p int, v VarID) int { return int(s.Vars[s.lay.idx(p, v)]) }

// Set sets process p's variable v (used to set up initial configurations and
// in tests; actions use Ctx.Set).
func (s *State) Set(p int, v VarID, val int) { s.Vars[s.lay.idx(p, v)] = int32(val) }

// Len returns the number of messages in channel c.
func (s *State) Len(c ChanID) int { return int(s.Lens[c]) }

// At returns message i (0 is the head) of channel c.
func (s *State) At(c ChanID, i int) Msg { return s.Msgs[int(s.lay.chanOff[c])+i] }

// TypeOf returns the type of message m, so that predicates, which see only
// the State, can tell messages apart.
func (s *State) TypeOf(m Msg) MsgType { return MsgType(s.lay.letterType[m]) }

// Push appends m to channel c, reporting false (and changing nothing) if
// the channel is full.
func (s *State) Push(c ChanID, m Msg) bool {
	l := s.Lens[c]
	if int(l) >= s.lay.chanCap[c] {
		return false
	}
	s.Msgs[int(s.lay.chanOff[c])+int(l)] = m
	s.Lens[c] = l + 1
	return true
}

// Pop removes and returns the head of channel c; ok is false if it is empty.
func (s *State) Pop(c ChanID) (m Msg, ok bool) {
	l := int(s.Lens[c])
	if l == 0 {
		return 0, false
	}
	off := int(s.lay.chanOff[c])
	m = s.Msgs[off]
	copy(s.Msgs[off:off+l-1], s.Msgs[off+1:off+l])
	s.Msgs[off+l-1] = 0
	s.Lens[c] = int32(l - 1)
	return m, true
}

// CopyFrom makes s a copy of o, which must belong to the same system.
func (s *State) CopyFrom(o *State) {
	copy(s.Vars, o.Vars)
	copy(s.Msgs, o.Msgs)
	copy(s.Lens, o.Lens)
}

// Clone returns an independent copy of s.
func (s *State) Clone() *State {
	return &State{
		Vars: append([]int32(nil), s.Vars...),
		Msgs: append([]Msg(nil), s.Msgs...),
		Lens: append([]int32(nil), s.Lens...),
		lay:  s.lay,
	}
}

// Equal reports whether s and o are the same configuration.
func (s *State) Equal(o *State) bool {
	for i := range s.Vars {
		if s.Vars[i] != o.Vars[i] {
			return false
		}
	}
	for c := range s.Lens {
		if s.Lens[c] != o.Lens[c] {
			return false
		}
		off := int(s.lay.chanOff[c])
		for i := 0; i < int(s.Lens[c]); i++ {
			if s.Msgs[off+i] != o.Msgs[off+i] {
				return false
			}
		}
	}
	return true
}

// field is where one value lives in the packed form.
type field struct {
	// word holds the field's low bits from bit shift on; next holds its
	// high bits from bit 0 when it straddles into the following word, and
	// is word itself when it does not (the shifts that move the high part
	// then yield 0, so Pack and Unpack need no branch).
	word, next int32
	shift      uint8
}

// layout is everything derived from a System's declarations that the hot
// path needs as flat arrays.
type layout struct {
	n, ndecl int
	nvars    int
	varIdx   []int32 // p*ndecl+v → flat index, or -1
	varDecl  []VarID // flat index → declaration
	varProc  []int32 // flat index → process
	varMin   []int32
	varSize  []uint64

	msgs       []msgLayout
	letterType []int32 // global letter → type
	alphabet   int

	nmsgs      int
	chanOff    []int32
	chanCap    []int
	chanIdx    []ChanID // p*n+q → channel or -1
	chanLocal  [][]int32
	chanGlobal [][]Msg
	chanCount  []uint64 // number of possible contents

	// packed form
	words    int
	varField []field
	varMask  []uint64
	// packVars lists the variable slots of nonzero width, the only ones
	// Pack writes (a variable of one value has no bits).
	packVars   []int32
	lenField   []field
	lenMask    []uint64
	slotField  [][]field
	letterMask []uint64
	// chanField is each channel's length and slots as one field, and
	// chanMask its mask, when they fit in 64 bits (a mask of 0 when they
	// do not); lenWidth and letterWidth are the widths of its length and
	// of a slot, the length first.
	chanField   []field
	chanMask    []uint64
	lenWidth    []uint8
	letterWidth []uint8

	// ranking: the weight of each variable's and channel's digit, and the
	// size of the space (MaxUint64 when the product overflows)
	varRadix  []uint64
	chanRadix []uint64
	configs   uint64
}

type msgLayout struct {
	base     uint32
	size     []uint32
	radix    []uint32
	fieldMin []int
}

func (l *layout) idx(p int, v VarID) int {
	i := l.varIdx[p*l.ndecl+int(v)]
	if i < 0 {
		panic(fmt.Sprintf("model: process %d does not declare variable %d", p, v))
	}
	return int(i)
}

func (l *layout) compute(sys *System) error {
	n := len(sys.Processes)
	l.n, l.ndecl = n, len(sys.Vars)
	l.varIdx = make([]int32, n*l.ndecl)
	for i := range l.varIdx {
		l.varIdx[i] = -1
	}
	for p, proc := range sys.Processes {
		for _, v := range proc.Vars {
			if l.varIdx[p*l.ndecl+int(v)] >= 0 {
				return fmt.Errorf("process %d declares variable %s twice", p, sys.Vars[v].Name)
			}
			l.varIdx[p*l.ndecl+int(v)] = int32(len(l.varDecl))
			l.varDecl = append(l.varDecl, v)
			l.varProc = append(l.varProc, int32(p))
			d := sys.Vars[v].Domain
			l.varMin = append(l.varMin, int32(d.Min))
			l.varSize = append(l.varSize, uint64(d.Size()))
		}
	}
	l.nvars = len(l.varDecl)

	// Message alphabet: each type owns a contiguous block of letters.
	var base uint64
	for t, mt := range sys.Messages {
		ml := msgLayout{base: uint32(base)}
		radix := uint64(1)
		for _, f := range mt.Fields {
			ml.size = append(ml.size, uint32(f.Domain.Size()))
			ml.radix = append(ml.radix, uint32(radix))
			ml.fieldMin = append(ml.fieldMin, f.Domain.Min)
			radix *= uint64(f.Domain.Size())
			if radix > MaxMessageValues {
				return fmt.Errorf("message type %s has more than 2^20 values", mt.Name)
			}
		}
		for i := uint64(0); i < radix; i++ {
			l.letterType = append(l.letterType, int32(t))
		}
		base += radix
		if base > MaxAlphabet {
			return errors.New("the message alphabet exceeds 2^22 letters")
		}
		l.msgs = append(l.msgs, ml)
	}
	l.alphabet = int(base)

	l.chanIdx = make([]ChanID, n*n)
	for i := range l.chanIdx {
		l.chanIdx[i] = -1
	}
	for c, ch := range sys.Channels {
		l.chanIdx[ch.From*n+ch.To] = ChanID(c)
		l.chanOff = append(l.chanOff, int32(l.nmsgs))
		l.chanCap = append(l.chanCap, ch.Capacity)
		l.nmsgs += ch.Capacity
		local := make([]int32, l.alphabet)
		var global []Msg
		allowed := make([]bool, len(sys.Messages))
		for _, t := range ch.Types {
			allowed[t] = true
		}
		for g := 0; g < l.alphabet; g++ {
			local[g] = -1
			if len(ch.Types) == 0 || allowed[l.letterType[g]] {
				local[g] = int32(len(global))
				global = append(global, Msg(g))
			}
		}
		if len(global) == 0 {
			return fmt.Errorf("channel %d→%d can carry no message", ch.From, ch.To)
		}
		l.chanLocal = append(l.chanLocal, local)
		l.chanGlobal = append(l.chanGlobal, global)
		// Contents: sum over lengths 0..cap of A^len sequences.
		a, count, pow := uint64(len(global)), uint64(0), uint64(1)
		for k := 0; k <= ch.Capacity && pow != 0; k++ {
			count = satAdd(count, pow)
			pow = satMul(pow, a)
		}
		l.chanCount = append(l.chanCount, count)
	}

	// Packed form: one stream of bits, a field straddling two words
	// where it falls across their boundary.
	bit := 0
	// at is the field of width bits from bit start on; place is the next
	// field of the stream.
	at := func(start, width int) field {
		word, shift := start/64, start%64
		f := field{word: int32(word), next: int32(word), shift: uint8(shift)}
		if width > 0 && shift+width > 64 {
			f.next = int32(word + 1)
		}
		return f
	}
	place := func(width int) field {
		f := at(bit, width)
		bit += width
		return f
	}
	for i := 0; i < l.nvars; i++ {
		w := bitsFor(l.varSize[i])
		l.varField = append(l.varField, place(w))
		l.varMask = append(l.varMask, mask(w))
		if w > 0 {
			l.packVars = append(l.packVars, int32(i))
		}
	}
	for c := range sys.Channels {
		w := bitsFor(uint64(l.chanCap[c] + 1))
		lw := bitsFor(uint64(len(l.chanGlobal[c])))
		width := w + lw*l.chanCap[c]
		l.chanField = append(l.chanField, at(bit, width))
		if width <= 64 {
			l.chanMask = append(l.chanMask, mask(width))
		} else {
			l.chanMask = append(l.chanMask, 0)
		}
		l.lenWidth = append(l.lenWidth, uint8(w))
		l.letterWidth = append(l.letterWidth, uint8(lw))
		l.lenField = append(l.lenField, place(w))
		l.lenMask = append(l.lenMask, mask(w))
		slots := make([]field, l.chanCap[c])
		for i := range slots {
			slots[i] = place(lw)
		}
		l.slotField = append(l.slotField, slots)
		l.letterMask = append(l.letterMask, mask(lw))
	}
	l.words = max(1, (bit+63)/64)

	l.configs = 1
	for _, s := range l.varSize {
		l.varRadix = append(l.varRadix, l.configs)
		l.configs = satMul(l.configs, s)
	}
	for _, c := range l.chanCount {
		l.chanRadix = append(l.chanRadix, l.configs)
		l.configs = satMul(l.configs, c)
	}
	return nil
}

func mask(width int) uint64 {
	if width >= 64 {
		return math.MaxUint64
	}
	return 1<<width - 1
}

// satMul and satAdd saturate at MaxUint64, which stands for "too many".
func satMul(a, b uint64) uint64 {
	if a != 0 && b > math.MaxUint64/a {
		return math.MaxUint64
	}
	return a * b
}

func satAdd(a, b uint64) uint64 {
	if a > math.MaxUint64-b {
		return math.MaxUint64
	}
	return a + b
}
